"""What the table may see of a match (its public board) and what one player alone may see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.horses import Stable
from companion.games.jumpy_jack.moves import HorseState, Move
from companion.games.jumpy_jack.scoring import Guess, JumpyRaceResult, Prediction


@dataclass(frozen=True)
class HorseStanding:
    """One horse as the table sees it: its colour, where it is, the place it took."""

    name: str
    colour: str
    state: HorseState
    square: int | None
    place: int | None

    def to_json(self) -> dict[str, Any]:
        """Return the horse as JSON-ready data."""
        return {
            "name": self.name,
            "colour": self.colour,
            "state": self.state.value,
            "square": self.square,
            "place": self.place,
        }


@dataclass(frozen=True)
class TeamScore:
    """One team of the teams variant and the sum of its members' points."""

    players: tuple[str, ...]
    score: int


@dataclass(frozen=True)
class JumpyJackBoard(Stable[HorseStanding]):
    """The public board of a match: never a prediction or a guess before its race is scored.

    ``legal_horses`` are the horses the waiting die may move; ``podium`` the horses on
    places 1 to 3 (None: free); ``scores`` every player's total in seat order; ``results``
    the scored races, first race first.
    """

    die: int | None
    legal_horses: tuple[str, ...]
    must_forfeit: bool
    horses: tuple[HorseStanding, ...]
    position: str
    podium: tuple[str | None, ...]
    last_move: Move | None
    scores: Mapping[str, int]
    teams: tuple[TeamScore, ...]
    target: int
    results: tuple[JumpyRaceResult, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the board as JSON-ready data (the table log's and the pages' form)."""
        last = self.last_move
        return {
            "die": self.die,
            "legal_horses": list(self.legal_horses),
            "must_forfeit": self.must_forfeit,
            "horses": [h.to_json() for h in self.horses],
            "position": self.position,
            "podium": list(self.podium),
            "last_move": None if last is None else last.to_mapping(),
            "scores": dict(self.scores),
            "teams": [{"players": list(t.players), "score": t.score} for t in self.teams],
            "target": self.target,
            "results": [r.to_mapping() for r in self.results],
        }


@dataclass(frozen=True)
class JumpyJackPrivate:
    """What one player alone may see: their own prediction and guess for this race."""

    prediction: Prediction | None = None
    guess: Guess | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the private view's details as JSON-ready data."""
        guess = self.guess
        return {
            "prediction": None if self.prediction is None else list(self.prediction),
            "guess": None
            if guess is None
            else {"target": guess.target, "horses": list(guess.horses)},
        }
