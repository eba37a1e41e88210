"""The durable journal: every accepted input of every game, in SQLite, on disk before the beep.

One database holds several games. Each accepted table-log entry is one row of ``events``,
committed (WAL mode, ``synchronous=FULL``: the write-ahead log is flushed to the disk) before
``append`` returns, so an input the table has been told about survives a power cut. Refused
inputs go to ``refusals`` for diagnosis; they never take part in rebuilding a game, and they
are committed without waiting for the disk (``synchronous=NORMAL`` for that transaction):
the refusal reaches the player sooner, and a power cut may lose only the last refusals, never
an accepted input (SQLite's write-ahead log ignores frames that were not flushed whole, and
the next accepted input's flush takes the refusals with it).

A file that is not an SQLite database, fails SQLite's integrity check, carries a schema
version newer than this program's (``PRAGMA user_version``) or lacks a table or column the
companion needs is refused with a JournalError and left exactly as it was: every check runs
before the first write (before the switch to WAL mode too). Tables the companion does not
know (another part of the companion may add one) are left alone.

A finished game's result for the club's league (``companion/club``) is written to the
``outbox`` table in the same transaction as the input that ended the game, and marked sent
once the broker has acknowledged it; a result the league refused keeps the league's reason
(``refused``) until it is sent again. Older journals are migrated on open: schema 1 (before
the outbox) to 2, and 2 (before the refusals) to 3.

The table's loop may hold an input's writes (``hold``): they are queued until ``commit``
runs them in one transaction and flushes it (the displays are handed the input meanwhile;
the beep waits for ``commit``). A read, or a write that needs its answer, commits what is
held first. A failed commit rolls back everything held: the input is kept whole or not at
all.

A journal that cannot be written (a read-only file system, a folder or file the user may
not write) opens read-only: it can be listed and exported, and a write raises
JournalReadOnly. A write that finds the disk full raises JournalFull and changes nothing;
the next write tries again.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

#: The journal layout this program writes; a newer one is refused.
SCHEMA_VERSION = 3

STATUSES = ("active", "finished", "abandoned")

_MAGIC = b"SQLite format 3\x00"

T = TypeVar("T")

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
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at TEXT NOT NULL,
    payload TEXT NOT NULL,
    sent TEXT,
    refused TEXT
);
"""

#: What turns a journal of each older version into the next one, by the version it reads.
_MIGRATIONS = {
    1: (
        "CREATE TABLE outbox (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL "
        "REFERENCES games(id), at TEXT NOT NULL, payload TEXT NOT NULL, sent TEXT)",
    ),
    2: ("ALTER TABLE outbox ADD COLUMN refused TEXT",),
}

#: The columns the companion reads and writes, by table (a journal may hold more).
_COLUMNS = {
    "games": {"id", "kind", "players", "created", "updated", "status"},
    "events": {"game_id", "seq", "at", "entry"},
    "refusals": {"id", "game_id", "at", "entry", "code", "sentence"},
    "outbox": {"id", "game_id", "at", "payload", "sent", "refused"},
}

#: The tables each schema version has (an older journal lacks the later ones until migrated).
_SINCE = {"outbox": 2}
#: The columns added to a table after it, by the version that added them.
_COLUMN_SINCE = {("outbox", "refused"): 3}

#: Game ids are SQLite integers: a larger number names no game.
_MAX_ID = 2**63 - 1


class JournalError(Exception):
    """A journal file that cannot be used (corrupt, foreign, newer) or a failed write."""


class JournalFull(JournalError):
    """A write refused because the disk (or the journal's size limit) is full; nothing changed."""


class JournalReadOnly(JournalError):
    """A write to a journal that was opened read-only (read-only file system or folder)."""


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
    """One game in the journal: its id, kind, players, times, status and number of events.

    ``players`` is empty when the journal's players column cannot be read (the game's own
    first entry still names them).
    """

    id: int
    kind: str
    players: tuple[str, ...]
    created: str
    updated: str
    status: str
    events: int
    #: Why the league refused the game's latest result ("" when it did not).
    refused: str = ""


@dataclass(frozen=True)
class OutboxRecord:
    """One result of the outbox: its number, its game, when it was queued, sent (None: not
    yet) and the league's reason for refusing it ("" when it did not)."""

    id: int
    game_id: int
    at: str
    sent: str | None
    refused: str


