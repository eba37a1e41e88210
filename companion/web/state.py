"""Read the session for the pages: the one adapter from the view's board, the race chart's data
and Course hippique's chances beside its odds.

Everything here runs on the daemon loop's thread (the only one that may read the session).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.course_hippique import CourseHippiqueGame, RaceChances
from companion.games.errors import Refusal
from companion.session.session import Session
from companion.session.view import View


def board_json(view: View) -> dict[str, Any]:
    """Return the game's public figures as JSON-ready data (the only read of ``view.board``)."""
    return dict(view.board)


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
    board: dict[str, Any]
    chart: tuple[Series, ...] = field(default=())
    #: What the chart counts: "points" (Jumpy Jack), "chips" or "balance".
    unit: str = "points"
    options: dict[str, Any] = field(default_factory=dict)
    chances: tuple[Chance, ...] = field(default=())


def public_state(session: Session, odds: RaceOdds | None = None) -> Public:
    """Return the public state of the table now (``odds`` keeps the last chances computed)."""
    view = session.view()
    board = board_json(view)
    data = view.to_json()
    data.pop("board", None)
    start = session.table.start.options if session.table is not None else {}
    unit, chart = race_chart(view.game, view.players, board, start)
    chances = (odds or RaceOdds()).of(session)
    return Public(data, board, chart, unit, dict(start), chances)


class RaceOdds:
    """Every horse's chance of winning the Course hippique race in progress, as the engine
    computes it: exact, or in the setback variant a seeded estimate (computed again only when
    a card has been laid or turned since)."""

    #: Simulated endings behind a setback estimate on the pages (a standard error of about 1.5
    #: points of chance; `companion odds` gives a finer one).
    SAMPLES = 1000

    def __init__(self) -> None:
        self._key: tuple[Any, ...] = ()
        self._chances: tuple[Chance, ...] = ()

    def of(self, session: Session) -> tuple[Chance, ...]:
        """The chances now; () when there is no race to bet on (no course yet, or another
        game, or the race is won)."""
        table = session.table
        game = getattr(table.binding, "game", None) if table is not None else None
        if not isinstance(game, CourseHippiqueGame) or game.winner is not None:
            return ()
        key = (session.game_id, game.race_number, game.course, game.turned)
        if key != self._key:
            self._key, self._chances = key, _chances(game, self.SAMPLES)
        return self._chances


def _chances(game: CourseHippiqueGame, samples: int) -> tuple[Chance, ...]:
    try:
        chances: RaceChances = game.chances(samples=samples)
    except Refusal:  # no usable course yet
        return ()
    return tuple(
        Chance(h.horse.letter, h.probability, "" if h.exact is None else str(h.exact))
        for h in chances.horses
    )


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
            Series(p, _running(0, [_race_points(r, p) for r in results])) for p in players
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


def _race_points(result: dict[str, Any], player: str) -> int:
    """What ``player`` earned in one Jumpy Jack race, the guess variant's bonus included."""
    return int(result.get("points", {}).get(player, 0)) + int(
        result.get("bonus", {}).get(player, 0)
    )


def _running(start: int, changes: list[int]) -> tuple[int, ...]:
    points = [start]
    for change in changes:
        points.append(points[-1] + change)
    return tuple(points)
