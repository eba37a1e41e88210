"""Live updates: every open page's socket gets the newest picture it may see, latest first.

The daemon's loop publishes a ``Snapshot`` after each change (from its own thread); the hub
hands it to the web server's event loop, where each connection's sender wakes up and sends
what changed for it. A slow phone never holds anyone up: it gets only the newest picture.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

# The hub is made before the table plays; asyncio and Starlette load with the pages, beside
# the playing table (see web/server.py), so they are imported where the pages' loop runs.
if TYPE_CHECKING:
    import asyncio

    from starlette.websockets import WebSocket

log = logging.getLogger("companion.web")


@dataclass(frozen=True)
class Snapshot:
    """Everything the pages show at one moment, already drawn: the public part, each seated
    player's private part (by seat), and the host's part."""

    version: int = 0
    public: str = ""
    private: Mapping[str, str] = field(default_factory=dict)
    host: str = ""
    #: Each seat's token fingerprint (``SeatBook.stamps``): never sent, compared with a page's.
    stamps: Mapping[str, str] = field(default_factory=dict)
    #: The language the parts are drawn in: a page drawn in another one loads itself again.
    language: str = "en"


#: The socket's closing code that sends a page back to joining (its seat is no longer its own).
REJOIN = 4401
#: The closing code of a socket there is no room for now: the page tries again a little later.
FULL = 1013
#: Sockets of pages holding no seat (a scoreboard nobody seated opened), in all: the rest of
#: the sockets (MAX_SOCKETS of guard.py) is kept for the seats, so that no guest can take a
#: seated phone's updates away. When they are all taken, a page from an address holding
#: fewer of them than another takes the place of that address's oldest one.
UNSEATED = 24
#: Sockets of pages holding no seat from one address.
UNSEATED_PER_ADDRESS = 4
#: Sockets of one seat (a phone's page, its scoreboard, one left over from a lost network);
#: a seat's newest page takes the place of its oldest. The most seats (ten players of Course
#: hippique and the host) times this stays below MAX_SOCKETS - UNSEATED.
PER_SEAT = 3


def _fairer(seatless: list[PageSocket], here: int) -> PageSocket | None:
    """The seatless socket that makes room for one more from an address holding ``here``: the
    oldest of the address holding the most, if it holds at least two more; else None."""
    counts = Counter(c.address for c in seatless)
    busiest, most = counts.most_common(1)[0]
    if most < here + 2:
        return None
    return min((c for c in seatless if c.address == busiest), key=lambda c: c.since)


def _wake() -> asyncio.Event:
    """A page sender's wake-up, made on the pages' loop."""
    import asyncio

    return asyncio.Event()


@dataclass(eq=False)
class PageSocket:
    """One open page: its socket, its seat (None for the scoreboard) and that seat's token
    fingerprint when it connected, whether it is the host's."""

    socket: WebSocket
    seat: str | None
    host: bool
    stamp: str = ""
    #: The client's address, and the seat whose share the socket counts in (None: unseated).
    address: str = ""
    holder: str | None = None
    #: The client's address and port (how the server's gate names the socket).
    peer: tuple[str, int] | None = None
    since: float = field(default_factory=time.monotonic)
    wake: asyncio.Event = field(default_factory=_wake)
    sent: tuple[str, str, str] = ("", "", "")


class Hub:
    """The open pages and the newest snapshot."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.latest = Snapshot()
        self.connections: set[PageSocket] = set()
        #: Tells the server's gate that the socket from a peer is a seated page's, never
        #: closed to make room (set by the server).
        self.keep: Callable[[tuple[str, int] | None], None] = lambda peer: None
        #: The frames of the latest snapshot already written, by the parts they carry: the
        #: pages that need the same parts (every scoreboard) share one text.
        self._written: dict[tuple[int, tuple[str | None, ...]], str] = {}

    async def admit(self, connection: PageSocket, most: int) -> bool:
        """Count ``connection`` in if there is room for it among ``most`` sockets, else close
        it with FULL; a seat's oldest socket makes room for its newest, and with every
        seatless socket taken, the oldest of the address holding the most makes room for a
        page from an address holding fewer (the one making room is closed). Runs on the
        server's loop."""
        mine = [c for c in self.connections if c.holder == connection.holder]
        ousted = None
        if connection.holder is None:
            here = sum(c.address == connection.address for c in mine)
            room = here < UNSEATED_PER_ADDRESS
            if room and len(mine) >= UNSEATED:
                ousted = _fairer(mine, here)
                room = ousted is not None
        else:
            if len(mine) >= PER_SEAT:
                ousted = min(mine, key=lambda c: c.since)
            room = True
        room = room and len(self.connections) - (ousted is not None) < most
        if not room:
            ousted = None
        elif ousted is not None:
            self.connections.discard(ousted)
        if room:
            self.connections.add(connection)
            if connection.holder is not None:
                self.keep(connection.peer)
        for closed in (ousted, None if room else connection):
            if closed is not None:
                with contextlib.suppress(RuntimeError, OSError):
                    await closed.socket.close(code=FULL)
        return room

    def frame(self) -> dict[str, object]:
        """The newest public part as a frame of the live socket (what a scoreboard reads when
        it has no socket)."""
        snap = self.latest
        return {"v": snap.version, "lang": snap.language, "public": snap.public}

    def publish(self, snapshot: Snapshot) -> None:
        """Take a new snapshot; safe from any thread."""
        self.latest = snapshot
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        for connection in self.connections:
            connection.wake.set()

    def still_seated(self, connection: PageSocket) -> bool:
        """Whether the seat (or host) the page connected with still holds the same token."""
        stamps = self.latest.stamps
        held = [s for s in (connection.seat, "#host" if connection.host else None) if s]
        return all(stamps.get(seat) == connection.stamp for seat in held)

    def message(self, connection: PageSocket) -> str | None:
        """The frame ``connection`` needs now, or None when it has seen all of it."""
        snap = self.latest
        private = snap.private.get(connection.seat, "") if connection.seat else ""
        host = snap.host if connection.host else ""
        now = (snap.public, private, host)
        if now == connection.sent:
            return None
        changed = tuple(
            new if new != old else None for new, old in zip(now, connection.sent, strict=True)
        )  # each part the page has not seen (None: seen)
        connection.sent = now
        key = (snap.version, changed)
        written = self._written.get(key)
        if written is None:
            if any(version != snap.version for version, _ in self._written):
                self._written.clear()  # a new snapshot: the last one's frames go
            frame: dict[str, object] = {"v": snap.version, "lang": snap.language}
            for part, new in zip(("public", "private", "host"), changed, strict=True):
                if new is not None:
                    frame[part] = new
            written = self._written[key] = json.dumps(frame)
        return written

    async def serve(self, connection: PageSocket) -> None:
        """Send ``connection`` every change until its socket closes."""
        from starlette.websockets import WebSocketDisconnect

        self.connections.add(connection)
        connection.wake.set()
        try:
            while True:
                await connection.wake.wait()
                connection.wake.clear()
                if not self.still_seated(connection):
                    await connection.socket.close(code=REJOIN)
                    return
                frame = self.message(connection)
                if frame is not None:
                    await connection.socket.send_text(frame)
        except (WebSocketDisconnect, OSError, RuntimeError):
            pass  # the page went away; it reconnects by itself
        finally:
            self.connections.discard(connection)
