"""The start menu on the displays: the game list, the number of players, the options list."""

from __future__ import annotations

from collections.abc import Sequence

from companion.render.screen import Oled, Screen
from companion.render.text import COLS, joined, rows, spread, wrap

#: How many list items fit under the title row.
VISIBLE = 3


def window(items: Sequence[str], cursor: int, visible: int = VISIBLE) -> list[str]:
    """Return the ``visible`` items around ``cursor``, the cursor's item marked with ``>``."""
    first = max(0, min(cursor - 1, len(items) - visible))
    shown = []
    for index in range(first, min(len(items), first + visible)):
        mark = ">" if index == cursor else " "
        shown.append(f"{mark}{items[index]}"[:COLS])
    return shown


def games(titles: Sequence[str], cursor: int) -> Screen:
    """The game list: one row per game with its horse button number."""
    items = [f"{i} {title}" for i, title in enumerate(titles, 1)]
    return Screen(
        rows(["Choose a game:", *window(items, cursor)]),
        Oled(lines=("Choose", "a game")),
    )


def players(title: str, count: int, low: int, high: int, names: Sequence[str]) -> Screen:
    """The number of players (turn the encoder) and the names they will get."""
    left = "<" if count > low else " "
    right = ">" if count < high else " "
    listed = wrap(joined(list(names), COLS * 2, ", "), rows=2)
    return Screen(
        rows([title, f"Players: {left} {count} {right}", *listed]),
        Oled(lines=("Players", str(count))),
    )


def options(title: str, count: int, items: Sequence[tuple[str, str]], cursor: int) -> Screen:
    """The options list: each ``(label, value)`` on its row, then "Start"."""
    shown = [spread(label, value, COLS - 1) if value else label for label, value in items]
    players = f"{count} player{'' if count == 1 else 's'}"
    start = items[cursor][0] == "Start"
    return Screen(
        rows([title, *window(shown, cursor)]),
        Oled(lines=(players, "Push: go") if start else (players, "Options")),
    )
