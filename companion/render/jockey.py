"""Jockey on the displays: secret bets, whose card, the four horses on the strip, settlements.

The renderer reads the public view and ``BetDraft``, the bet being entered: its kind and stakes
are shown while they are dialled (the encoder needs them), its horses never; a bet once in
is ``***`` until the race is settled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.jockey import GAME, Blocked, CardEffect, JockeyBet, JockeyBoard, JockeyHorse
from companion.games.text import N_
from companion.render.language import _, card_label, ngettext, place_word
from companion.render.layout import TrackLeds
from companion.render.leds import RGB, START_MARK, colour, frame
from companion.render.memo import last_drawn
from companion.render.screen import OledScreen, Screen, StripWalk
from companion.render.text import (
    COLS,
    MARK,
    NAME_LEAST,
    SEALED,
    PublicView,
    board_as,
    buttons_lines,
    buttons_row,
    first_fit,
    name_score_row,
    named,
    numbered,
    page_of,
    rows,
    short,
    signed,
    spread,
    spread_name,
    stars,
    winners_row,
)

HORSES = GAME.horses


#: A strip LED that two horses share (two squares per LED, or a tie).
SHARED: RGB = (200, 200, 200)


@dataclass(frozen=True)
class BetDraft:
    """A bet being entered: whose, its kind, the step, horses pressed, stakes dialled."""

    player: str
    kind: str
    step: str  # "kind", "horses" or "stakes"
    horses: int = 0
    needed: int = 1
    stakes: tuple[int, ...] = ()
    dial: int = 100
    limit: int = 0


def horse_rgb(horse: str) -> RGB:
    """The strip colour of a Jockey horse."""
    return colour(horse)


#: Two letters a horse in crowded rows (the positions row, a revealed bet).
ABBREVIATIONS: Mapping[str, str] = {
    "brown": N_("Br"),
    "yellow": N_("Ye"),
    "blue": N_("Bl"),
    "red": N_("Re"),
}

#: The horses' and the kinds of bet's words, for the catalogs (the view keeps them in English).
WORDS = (
    N_("brown"),
    N_("yellow"),
    N_("blue"),
    N_("red"),
    N_("win"),
    N_("place"),
    N_("double"),
    N_("order"),
)

#: Why a card moved nothing, in a dozen letters (the engine's sentence says it in full).
BLOCKED: Mapping[str, str] = {
    "horse_finished": N_("finished"),
    "not_alone_in_lead": N_("lead shared"),
    "close_to_leader": N_("near leader"),
    "at_limit": N_("at limit"),
}

#: What a kind of bet asks for at the horse buttons.
HORSE_PROMPTS: Mapping[str, str] = {
    "win": N_("Press its horse"),
    "place": N_("Press its horse"),
    "double": N_("Press two horses"),
    "order": N_("Press 1st, then 2nd"),
}


def abbreviation(horse: str) -> str:
    """The two letters of a horse (its name if it has none)."""
    return _(ABBREVIATIONS[horse]) if horse in ABBREVIATIONS else horse


def board_of(view: PublicView) -> JockeyBoard:
    """Return the Jockey board of ``view``; raises TypeError for another game's view."""
    return board_as(view, JockeyBoard, "Jockey")


def positions_row(board: JockeyBoard) -> str:
    """Every horse's square: ``Br34 Ye12 Bl50 Re2``."""
    progress = board.progress
    return " ".join(f"{abbreviation(h)}{progress.get(JockeyHorse(h), 0)}" for h in HORSES)


def bet_text(bet: JockeyBet) -> str:
    """A revealed bet in one row: ``win brown 300``, ``order red 200, blue 100``."""
    kind = str(bet.kind)
    said = _(kind) if kind else kind
    horses = [_(str(h)) for h in bet.horses]
    short_names = [abbreviation(str(h)) for h in bet.horses]
    stakes = list(bet.stakes)
    if kind == "order" and len(horses) == 2 and len(stakes) == 2:
        return first_fit(
            [
                f"{said} {horses[0]} {stakes[0]}, {horses[1]} {stakes[1]}",
                f"{said} {short_names[0]} {stakes[0]}, {short_names[1]} {stakes[1]}",
                f"{said} {short_names[0]}{stakes[0]} {short_names[1]}{stakes[1]}",
            ]
        )
    if kind == "double" and len(horses) == 2 and stakes:
        return first_fit(
            [
                f"{said} {horses[0]}+{horses[1]} {stakes[0]}",
                f"{said} {short_names[0]}+{short_names[1]} {stakes[0]}",
            ]
        )
    stake = stakes[0] if stakes else ""
    return first_fit(
        [f"{said} {' '.join(horses)} {stake}", f"{said} {' '.join(short_names)} {stake}"]
    )


