"""The room of the evening: its people in seat order and their phones' tokens (journal file).

A seat is a person, not a place in one game: it stays from game to game until the person
leaves or the host ends the evening. Only a hash of each token is stored (a copy of the
journal gives no seat away); a token is checked against every seat's hash in constant time.
The host's seat belongs to the table and outlives the evening.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

#: The host page's seat (a player's name never starts with "#": the host page refuses it).
HOST = "#host"
#: The game id every seat is filed under: the room's (before the room, seats were per game).
TABLE_WIDE = 0

_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS seats (
        game_id INTEGER NOT NULL,
        seat TEXT NOT NULL,
        token_hash BLOB NOT NULL,
        issued TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS room (
        person TEXT PRIMARY KEY,
        position INTEGER NOT NULL
    )
    """,
    # The evening began after this game (0: with the journal); one row at most. The journal
    # reads it (Journal.evening_since): the table's standings start there.
    """
    CREATE TABLE IF NOT EXISTS evening (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        since_game INTEGER NOT NULL
    )
    """,
)


def _hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """Make the writes inside at once, or none of them."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _migrate(db: sqlite3.Connection) -> None:
    """Seats filed per game (before the room): the newest game's become the room's, in the
    order they were given; older games' tokens are dropped (they opened nothing already)."""
    newest = db.execute("SELECT MAX(game_id) FROM seats WHERE game_id != ?", (TABLE_WIDE,))
    game = newest.fetchone()[0]
    if game is None:
        return
    with _transaction(db):
        rows = db.execute(
            "SELECT seat, token_hash, issued FROM seats WHERE game_id = ? ORDER BY issued, rowid",
            (game,),
        ).fetchall()
        for seat, digest, issued in rows:
            db.execute(
                "INSERT OR REPLACE INTO seats (game_id, seat, token_hash, issued) "
                "VALUES (?, ?, ?, ?)",
                (TABLE_WIDE, seat, digest, issued),
            )
            db.execute(
                "INSERT OR IGNORE INTO room (person, position) "
                "VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM room))",
                (seat,),
            )
        db.execute("DELETE FROM seats WHERE game_id != ?", (TABLE_WIDE,))


class SeatBook:
    """The room's people in seat order and which token opens whose seat (the host's too).

    Writes happen on the daemon loop's thread; ``seat_of`` may be called from any thread.
    """

    def __init__(self, path: Path | None) -> None:
        self._db = sqlite3.connect(
            ":memory:" if path is None else path, isolation_level=None, check_same_thread=False
        )
        self._db.execute("PRAGMA busy_timeout=5000")
        for statement in _SCHEMA:
            self._db.execute(statement)
        _migrate(self._db)
        self._lock = threading.Lock()
        self._game: int | None = None
        self._hashes: dict[str, bytes] = {}
        self._people: tuple[str, ...] = ()
        self._load()

    def _load(self) -> None:
        rows = self._db.execute(
            "SELECT seat, token_hash FROM seats WHERE game_id = ?", (TABLE_WIDE,)
        ).fetchall()
        people = self._db.execute("SELECT person FROM room ORDER BY position").fetchall()
        with self._lock:
            self._hashes = {seat: bytes(digest) for seat, digest in rows}
            self._people = tuple(person for (person,) in people)

    def follow(self, game_id: int | None) -> bool:
        """Note the game in progress; True if it changed (the seats stay with their people)."""
        if game_id == self._game:
            return False
        self._game = game_id
        return True

    @property
    def game_id(self) -> int | None:
        """The game in progress when the book last looked."""
        return self._game

    def people(self) -> tuple[str, ...]:
        """The room's people, in seat order."""
        with self._lock:
            return self._people

    def seat_order(self, players: Sequence[str]) -> None:
        """A game starts with ``players``: they take the first seats in the game's order, the
        others of the room keep theirs after them."""
        known = self.people()
        order = [*players, *(p for p in known if p not in players)]
        if order == list(known):
            return
        self._arrange(order)

    def _arrange(self, order: Sequence[str]) -> None:
        with _transaction(self._db):
            self._db.execute("DELETE FROM room")
            self._db.executemany(
                "INSERT INTO room (person, position) VALUES (?, ?)",
                [(person, i) for i, person in enumerate(order, 1)],
            )
        self._load()

    def issue(self, seat: str) -> str:
        """Give ``seat`` a new token (the old one stops working) and return it; a person new
        to the room takes the next seat."""
        token = secrets.token_urlsafe(32)
        digest = _hash(token)
        issued = datetime.now(UTC).isoformat(timespec="seconds")
        with _transaction(self._db):
            self._db.execute(
                "INSERT OR REPLACE INTO seats (game_id, seat, token_hash, issued) "
                "VALUES (?, ?, ?, ?)",
                (TABLE_WIDE, seat, digest, issued),
            )
            if seat != HOST and seat not in self.people():
                self._db.execute(
                    "INSERT INTO room (person, position) "
                    "VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM room))",
                    (seat,),
                )
        self._load()
        return token

    def add(self, person: str) -> None:
        """``person`` joins the room without a phone (the host page adds them): the next seat."""
        with _transaction(self._db):
            self._db.execute(
                "INSERT OR IGNORE INTO room (person, position) "
                "VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM room))",
                (person,),
            )
        self._load()

    def leave(self, person: str) -> None:
        """``person`` leaves the room: their seat and their phone's token are gone."""
        with _transaction(self._db):
            self._db.execute("DELETE FROM seats WHERE seat = ? AND seat != ?", (person, HOST))
            self._db.execute("DELETE FROM room WHERE person = ?", (person,))
        self._load()

    def end_evening(self, last_game: int) -> None:
        """The evening is over after game ``last_game``: every person leaves (the host's seat
        stays with the table), and the next evening's standings start after that game."""
        with _transaction(self._db):
            self._db.execute("DELETE FROM seats WHERE seat != ?", (HOST,))
            self._db.execute("DELETE FROM room")
            self._db.execute(
                "INSERT OR REPLACE INTO evening (one, since_game) VALUES (1, ?)", (last_game,)
            )
        self._load()

    def seat_of(self, token: str | None) -> str | None:
        """Return the seat ``token`` opens, or None; every seat is compared, in constant time."""
        if not token or len(token) > 200:
            return None
        digest = _hash(token)
        with self._lock:
            held = list(self._hashes.items())
        found = None
        for seat, known in held:
            if hmac.compare_digest(known, digest):
                found = seat
        return found

    def stamps(self) -> dict[str, str]:
        """Each seat's current token, as a short fingerprint: a page opened with an older token
        (the seat moved to another phone, or the person left the room) is told to join again."""
        with self._lock:
            return {seat: digest[:8].hex() for seat, digest in self._hashes.items()}

    def taken(self) -> frozenset[str]:
        """The seats that have a phone (the host's included)."""
        with self._lock:
            return frozenset(self._hashes)

    def close(self) -> None:
        """Close the seats' connection."""
        self._db.close()