@dataclass(frozen=True)
class RefusalRecord:
    """One refused input kept for diagnosis."""

    game_id: int | None
    at: str
    entry: str
    code: str
    sentence: str


def _write_error(path: Path, error: sqlite3.Error) -> JournalError:
    """Turn SQLite's error about a write into the journal's own, saying what went wrong."""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code == sqlite3.SQLITE_FULL:
        return JournalFull(f"the disk is full: nothing was written to the journal {path}")
    if code == sqlite3.SQLITE_READONLY:
        return JournalReadOnly(f"the journal {path} is read-only: nothing was written to it")
    if code == sqlite3.SQLITE_IOERR:
        return JournalError(
            f"cannot write to the journal {path}: the disk refused the write ({error}: "
            "is it full, or is the file too large for it?)"
        )
    return JournalError(f"cannot write to the journal {path}: {error}")


def _inspect_header(path: Path, *, create: bool) -> None:
    """Refuse a path that is no journal file: a folder, an unreadable file, another format.

    A file that does not exist (or, when ``create``, an empty one) is a new journal.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        if create:
            return
        raise JournalError(f"there is no journal at {path}") from None
    except OSError as error:
        raise JournalError(f"cannot reach the journal {path}: {error.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise JournalError(f"{path} is a folder, not a journal file: name the file in it")
    if not stat.S_ISREG(info.st_mode):
        raise JournalError(f"{path} is not a regular file, so not a companion journal")
    if info.st_size == 0:
        if create:
            return
        raise JournalError(f"{path} is an empty file, not a journal; it was left untouched")
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        raise JournalError(f"cannot read the journal {path}: {error.strerror}") from None
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


def _writable(path: Path) -> bool:
    """Whether this process may write the journal and create its side files beside it."""
    folder = path.parent
    if path.exists() and not os.access(path, os.W_OK):
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def _keep_private(path: Path) -> None:
    """Create the journal readable and writable by its owner only (0600), and narrow an older
    one to that; SQLite gives its side files (-wal, -shm) the journal's own mode.

    It holds sealed inputs and the phones' token hashes: nobody else on the machine reads it.
    """
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if os.fstat(handle).st_uid == os.geteuid():
            os.fchmod(handle, 0o600)
    finally:
        os.close(handle)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        with contextlib.suppress(OSError):
            if side.stat().st_uid == os.geteuid():
                side.chmod(0o600)


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """Open an existing journal for reading only, even where SQLite cannot add its side files.

    A journal closed cleanly has no write-ahead log left beside it; in a folder nobody may
    write, SQLite then reads it as an immutable file (nothing else can be writing it).
    """
    uri = f"file:{quote(str(path.absolute()))}?mode=ro"
    db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
        wal = path.with_name(path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise
    return sqlite3.connect(
        uri + "&immutable=1", uri=True, isolation_level=None, check_same_thread=False
    )


def _text(data: bytes) -> str:
    """Read a text value; bytes a damaged file holds that are not UTF-8 read as U+FFFD."""
    return data.decode("utf-8", errors="replace")


def _players(column: object) -> tuple[str, ...]:
    """Read the players column; one that is not a JSON list of names reads as no players."""
    try:
        names = json.loads(column) if isinstance(column, str) else None
    except (ValueError, RecursionError):
        return ()
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return ()
    return tuple(names)


class Journal:
    """The journal of games in one SQLite file; use ``Journal.open``."""

    def __init__(
        self,
        path: Path,
        connection: sqlite3.Connection,
        clock: Callable[[], str],
        *,
        read_only: bool = False,
    ):
        self.path = path
        self._db = connection
        self._clock = clock
        #: Whether the journal was opened read-only (a write raises JournalReadOnly).
        self.read_only = read_only
        #: Whether the last write found the disk full (until a write succeeds again).
        self.full = False
        #: Whether the outbox keeps the league's refusals (a journal of version 3 or later;
        #: an older one opened read-only has no such column).
        outbox = {row[1] for row in connection.execute("PRAGMA table_info(outbox)")}
        self._keeps_refusals = "refused" in outbox
        #: Whether the writes go into one transaction left open until ``commit`` (see ``hold``).
        self.holding = False
        #: Writes held and not yet run: run at ``commit``, or before anything is read.
        self._queued: list[Callable[[sqlite3.Connection], object]] = []
        #: Why a write held failed (everything held was rolled back): ``commit`` raises it.
        self._failed: JournalError | None = None

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], str] = utc_now,
        create: bool = True,
        writable: bool = True,
    ) -> Journal:
        """Open (or, with ``create``, create) the journal at ``path``, checking it before writing.

        Raises JournalError for a folder, a file that is not an SQLite database, fails the
        integrity check, is another program's database, or is from a newer companion; such
        a file is never modified. Without ``create``, a missing or empty file is refused
        too (and stays as it was). A journal this process may not write raises
        JournalReadOnly when ``writable`` is asked for, and opens read-only otherwise.
        """
        path = Path(path)
        _inspect_header(path, create=create)
        if create:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise JournalError(
                    f"cannot make the journal's folder {path.parent}: {error.strerror}"
                ) from None
        read_only = not _writable(path)
        if read_only and (writable or not path.exists()):
            raise JournalReadOnly(
                f"the journal {path} is read-only (a read-only file system, or a folder or "
                "file this user may not write): the companion needs to write it"
            )
        try:
            if not read_only:
                _keep_private(path)
            db = (
                _connect_read_only(path)
                if read_only
                else sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            )
        except OSError as error:
            raise JournalError(f"cannot open the journal {path}: {error.strerror}") from None
        except sqlite3.Error as error:
            raise JournalError(f"cannot open the journal {path}: {error}") from None
        db.text_factory = _text
        try:
            cls._check_contents(path, db)
            if not read_only:
                cls._prepare(path, db)
        except BaseException:
            db.close()
            raise
        return cls(path, db, clock, read_only=read_only)

    @staticmethod
    def _prepare(path: Path, db: sqlite3.Connection) -> None:
        """Set the durable modes and, in a new file, create the tables."""
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                _atomically(db, _create_tables)
            elif version < SCHEMA_VERSION:
                _atomically(db, lambda d: _migrate(d, version))
        except sqlite3.Error as error:
            raise _write_error(path, error) from None

    @staticmethod
    def _check_contents(path: Path, db: sqlite3.Connection) -> None:
        """Refuse a damaged, foreign or newer database without writing to it."""
        try:
            problems = [row[0] for row in db.execute("PRAGMA quick_check")]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {
                row[0]: {column[1] for column in db.execute(f'PRAGMA table_info("{row[0]}")')}
                for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                if row[0] in _COLUMNS
            }
            anything = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
            # SQLite's message may quote the damaged bytes, which are not always UTF-8.
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
        if version == 0 and anything:
            raise JournalError(
                f"{path} is an SQLite database but not a companion journal; it was left untouched"
            )
        if version == 0:
            return
        expected = {name for name in _COLUMNS if _SINCE.get(name, 1) <= version}
        for table, needed in _COLUMNS.items():
            if table not in expected or table not in tables:
                continue
            wanted = {c for c in needed if _COLUMN_SINCE.get((table, c), 1) <= version}
            lacking = sorted(wanted - tables[table])
            if lacking:
                raise JournalError(
                    f"{path} is not a companion journal (its table {table} has no column "
                    f"{', '.join(lacking)}); it was left untouched"
                )
        missing = sorted(expected - set(tables))
        if missing:
            raise JournalError(f"{path} misses the tables {missing}; it was left untouched")

    # ---- writing --------------------------------------------------------------------------

    def _transaction(self, work: Callable[[sqlite3.Connection], T], *, flush: bool = True) -> T:
        """Run ``work`` in one transaction, committed to disk (``flush`` False: committed, and
        written to disk without waiting for it to be flushed); all of it or nothing.

        Raises JournalFull on a full disk, JournalReadOnly on a read-only journal, and
        JournalError for any other failed write.
        """
        if self.read_only:
            raise JournalReadOnly(f"the journal {self.path} is read-only: nothing was written")
        if self.holding:
            self._settle()  # what is held goes first, on disk: this write needs its answer now
            if self._failed is not None:
                raise self._failed
        try:
            if flush:
                result = _atomically(self._db, work)
            else:
                self._db.execute("PRAGMA synchronous=NORMAL")
                try:
                    result = _atomically(self._db, work)
                finally:
                    self._db.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as error:
            failure = _write_error(self.path, error)
            self.full = isinstance(failure, JournalFull)
            raise failure from None
        self.full = False
        return result

    def hold(self) -> None:
        """Hold the writes that give nothing back (an accepted input, a refusal's note, a
        status) from now until ``commit``: they are queued, and run in one transaction at
        ``commit``. SQLite's lock is not taken meanwhile (another connection to the file, the
        pages' seats, may write). A read, or a write that needs its answer (a new game's id),
        first commits what is held, as before."""
        if not self.read_only:
            self.holding = True

    def commit(self) -> None:
        """Commit what was held since ``hold``, flushed to disk; stop holding. Raises as a
        write does (JournalFull on a full disk...), everything held rolled back, when the
        commit, or one made early for a read, failed."""
        if not self.holding:
            return
        try:
            self._settle()
            if self._failed is not None:
                raise self._failed
        finally:
            self.holding, self._failed = False, None
            self._queued.clear()
        self.full = False

    def _later(self, work: Callable[[sqlite3.Connection], object], *, flush: bool = True) -> None:
        """Run ``work`` in a transaction of its own, or, while holding, queue it for the held
        transaction (the input reaches the displays first)."""
        if self.holding:
            self._queued.append(work)
        else:
            self._transaction(work, flush=flush)

    def _settle(self) -> None:
        """Run the writes held, in order, in one transaction committed to disk. A failure
        rolls them all back and is kept for ``commit`` to raise (a read goes on meanwhile)."""
        queued, self._queued = self._queued, []
        if not queued or self._failed is not None:
            return

        def work(db: sqlite3.Connection) -> None:
            for write in queued:
                write(db)

        try:
            _atomically(self._db, work)
        except sqlite3.Error as error:
            failure = _write_error(self.path, error)
            self.full = isinstance(failure, JournalFull)
            self._failed = failure
        except Exception as error:
            self._failed = JournalError(f"a write to the journal {self.path} failed: {error}")

    def _reading(self) -> sqlite3.Connection:
        """The connection, once the writes held are in it (a read sees every input)."""
        if self._queued:
            self._settle()
        return self._db

    def _write(
        self, statements: list[tuple[str, tuple[object, ...]]], *, flush: bool = True
    ) -> None:
        """Run ``statements`` in one transaction, committed to disk (see ``_transaction``)."""

        def work(db: sqlite3.Connection) -> None:
            for sql, params in statements:
                db.execute(sql, params)

        self._later(work, flush=flush)

    def create_game(self, kind: str, players: tuple[str, ...], first_entry: str) -> int:
        """Record a new active game and its first entry (the new_game line); return its id."""
        now = self._clock()

        def work(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (kind, players, created, updated, status) "
                "VALUES (?, ?, ?, ?, 'active')",
                (kind, json.dumps(list(players), ensure_ascii=False), now, now),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            db.execute(
                "INSERT INTO events (game_id, seq, at, entry) VALUES (?, 0, ?, ?)",
                (game_id, now, first_entry),
            )
            return game_id

        return self._transaction(work)

    def append(
        self,
        game_id: int,
        seq: int,
        entry: str,
        status: str = "active",
        result: Callable[[str, str], str] | None = None,
    ) -> None:
        """Add accepted entry number ``seq`` to a game and set its status; durable on return.

        With ``result`` (the entry ended the game), ``result(started, ended)`` gives the
        game's result, queued in the outbox in the same transaction: both are on disk, or
        neither is.
        """
        now = self._clock()

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO events (game_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                (game_id, seq, now, entry),
            )
            db.execute(
                "UPDATE games SET updated = ?, status = ? WHERE id = ?", (now, status, game_id)
            )
            if result is not None:
                started = db.execute("SELECT created FROM games WHERE id = ?", (game_id,))
                payload = result(str(started.fetchone()[0]), now)
                db.execute(
                    "INSERT INTO outbox (game_id, at, payload) VALUES (?, ?, ?)",
                    (game_id, now, payload),
                )

        self._later(work)

    def record_refusal(self, game_id: int | None, entry: str, code: str, sentence: str) -> None:
        """Keep a refused input for diagnosis (it never takes part in a rebuild); the write is
        not waited for on the disk (see the module's docstring)."""
        self._write(
            [
                (
                    "INSERT INTO refusals (game_id, at, entry, code, sentence) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (game_id, self._clock(), entry, code, sentence),
                )
            ],
            flush=False,
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
        rows = self._reading().execute(
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
        return [
            RefusalRecord(*row) for row in self._reading().execute(sql + " ORDER BY id", params)
        ]

    def _records(self, where: str, params: tuple[object, ...]) -> list[GameRecord]:
        refused = (
            "(SELECT o.refused FROM outbox o WHERE o.game_id = g.id ORDER BY o.id DESC LIMIT 1)"
            if self._keeps_refusals
            else "NULL"
        )
        rows = self._reading().execute(
            "SELECT g.id, g.kind, g.players, g.created, g.updated, g.status, "
            f"(SELECT count(*) FROM events e WHERE e.game_id = g.id), {refused} "
            f"FROM games g {where} ORDER BY g.id",
            params,
        )
        return [
            GameRecord(
                row[0], row[1], _players(row[2]), row[3], row[4], row[5], row[6], row[7] or ""
            )
            for row in rows
        ]

    def outbox(self) -> list[OutboxRecord]:
        """Every result of the outbox, oldest first (none in a journal without one)."""
        if not self._keeps_refusals:
            return []
        rows = (
            self._reading()
            .execute("SELECT id, game_id, at, sent, refused FROM outbox ORDER BY id")
            .fetchall()
        )
        return [OutboxRecord(r[0], r[1], r[2], r[3], r[4] or "") for r in rows]

    def send_again(self, ids: list[int]) -> list[int]:
        """Queue results of the outbox to be sent again (the table's publisher sends them
        within seconds, or at its next start) and forget the league's refusal of them;
        return the ids that are in the outbox."""
        known = {record.id for record in self.outbox()}
        found = [i for i in ids if i in known]
        self._write(
            [("UPDATE outbox SET sent = NULL, refused = NULL WHERE id = ?", (i,)) for i in found]
        )
        return found

    def games(self) -> list[GameRecord]:
        """Return every game in the journal, oldest first."""
        return self._records("", ())

    def finished_after(self, game_id: int) -> list[GameRecord]:
        """Return the finished games after ``game_id``, oldest first (an evening's games)."""
        return self._records("WHERE g.id > ? AND g.status = 'finished'", (game_id,))

    def game(self, game_id: int) -> GameRecord:
        """Return one game; raises JournalError when there is no such game."""
        found = self._records("WHERE g.id = ?", (game_id,)) if 0 <= game_id <= _MAX_ID else []
        if not found:
            raise JournalError(f"there is no game {game_id} in the journal {self.path}")
        return found[0]

    def evening_since(self) -> int:
        """The game after which the evening began: the mark the pages' room keeps in this
        file (its ``evening`` table, written when the host ends an evening); 0 without one
        (every game of the journal is this evening's)."""
        try:
            row = self._reading().execute("SELECT since_game FROM evening WHERE one = 1").fetchone()
        except sqlite3.OperationalError:  # no such table: no evening was ever ended here
            return 0
        return 0 if row is None else int(row[0])

    def latest_shown(self) -> int | None:
        """Return the id of the game a table opens on: the game touched last when it is
        finished and of this evening (the table showed its end pages), else the active game
        touched last; None when there is neither."""
        row = (
            self._reading()
            .execute("SELECT id, status FROM games ORDER BY updated DESC, id DESC LIMIT 1")
            .fetchone()
        )
        if row is not None and row[1] == "finished" and int(row[0]) > self.evening_since():
            return int(row[0])
        return self.latest_active()

    def latest_active(self) -> int | None:
        """Return the id of the active game touched last, or None."""
        sql = "SELECT id FROM games WHERE status = 'active' ORDER BY updated DESC, id DESC LIMIT 1"
        row = self._reading().execute(sql).fetchone()
        return None if row is None else int(row[0])

    def close(self) -> None:
        """Close the database (what is held is committed first)."""
        try:
            with contextlib.suppress(JournalError):  # the loop committed it, or put it back
                self.commit()
        finally:
            self._db.close()


def _atomically(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``work`` in one immediate transaction and commit it; roll back if it fails.

    SQLite has already rolled back after some errors (a full disk among them): a second
    ROLLBACK would fail and hide the real error, so it is sent only while one is open.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        result = work(db)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return result


def _migrate(db: sqlite3.Connection, version: int) -> None:
    """Bring a journal of an older ``version`` up to this program's, one version at a time."""
    while version < SCHEMA_VERSION:
        for statement in _MIGRATIONS[version]:
            db.execute(statement)
        version += 1
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def _create_tables(db: sqlite3.Connection) -> None:
    """Create a new journal's tables and stamp its schema version."""
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
