"""How fast Petits chevaux plays, and what the benchmarks of every game do with it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from companion.benchmarks import Figure, rate
from companion.devices.base import ButtonPressed, DieRolled, Event
from companion.session.view import PublicBoard
from tests.fixture_game.engine import GAME, ChevauxRace

NAME = GAME.kind

#: The session benchmark's game: six horses to the farthest last square.
SESSION: tuple[tuple[str, ...], dict[str, Any]] = (
    ("Anna", "Bob", "Chloé", "Dan", "Eve", "Fay"),
    {"finish": 20},
)

#: The glass benchmark's presses once the menu has started the race: none.
GLASS_OPENING: tuple[tuple[str, ...], ...] = ()
#: How often the glass benchmark's random input is a roll.
GLASS_SHARE = 0.5


def glass_inputs(
    rng: random.Random, board: Callable[[], PublicBoard | None]
) -> Iterator[tuple[str, Event]]:
    """A press of the die button, then the roll it gives."""
    yield "die", ButtonPressed("die")
    yield "roll", DieRolled(rng.randint(1, 6))


def _race(rng: random.Random) -> ChevauxRace:
    race = ChevauxRace.start(SESSION[0], 20)
    while race.player is not None:
        race = race.roll(rng.randint(1, 6), None)
    return race


def run(quick: bool) -> dict[str, Figure]:
    """Whole races of six horses played by the engine alone."""
    rng = random.Random(1)
    races = rate(lambda: _race(rng), 0.05 if quick else 0.5)
    return {"whole races of six horses": Figure(races, "races/s")}
