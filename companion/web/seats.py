"""Seat tokens: one random secret per seat of the game in progress, kept in the journal's file.

Only a hash of each token is stored (a copy of the journal gives no seat away); a token is
checked against every seat's hash in constant time. A new game has no seats: its players join
again and get new tokens. The host's seat belongs to the table, not to one game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

#: The host page's seat (a player's name never starts with "#": the host page refuses it).
HOST = "#host"
#: The game id the host's seat is filed under.
TABLE_WIDE = 0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL,
    seat TEXT NOT NULL,
    token_hash BLOB NOT NULL,
    issued TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
)
"""


def _hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class SeatBook:
    """The seats of the game in progress and the host's: who holds which token.

    Writes happen on the daemon loop's thread; ``seat_of`` may be called from any thread.
    """

    def __init__(self, path: Path | None) -> None:
        self._db = sqlite3.connect(
            ":memory:" if path is None else path, isolation_level=None, check_same_thread=False
        )
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.execute(_SCHEMA)
        self._lock = threading.Lock()
        self._game: int | None = None
        self._hashes: dict[str, bytes] = {}
        self._load(None)

    def _load(self, game_id: int | None) -> None:
        games = (TABLE_WIDE,) if game_id is None else (TABLE_WIDE, game_id)
        marks = ",".join("?" * len(games))
        rows = self._db.execute(
            f"SELECT seat, token_hash FROM seats WHERE game_id IN ({marks})", games
        ).fetchall()
        with self._lock:
            self._game = game_id
            self._hashes = {seat: bytes(digest) for seat, digest in rows}

    def follow(self, game_id: int | None) -> bool:
        """Load the seats of ``game_id`` when it is not the game followed; True if it changed."""
        if game_id == self._game:
            return False
        self._load(game_id)
        return True

    @property
    def game_id(self) -> int | None:
        """The game whose seats are loaded."""
        return self._game

    def issue(self, seat: str) -> str:
        """Give ``seat`` a new token (the old one stops working) and return it."""
        game = TABLE_WIDE if seat == HOST else self._game
        if game is None:
            raise ValueError("no game in progress to seat a player at")
        token = secrets.token_urlsafe(32)
        digest = _hash(token)
        issued = datetime.now(UTC).isoformat(timespec="seconds")
        self._db.execute(
            "INSERT OR REPLACE INTO seats (game_id, seat, token_hash, issued) VALUES (?, ?, ?, ?)",
            (game, seat, digest, issued),
        )
        with self._lock:
            self._hashes[seat] = digest
        return token

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
        (the seat moved to another phone, or a new game began) is told to join again."""
        with self._lock:
            return {seat: digest[:8].hex() for seat, digest in self._hashes.items()}

    def taken(self) -> frozenset[str]:
        """The seats that have a phone (the host's included)."""
        with self._lock:
            return frozenset(self._hashes)

    def close(self) -> None:
        """Close the seats' connection."""
        self._db.close()
