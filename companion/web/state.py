"""Read the session for the pages: the public and private views, the race chart's data and
the chances a game shows beside its odds (Course hippique's).

Everything here runs on the daemon loop's thread (the only one that may read the session).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from companion.session.session import Session
from companion.session.view import PrivateView, PublicBoard, RefusalView
from companion.web.games import pages_of


@dataclass(frozen=True)
class Series:
    """One line of the race chart: a player's score or balance after each race (start first)."""

    player: str
    points: tuple[int, ...]


@dataclass(frozen=True)
class Chance:
    """A Course hippique horse's chance of winning the race from here (beside its odds)."""

    horse: str
    probability: float
    #: The exact fraction ("7/20"), or "" for an estimate (the setback variant).
    fraction: str = ""


@dataclass(frozen=True)
class Public:
    """What every page may see: the public view, its board, the game's options, the race chart,
    and (Course hippique, once the course is laid) every horse's chance of winning."""

    view: dict[str, Any]
    board: PublicBoard
    chart: tuple[Series, ...] = field(default=())
    #: What the chart counts: "points" (Jumpy Jack), "chips" or "balance".
    unit: str = "points"
    options: dict[str, Any] = field(default_factory=dict)
    chances: tuple[Chance, ...] = field(default=())
    #: The last refusal the table shows, with its message to say in the table's language.
    refusal: RefusalView | None = None


def public_state(session: Session, odds: RaceOdds | None = None) -> Public:
    """Return the public state of the table now (``odds`` keeps the last chances computed)."""
    view = session.view()
    board = view.board
    data = view.to_json()
    data.pop("board", None)
    table = session.table
    start = table.start.options if table is not None else {}
    unit, chart = (
        pages_of(table.kind).chart(view.players, board, start)
        if table is not None
        else ("points", ())
    )
    chances = (odds or RaceOdds()).of(session)
    return Public(data, board, chart, unit, dict(start), chances, view.last_refusal)


class RaceOdds:
    """Every horse's chance of winning the race in progress, as the game's engine computes it
    (exact, or in Course hippique's setback variant a seeded estimate): computed again only
    when the game's key for them changes (a card laid or turned)."""

    def __init__(self) -> None:
        self._key: Hashable = ()
        self._chances: tuple[Chance, ...] = ()

    def of(self, session: Session) -> tuple[Chance, ...]:
        """The chances now; () when there is no race to bet on (no course yet, a game
        without chances, or the race is won)."""
        table = session.table
        found = pages_of(table.kind).chances(session) if table is not None else None
        if found is None:
            return ()
        key, compute = found
        if key != self._key:
            self._key, self._chances = key, compute()
        return self._chances


def private_state(session: Session, player: str) -> PrivateView:
    """Return what only ``player`` may see (their sealed inputs, hand, balance, last refusal)."""
    return session.private_view(player)


def running(start: int, changes: list[int]) -> tuple[int, ...]:
    """A chart's line: ``start``, then after each race the total of the changes so far."""
    points = [start]
    for change in changes:
        points.append(points[-1] + change)
    return tuple(points)
