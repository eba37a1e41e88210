"""Read the session for the pages: the one adapter from the view's board, and the race chart's data.

Everything here runs on the daemon loop's thread (the only one that may read the session).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.session.session import Session
from companion.session.view import View


def board_json(view: View) -> dict[str, Any]:
    """Return the game's public figures as JSON-ready data (the only read of ``view.board``)."""
    return view.board.to_json()


@dataclass(frozen=True)
class Series:
    """One line of the race chart: a player's score or balance after each race (start first)."""

    player: str
    points: tuple[int, ...]


@dataclass(frozen=True)
class Public:
    """What every page may see: the public view, its board, and the race chart."""

    view: dict[str, Any]
    board: dict[str, Any]
    chart: tuple[Series, ...] = field(default=())
    #: What the chart counts: "points" (Jumpy Jack), "chips" or "balance".
    unit: str = "points"


def public_state(session: Session) -> Public:
    """Return the public state of the table now."""
    view = session.view()
    board = board_json(view)
    data = view.to_json()
    data.pop("board", None)
    start = session.table.start.options if session.table is not None else {}
    unit, chart = race_chart(view.game, view.players, board, start)
    return Public(data, board, chart, unit)


def private_state(session: Session, player: str) -> dict[str, Any]:
    """Return what only ``player`` may see (their sealed inputs, hand, balance, last refusal)."""
    return session.private_view(player).to_json()


def race_chart(
    game: str | None, players: tuple[str, ...], board: dict[str, Any], options: dict[str, Any]
) -> tuple[str, tuple[Series, ...]]:
    """Return each player's score or balance race by race, from the board's race results."""
    results: list[dict[str, Any]] = list(board.get("results") or [])
    if game == "jumpy_jack":
        return "points", tuple(
            Series(p, _running(0, [int(r.get("points", {}).get(p, 0)) for r in results]))
            for p in players
        )
    if game == "course_hippique":
        chips = int(options.get("starting_chips", 100))
        return "chips", tuple(
            Series(p, _running(chips, [int(r.get("changes", {}).get(p, 0)) for r in results]))
            for p in players
        )
    if game == "jockey":
        series = []
        for p in players:
            changes = [
                sum(int(x.get("change", 0)) for x in r.get("payouts", []) if x.get("player") == p)
                for r in results
            ]
            series.append(Series(p, _running(1000, changes)))
        return "balance", tuple(series)
    return "points", ()


def _running(start: int, changes: list[int]) -> tuple[int, ...]:
    points = [start]
    for change in changes:
        points.append(points[-1] + change)
    return tuple(points)
