"""The glass benchmark's turn of a die game whose roll moves a horse the player chooses."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from companion.devices.base import ButtonPressed, DieRolled, Event
from companion.games.horses import MovingBoard
from companion.session.view import PublicBoard


def roll_and_move(
    rng: random.Random, board: Callable[[], PublicBoard | None], buttons: int = 5
) -> Iterator[tuple[str, Event]]:
    """A roll, then the button of a horse the roll may move (read from the ``board`` once it
    is rolled; any of the first ``buttons`` when it names none)."""
    yield "die", ButtonPressed("die")
    yield "roll", DieRolled(rng.randint(1, 6))
    now = board()
    legal: list[int] = []
    if isinstance(now, MovingBoard):
        names = list(now.horse_names)
        legal = [names.index(n) + 1 for n in now.legal_horses if n in names]
    yield "horse", ButtonPressed(f"horse{rng.choice(legal or range(1, buttons + 1))}")
