"""Read the session for the pages: the public and private views, and the race chart's data.

Everything here runs on the daemon loop's thread (the only one that may read the session).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.course_hippique import CourseHippiqueBoard
from companion.games.jockey import JockeyBoard
from companion.games.jumpy_jack import JumpyJackBoard
from companion.session.session import Session
from companion.session.view import PrivateView, PublicBoard


@dataclass(frozen=True)
class Series:
    """One line of the race chart: a player's score or balance after each race (start first)."""

    player: str
    points: tuple[int, ...]


@dataclass(frozen=True)
class Public:
    """What every page may see: the public view, its board, and the race chart."""

    view: dict[str, Any]
    board: PublicBoard
    chart: tuple[Series, ...] = field(default=())
    #: What the chart counts: "points" (Jumpy Jack), "chips" or "balance".
    unit: str = "points"


def public_state(session: Session) -> Public:
    """Return the public state of the table now."""
    view = session.view()
    board = view.board
    data = view.to_json()
    data.pop("board", None)
    start = session.table.start.options if session.table is not None else {}
    unit, chart = race_chart(view.players, board, start)
    return Public(data, board, chart, unit)


def private_state(session: Session, player: str) -> PrivateView:
    """Return what only ``player`` may see (their sealed inputs, hand, balance, last refusal)."""
    return session.private_view(player)


def race_chart(
    players: tuple[str, ...], board: PublicBoard, options: dict[str, Any]
) -> tuple[str, tuple[Series, ...]]:
    """Return each player's score or balance race by race, from the board's race results."""
    if isinstance(board, JumpyJackBoard):
        return "points", tuple(
            Series(p, _running(0, [r.points.get(p, 0) for r in board.results])) for p in players
        )
    if isinstance(board, CourseHippiqueBoard):
        chips = int(options.get("starting_chips", 100))
        return "chips", tuple(
            Series(p, _running(chips, [r.change(p) for r in board.results])) for p in players
        )
    if isinstance(board, JockeyBoard):
        series = []
        for p in players:
            changes = [sum(x.change for x in r.payouts if x.player == p) for r in board.results]
            series.append(Series(p, _running(1000, changes)))
        return "balance", tuple(series)
    return "points", ()


def _running(start: int, changes: list[int]) -> tuple[int, ...]:
    points = [start]
    for change in changes:
        points.append(points[-1] + change)
    return tuple(points)
