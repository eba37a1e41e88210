"""The winner screen: between races and at a game's end, the result in large type.

Between races it names the horse that won the race, stands the race's horses on a podium and
gives each player's gain of the race, best first; at the game's end it names the winners,
stands the players on a podium and gives each player's figure. Both come from what every
page is drawn from: the game's podium of horses (``GamePages.finishers``), the race chart
(each player's figure race by race) and the view's winners. The TV shows it in place of the
track once the last move has been walked (``static/tv.js``); a phone shows it above the track.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.render.language import figure
from companion.web.games import GamePages
from companion.web.html import e
from companion.web.shared import Finisher, Public, Series
from companion.web.track import hex_of
from companion.web.words import marked, t, tn

#: The podium's places in the pages' words.
PLACES = (marked("1st"), marked("2nd"), marked("3rd"))


def sentence(said: str) -> str:
    """``said`` begun with a capital (a horse's name opens it: ``Blanc remporte…``)."""
    return said[:1].upper() + said[1:]


def ranked(figures: Sequence[tuple[str, int]]) -> list[tuple[int, str, int]]:
    """``(place, player, figure)`` best first; players level share the better place."""
    return sorted(
        ((1 + sum(1 for _, o in figures if o > n), p, n) for p, n in figures),
        key=lambda row: row[0],
    )


def disc(colour: str) -> str:
    """A horse's disc as the track draws it: its colour in a white ring with a black edge."""
    return (
        '<svg class="disc" viewBox="-35 -35 70 70" aria-hidden="true" focusable="false">'
        '<circle r="32.75" fill="none" stroke="#000" stroke-width="2.5"/>'
        f'<circle r="30" fill="{hex_of(colour)}" stroke="#fff" stroke-width="3"/></svg>'
    )


def _podium(steps: Sequence[tuple[int, str]]) -> str:
    """The podium: ``(place, who as HTML)`` on the steps of places 1 to 3 (2nd, 1st, 3rd from
    the left on the screen, in place order for a screen reader)."""
    items = []
    for place in (1, 2, 3):
        on = [who for at, who in steps if at == place]
        if not on:
            continue
        items.append(
            f'<li class="step p{place}"><span class="on">{"".join(on)}</span>'
            f'<span class="block">{e(t(PLACES[place - 1]))}</span></li>'
        )
    return f'<ol class="podium">{"".join(items)}</ol>'


def _table(head: tuple[str, str], rows: Sequence[tuple[str, str]], best: set[str]) -> str:
    """The result, a player a row (the best marked)."""
    header = "".join(f'<th scope="col">{e(h)}</th>' for h in head)
    marked_best = ' class="best"'
    body = "".join(
        f'<tr{marked_best if player in best else ""}><th scope="row">{e(player)}</th>'
        f"<td>{e(said)}</td></tr>"
        for player, said in rows
    )
    return f'<table class="outcome"><tr>{header}</tr>{body}</table>'


def _last_changes(chart: Sequence[Series]) -> list[tuple[str, int]]:
    """Each player's gain (or loss) in the race just over, from the race chart."""
    return [(s.player, s.points[-1] - s.points[-2]) for s in chart if len(s.points) >= 2]


def _race(state: Public, finishers: Sequence[Finisher]) -> str:
    """The race just over: its winning horse, its podium, each player's gain."""
    number = state.view.get("race")
    winner = next((f for f in finishers if f.place == 1), finishers[0])
    said = sentence(t("{horse} wins race {number}!").format(horse=winner.horse, number=number))
    out = " (" + t("out") + ")"
    steps = [
        (
            f.place,
            f'<span class="horse-on">{disc(f.colour)}{e(f.horse)}{out if f.out else ""}</span>',
        )
        for f in finishers
    ]
    changes = ranked(_last_changes(state.chart))
    best = {p for place, p, _ in changes if place == 1}
    rows = [(p, figure(n, signed=n != 0)) for _, p, n in changes]
    head = (t("player"), t("race {number}").format(number=number))
    table = _table(head, rows, best) if rows else ""
    return f'<p class="champions">{e(said)}</p>{_podium(steps)}{table}'


def _game(state: Public) -> str:
    """The game's end: its winners, the players on the podium, each player's figure."""
    winners = list(state.view.get("winners") or ())
    said = tn("{players} wins the game!", "{players} win the game!", len(winners)).format(
        players=", ".join(winners)
    )
    standings = ranked([(s.player, s.points[-1]) for s in state.chart if s.points])
    steps = [
        (place, f'<span class="player-on">{e(p)} <b>{e(figure(n))}</b></span>')
        for place, p, n in standings
        if place <= len(PLACES)
    ]
    rows = [(p, figure(n)) for _, p, n in standings]
    table = _table((t("player"), t(state.unit)), rows, set(winners)) if rows else ""
    podium = _podium(steps) if steps else ""
    return f'<p class="champions">{e(said)}</p>{podium}{table}'


def result_html(state: Public, pages: GamePages) -> str:
    """The winner screen now: the game's result once it is over, the race's between races;
    empty while a race is on."""
    view = state.view
    key = f"{view.get('game_id')}-{view.get('race')}-{view.get('phase')}"
    if view.get("finished"):
        shown = _game(state)
    else:
        finishers = pages.finishers(state)
        if not finishers:
            return ""
        shown = _race(state, finishers)
    return f'<div class="result" data-result="{e(key)}">{shown}</div>'
