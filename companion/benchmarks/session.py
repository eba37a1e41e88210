"""How fast the table session takes inputs with the durable journal, and rebuilds a game."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.benchmarks import Figure
from companion.session.autoplay import random_log
from companion.session.log import Entry
from companion.session.session import Session

NAME = "session"

#: A Jumpy Jack match long enough never to end within the events measured.
KIND, PLAYERS, OPTIONS = "jumpy_jack", ("Anna", "Bob", "Chloé"), {"target": 60}


def _log(length: int) -> list[Entry]:
    return random_log(
        KIND, random.Random(1), length=length, undo_rate=0.03, players=PLAYERS, options=OPTIONS
    )


def _apply(session: Session, entries: list[Entry]) -> float:
    start = time.perf_counter()
    for entry in entries:
        if not session.submit(entry).accepted:
            raise AssertionError(f"benchmark log refused: {entry!r}")
    return time.perf_counter() - start


def run(quick: bool) -> dict[str, Figure]:
    """Apply a long log to a journal on disk, then reopen it; time both, and undo."""
    count = 300 if quick else 1000
    entries = _log(count)
    long_game = entries if count == 1000 else _log(1000)
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
        figures["start-up rebuild of a 1,000-input game"] = Figure(
            statistics.median(samples) * 1000, "ms"
        )

        undos = []
        for _ in range(5 if quick else 20):
            start = time.perf_counter()
            memory.undo()
            undos.append(time.perf_counter() - start)
        figures["undo at 1,000 inputs (median)"] = Figure(statistics.median(undos) * 1000, "ms")
    return figures
