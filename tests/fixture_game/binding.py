"""The session's binding to Petits chevaux: picks, rolls and moves in; the board, the sealed
picks and each player's own pick out.

Options of a ``new_game`` entry (read in one place, ``read_options``): ``finish``, the last
square (12 by default), and ``rounds``, how many races the game has (2 by default); each one
of the values the menu offers. A pick is the ``predict`` entry with one horse, sealed until its
race is over.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.errors import DataError, Refusal
from companion.session.log import LogEntry, MoveEntry, NextRace, Predict, Roll
from companion.session.offers import NEXT_RACE, NOTHING, Offer, Offers
from companion.session.sealing import SealedRace
from tests.fixture_game.engine import (
    GAME,
    HORSES,
    ChevauxBoard,
    ChevauxGame,
    ChevauxPhase,
    ChevauxPrivate,
)

if TYPE_CHECKING:
    from companion.session.session import Game


def read_options(options: Mapping[str, Any]) -> tuple[int, int]:
    """The last square and the number of races; DataError for a value the menu does not offer."""
    read = []
    for option in GAME.options:
        value = options.get(option.key, option.values[0])
        if value not in option.values or isinstance(value, bool):
            raise DataError(f"{option.key}: one of {option.values}, not {value!r}")
        read.append(int(value))
    finish, races = read
    return finish, races


class ChevauxBinding(SealedRace):
    """A game of Petits chevaux driven by table-log entries."""

    KIND = GAME.kind

    def __init__(self, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.game = ChevauxGame.start(players, *read_options(options))

    def apply(self, entry: LogEntry) -> None:
        """Forward one input to the game (Refusal comes from the engine)."""
        if isinstance(entry, Predict):
            self.game = self.game.pick(entry.player, entry.horses)
        elif isinstance(entry, Roll):
            self.game = self.game.roll(entry.value, entry.player)
        elif isinstance(entry, MoveEntry):
            self.game = self.game.move(entry.horse, entry.player)
        elif isinstance(entry, NextRace):
            self.game = self.game.next_race()
        else:
            raise Refusal("wrong_game", "Not an input of {game}.", game=GAME.title)

    def offers(self) -> Offers:
        """Every player's pick until the race's first roll (waiting for the missing ones, the
        first of them asked first), the roll and the move of the player whose turn it is; the
        next race."""
        phase, player = self.game.phase, self.game.player
        if phase is ChevauxPhase.RACE_OVER:
            return NEXT_RACE
        if phase is ChevauxPhase.GAME_OVER or player is None:
            return NOTHING
        one_each = [Offer("predict", p, HORSES, places=1) for p in self.players]  # one horse
        picks = [] if self.game.started else one_each  # until the race's first roll
        if phase is ChevauxPhase.PICK:
            return Offers.of(picks, self.game.missing())
        if phase is ChevauxPhase.ROLL:
            return Offers.of([*picks, Offer("roll", player)], [player])
        return Offers.of([Offer("move", player, HORSES)], [player])

    def revealed(self) -> bool:
        """The race is over: its picks are on the board."""
        return self.game.phase in (ChevauxPhase.RACE_OVER, ChevauxPhase.GAME_OVER)

    def holds(self, player: str) -> bool:
        """Whether ``player`` has picked this race's horse."""
        return player in self.game.picks

    def missing(self) -> tuple[str, ...]:
        """The players who have not picked yet."""
        return self.game.missing()

    def turn(self) -> str | None:
        return self.game.player

    def phase(self) -> ChevauxPhase:  # pick, roll, move, race_over or game_over
        return self.game.phase

    def race(self) -> int:
        return self.game.race

    def finished(self) -> bool:
        """Whether the last race is over."""
        return self.game.phase is ChevauxPhase.GAME_OVER

    def winners(self) -> tuple[str, ...]:
        """The players with the most points once the game is over, ties sharing."""
        if not self.finished():
            return ()
        scores = self.game.scores()
        best = max(scores.values())
        return tuple(p for p, points in scores.items() if points == best)

    def board(self) -> ChevauxBoard:
        """The horses, the die, the points and the races over (picks revealed)."""
        return self.game.board()

    def private(self, player: str) -> ChevauxPrivate:
        """The horse ``player`` picked for this race, until it is over."""
        return ChevauxPrivate(None if self.revealed() else self.game.picks.get(player))

    def engine_state(self) -> Any:
        """The game as JSON-ready data: its board, whose turn it is and the sealed picks."""
        return {
            "board": self.board().to_json(),
            "turn": self.game.turn,
            "picks": dict(self.game.picks),
        }


BINDING = ChevauxBinding

#: The players and options autoplay, the tests and the benchmarks start a game with.
SET_UP: tuple[tuple[str, ...], dict[str, Any]] = (("Anna", "Bob", "Chloé"), {"finish": 12})


def random_input(table: Game, rng: random.Random) -> LogEntry | None:
    """A pick, a roll (named or not), a move of any horse or the next race; None at the end."""
    view = table.view(None)
    if view.phase == "pick":
        return Predict(rng.choice(view.waiting_for), (rng.choice(HORSES),))
    if view.phase == "roll":
        return Roll(rng.randint(1, 6), view.turn if rng.random() < 0.5 else None)
    if view.phase == "move":
        return MoveEntry(rng.choice(HORSES), view.turn)
    if view.phase == "race_over":
        return NextRace()
    return None
