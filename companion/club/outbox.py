"""The publisher's side of the journal's outbox: the results not yet acknowledged, in order.

It has its own connection to the journal file (the table's loop keeps its own), and only
reads the outbox, marks a row sent when the broker acknowledged it, and keeps the league's
reason on a row the league refused; the rows are written by the session, in the same
transaction as the input that ended the game.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.session.journal import utc_now

#: The most results one request of the league makes a table send again.
MOST_AGAIN = 2000


@dataclass(frozen=True)
class Pending:
    """One result of the outbox: its number (the row's id), its game and its payload."""

    id: int
    game_id: int
    payload: str


class OutboxReader:
    """Read the unsent results of a journal and mark them sent; use from one thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA busy_timeout=5000")

    def pending(self) -> list[Pending]:
        """The unsent results, oldest first."""
        rows = self._db.execute(
            "SELECT id, game_id, payload FROM outbox WHERE sent IS NULL ORDER BY id"
        )
        return [Pending(*row) for row in rows]

    def sent_in(self, ranges: Sequence[tuple[int, int]]) -> list[Pending]:
        """The acknowledged results whose numbers lie in ``ranges`` (first, last), oldest
        first, at most ``MOST_AGAIN``."""
        found: list[Pending] = []
        for first, last in ranges:
            rows = self._db.execute(
                "SELECT id, game_id, payload FROM outbox WHERE sent IS NOT NULL "
                "AND id BETWEEN ? AND ? ORDER BY id LIMIT ?",
                (first, last, MOST_AGAIN - len(found)),
            )
            found.extend(Pending(*row) for row in rows)
            if len(found) >= MOST_AGAIN:
                break
        return found

    def last_sent(self) -> int:
        """The number of the newest result the broker acknowledged (0: none yet)."""
        row = self._db.execute("SELECT max(id) FROM outbox WHERE sent IS NOT NULL").fetchone()
        return int(row[0] or 0)

    def mark_sent(self, row: int) -> None:
        """Record that the broker acknowledged result ``row``."""
        self._db.execute("UPDATE outbox SET sent = ? WHERE id = ?", (utc_now(), row))

    def mark_refused(self, verdicts: Mapping[int, tuple[str, str]]) -> list[tuple[int, str | None]]:
        """Keep the league's refusals: ``verdicts`` maps a row to (the result's id, the
        reason), every refusal the league keeps of this table. A row sent is marked with
        its reason when its result has that id; a row marked and no longer refused is
        cleared. Return what changed: (row, its reason or None)."""
        rows = self._db.execute(
            "SELECT id, json_extract(payload, '$.id'), refused FROM outbox "
            "WHERE sent IS NOT NULL AND (refused IS NOT NULL OR id IN (SELECT value FROM "
            "json_each(?)))",
            (str(list(verdicts)),),
        ).fetchall()
        changes = []
        for row, ident, refused in rows:
            verdict = verdicts.get(row)
            reason = verdict[1] if verdict is not None and verdict[0] == ident else None
            if reason != refused:
                changes.append((reason, row))
        if changes:
            self._db.executemany("UPDATE outbox SET refused = ? WHERE id = ?", changes)
        return [(row, reason) for reason, row in changes]

    def close(self) -> None:
        self._db.close()
