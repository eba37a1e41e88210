"""What the displays show of Petits chevaux: whose pick is being sealed, whose roll, the die and
the horses it may move, every horse's square, the points; the result pages; the strip."""

from __future__ import annotations

from companion.render.die import die_row, keyed_die_screen, turn_row
from companion.render.language import _
from companion.render.layout import TrackLeds
from companion.render.leds import FINISH_MARK, RGB, colour, frame
from companion.render.scores import leaders, ranking_pages, scores_row
from companion.render.screen import OledScreen, Screen
from companion.render.text import (
    PublicView,
    board_as,
    buttons_lines,
    buttons_row,
    named,
    numbered,
    page_of,
    rows,
    short,
    two_letters,
    winners_row,
)
from tests.fixture_game.engine import ChevauxBoard


def board_of(view: PublicView) -> ChevauxBoard:
    """The view's board, which is a Petits chevaux board (TypeError otherwise)."""
    return board_as(view, ChevauxBoard, "Petits chevaux")


def totals(view: PublicView) -> list[tuple[str, int]]:
    """Every player's points, in seat order."""
    scores = board_of(view).scores
    return [(p, scores.get(p, 0)) for p in view.players]


def squares_row(board: ChevauxBoard) -> str:
    """Every horse's square on one row, each horse in two letters: ``Br5 Ye0 Bl12 Re3``."""
    return " ".join(f"{two_letters(h.name)}{h.square}" for h in board.horses)


def lcd(view: PublicView, page: int = 0) -> tuple[str, ...]:
    """The four LCD rows of each phase (after a race, the page the knob turned to)."""
    board = board_of(view)
    names = board.horse_names
    if view.phase == "pick":
        asked = view.waiting_for[0]
        said = [named(asked, _(": predict")), _("Others look away")]
        return rows([buttons_row(names), *said, scores_row(totals(view))])
    if view.phase == "roll":
        turn = turn_row(view.turn or "", view.race)
        return rows([turn, _("Press the die"), squares_row(board), scores_row(totals(view))])
    if view.phase == "move":
        rolled = die_row(view.turn or "", board.die)
        return rows([rolled, _("Move any horse"), buttons_row(names), squares_row(board)])
    if view.phase == "race_over":
        prompt = _("Push: race {number}").format(number=view.race + 1)
        return page_of(numbered(race_pages(view, prompt)), page)
    return page_of(numbered(end_pages(view)), page)


def race_pages(view: PublicView, prompt: str) -> list[list[str]]:
    """The race just over: the winning horse and the points, then every player's pick."""
    board = board_of(view)
    if not board.results:
        return [[_("Race over"), prompt]]
    result = board.results[-1]
    title = _("Race {number} over").format(number=result.number)
    won = _("Winner: ") + _(result.winner)
    picks = [
        named(p, f" {_(result.picks[p])} +{result.points(p)}")
        for p in view.players
        if p in result.picks
    ]
    pages = [[title, won, scores_row(totals(view)), prompt]]
    return pages + [[title, *picks[start : start + 3]] for start in range(0, len(picks), 3)]


def end_pages(view: PublicView) -> list[list[str]]:
    """The game's end: the winners and the points, the ranking, then the last race's picks."""
    pairs = totals(view)
    who = winners_row(leaders(pairs))
    first = [_("Game over!"), who, scores_row(pairs), _("Push: menu")]
    return [first, *ranking_pages(pairs), *race_pages(view, _("Push: menu"))[1:]]


def oled(view: PublicView) -> OledScreen:
    """The die's face while it waits for a move, else who does what in a line or two."""
    board = board_of(view)
    if view.phase == "pick":
        asked = short(view.waiting_for[0], 10)
        return OledScreen(lines=(asked, _("predicts"), *buttons_lines(board.horse_names)))
    if view.phase == "move":
        return OledScreen(die=board.die)
    if view.phase == "roll":
        return OledScreen(lines=(short(view.turn or "", 10), _("rolls")))
    if view.phase == "race_over":
        return OledScreen(lines=(_("Race over"),))
    top = leaders(totals(view))
    if len(top) == 1:
        return OledScreen(lines=(short(top[0], 10), _("wins!")))
    return OledScreen(lines=(_("A tie!"),))


def leds(view: PublicView, layout: TrackLeds) -> tuple[RGB, ...]:
    """Each horse on its square's LED (at the start, on its own start LED, in button order);
    the finish LED marked, and lit in the winner's colour."""
    lit: dict[int, RGB] = {led: FINISH_MARK for led in layout.finish[:1]}
    for button, horse in enumerate(board_of(view).horses):
        starting = horse.square == 0 and button < len(layout.start)
        led = layout.start[button] if starting else layout.led(horse.square)
        if led is not None:
            lit[led] = colour(horse.colour)
    return frame(layout.count, lit)


def screen(
    view: PublicView, layout: TrackLeds, page: int = 0, die_dial: int | None = None
) -> Screen:
    """The whole picture (``die_dial``: a real die's value being keyed in)."""
    if die_dial is not None:
        return keyed_die_screen(view, die_dial, scores_row(totals(view)), leds(view, layout))
    return Screen(lcd(view, page), oled(view), leds(view, layout))
