"""A snapshot of a Jumpy Jack match, its scoring at the end of a race, and its saved form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.errors import N_, Refusal
from companion.games.jumpy_jack import PREDICTION_PLACES
from companion.games.jumpy_jack.board import DIE_FACES, Board
from companion.games.jumpy_jack.moves import Move
from companion.games.jumpy_jack.race import Position
from companion.games.jumpy_jack.scoring import (
    Guess,
    JumpyRaceResult,
    Prediction,
    guess_points,
    prediction_points,
)


@dataclass(frozen=True)
class MatchState:
    """Everything that changes during a match, as one immutable snapshot."""

    race: int
    position: Position
    die: int | None = None
    spent: bool = False
    turn: int = 0
    started: bool = False
    predictions: tuple[Prediction | None, ...] = ()
    guesses: tuple[Guess | None, ...] = ()
    results: tuple[JumpyRaceResult, ...] = ()
    last_move: Move | None = None


#: Why a prediction or a guess is refused when it does not name three horses.
PREDICTION_INVALID = N_("A prediction names 3 different horses of this race.")
GUESS_INVALID = N_("A guess names 3 different horses of this race.")


def check_horses(horses: Sequence[str], board: Board, code: str, sentence: str) -> Prediction:
    """Return three distinct horses of ``board``; raises ``Refusal`` with ``code``, ``sentence``."""
    chosen = tuple(horses) if isinstance(horses, list | tuple) else ()
    if (
        len(chosen) != PREDICTION_PLACES
        or any(not isinstance(h, str) or board.horse_index(h) is None for h in chosen)
        or len(set(chosen)) != PREDICTION_PLACES
    ):
        raise Refusal(code, sentence)
    first, second, third = chosen
    return (first, second, third)


def score_race(state: MatchState, players: Sequence[str]) -> JumpyRaceResult:
    """Score the finished race of ``state``: every prediction, every guess."""
    podium = state.position.podium
    predictions = {p: h for p, h in zip(players, state.predictions, strict=True) if h is not None}
    guesses = {p: g for p, g in zip(players, state.guesses, strict=True) if g is not None}
    return JumpyRaceResult(
        number=state.race,
        podium=podium,
        predictions=predictions,
        points={p: prediction_points(h, podium) for p, h in predictions.items()},
        guesses=guesses,
        bonus={p: guess_points(g.horses, predictions[g.target]) for p, g in guesses.items()},
    )


def state_to_mapping(state: MatchState) -> dict[str, Any]:
    """Return one snapshot as plain data (results as a count of the match's results)."""
    return {
        "race": state.race,
        "position": state.position.to_text(),
        "die": state.die,
        "spent": state.spent,
        "turn": state.turn,
        "started": state.started,
        "predictions": [None if h is None else list(h) for h in state.predictions],
        "guesses": [
            None if g is None else {"target": g.target, "horses": list(g.horses)}
            for g in state.guesses
        ],
        "results": len(state.results),
        "last_move": None if state.last_move is None else state.last_move.to_mapping(),
    }


def state_from_mapping(
    data: Mapping[str, Any], board: Board, players: int, results: tuple[JumpyRaceResult, ...]
) -> MatchState:
    """Read a snapshot written by ``state_to_mapping``; raises GameError, KeyError,
    TypeError or ValueError."""
    count = players
    die, turn, done = data["die"], int(data["turn"]), int(data["results"])
    if die is not None and die not in DIE_FACES:
        raise ValueError(f"die value {die!r}")
    if not 0 <= turn < count or not 0 <= done <= len(results):
        raise ValueError("turn or results out of range")
    predictions = tuple(
        None if h is None else check_horses(h, board, "prediction_invalid", PREDICTION_INVALID)
        for h in data["predictions"]
    )
    guesses = tuple(
        None
        if g is None
        else Guess(
            str(g["target"]), check_horses(g["horses"], board, "guess_invalid", GUESS_INVALID)
        )
        for g in data["guesses"]
    )
    if len(predictions) != count or len(guesses) != count:
        raise ValueError("one prediction and one guess a player")
    last = data["last_move"]
    return MatchState(
        race=int(data["race"]),
        position=Position.from_text(str(data["position"]), board),
        die=die,
        spent=bool(data["spent"]),
        turn=turn,
        started=bool(data["started"]),
        predictions=predictions,
        guesses=guesses,
        results=results[:done],
        last_move=None if last is None else Move.from_mapping(last),
    )
