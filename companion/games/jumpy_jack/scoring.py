"""Scoring a Jumpy Jack match: the options, predictions, guesses, points and race results."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.errors import DataError, Refusal
from companion.games.jumpy_jack.board import Board
from companion.games.jumpy_jack.moves import Podium

#: The options of a new game of Jumpy Jack, as the table log names them.
OPTION_KEYS = ("target", "guess", "teams", "board")

#: A prediction (or a guess): the horses for places 1, 2 and 3.
Prediction = tuple[str, str, str]


@dataclass(frozen=True)
class MatchOptions:
    """How a table plays: the board, the target, and the ``teams`` and ``guess`` variants.

    ``teams`` lists fixed teams of players (equal sizes), empty for every player on their
    own; the target of a team is ``target`` times the team size.
    """

    board: Board = field(default_factory=Board.default)
    target: int = 16
    teams: tuple[tuple[str, ...], ...] = ()
    guess: bool = False

    def to_mapping(self) -> dict[str, Any]:
        """Return the options as plain data."""
        return {
            "board": self.board.to_mapping(),
            "target": self.target,
            "teams": [list(team) for team in self.teams],
            "guess": self.guess,
        }

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "options") -> MatchOptions:
        """Read options written by ``to_mapping``; raises ``DataError``."""
        board = Board.from_mapping(data["board"], f"{source}.board")
        teams = tuple(tuple(str(p) for p in team) for team in data["teams"])
        target, guess = data["target"], data["guess"]
        if not isinstance(target, int) or not isinstance(guess, bool):
            raise DataError(f"{source}: target must be a number and guess true or false")
        return cls(board=board, target=target, teams=teams, guess=guess)

    @classmethod
    def parse(cls, options: Mapping[str, Any]) -> MatchOptions:
        """Read the options of a new game as the table log gives them (the only parser).

        ``target`` (points that end the match, default 16), ``guess`` (true for the guess
        variant), ``teams`` (a list of teams, each a list of players) and ``board`` (a board
        as its file's mapping). Raises Refusal ``bad_option``.
        """
        unknown = sorted(set(options) - set(OPTION_KEYS))
        if unknown:
            raise Refusal("bad_option", "Unknown option: {option}.", option=unknown[0][:40])
        target = options.get("target", 16)
        guess = options.get("guess", False)
        teams = options.get("teams", [])
        if isinstance(target, bool) or not isinstance(target, int):
            raise Refusal("bad_option", "Option target: a whole number of points.")
        if not isinstance(guess, bool):
            raise Refusal("bad_option", "Option guess: true or false.")
        if not isinstance(teams, list) or not all(
            isinstance(team, list) and all(isinstance(p, str) for p in team) for team in teams
        ):
            raise Refusal("bad_option", "Option teams: lists of player names.")
        board = Board.default()
        if "board" in options:
            if not isinstance(options["board"], dict):
                raise Refusal("bad_option", "Option board: a board table.")
            try:
                board = Board.from_mapping(options["board"], "options.board")
            except DataError as error:
                raise Refusal("bad_option", "Option board is not a valid board.") from error
        return cls(board=board, target=target, teams=tuple(tuple(t) for t in teams), guess=guess)


@dataclass(frozen=True)
class Guess:
    """A player's guess of an opponent's prediction."""

    target: str
    horses: Prediction


@dataclass(frozen=True)
class JumpyRaceResult:
    """A scored race: its podium, every prediction and guess, the points they earned."""

    number: int
    podium: Podium
    predictions: dict[str, Prediction]
    points: dict[str, int]
    guesses: dict[str, Guess] = field(default_factory=dict)
    bonus: dict[str, int] = field(default_factory=dict)

    def total(self, player: str) -> int:
        """Return what ``player`` earned in this race, bonus included."""
        return self.points.get(player, 0) + self.bonus.get(player, 0)

    def to_mapping(self) -> dict[str, Any]:
        """Return the result as plain data."""
        return {
            "number": self.number,
            "podium": self.podium.to_mapping(),
            "predictions": {p: list(h) for p, h in self.predictions.items()},
            "points": dict(self.points),
            "guesses": {
                p: {"target": g.target, "horses": list(g.horses)} for p, g in self.guesses.items()
            },
            "bonus": dict(self.bonus),
        }

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> JumpyRaceResult:
        """Read a result written by ``to_mapping``; raises KeyError/TypeError/ValueError."""
        return cls(
            number=int(data["number"]),
            podium=Podium.from_mapping(data["podium"]),
            predictions={str(p): read_prediction(h) for p, h in data["predictions"].items()},
            points={str(p): int(v) for p, v in data["points"].items()},
            guesses={
                str(p): Guess(str(g["target"]), read_prediction(g["horses"]))
                for p, g in data["guesses"].items()
            },
            bonus={str(p): int(v) for p, v in data["bonus"].items()},
        )


def read_prediction(value: object) -> Prediction:
    """Read three horse names saved as a list; raises ValueError."""
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise ValueError(f"not three horses: {value!r}")
    first, second, third = (str(h) for h in value)
    return (first, second, third)


def prediction_points(prediction: Iterable[str], podium: Podium) -> int:
    """Score a prediction of places 1, 2, 3: 0, 2, 4 or 10 points for 0 to 3 horses right."""
    right = sum(1 for want, got in zip(prediction, podium.top3, strict=False) if want == got)
    return (0, 2, 4, 10)[right]


def guess_points(guess: Iterable[str], prediction: Iterable[str]) -> int:
    """Score a guess of an opponent's prediction: 1 bonus point a horse, 4 for all three."""
    right = sum(1 for want, got in zip(guess, prediction, strict=False) if want == got)
    return (0, 1, 2, 4)[right]
