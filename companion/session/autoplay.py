"""Random legal table inputs for every game: long logs for tests, benchmarks and examples.

``legal_input`` looks at a game in progress and draws one input the rules accept (a roll
and a legal horse, a prediction, a course card, a bet, a card from a hand...), using only a
seeded ``random.Random``. ``random_log`` plays a whole game that way, with undos mixed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.session.binding import binding_module
from companion.session.log import (
    LogEntry,
    NewGame,
    Undo,
)
from companion.session.session import Game, Session

Player = Callable[[Game, random.Random], LogEntry | None]


def legal_input(table: Game, rng: random.Random) -> LogEntry | None:
    """Draw an input the game accepts now, or None when the game is over."""
    player: Player = binding_module(table.kind).random_input
    return player(table, rng)


def random_log(
    kind: str,
    rng: random.Random,
    *,
    length: int = 200,
    undo_rate: float = 0.05,
    players: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[LogEntry]:
    """Play a game of ``kind`` with random legal inputs and some undos; return its log.

    The log has at most ``length`` entries (fewer when the game ends first); every entry
    in it is accepted when applied in order.
    """
    default_players, default_options = binding_module(kind).SET_UP
    start = NewGame(
        kind,
        tuple(default_players if players is None else players),
        dict(default_options if options is None else options),
    )
    session = Session.in_memory()
    session.submit(start)
    table = session.table
    assert table is not None
    while len(table.entries) < length:
        if len(table.in_force()) > 1 and rng.random() < undo_rate:
            entry: LogEntry | None = Undo()
        else:
            entry = legal_input(table, rng)
        if entry is None:
            break
        outcome = session.submit(entry)
        if not outcome.accepted:
            raise AssertionError(f"autoplay drew a refused input {entry!r}: {outcome.code}")
    return list(table.entries)
