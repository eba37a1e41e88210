"""HTML drawn on the server: the public part every page shows, and one seat's private part.

The game's own part of each is drawn by its module of ``companion/web/games/``. Every name
and value goes through ``e``: a player's name is typed on a phone.
"""

from __future__ import annotations

from companion.games.registry import GAMES, find_game
from companion.render.language import current, figure, say
from companion.session.evening import Evening
from companion.session.view import PrivateView, RefusalView
from companion.web.chart import chart_svg
from companion.web.games import GamePages, pages_of
from companion.web.html import e, entry_form
from companion.web.result import result_html
from companion.web.shared import Public
from companion.web.words import colon, marked, t, tn, typeset

#: Why a player of a paused game may not leave the room (their page, and the refusal).
PAUSED_NEEDS_YOU = marked("A paused game still needs you: the host can abandon it.")
#: Each figure a game may rank its players by (``Measure.figure``), in the pages' words.
FIGURE_WORDS = {"points": marked("points"), "chips": marked("chips"), "balance": marked("balance")}


def game_title(kind: str) -> str:
    """A game's name in the table's language (its kind for one the registry does not list)."""
    return next((g.title_in(current()) for g in GAMES if g.kind == kind), kind)


def _phase(pages: GamePages, code: str) -> str:
    """A game's phase in the pages' words (its code when the game's part does not name it)."""
    said = pages.phases.get(code)
    return t(said) if said is not None else code.replace("_", " ")


def _said(refusal: RefusalView | None, fallback: str = "") -> str:
    """A refusal's sentence in the table's language."""
    if refusal is None:
        return fallback
    return typeset(say(refusal.message)) if refusal.message is not None else refusal.sentence


def public_html(state: Public, evening: str = "") -> str:
    """Return the public part: the title and the status (who the table waits for), the winner
    screen between races and at the end, the track, and beside it the game's board (scores,
    odds, reveal), the winners, the chart and the ``evening``'s standings (HTML)."""
    view = state.view
    game = view.get("game")
    if game is None:
        nothing, start = e(t("No game on")), e(t("Start one at the table."))
        return (
            f'<section id="public"><header class="head"><h1>{nothing}</h1></header>'
            f'<div class="side"><p>{start}</p>{evening}</div></section>'
        )
    pages = pages_of(game)
    title = t("{game} · race {race}").format(game=game_title(game), race=view["race"])
    said = []
    phase, _turn = pages.status(view, state.offers)
    status = t("Phase: {phase}").format(phase=_phase(pages, phase))
    waited = state.offers.waiting  # in the order the LCD asks them
    if waited and not view.get("waiting_for"):  # one person's turn: the one the LCD names
        status += t(" · turn: {player}").format(player=waited[0])
    said.append(f'<p class="status">{e(status)}</p>')
    if waited and view.get("waiting_for"):  # inputs each makes on their own: nobody's turn
        waiting = t("Waiting for: {players}").format(players=", ".join(waited))
        said.append(f'<p class="status">{e(waiting)}</p>')
    if view.get("sealed"):
        count = len(view["sealed"])
        sealed = tn("Sealed: {players}", "Sealed: {players}", count)  # "Ont scellé" in French
        sealed = sealed.format(players=", ".join(view["sealed"]))
        said.append(f'<p class="status">{e(sealed)} ✓</p>')
    refusal = view.get("last_refusal")
    if refusal:  # the player's own page hides it: their phone gives the reason instead
        who = f' data-player="{e(refusal["player"])}"' if refusal.get("player") else ""
        reason = e(_said(state.refusal, refusal["sentence"]))
        said.append(f'<p class="refusal"{who}>{reason}</p>')
    parts = [
        f'<header class="head"><h1>{e(title)}</h1><div class="said">{"".join(said)}</div></header>',
        result_html(state, pages),
        pages.track(state),
    ]
    finished = bool(view.get("finished"))
    spare = " spare" if finished and evening else ""  # the TV shows the evening instead
    side = [f'<div class="figures{spare}">{pages.board(state)}</div>']
    if finished:
        winners = view["winners"]
        won = tn("Winner: {players}", "Winners: {players}", len(winners))
        side.append(f'<p class="winners">{e(won.format(players=", ".join(winners)))}</p>')
    side.append(f'<div class="chart">{chart_svg(state.chart, state.unit)}</div>{evening}')
    parts.append(f'<div class="side">{"".join(side)}</div>')
    return f'<section id="public">{"".join(parts)}</section>'


