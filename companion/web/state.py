"""Read the session for the pages: the public and private views, the race chart's data and
the chances a game shows beside its odds (Course hippique's).

Everything here runs on the daemon loop's thread (the only one that may read the session),
except the work of slow chances, which reads a snapshot of the race on a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
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


@dataclass(frozen=True)
class ChanceWork:
    """How a game's chances are computed now, and the key that changes when they do."""

    key: Hashable
    #: Safe to run on another thread: it reads a snapshot of the race, not the session.
    compute: Callable[[], tuple[Chance, ...]]
    #: Too slow for the loop's thread (an estimate from simulated endings).
    slow: bool = False


class RaceOdds:
    """Every horse's chance of winning the race in progress, as the game's engine computes it
    (exact, or in Course hippique's setback variant a seeded estimate): computed again only
    when the game's key for them changes (a card laid or turned).

    Slow chances are computed by ``later`` (a worker thread in the daemon) while the pages
    go on without them; ``arrived`` is then called with a step to run on the loop's thread,
    after which the pages are drawn again with the chances. Without ``later``, every chance is
    computed at once.
    """

    def __init__(
        self,
        later: Callable[[Callable[[], None]], object] | None = None,
        arrived: Callable[[Callable[[], None]], object] | None = None,
    ) -> None:
        self._later = later
        self._arrived = arrived
        self._key: Hashable = ()
        self._chances: tuple[Chance, ...] = ()

    def of(self, session: Session) -> tuple[Chance, ...]:
        """The chances now; () when there is no race to bet on (no course yet, a game
        without chances, or the race is won), or while slow chances are being computed."""
        table = session.table
        work = pages_of(table.kind).chances(session) if table is not None else None
        if work is None:
            return ()
        if work.key != self._key:
            self._key = work.key
            if work.slow and self._later is not None and self._arrived is not None:
                self._chances = ()
                self._later(lambda: self._compute(work))
            else:
                self._chances = work.compute()
        return self._chances

    def _compute(self, work: ChanceWork) -> None:
        """On the worker: compute, unless the race moved on meanwhile; hand the result over."""
        if work.key != self._key:
            return
        found = work.compute()
        assert self._arrived is not None
        self._arrived(lambda: self._keep(work.key, found))

    def _keep(self, key: Hashable, found: tuple[Chance, ...]) -> None:
        if key == self._key:
            self._chances = found


def private_state(session: Session, player: str) -> PrivateView:
    """Return what only ``player`` may see (their sealed inputs, hand, balance, last refusal)."""
    return session.private_view(player)


def running(start: int, changes: list[int]) -> tuple[int, ...]:
    """A chart's line: ``start``, then after each race the total of the changes so far."""
    points = [start]
    for change in changes:
        points.append(points[-1] + change)
    return tuple(points)
