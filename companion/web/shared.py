"""The page types all the pages share: the public state, a chart line, a game's extras, a
horse on the podium of the race just over.

A leaf module: it imports no module of the pages, so that ``state.py`` and each game's pages
module (``games/<kind>.py``) can both import it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from companion.session.offers import NOTHING, Offers
from companion.session.view import PublicBoard, RefusalView


@dataclass(frozen=True)
class Series:
    """One line of the race chart: a player's score or balance after each race (start first)."""

    player: str
    points: tuple[int, ...]


#: The race chart: what it counts ("points", "chips"...), and each player's line.
Chart = tuple[str, tuple[Series, ...]]


@dataclass(frozen=True)
class Public:
    """What every page may see: the public view, its board, the game's options, the race chart,
    and the game's extras (what its pages module computes beside the view, such as Course
    hippique's chances of winning; None when it has none now)."""

    view: dict[str, Any]
    board: PublicBoard
    chart: tuple[Series, ...] = field(default=())
    #: What the chart counts: "points" (Jumpy Jack), "chips" or "balance".
    unit: str = "points"
    options: dict[str, Any] = field(default_factory=dict)
    #: The game's extras, read (and narrowed) only by the game's own pages module.
    extras: object = None
    #: The last refusal the table shows, with its message to say in the table's language.
    refusal: RefusalView | None = None
    #: What the table takes now and from whom: a pad offers only these, and every page
    #: names the person the table asks, as the LCD does.
    offers: Offers = NOTHING


@dataclass(frozen=True)
class Finisher:
    """A horse on the podium of the race just over, as the winner screen shows it."""

    place: int
    #: The horse in the table's language.
    horse: str
    #: Its colour: a colour word of the one colour table, or ``#rrggbb``.
    colour: str
    #: It left the race (Jumpy Jack's OUT) and still holds its place.
    out: bool = False


@dataclass(frozen=True)
class ExtraWork:
    """How a game's extras are computed now, and the key that changes when they do."""

    key: Hashable
    #: Safe to run on another thread: it reads a snapshot of the game, not the session.
    compute: Callable[[], object]
    #: Too slow for the loop's thread (e.g. an estimate from simulated endings).
    slow: bool = False


def running(start: int, changes: list[int]) -> tuple[int, ...]:
    """A chart's line: ``start``, then after each race the total of the changes so far."""
    points = [start]
    for change in changes:
        points.append(points[-1] + change)
    return tuple(points)
