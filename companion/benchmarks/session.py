"""How fast the table session takes inputs with the durable journal, and rebuilds a game.

Every registered game is played: a random game as long as the game's benchmark module's
``SESSION`` set-up (players, options) makes it, up to 1,000 inputs and short of its end.
The first game of the registry keeps the figure names it had when it was the only one
played, so figures compare with earlier runs; the others' figures are named after their
titles.
"""

from __future__ import annotations

import importlib
import random
import statistics
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.benchmarks import Figure
from companion.games.info import GameInfo
from companion.games.registry import GAMES, part
from companion.session.autoplay import random_log
from companion.session.log import LogEntry
from companion.session.session import Session

NAME = "session"

#: The most inputs a benchmark game runs to (a game that ends sooner is played whole).
LONGEST = 1000


def _log(game: GameInfo, length: int) -> list[LogEntry]:
    """A random game of at most ``length`` inputs, still in progress after its last one.

    A game that ends sooner loses its last input: a finished game is not rebuilt at start-up.
    """
    players, options = set_up(game.kind)
    log = random_log(
        game.kind, random.Random(1), length=length, undo_rate=0.03, players=players, options=options
    )
    return log if len(log) == length else log[:-1]


def set_up(kind: str) -> tuple[tuple[str, ...], Mapping[str, Any]]:
    """Return the players and options of a game's benchmark (its benchmark module's SESSION)."""
    players, options = importlib.import_module(part(kind, "bench")).SESSION
    return tuple(players), dict(options)


def _apply(session: Session, entries: list[LogEntry]) -> float:
    start = time.perf_counter()
    for entry in entries:
        if not session.submit(entry).accepted:
            raise AssertionError(f"benchmark log refused: {entry!r}")
    return time.perf_counter() - start


def run(quick: bool) -> dict[str, Figure]:
    """For every game: apply a long log to a journal on disk, reopen it; time both, and undo."""
    figures: dict[str, Figure] = {}
    for number, game in enumerate(GAMES):
        prefix = "" if number == 0 else f"{game.title}: "
        measured = _game(game, quick)
        figures.update((prefix + label, figure) for label, figure in measured.items())
    return figures


def _game(game: GameInfo, quick: bool) -> dict[str, Figure]:
    count = 300 if quick else LONGEST
    entries = _log(game, count)
    long_game = entries if count == LONGEST else _log(game, LONGEST)
    inputs = f"{len(long_game):,}"
    figures: dict[str, Figure] = {}
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        db = Path(folder) / "journal.sqlite3"
        session = Session.open(db)
        elapsed = _apply(session, entries)
        session.close()
        figures["accepted inputs, durable journal"] = Figure(len(entries) / elapsed, "inputs/s")
        figures["one accepted input, durable journal"] = Figure(elapsed / len(entries) * 1000, "ms")

        memory = Session.in_memory()
        elapsed = _apply(memory, long_game)
        figures["accepted inputs, no journal"] = Figure(len(long_game) / elapsed, "inputs/s")

        db = Path(folder) / "long.sqlite3"
        session = Session.open(db)
        _apply(session, long_game)
        session.close()
        samples = []
        for _ in range(3 if quick else 7):
            start = time.perf_counter()
            session = Session.open(db)
            samples.append(time.perf_counter() - start)
            assert session.view().events == len(long_game)
            session.close()
        figures[f"start-up rebuild of a {inputs}-input game"] = Figure(
            statistics.median(samples) * 1000, "ms"
        )

        undos = []
        for _ in range(5 if quick else 20):
            start = time.perf_counter()
            memory.undo()
            undos.append(time.perf_counter() - start)
        figures[f"undo at {inputs} inputs (median)"] = Figure(statistics.median(undos) * 1000, "ms")
    return figures
