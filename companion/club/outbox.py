"""The publisher's side of the journal's outbox: the results not yet acknowledged, in order.

It has its own connection to the journal file (the table's loop keeps its own), and only
reads the outbox and marks a row sent; the rows are written by the session, in the same
transaction as the input that ended the game.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from companion.session.journal import utc_now


@dataclass(frozen=True)
class Pending:
    """One result of the outbox the broker has not acknowledged yet."""

    id: int
    game_id: int
    payload: str


class OutboxReader:
    """Read the unsent results of a journal and mark them sent; use from one thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA busy_timeout=5000")

    def pending(self, after: int = 0) -> list[Pending]:
        """The unsent results with an id above ``after``, oldest first."""
        rows = self._db.execute(
            "SELECT id, game_id, payload FROM outbox WHERE sent IS NULL AND id > ? ORDER BY id",
            (after,),
        )
        return [Pending(*row) for row in rows]

    def sent_since(self, since: str | None) -> list[Pending]:
        """The results acknowledged at or after ``since`` (UTC, ISO; None: all), oldest first."""
        rows = self._db.execute(
            "SELECT id, game_id, payload FROM outbox WHERE sent IS NOT NULL AND sent >= ? "
            "ORDER BY id",
            (since or "",),
        )
        return [Pending(*row) for row in rows]

    def mark_sent(self, row: int) -> None:
        """Record that the broker acknowledged result ``row``."""
        self._db.execute("UPDATE outbox SET sent = ? WHERE id = ?", (utc_now(), row))

    def close(self) -> None:
        self._db.close()
