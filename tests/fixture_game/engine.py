"""The rules of Petits chevaux: 2 to 6 horses, one die, the first to the last square wins.

Each player has a horse. On their turn a player rolls the die and their horse moves that many
squares; a 6 rolls again. The first horse to reach the last square (12 by default) wins.
Pure standard library: the roll is an input.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from companion.games.errors import DataError, Refusal
from companion.games.info import GameInfo, Measure, Option
from companion.games.text import N_

#: Each seat's horse, in seat order (colour words of companion/games/colours.py).
HORSES = ("red", "blue", "green", "yellow", "white", "brown")

GAME = GameInfo(
    kind="petits_chevaux",
    title="Petits chevaux",
    low=2,
    high=len(HORSES),
    horses=HORSES,
    options=(Option("finish", N_("Last square"), (12, 8, 20)),),
    entries=frozenset({"roll"}),
    uses_die=True,
    shortest=3,
    measure=Measure("points", "squares"),  # a horse's square: the last one wins
    titles=(("de", "Pferdchenrennen"),),  # its name where it is not the same in every language
)


class ChevauxPhase(StrEnum):
    """Where a game of Petits chevaux stands."""

    RACING = "racing"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class ChevauxBoard:
    """What the whole table sees: each player's horse and square, the last roll, the winner."""

    players: tuple[str, ...]
    squares: tuple[int, ...]
    finish: int
    die: int | None = None
    roller: str | None = None
    winner: str | None = None

    def horse(self, player: str) -> str:
        """The horse of ``player``."""
        return HORSES[self.players.index(player)]

    def to_json(self) -> dict[str, Any]:
        """Return the board as the table log and the pages show it."""
        return {
            "squares": {p: s for p, s in zip(self.players, self.squares, strict=True)},
            "horses": {p: self.horse(p) for p in self.players},
            "finish": self.finish,
            "die": self.die,
            "roller": self.roller,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class ChevauxRace:
    """A game in progress: the board and whose turn it is (an index into the players)."""

    board: ChevauxBoard
    turn: int = 0

    @classmethod
    def start(cls, players: tuple[str, ...], finish: int) -> ChevauxRace:
        """Every horse at the start (square 0); the first seat rolls first. Raises DataError
        for a count of players the game is not for (the session refuses it as an option)."""
        if not GAME.low <= len(players) <= GAME.high:
            raise DataError(f"Petits chevaux is for {GAME.low} to {GAME.high} players")
        return cls(ChevauxBoard(players, (0,) * len(players), finish))

    @property
    def phase(self) -> ChevauxPhase:
        """Racing until a horse reaches the last square."""
        return ChevauxPhase.RACING if self.board.winner is None else ChevauxPhase.GAME_OVER

    @property
    def player(self) -> str | None:
        """Whose roll it is; None once the game is over."""
        return None if self.board.winner is not None else self.board.players[self.turn]

    def roll(self, value: int, player: str | None) -> ChevauxRace:
        """Move the roller's horse ``value`` squares; a 6 rolls again. Raises Refusal."""
        if self.player is None:
            raise Refusal("game_over", "The game is over.")
        if player is not None and player != self.player:
            raise Refusal("not_your_turn", "It is {player}'s turn.", player=self.player)
        if not 1 <= value <= 6:
            raise Refusal("bad_die", "A die roll is a number from 1 to 6.")
        board = self.board
        squares = list(board.squares)
        squares[self.turn] = min(board.finish, squares[self.turn] + value)
        won = squares[self.turn] == board.finish
        moved = replace(
            board,
            squares=tuple(squares),
            die=value,
            roller=self.player,
            winner=self.player if won else None,
        )
        again = won or value == 6
        return ChevauxRace(moved, self.turn if again else (self.turn + 1) % len(squares))
