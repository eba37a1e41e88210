"""The durable journal: every accepted input of every game, in SQLite, on disk before the beep.

One database holds several games. Each accepted table-log entry is one row of ``events``,
committed (WAL mode, ``synchronous=FULL``: the write-ahead log is flushed to the disk) before
``append`` returns, so an input the table has been told about survives a power cut. Refused
inputs go to ``refusals`` for diagnosis; they never take part in rebuilding a game.

A file that is not an SQLite database, fails SQLite's integrity check, or carries a schema
version newer than this program's (``PRAGMA user_version``) is refused with a JournalError
and left exactly as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

#: The journal layout this program writes; a newer one is refused.
SCHEMA_VERSION = 1

STATUSES = ("active", "finished", "abandoned")

_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    players TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active'
        CHECK (status IN ('active', 'finished', 'abandoned'))
);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE refusals (
    id INTEGER PRIMARY KEY,
    game_id INTEGER REFERENCES games(id),
    at TEXT NOT NULL,
    entry TEXT NOT NULL,
    code TEXT NOT NULL,
    sentence TEXT NOT NULL
);
"""

_TABLES = {"games", "events", "refusals"}


class JournalError(Exception):
    """A journal file that cannot be used (corrupt, foreign, newer) or a failed write."""


class GameNotRebuilt(JournalError):
    """A game of the journal whose inputs no longer replay (``game_id`` says which)."""

    def __init__(self, game_id: int, message: str) -> None:
        super().__init__(message)
        self.game_id = game_id


def default_path() -> Path:
    """Return where the journal lives unless told otherwise.

    ``$COMPANION_JOURNAL`` if set; else the service's state directory (``$STATE_DIRECTORY``,
    set by systemd); else ``$XDG_STATE_HOME/companion`` (``~/.local/state/companion``).
    """
    if os.environ.get("COMPANION_JOURNAL"):
        return Path(os.environ["COMPANION_JOURNAL"])
    state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if state:
        return Path(state) / "journal.sqlite3"
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "companion" / "journal.sqlite3"


def utc_now() -> str:
    """Return the time now, UTC, to the millisecond, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class GameRecord:
    """One game in the journal: its id, kind, players, times, status and number of events."""

    id: int
    kind: str
    players: tuple[str, ...]
    created: str
    updated: str
    status: str
    events: int


@dataclass(frozen=True)
class RefusalRecord:
    """One refused input kept for diagnosis."""

    game_id: int | None
    at: str
    entry: str
    code: str
    sentence: str


def _inspect_header(path: Path) -> None:
    """Refuse a file that is not an SQLite database or is from a newer program, unopened."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb") as handle:
        header = handle.read(100)
    if len(header) < 100 or not header.startswith(_MAGIC):
        raise JournalError(
            f"{path} is not a companion journal (not an SQLite database); "
            "it was left untouched: move it away or choose another file"
        )
    _check_version(path, int.from_bytes(header[60:64], "big"))


def _check_version(path: Path, version: int) -> None:
    if version > SCHEMA_VERSION:
        raise JournalError(
            f"{path} was written by a newer companion (journal version {version}, "
            f"this one reads up to {SCHEMA_VERSION}); it was left untouched: upgrade the companion"
        )


