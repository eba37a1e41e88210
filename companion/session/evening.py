"""The evening's standings: each finished game's result and the ranking across them.

Worked out from the journal: every finished game since the evening began (the mark the room
keeps in the journal's file, ``Journal.evening_since``) is rebuilt from its accepted inputs.
Games of different kinds are combined by place: in a game of ``n`` players the first gets
``n`` points, the second ``n - 1``, and so on down to 1 for the last; players level share
the better place. Each game's figure is the one its ``GameInfo.measure`` declares; a game
that declares none ranks its winners first and the others level behind them. The
evening's ranking adds these points; wins break a tie, then who played first this evening
(never the room's seat order, which each new game changes). The table controller (the
LCD's page at the end of a game) and the pages read the same standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.registry import find_game
from companion.session.journal import GameNotRebuilt, Journal
from companion.session.session import rebuild


@dataclass(frozen=True)
class GameResult:
    """One finished game: who played, who won, each player's figure and place points."""

    game_id: int
    kind: str
    players: tuple[str, ...]
    winners: tuple[str, ...]
    #: Each player's figure, the one the game's ``measure`` declares (winners 1 without one).
    figures: tuple[tuple[str, int], ...]
    points: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class EveningStanding:
    """One person's evening: place points, games won, games played."""

    person: str
    points: int
    wins: int
    played: int


@dataclass(frozen=True)
class Evening:
    """The games of the evening, oldest first, and its ranking."""

    games: tuple[GameResult, ...] = ()

    def ranking(self) -> tuple[EveningStanding, ...]:
        """Everyone who played this evening, best first: place points, then games won, then
        who played first this evening (the first game's players in its order, then each
        newcomer in the order of the game they first played), which no later game changes."""
        points: dict[str, int] = {}
        wins: dict[str, int] = {}
        played: dict[str, int] = {}
        for game in self.games:  # oldest first: a person's first entry is their first game
            for person, got in game.points:
                points[person] = points.get(person, 0) + got
                played[person] = played.get(person, 0) + 1
                wins[person] = wins.get(person, 0) + (person in game.winners)
        first = {person: i for i, person in enumerate(points)}
        people = sorted(points, key=lambda p: (-points[p], -wins[p], first[p]))
        return tuple(EveningStanding(p, points[p], wins[p], played[p]) for p in people)


def place_points(figures: dict[str, int]) -> dict[str, int]:
    """``n`` points for the best figure down to 1 for the worst; players level share."""
    count = len(figures)
    return {
        player: count - sum(1 for other in figures.values() if other > figure)
        for player, figure in figures.items()
    }


def _figures(kind: str, board: Any, start: Any, winners: Sequence[str]) -> dict[str, int]:
    """Each player's figure from a game's last board (and, for a gain, its first), as its
    ``measure`` reads them; a game that counts none gives its winners 1 and the others 0."""
    measure = find_game(kind).measure
    if measure is None:
        return {player: 1 for player in winners}
    return measure.of(board.to_json(), start.to_json())


class EveningBook:
    """Results of finished games, worked out once each (a game changed by an undo again)."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, int], GameResult | None] = {}

    def evening(self, journal: Journal | None) -> Evening:
        """The finished games of the evening (after the game the room marked as its start)
        and their results; none without a journal (an in-memory table has no evening)."""
        if journal is None:
            return Evening()
        results = []
        for record in journal.finished_after(journal.evening_since()):
            key = (record.id, record.events)
            if key not in self._known:
                self._known[key] = _result(journal, record.id)
            result = self._known[key]
            if result is not None:
                results.append(result)
        return Evening(tuple(results))


def _result(journal: Journal, game_id: int) -> GameResult | None:
    """One finished game's result, or None when its inputs no longer replay."""
    lines = journal.events(game_id)
    try:
        game = rebuild(game_id, lines)
        start = rebuild(game_id, lines[:1])
    except GameNotRebuilt:
        return None
    winners = tuple(game.binding.winners())
    figures = _figures(game.kind, game.binding.board(), start.binding.board(), winners)
    return GameResult(
        game_id,
        game.kind,
        game.start.players,
        winners,
        tuple((p, figures.get(p, 0)) for p in game.start.players),
        tuple(place_points({p: figures.get(p, 0) for p in game.start.players}).items()),
    )
