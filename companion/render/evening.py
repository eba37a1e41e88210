"""The evening's page at the end of a game: the ranking across the games of the evening.

UI decisions:

- The page is titled "Evening"; each row is a person's place, name, games won and place
  points, best first ("1. Anna 2 wins 8 pts"). A name is shortened to keep the figures, down
  to four characters; a name that would need fewer keeps its points only.
- Three people a page: a longer evening turns on to more "Evening" pages (the same paging as
  a game's ranking), never a row cut short.
- The OLED says "Evening" above the leader (or the people level first, up to three).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from companion.render.language import _, ngettext
from companion.render.screen import OledScreen
from companion.render.text import COLS, short, spread

#: How many characters of a name a row keeps before it gives up the games won.
NAME_LEAST = 4
#: The OLED's text lines are this wide.
OLED_COLS = 10


class Standing(Protocol):
    """One person's evening as the session counts it (plain data)."""

    @property
    def person(self) -> str: ...

    @property
    def points(self) -> int: ...

    @property
    def wins(self) -> int: ...


def places(ranking: Sequence[Standing]) -> list[int]:
    """Each standing's place: people level on points and wins share the better place."""
    return [1 + sum(1 for o in ranking if (o.points, o.wins) > (s.points, s.wins)) for s in ranking]


def standing_row(place: int, standing: Standing) -> str:
    """One row: ``1. Anna 2 wins 8 pts`` (the name shortened first, then the wins left out)."""
    head = f"{place}. "
    width = COLS - len(head)
    points = ngettext("{count} pt", "{count} pts", standing.points).format(count=standing.points)
    wins = ngettext("{count} win", "{count} wins", standing.wins).format(count=standing.wins)
    name = standing.person
    for figures in (f"{wins} {points}", points):
        room = width - len(figures) - 1
        if room >= min(len(name), NAME_LEAST):
            return head + spread(short(name, room), figures, width)
    return head + short(name, width)


def evening_pages(ranking: Sequence[Standing]) -> list[list[str]]:
    """The evening's pages (not numbered): "Evening", then three people a page."""
    lines = [standing_row(p, s) for p, s in zip(places(ranking), ranking, strict=True)]
    return [[_("Evening"), *lines[start : start + 3]] for start in range(0, len(lines), 3)]


def evening_oled(ranking: Sequence[Standing]) -> OledScreen:
    """The OLED on the evening's page: "Evening" and who leads it."""
    leaders = [s.person for p, s in zip(places(ranking), ranking, strict=True) if p == 1]
    return OledScreen(lines=(_("Evening"), *(short(name, OLED_COLS) for name in leaders[:3])))