class Journal:
    """The journal of games in one SQLite file; use ``Journal.open``."""

    def __init__(self, path: Path, connection: sqlite3.Connection, clock: Callable[[], str]):
        self.path = path
        self._db = connection
        self._clock = clock

    @classmethod
    def open(cls, path: str | Path, *, clock: Callable[[], str] = utc_now) -> Journal:
        """Open (or create) the journal at ``path``, checking it before writing anything.

        Raises JournalError for a file that is not an SQLite database, fails the integrity
        check, is another program's database, or is from a newer companion. Such a file is
        never modified.
        """
        path = Path(path)
        _inspect_header(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise JournalError(f"cannot open the journal {path}: {error}") from None
        try:
            cls._check_contents(path, db)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            if db.execute("PRAGMA user_version").fetchone()[0] == 0:
                db.execute("BEGIN IMMEDIATE")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                db.execute("COMMIT")
        except BaseException:
            db.close()
            raise
        return cls(path, db, clock)

    @staticmethod
    def _check_contents(path: Path, db: sqlite3.Connection) -> None:
        """Refuse a damaged, foreign or newer database without writing to it."""
        try:
            problems = [row[0] for row in db.execute("PRAGMA quick_check")]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as error:
            raise JournalError(
                f"{path} is damaged ({error}); it was left untouched: "
                "move it away to start a new journal"
            ) from None
        if problems != ["ok"]:
            raise JournalError(
                f"{path} is damaged ({'; '.join(problems[:3])}); it was left untouched: "
                "move it away to start a new journal"
            )
        _check_version(path, version)
        if version == 0 and tables:
            raise JournalError(
                f"{path} is an SQLite database but not a companion journal; it was left untouched"
            )
        if version == SCHEMA_VERSION and not tables >= _TABLES:
            raise JournalError(
                f"{path} misses the tables {sorted(_TABLES - tables)}; it was left untouched"
            )

    # ---- writing --------------------------------------------------------------------------

    def _write(self, statements: list[tuple[str, tuple[object, ...]]]) -> list[int | None]:
        """Run ``statements`` in one transaction, committed to disk; return their last row ids."""
        rows: list[int | None] = []
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    rows.append(self._db.execute(sql, params).lastrowid)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise JournalError(f"cannot write to the journal {self.path}: {error}") from None
        return rows

    def create_game(self, kind: str, players: tuple[str, ...], first_entry: str) -> int:
        """Record a new active game and its first entry (the new_game line); return its id."""
        now = self._clock()
        self._db.execute("BEGIN IMMEDIATE")
        try:
            cursor = self._db.execute(
                "INSERT INTO games (kind, players, created, updated, status) "
                "VALUES (?, ?, ?, ?, 'active')",
                (kind, json.dumps(list(players), ensure_ascii=False), now, now),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            self._db.execute(
                "INSERT INTO events (game_id, seq, at, entry) VALUES (?, 0, ?, ?)",
                (game_id, now, first_entry),
            )
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            self._db.execute("ROLLBACK")
            raise JournalError(f"cannot write to the journal {self.path}: {error}") from None
        return game_id

    def append(self, game_id: int, seq: int, entry: str, status: str = "active") -> None:
        """Add accepted entry number ``seq`` to a game and set its status; durable on return."""
        now = self._clock()
        self._write(
            [
                (
                    "INSERT INTO events (game_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                    (game_id, seq, now, entry),
                ),
                ("UPDATE games SET updated = ?, status = ? WHERE id = ?", (now, status, game_id)),
            ]
        )

    def record_refusal(self, game_id: int | None, entry: str, code: str, sentence: str) -> None:
        """Keep a refused input for diagnosis (it never takes part in a rebuild)."""
        self._write(
            [
                (
                    "INSERT INTO refusals (game_id, at, entry, code, sentence) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (game_id, self._clock(), entry, code, sentence),
                )
            ]
        )

    def set_status(self, game_id: int, status: str) -> None:
        """Mark a game active, finished or abandoned."""
        if status not in STATUSES:
            raise ValueError(f"unknown game status {status!r}")
        self.game(game_id)
        self._write(
            [
                (
                    "UPDATE games SET status = ?, updated = ? WHERE id = ?",
                    (status, self._clock(), game_id),
                )
            ]
        )

    # ---- reading --------------------------------------------------------------------------

    def events(self, game_id: int) -> list[str]:
        """Return a game's accepted entries, as JSON lines, in the order they were accepted."""
        self.game(game_id)
        rows = self._db.execute(
            "SELECT entry FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [row[0] for row in rows]

    def refusals(self, game_id: int | None = None) -> list[RefusalRecord]:
        """Return the refused inputs (of one game, or all), oldest first."""
        sql = "SELECT game_id, at, entry, code, sentence FROM refusals"
        params: tuple[object, ...] = ()
        if game_id is not None:
            sql += " WHERE game_id = ?"
            params = (game_id,)
        return [RefusalRecord(*row) for row in self._db.execute(sql + " ORDER BY id", params)]

    def _records(self, where: str, params: tuple[object, ...]) -> list[GameRecord]:
        rows = self._db.execute(
            "SELECT g.id, g.kind, g.players, g.created, g.updated, g.status, "
            "(SELECT count(*) FROM events e WHERE e.game_id = g.id) "
            f"FROM games g {where} ORDER BY g.id",
            params,
        )
        return [
            GameRecord(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4], row[5], row[6])
            for row in rows
        ]

    def games(self) -> list[GameRecord]:
        """Return every game in the journal, oldest first."""
        return self._records("", ())

    def game(self, game_id: int) -> GameRecord:
        """Return one game; raises JournalError when there is no such game."""
        found = self._records("WHERE g.id = ?", (game_id,))
        if not found:
            raise JournalError(f"there is no game {game_id} in the journal {self.path}")
        return found[0]

    def latest_active(self) -> int | None:
        """Return the id of the active game touched last, or None."""
        row = self._db.execute(
            "SELECT id FROM games WHERE status = 'active' ORDER BY updated DESC, id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else int(row[0])

    def close(self) -> None:
        """Close the database (everything is already on disk)."""
        self._db.close()