def markers_text(columns: Sequence[Sequence[Any]]) -> str:
    """Where the three marker pieces go, each column's value written out: ``10000:5 1000:2
    100:5`` (a debt: ``-1000:1 -100:4``); only when that does not fit the row, the thousands
    written ``k`` (``10k:12 1k:2 100:5``)."""
    written = " ".join(f"{col}:{n}" for col, n in columns)
    if len(written) <= COLS:
        return written
    names = {"10000": "10k", "1000": "1k", "100": "100", "-1000": "-1k", "-100": "-100"}
    return " ".join(f"{names.get(str(col), col)}:{n}" for col, n in columns)


def effect_rows(effect: CardEffect) -> list[str]:
    """What the last card did, in two rows: the card, then the move or why nothing moved."""
    label = card_label(effect.label)
    horse = str(effect.horse or "")
    blocked = effect.blocked
    if blocked is None:
        end = _("finish") if effect.finished else str(effect.end)
        moved = _("{horse} {start} to {end}")
        return [label, moved.format(horse=_(horse), start=effect.start, end=end)]
    if blocked is Blocked.POSITION_SHARED:
        why = _("{place} shared").format(place=place_word(effect.label.split()[0]))
    else:
        why = _(BLOCKED[str(blocked)]) if str(blocked) in BLOCKED else ""
    return [label, first_fit([_("No move: {why}").format(why=why), _("No move")])]


def lcd(
    view: PublicView,
    entry: BetDraft | None,
    page: int = 0,
    played_by: str | None = None,
    dialled: bool = False,
) -> tuple[str, ...]:
    """The four LCD rows; ``played_by`` is who played the last card of the race,
    ``dialled`` tells that cards are dialled (no card reader)."""
    board = board_of(view)
    race = _("Race {number}/3").format(number=view.race)
    if view.phase == "betting" and entry is not None:
        return _entry_rows(view, entry)
    if view.phase in ("betting", "racing"):
        turn = view.turn or ""
        effect = board.last_effect
        if effect is not None:  # who plays next on top, who played what below: never mixed
            on_turn = _("Next: {player}")  # the player whose turn it is now
            head = on_turn.format(player=turn)
            fit = len(head) + 1 + len(race) <= COLS
            room = COLS - len(on_turn.format(player=""))
            top = spread(head, race) if fit else on_turn.format(player=short(turn, room))
            card, move = effect_rows(effect)
            played = card  # who played it, when the name keeps two letters and its dot
            if played_by and COLS - len(f": {card}") >= min(len(played_by), NAME_LEAST):
                played = named(played_by, f": {card}")
            return rows([top, positions_row(board), played, move])
        top = spread_name(turn, _("'s card"), race, least=len(turn))
        count = len(view.sealed)
        bets = ngettext("{count} bet: {sealed}", "{count} bets: {sealed}", count)
        bets = bets.format(count=count, sealed=SEALED)
        bets_row = bets if race in top else spread(bets, race)
        todo = _("Dial the card played") if dialled else _("Scan the card played")
        return rows([top, positions_row(board), todo, bets_row])
    if view.phase == "race_over":
        prompt = _("Push: race {number}").format(number=view.race + 1)
        return page_of(result_pages(view, prompt), page)
    if view.phase == "game_over":
        return page_of(final_pages(view), page)
    return rows([race, view.phase])


def _entry_rows(view: PublicView, entry: BetDraft) -> tuple[str, ...]:
    head = spread_name(entry.player, _(": bet"), _("max {limit}").format(limit=entry.limit))
    title = _("Race {number}/3: bets").format(number=view.race)
    kind = _(entry.kind) if entry.kind else entry.kind
    if entry.step == "kind":
        return rows([title, head, _("Kind: < {kind} >").format(kind=kind), _("Turn, push: ok")])
    if entry.step == "horses":
        return rows(
            [
                buttons_row(HORSES),
                head,
                f"{kind}: {stars(entry.horses, entry.needed)}",
                _(HORSE_PROMPTS.get(entry.kind, N_("Press a horse"))),
            ]
        )
    if entry.needed == 1 or entry.kind == "double":
        stake = _("Stake: < {amount} >")
    else:
        stake = _("Stake 1st: < {amount} >") if not entry.stakes else _("Stake 2nd: < {amount} >")
    return rows([title, head, stake.format(amount=entry.dial), _("Turn, push: ok")])


@last_drawn
def hand_screen(view: PublicView, player: str, layout: TrackLeds) -> Screen:
    """A player's hand being scanned (the ``hands`` option): how many cards, never which."""
    board = board_of(view)
    held = int(board.hand_sizes.get(player, 0))
    owed = board.owed
    lcd = rows(
        [
            _("Race {number}/3: hands").format(number=view.race),
            named(player, _(": scan your hand")),
            _("Cards: {held}/{dealt}").format(held=held, dealt=held + int(owed.get(player, 0))),
            _("Others look away"),
        ]
    )
    return Screen(lcd, OledScreen(lines=(short(player, 10), _("hand"))), leds(view, layout))


