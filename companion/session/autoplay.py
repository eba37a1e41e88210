"""Random legal table inputs for every game: long logs for tests, benchmarks and examples.

``legal_input`` looks at a game in progress and draws one input the rules accept (a roll
and a legal horse, a prediction, a course card, a bet, a card from a hand...), using only a
seeded ``random.Random``. ``random_log`` plays a whole game that way, with undos mixed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.session.log import (
    Entry,
    Forfeit,
    Move,
    NewGame,
    NextRace,
    Predict,
    Roll,
    Undo,
)
from companion.session.session import Session, Table

Player = Callable[[Table, random.Random], Entry | None]


def _jumpy_jack(table: Table, rng: random.Random) -> Entry | None:
    view = table.view(None)
    board = view.board
    horses = [h["name"] for h in board["horses"]]
    if view.phase == "predict":
        missing = list(view.waiting_for)
        if missing and rng.random() < 0.9:
            return Predict(rng.choice(missing), tuple(rng.sample(horses, 3)))
        if not missing and rng.random() < 0.1:
            return Predict(rng.choice(view.players), tuple(rng.sample(horses, 3)))
        if missing:
            return Predict(missing[0], tuple(rng.sample(horses, 3)))
        return Roll(rng.randint(1, 6), view.turn)
    if view.phase == "roll":
        return Roll(rng.randint(1, 6), view.turn if rng.random() < 0.5 else None)
    if view.phase == "move":
        legal = board["legal_horses"]
        return Move(rng.choice(legal), view.turn) if legal else Forfeit(view.turn)
    if view.phase == "race_over":
        return NextRace()
    return None


PLAYERS: dict[str, Player] = {"jumpy_jack": _jumpy_jack}

#: A table of players and options each game can be started with.
SET_UPS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "jumpy_jack": (("Anna", "Bob", "Chloé"), {}),
}


def legal_input(table: Table, rng: random.Random) -> Entry | None:
    """Draw an input the game accepts now, or None when the game is over."""
    return PLAYERS[table.kind](table, rng)


def random_log(
    kind: str,
    rng: random.Random,
    *,
    length: int = 200,
    undo_rate: float = 0.05,
    players: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Entry]:
    """Play a game of ``kind`` with random legal inputs and some undos; return its log.

    The log has at most ``length`` entries (fewer when the game ends first); every entry
    in it is accepted when applied in order.
    """
    default_players, default_options = SET_UPS[kind]
    start = NewGame(kind, tuple(players or default_players), dict(options or default_options))
    session = Session.in_memory()
    session.submit(start)
    table = session.table
    assert table is not None
    while len(table.entries) < length:
        if len(table.in_force()) > 1 and rng.random() < undo_rate:
            entry: Entry | None = Undo()
        else:
            entry = legal_input(table, rng)
        if entry is None:
            break
        outcome = session.submit(entry)
        if not outcome.accepted:
            raise AssertionError(f"autoplay drew a refused input {entry!r}: {outcome.code}")
    return list(table.entries)
