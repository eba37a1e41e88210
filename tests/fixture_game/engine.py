"""The rules of Petits chevaux: four shared horses, a sealed pick, one die, a few races.

Before each race every player secretly picks the horse they think will win. Then, in turn,
a player rolls the die and moves any horse that many squares; a 6 rolls again. The first
horse to reach the last square (12 by default) wins the race, and each player who picked it
scores a point. After the last race (2 by default) the most points win, ties sharing.
Pure standard library: the roll is an input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from companion.games.errors import DataError, Refusal, counted
from companion.games.horses import Stable
from companion.games.info import GameInfo, Measure, Option
from companion.games.text import N_, short

#: The horses every player moves, in button order (colour words of companion/games/colours.py).
HORSES = ("brown", "yellow", "blue", "red")

GAME = GameInfo(
    kind="petits_chevaux",
    title="Petits chevaux",
    low=2,
    high=6,
    horses=HORSES,
    options=(
        Option("finish", N_("Last square"), (12, 8, 20)),
        Option("rounds", N_("Rounds"), (2, 1, 3)),  # a round is one race
    ),
    entries=frozenset({"predict", "roll", "move"}),
    has_secret=True,  # the picks, until the race is over
    uses_die=True,
    shortest=7,  # two picks, then a 6 and a move, another roll and move to square 8
    measure=Measure("points", "scores"),
    titles=(("de", "Pferdchenrennen"),),  # its name where it is not the same in every language
)


class ChevauxPhase(StrEnum):
    """Where a game of Petits chevaux stands (``race_over`` and ``game_over`` are the names the
    table's flow knows; in ``move`` the horse buttons move the horse)."""

    PICK = "pick"
    ROLL = "roll"
    MOVE = "move"
    RACE_OVER = "race_over"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class HorseSquare:
    """A horse and the square it stands on (0: the start, ``finish`` once home); its name is
    its colour word."""

    name: str
    square: int

    @property
    def colour(self) -> str:
        """The horse's colour word."""
        return self.name


@dataclass(frozen=True)
class ChevauxMove:
    """A horse moved: from which square to which (the TV walks it)."""

    horse: str
    origin: int
    square: int

    def to_json(self) -> dict[str, Any]:
        """Return the move as JSON-ready data."""
        return {"horse": self.horse, "origin": self.origin, "square": self.square}


@dataclass(frozen=True)
class ChevauxResult:
    """A race over: its number, the horse that won it and every player's pick, revealed
    (the board holds every race over, so the pages can chart the points race by race)."""

    number: int
    winner: str
    picks: Mapping[str, str]

    def points(self, player: str) -> int:
        """What the race gave ``player``: a point for picking the winner."""
        return 1 if self.picks.get(player) == self.winner else 0

    def to_json(self) -> dict[str, Any]:
        """Return the result as JSON-ready data."""
        return {"number": self.number, "winner": self.winner, "picks": dict(self.picks)}


@dataclass(frozen=True)
class ChevauxBoard(Stable[HorseSquare]):
    """What the whole table sees: never a pick before its race is over.

    ``legal_horses`` are the horses the die may move (all four while it waits, none
    otherwise); ``scores`` every player's points in seat order; ``results`` the races over,
    first race first, each with its picks revealed.
    """

    players: tuple[str, ...]
    horses: tuple[HorseSquare, ...]
    finish: int
    races: int
    die: int | None
    legal_horses: tuple[str, ...]
    last_move: ChevauxMove | None
    scores: Mapping[str, int]
    results: tuple[ChevauxResult, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the board as the table log and the pages show it."""
        last = self.last_move
        return {
            "horses": [{"name": h.name, "square": h.square} for h in self.horses],
            "finish": self.finish,
            "races": self.races,
            "die": self.die,
            "legal_horses": list(self.legal_horses),
            "last_move": None if last is None else last.to_json(),
            "scores": dict(self.scores),
            "results": [r.to_json() for r in self.results],
        }


@dataclass(frozen=True)
class ChevauxPrivate:
    """What one player alone may see: the horse they picked for this race."""

    pick: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the private view's details as JSON-ready data."""
        return {"pick": self.pick}


@dataclass(frozen=True)
class ChevauxGame:
    """A game in progress, a value: every input returns the game after it.

    ``squares`` follow ``HORSES``; ``picks`` are this race's, sealed (and may be changed
    until ``started``, the race's first roll); ``turn`` is the seat that rolls and moves.
    """

    players: tuple[str, ...]
    finish: int
    races: int
    squares: tuple[int, ...] = (0,) * len(HORSES)
    picks: Mapping[str, str] = field(default_factory=dict)
    turn: int = 0
    started: bool = False
    race: int = 1
    die: int | None = None
    last_move: ChevauxMove | None = None
    results: tuple[ChevauxResult, ...] = ()

    @classmethod
    def start(cls, players: tuple[str, ...], finish: int, races: int) -> ChevauxGame:
        """Every horse at the start, nobody has picked; the first seat rolls first. Raises
        DataError for a count of players the game is not for (the session refuses it)."""
        if not GAME.low <= len(players) <= GAME.high:
            raise DataError(f"Petits chevaux is for {GAME.low} to {GAME.high} players")
        return cls(players, finish, races)

    @property
    def phase(self) -> ChevauxPhase:
        """Picks, then rolls and moves until a horse is home; then the race (or game) is over."""
        if len(self.results) == self.race:
            over = self.race == self.races
            return ChevauxPhase.GAME_OVER if over else ChevauxPhase.RACE_OVER
        if self.missing():
            return ChevauxPhase.PICK
        return ChevauxPhase.ROLL if self.die is None else ChevauxPhase.MOVE

    @property
    def player(self) -> str | None:
        """Who rolls and moves next; None once the race is over."""
        if self.phase in (ChevauxPhase.RACE_OVER, ChevauxPhase.GAME_OVER):
            return None
        return self.players[self.turn]

    def missing(self) -> tuple[str, ...]:
        """The players who have not picked this race's horse yet, in seat order."""
        return tuple(p for p in self.players if p not in self.picks)

    def scores(self) -> dict[str, int]:
        """Every player's points so far, in seat order."""
        return {p: sum(r.points(p) for r in self.results) for p in self.players}

    def pick(self, player: str, horses: Sequence[str]) -> ChevauxGame:
        """Seal (or change, until the race's first roll) ``player``'s pick: ``horses`` is the
        one horse. Raises Refusal."""
        self._check_racing()
        if player not in self.players:
            raise Refusal("unknown_player", "No player called {player}.", player=short(player, 12))
        if self.started:
            raise Refusal("picks_closed", "The race has started: predictions are sealed.")
        if len(horses) != 1 or horses[0] not in HORSES:
            raise Refusal("bad_pick", "Horses: brown, yellow, blue or red.")
        return replace(self, picks={**self.picks, player: horses[0]})

    def roll(self, value: int, player: str | None) -> ChevauxGame:
        """The die of the player whose turn it is, once every horse is picked. Raises Refusal."""
        self._check_racing()
        if self.missing():
            raise counted(
                "picks_missing",
                "Waiting for {count} prediction before the first roll.",
                "Waiting for {count} predictions before the first roll.",
                len(self.missing()),
            )
        self._check_turn(player)
        if self.die is not None:
            raise Refusal("roll_pending", "The die shows {die}: move a horse first.", die=self.die)
        if isinstance(value, bool) or value not in range(1, 7):
            raise Refusal("bad_die", "A die roll is a number from 1 to 6.")
        return replace(self, die=value, started=True, last_move=None)

    def move(self, horse: str, player: str | None) -> ChevauxGame:
        """Move ``horse`` by the die (a roll past the last square stops on it); a 6 rolls
        again; the horse that reaches the last square wins the race. Raises Refusal."""
        self._check_racing()
        self._check_turn(player)
        if self.die is None:
            raise Refusal("no_roll", "Roll the die first.")
        if horse not in HORSES:
            raise Refusal(
                "unknown_horse", "There is no horse called {horse}.", horse=short(horse, 10)
            )
        index = HORSES.index(horse)
        origin = self.squares[index]
        square = min(self.finish, origin + self.die)
        squares = (*self.squares[:index], square, *self.squares[index + 1 :])
        turn = self.turn if self.die == 6 else (self.turn + 1) % len(self.players)
        moved = ChevauxMove(horse, origin, square)
        after = replace(self, squares=squares, die=None, last_move=moved, turn=turn)
        if square < self.finish:
            return after
        won = ChevauxResult(self.race, horse, dict(self.picks))
        return replace(after, results=(*self.results, won))

    def next_race(self) -> ChevauxGame:
        """Every horse back at the start, the picks open again; the next seat rolls first."""
        if self.phase is ChevauxPhase.GAME_OVER:
            raise Refusal("game_over", "The game is over.")
        if self.phase is not ChevauxPhase.RACE_OVER:
            raise Refusal("race_not_over", "The race is not over yet.")
        return ChevauxGame(
            self.players,
            self.finish,
            self.races,
            turn=self.race % len(self.players),
            race=self.race + 1,
            results=self.results,
        )

    def board(self) -> ChevauxBoard:
        """What the whole table sees now."""
        moving = self.phase is ChevauxPhase.MOVE
        return ChevauxBoard(
            players=self.players,
            horses=tuple(HorseSquare(h, s) for h, s in zip(HORSES, self.squares, strict=True)),
            finish=self.finish,
            races=self.races,
            die=self.die,
            legal_horses=HORSES if moving else (),
            last_move=self.last_move,
            scores=self.scores(),
            results=self.results,
        )

    def _check_racing(self) -> None:
        if self.phase is ChevauxPhase.GAME_OVER:
            raise Refusal("game_over", "The game is over.")
        if self.phase is ChevauxPhase.RACE_OVER:
            raise Refusal("race_over", "The race is over: start the next race.")

    def _check_turn(self, player: str | None) -> None:
        turn = self.players[self.turn]  # called once the race is known to go on
        if player is not None and player != turn:
            raise Refusal("not_your_turn", "It is {player}'s turn.", player=turn)