def result_pages(view: PublicView, prompt: str) -> list[tuple[str, ...]]:
    """A settled race: the first two horses and each player's result, then one page each."""
    results = board_of(view).results
    if not results:
        return [rows([_("Race over"), prompt])]
    return numbered(_result_pages(view, prompt))


def _result_pages(view: PublicView, prompt: str) -> list[list[str]]:
    board = board_of(view)
    result = board.results[-1]
    payouts = result.payouts
    changes = [(p.player, signed(p.change)) for p in payouts]
    first = [
        _("Race {number} over").format(number=result.number),
        spread(
            _("1st {horse}").format(horse=_(str(result.first))),
            _("2nd {horse}").format(horse=_(str(result.second))),
        ),
        name_score_row(changes, fallback=_("Turn: each player")),
        prompt,
    ]
    pages = [first]
    markers = board.markers
    for p in payouts:
        player = p.player
        shared = _(" shared") if p.shared else ""
        held = markers.get(player)
        pages.append(
            [
                named(player, "", COLS - MARK),
                bet_text(p.bet),
                f"{signed(p.change)}{shared} →{p.balance}",
                markers_text(held.columns() if held is not None else ()),
            ]
        )
    return pages


def final_pages(view: PublicView) -> list[tuple[str, ...]]:
    """The winner and the ranking by balance, then the last race."""
    return numbered(end_pages(view))


def end_pages(view: PublicView) -> list[list[str]]:
    """The pages of ``final_pages``, not numbered yet."""
    ranking = board_of(view).ranking
    lines = [
        f"{r.place}. " + named(r.player, f" {r.balance}", COLS - len(f"{r.place}. "))
        for r in ranking
    ]
    pages = [[_("Game over!"), winners_row(list(view.winners)), *lines[:2]]]
    pages += [[_("Ranking"), *lines[start : start + 3]] for start in range(2, len(lines), 3)]
    results = board_of(view).results
    return pages + (_result_pages(view, _("Push: menu")) if results else [])


def oled(view: PublicView, entry: BetDraft | None) -> OledScreen:
    """Whose bet or card it is, or the winner."""
    if entry is not None:
        key = buttons_lines(HORSES, 2) if entry.step == "horses" else ()
        return OledScreen(lines=(short(entry.player, 10), _("bets"), *key))
    if view.phase in ("betting", "racing") and view.turn:
        return OledScreen(lines=(short(view.turn, 10), _("plays")))
    board = board_of(view)
    if view.phase == "race_over" and board.results:
        return OledScreen(lines=(_(str(board.results[-1].first)), _("wins")))
    if view.phase == "game_over":
        winners = list(view.winners)
        won = (short(winners[0], 10), _("wins!")) if len(winners) == 1 else (_("A tie!"),)
        return OledScreen(lines=won)
    return OledScreen()


@last_drawn
def leds(view: PublicView, layout: TrackLeds) -> tuple[RGB, ...]:
    """Each horse on the LED of its square; an LED two horses share lights white."""
    board = board_of(view)
    progress = board.progress
    track = board.track_length
    finished = [str(h) for h in board.finish_order]
    on: dict[int, list[str]] = {}
    for horse in HORSES:
        square = progress.get(JockeyHorse(horse), 0)
        led = layout.led(square if square <= track else len(layout.squares))
        if led is not None and horse not in finished:
            on.setdefault(led, []).append(horse)
    lit: dict[int, RGB] = {}
    for led, horses in on.items():
        if led == layout.led(0) and len(horses) > 1:
            lit[led] = START_MARK
        else:
            lit[led] = horse_rgb(horses[0]) if len(horses) == 1 else SHARED
    if finished:
        for led in layout.finish[:1]:
            lit[led] = horse_rgb(finished[0])
    return frame(layout.count, lit)


def move_cue(effect: CardEffect, layout: TrackLeds, track: int) -> StripWalk | None:
    """The animation of a card that moved a horse, or None."""
    if effect.blocked is not None or not effect.horse:
        return None
    start, end = effect.start, effect.end
    squares = [s if s <= track else len(layout.squares) for s in range(start + 1, end + 1)]
    path = layout.path(squares)
    return StripWalk(path, horse_rgb(str(effect.horse))) if path else None


@last_drawn
def screen(
    view: PublicView,
    entry: BetDraft | None,
    layout: TrackLeds,
    page: int = 0,
    played_by: str | None = None,
    dialled: bool = False,
) -> Screen:
    """The whole picture (``played_by``: who played the last card of the race; ``dialled``:
    cards are dialled, no card reader)."""
    shown = lcd(view, entry, page, played_by, dialled)
    return Screen(shown, oled(view, entry), leds(view, layout))
