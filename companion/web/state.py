"""Read the session for the pages: the public and private views, the race chart's data and
Course hippique's chances beside its odds.

Everything here runs on the daemon loop's thread (the only one that may read the session).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.course_hippique import CourseHippiqueBoard, CourseHippiqueGame, RaceChances
from companion.games.errors import Refusal
from companion.games.jockey import JockeyBoard
from companion.games.jumpy_jack import JumpyJackBoard
from companion.session.session import Session
from companion.session.view import PrivateView, PublicBoard, RefusalView


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
    start = session.table.start.options if session.table is not None else {}
    unit, chart = race_chart(view.players, board, start)
    chances = (odds or RaceOdds()).of(session)
    return Public(data, board, chart, unit, dict(start), chances, view.last_refusal)


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


def private_state(session: Session, player: str) -> PrivateView:
    """Return what only ``player`` may see (their sealed inputs, hand, balance, last refusal)."""
    return session.private_view(player)


def race_chart(
    players: tuple[str, ...], board: PublicBoard, options: dict[str, Any]
) -> tuple[str, tuple[Series, ...]]:
    """Return each player's score or balance race by race, from the board's race results."""
    if isinstance(board, JumpyJackBoard):
        return "points", tuple(
            Series(p, _running(0, [r.total(p) for r in board.results])) for p in players
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
