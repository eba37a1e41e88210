"""How fast Petits chevaux plays, and what the benchmarks of every game do with it."""

from __future__ import annotations

import random
from typing import Any

from companion.benchmarks import Figure, rate
from companion.benchmarks._moves import roll_and_move
from tests.fixture_game.engine import GAME, HORSES, ChevauxGame, ChevauxPhase

NAME = GAME.kind

#: The session benchmark's game: six players, three races to the farthest last square.
SESSION: tuple[tuple[str, ...], dict[str, Any]] = (
    ("Anna", "Bob", "Chloé", "Dan", "Eve", "Fay"),
    {"finish": 20, "rounds": 3},
)

#: The glass benchmark's presses once the menu has started the game (three players): each
#: player's pick, one horse button an entry.
GLASS_OPENING: tuple[tuple[str, ...], ...] = (("horse1",), ("horse2",), ("horse3",))
#: How often the glass benchmark's random input is a roll and a move.
GLASS_SHARE = 0.7
#: A roll, then a horse the roll may move.
glass_inputs = roll_and_move


def _game(rng: random.Random) -> ChevauxGame:
    game = ChevauxGame.start(SESSION[0], 20, 3)
    while game.phase is not ChevauxPhase.GAME_OVER:
        if game.phase is ChevauxPhase.PICK:
            game = game.pick(game.missing()[0], (rng.choice(HORSES),))
        elif game.phase is ChevauxPhase.ROLL:
            game = game.roll(rng.randint(1, 6), None)
        elif game.phase is ChevauxPhase.MOVE:
            game = game.move(rng.choice(HORSES), None)
        else:
            game = game.next_race()
    return game


def run(quick: bool) -> dict[str, Figure]:
    """Whole games of six players and three races played by the engine alone."""
    rng = random.Random(1)
    games = rate(lambda: _game(rng), 0.05 if quick else 0.5)
    return {"whole games of three races": Figure(games, "games/s")}
