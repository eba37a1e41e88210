"""What the displays show of Petits chevaux: whose roll, the last roll, every horse's square."""

from __future__ import annotations

from companion.render.die import keyed_die_screen, turn_row
from companion.render.language import _
from companion.render.layout import TrackLeds
from companion.render.leds import RGB, colour, frame
from companion.render.screen import OledScreen, Screen
from companion.render.text import COLS, PublicView, board_as, name_score_row, named, rows, short
from tests.fixture_game.engine import ChevauxBoard


def board_of(view: PublicView) -> ChevauxBoard:
    """The view's board, which is a Petits chevaux board (TypeError otherwise)."""
    return board_as(view, ChevauxBoard, "Petits chevaux")


def squares_row(view: PublicView) -> str:
    """Every player's square on one row, or who is ahead when the names cannot fit."""
    board = board_of(view)
    pairs = list(zip(board.players, board.squares, strict=True))
    ahead, square = max(pairs, key=lambda pair: pair[1])
    prefix = _("Lead {score}: ").format(score=square)
    return name_score_row(pairs, fallback=prefix + short(ahead, COLS - len(prefix)))


def lcd(view: PublicView) -> tuple[str, ...]:
    """The four LCD rows: whose roll and the last one while racing; the winner at the end."""
    board = board_of(view)
    rolled = _(": die {die}").format(die=board.die) if board.roller else ""
    last = named(board.roller, rolled) if board.roller else ""
    if board.winner is None:
        return rows([turn_row(view.turn or ""), _("Press the die"), last, squares_row(view)])
    said = _("Winner: ")
    winner = said + short(board.winner, COLS - len(said))
    return rows([_("Game over!"), winner, squares_row(view), _("Push: menu")])


def leds(view: PublicView, layout: TrackLeds) -> tuple[RGB, ...]:
    """Each horse on its square's LED (at the start, on its own start LED)."""
    board = board_of(view)
    lit: dict[int, RGB] = {}
    for seat, (player, square) in enumerate(zip(board.players, board.squares, strict=True)):
        starting = square == 0 and seat < len(layout.start)
        led = layout.start[seat] if starting else layout.led(square)
        if led is not None:
            lit[led] = colour(board.horse(player))
    return frame(layout.count, lit)


def screen(view: PublicView, layout: TrackLeds, die_dial: int | None = None) -> Screen:
    """The whole picture (``die_dial``: a real die's value being keyed in)."""
    if die_dial is not None:
        return keyed_die_screen(view, die_dial, squares_row(view), leds(view, layout))
    die = board_of(view).die
    waiting = OledScreen(lines=(short(view.turn or "", 10),))
    oled = OledScreen(die=die) if die is not None else waiting
    return Screen(lcd(view), oled, leds(view, layout))