def sitting_out_html(person: str, game_on: bool, may_leave: bool = True) -> str:
    """Return the part of a person of the room who is not in the game in progress (or of
    everyone while no game is on): who they are, that the scoreboard follows, and the button
    that leaves the room (none while a paused game of theirs still needs them)."""
    said = t("You sit this game out: the scoreboard is below.")
    if not game_on:
        said = t("No game is on yet: the host starts one.")
    leave = leave_form() if may_leave else f'<p class="hint">{e(t(PAUSED_NEEDS_YOU))}</p>'
    return (
        '<section id="private"><h2>' + e(t("You are {player}").format(player=person)) + "</h2>"
        f'<p class="hint">{e(said)}</p>{leave}</section>'
    )


def leave_form() -> str:
    """The button a person taps to leave the room (their seat goes)."""
    ask, leave = e(t("Leave the table for the evening?")), e(t("Leave the table"))
    return (
        f'<form class="leave" data-leave="1" data-confirm="{ask}">'
        f'<button type="submit">{leave}</button></form>'
    )


def private_html(player: str, private: PrivateView, state: Public) -> str:
    """Return ``player``'s own part: their sealed inputs, hand, balance, and what they may enter."""
    view = state.view
    parts = ["<h2>" + e(t("You are {player}").format(player=player)) + "</h2>"]
    game = view.get("game")
    playing = game is not None and player in view.get("players", ()) and not view.get("finished")
    mine = playing and not view.get("waiting_for") and player in state.offers.waiting[:1]
    phase, turn = pages_of(str(game)).status(view, state.offers) if game else ("", None)
    if mine:
        yours = e(t("Your turn"))
        parts.append(f'<div class="your-turn" role="status">{yours}</div>')
    seat = pages_of(game).seat(player, private.details, state) if game is not None else ""
    if playing and state.offers.takes("next_race", player):
        seat += entry_form("next_race", t("Next race"), "")
    refusal = private.last_refusal
    if refusal:
        seat = near(seat, refusal.type, f'<p class="refusal" role="alert">{e(_said(refusal))}</p>')
    parts.append(seat)
    marks = f' data-player="{e(player)}"' + (" data-playing" if playing else "")
    # The prompt the page's notices belong to ("Done.", a refusal): they go when it changes.
    prompt = ":".join(str(p) for p in (view.get("game_id"), view.get("race"), phase, turn or ""))
    marks += f' data-prompt="{e(prompt)}"'
    marks += ' class="turn"' if mine else ""
    return f'<section id="private"{marks}>{"".join(parts)}</section>'


def near(seat: str, kind: str, note: str) -> str:
    """``seat`` with ``note`` just after the form of ``kind`` (the input it answers), or at
    the top when the page has no such form now (an input made at the table)."""
    start = seat.find(f'data-type="{kind}"')
    end = seat.find("</form>", start) if start >= 0 else -1
    if end < 0:
        return note + seat
    end += len("</form>")
    return seat[:end] + note + seat[end:]


def evening_html(evening: Evening, shown: bool) -> str:
    """The evening's standings: the ranking, then each finished game (folded while a game is
    being played, ``shown`` open between games); nothing before the first game is over."""
    ranking = evening.ranking()
    if not ranking:
        return ""
    head = (t("player"), t("place points"), t("wins"), t("games"))
    rows = "".join(
        f"<tr><td>{e(s.person)}</td><td>{s.points}</td><td>{s.wins}</td><td>{s.played}</td></tr>"
        for s in ranking
    )
    games = []
    for game in evening.games:
        info = find_game(game.kind)
        won = t("won by {players}").format(players=", ".join(game.winners))
        line = e(info.title_in(current()))
        if info.measure is not None:
            signed = info.measure.signed  # chips won or lost
            figures = " · ".join(f"{player} {figure(n, signed)}" for player, n in game.figures)
            word = t(FIGURE_WORDS[info.measure.figure])
            line += f"{colon()}{e(won)} — {e(word)}{colon()}{e(figures)}"
        else:
            line += f"{colon()}{e(won)}"
        games.append(f"<li>{line}</li>")
    opened, title = " open" if shown else "", e(t("The evening"))
    return (
        f'<details class="evening"{opened}><summary>{title}</summary>'
        "<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + f"</tr>{rows}</table>"
        f"<ol>{''.join(games)}</ol></details>"
    )
