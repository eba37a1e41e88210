"""The die's screens every game played with one die shares: whose turn, a real die keyed in."""

from __future__ import annotations

from companion.devices.base import RGB
from companion.render.language import _
from companion.render.screen import OledScreen, Screen
from companion.render.text import PublicView, named, race_word, rows, short, spread_name


def turn_row(player: str, race: int | None = None) -> str:
    """Whose turn it is, with the race when the whole name leaves room for it."""
    if race is None:
        return named(player, _("'s turn"))
    return spread_name(player, _("'s turn"), race_word(race), least=len(player))


def die_row(player: str, die: int | None) -> str:
    """The roller and the die's face in one row: ``Anna: die 4``."""
    return named(player, _(": die {die}").format(die=die))


def keyed_die_rows(view: PublicView, dial: int, bottom: str) -> tuple[str, ...]:
    """A real die's value being keyed in (``[die] mode = "manual"``): the dial and the keys,
    above the game's own ``bottom`` row (its scores)."""
    return rows(
        [
            turn_row(view.turn or "", view.race),
            _("Die: turn < {die} > push").format(die=dial),
            _("Or horse 1-5, die: 6"),
            bottom,
        ]
    )


def keyed_die_screen(view: PublicView, dial: int, bottom: str, leds: tuple[RGB, ...]) -> Screen:
    """The whole picture while a real die's value is keyed in: the LCD's dial, the OLED's
    question ("Anna rolls die 4?") and the game's ``leds`` as they stand."""
    asked = _("die {die}?").format(die=dial)
    shown = OledScreen(lines=(short(view.turn or "", 10), _("rolls"), asked))
    return Screen(keyed_die_rows(view, dial, bottom), shown, leds)
