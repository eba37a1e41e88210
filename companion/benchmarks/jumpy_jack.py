"""How fast the Jumpy Jack engine races, lists legal moves, takes table inputs and saves."""

from __future__ import annotations

import random
import time
from typing import Any

from companion.benchmarks import Figure, rate
from companion.benchmarks._moves import roll_and_move
from companion.games.jumpy_jack import (
    Board,
    JumpyJackMatch,
    JumpyPhase,
    Position,
    place_chances,
    random_race,
)

NAME = "jumpy_jack"

#: The session benchmark's game: a match to 60 points, which 1,000 inputs never end.
SESSION: tuple[tuple[str, ...], dict[str, Any]] = (("Anna", "Bob", "Chloé"), {"target": 60})

#: The glass benchmark's presses once the menu has started the match: three predictions.
GLASS_OPENING = (("horse1", "horse2", "horse3"), ("horse2", "horse3", "horse4"),
                 ("horse3", "horse4", "horse5"))  # fmt: skip
#: How often the glass benchmark's random input is a roll and a move.
GLASS_SHARE = 0.7
#: The web benchmark's taps, in turn (each undone by the host): a prediction sealed.
WEB_TAPS: tuple[dict[str, Any], ...] = (
    {"type": "predict", "horses": ["blue", "red", "green"]},
    {"type": "predict", "horses": ["red", "blue", "green"]},
)


#: A roll, then a horse the roll may move.
glass_inputs = roll_and_move


def _mid_race_positions(board: Board, rng: random.Random, count: int) -> list[Position]:
    """Positions reached by random play, a few moves into races (barrages, STOP in use)."""
    found: list[Position] = []
    while len(found) < count:
        position = Position.start(board)
        for _ in range(rng.randint(4, 25)):
            moves = position.legal_moves(rng.randint(1, 6))
            if moves:
                position = position.after(rng.choice(moves))
            if position.over:
                break
        if not position.over:
            found.append(position)
    return found


def _played_match(rng: random.Random) -> tuple[JumpyJackMatch, int]:
    """Play a random three-player match to the end; return it and its number of inputs."""
    match = JumpyJackMatch.new(["ann", "bob", "cy"])
    names = match.board.horse_names
    inputs = 0
    while match.phase is not JumpyPhase.MATCH_OVER:
        inputs += 1
        if match.phase is JumpyPhase.RACE_OVER:
            match.next_race()
        elif match.phase is JumpyPhase.PREDICT and match.missing_predictions():
            for player in match.missing_predictions():
                match.predict(player, rng.sample(names, 3))
        elif match.phase in (JumpyPhase.PREDICT, JumpyPhase.ROLL):
            match.roll(rng.randint(1, 6))
        elif match.must_forfeit:
            match.forfeit()
        else:
            match.move(rng.choice(match.legal_moves()).horse)
    return match, inputs


def run(quick: bool) -> dict[str, Figure]:
    """Measure random races, legal-move listing, table inputs and saving a match."""
    seconds = 0.3 if quick else 2.0
    board = Board.default()
    rng = random.Random(20260101)

    races = rate(lambda: random_race(board, rng), seconds)

    positions = _mid_race_positions(board, rng, 200)
    calls = [(p, d) for p in positions for d in range(1, 7)]

    def list_all() -> None:
        for position, die in calls:
            position.legal_moves(die)

    per_call = 1e6 / (rate(list_all, seconds) * len(calls))

    start = time.perf_counter()
    match, inputs = _played_match(random.Random(7))
    per_input = (time.perf_counter() - start) / inputs * 1e6

    start = time.perf_counter()
    text = match.to_json()
    JumpyJackMatch.from_json(text)
    save_restore = (time.perf_counter() - start) * 1000

    chances = 1000 / rate(lambda: place_chances(positions[0], rng, 500), seconds)

    return {
        "random races, one core": Figure(races, "races/s"),
        "legal moves for one die value": Figure(per_call, "µs/call"),
        "table input (roll, move, predict...)": Figure(per_input, "µs/input"),
        "place chances from 500 random races": Figure(chances, "ms"),
        "save and restore a whole match": Figure(save_restore, "ms"),
        "inputs in that match": Figure(inputs, "inputs"),
        "saved match size": Figure(len(text.encode()) / 1024, "KiB"),
    }
