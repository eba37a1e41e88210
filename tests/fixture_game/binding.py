"""The session's binding to Petits chevaux: rolls in, the race's board out (no secrets).

Options of a ``new_game`` entry: ``finish``, the last square (12 by default; one of the
values the menu offers).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.errors import DataError, Refusal
from companion.session.binding import Binding
from companion.session.log import LogEntry, NextRace, Roll
from companion.session.offers import NOTHING, Offer, Offers
from tests.fixture_game.engine import GAME, ChevauxBoard, ChevauxPhase, ChevauxRace

if TYPE_CHECKING:
    from companion.session.session import Game


def last_square(options: Mapping[str, Any]) -> int:
    """The ``finish`` option, the one place it is read; DataError for a value not offered."""
    offered = GAME.options[0].values
    finish = options.get("finish", offered[0])
    if finish not in offered or isinstance(finish, bool):
        raise DataError(f"finish: one of {offered}, not {finish!r}")
    return int(finish)


class ChevauxBinding(Binding):
    """A race of Petits chevaux driven by table-log entries."""

    KIND = GAME.kind

    def __init__(self, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.race_state = ChevauxRace.start(players, last_square(options))

    def apply(self, entry: LogEntry) -> None:
        """A roll moves the roller's horse; there is one race, so no next one."""
        if isinstance(entry, Roll):
            self.race_state = self.race_state.roll(entry.value, entry.player)
        elif isinstance(entry, NextRace):
            if self.finished():
                raise Refusal("game_over", "The game is over.")
            raise Refusal("race_not_over", "The race is not over yet.")
        else:
            raise Refusal("wrong_game", "Not an input of {game}.", game=GAME.title)

    def turn(self) -> str | None:
        return self.race_state.player

    def offers(self) -> Offers:
        """The roll of the player whose turn it is, until a horse is home."""
        player = self.race_state.player
        if self.finished() or player is None:
            return NOTHING
        return Offers.of([Offer("roll", player)], [player])

    def phase(self) -> ChevauxPhase:
        return self.race_state.phase

    def race(self) -> int:
        return 1

    def sealed(self) -> tuple[str, ...]:
        return ()

    def waiting_for(self) -> tuple[str, ...]:
        return ()

    def finished(self) -> bool:
        return self.race_state.phase is ChevauxPhase.GAME_OVER

    def winners(self) -> tuple[str, ...]:
        winner = self.race_state.board.winner
        return () if winner is None else (winner,)

    def board(self) -> ChevauxBoard:
        return self.race_state.board

    def engine_state(self) -> Any:
        """The race as JSON-ready data: its board and whose turn it is."""
        return {"board": self.race_state.board.to_json(), "turn": self.race_state.turn}


BINDING = ChevauxBinding

#: The players and options autoplay, the tests and the benchmarks start a game with.
SET_UP: tuple[tuple[str, ...], dict[str, Any]] = (("Anna", "Bob", "Chloé"), {"finish": 12})


def random_input(table: Game, rng: random.Random) -> LogEntry | None:
    """A roll for the player whose turn it is (named or not), or None once the game is over."""
    player = table.binding.turn()
    if player is None:
        return None
    return Roll(rng.randint(1, 6), player if rng.random() < 0.5 else None)
