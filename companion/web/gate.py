"""The pages' gate: how many connections may be open, per address and in all, and how long a
request may take to arrive.

The web server shares the daemon's open files with the journal, the devices and the control
socket, so it keeps its connections below a cap taken from the process's limit on open files
(``open_cap``). A page's socket counts like the connection it was upgraded from, in its
address's share and in all. A full gate (or a full share) makes room by closing the
connection that has waited longest without a request in progress (a guest's idle or
half-sent one, a page's kept-alive one, which its browser opens again, a socket closing),
then the oldest socket of a page holding no seat; a full gate takes them from the address
holding the most connections first. Only when every connection is busy or a seated page's
is the newcomer closed. A request must arrive whole, head and body, within ``REQUEST_S`` of
its connection opening or of the previous answer; a connection that trickles is closed.
"""

from __future__ import annotations

import asyncio
import resource
from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from companion.web.deflate import SharedDeflateFactory
from companion.web.hub import FULL

if TYPE_CHECKING:
    from uvicorn._types import ASGISendEvent

#: Never more connections than this, however many files the process may open (a Pi's memory).
MAX_OPEN = 1024
#: Files kept for everything else (journal, devices, control socket, logs), whatever the limit.
RESERVED_FILES = 128
#: Connections one address may hold at once (a phone's browser opens six at most per site).
PER_ADDRESS = 48
#: A request must arrive whole within this many seconds (a phone sends one in milliseconds).
REQUEST_S = 5.0
#: A page's kept-alive connection with no new request is closed after this many seconds.
KEEP_ALIVE_S = 5
#: Connections taken from the kernel's queue at once (each takes a file until it is closed).
BACKLOG = 64
#: The largest request head read (bytes); a longer one is answered 400 by the server.
MAX_HEAD = 8192
#: A page's socket closed by the companion is closed this many seconds after it said why,
#: whether or not the other side has answered (a socket refused for want of room: at once).
CLOSE_S = 1.0


def open_cap(soft_limit: int) -> int:
    """The most connections kept open under a soft limit of ``soft_limit`` open files.

    A quarter of the limit (at least ``RESERVED_FILES``) is left to the rest of the daemon and
    to connections just taken from the kernel's queue, not yet closed; -1 means no limit.
    """
    if soft_limit < 0:
        return MAX_OPEN
    reserved = max(RESERVED_FILES, soft_limit // 4)
    return max(8, min(MAX_OPEN, soft_limit - reserved))


def files_limit() -> int:
    """This process's soft limit on open files (-1 when there is none)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return -1 if soft == resource.RLIM_INFINITY else soft


class Guarded(Protocol):
    """A connection the gate lets in: an HTTP one, or a page's socket upgraded from one."""

    address: str
    dropped: bool

    def close(self) -> None:
        """Close the connection now."""


class Gate:
    """The web server's open connections, HTTP ones and pages' sockets alike: counted per
    address and in all, one that is idle closed to make room.

    Idle, first to go: a connection waiting for a request, a socket closing. Then a page's
    socket that holds no seat (a scoreboard nobody seated opened, or one not let in by the
    hub yet). Never: a request in progress, a seated page's socket (``keep``).
    """

    def __init__(self, cap: int, per_address: int = PER_ADDRESS, request_s: float = REQUEST_S):
        self.cap = cap
        self.per_address = per_address
        self.request_s = request_s
        #: Every connection let in, and its address.
        self.open: dict[Guarded, str] = {}
        self.per: Counter[str] = Counter()
        #: The idle connections, the longest-waiting first.
        self.waiting: dict[Guarded, None] = {}
        #: The sockets of pages holding no seat, the oldest first.
        self.seatless: dict[Guarded, None] = {}
        #: The sockets by their client's address and port (how the pages' routes name them).
        self.sockets: dict[tuple[str, int], Guarded] = {}
        #: Connections closed here whose sockets the event loop has not released yet.
        self.leaving = 0

    def opened(self, connection: Guarded, open_now: int) -> None:
        """Let ``connection`` in (``open_now`` connections are open with it), making room."""
        address = connection.address
        self.open[connection] = address
        self.per[address] += 1
        total = open_now - self.leaving
        while self.per[address] > self.per_address or total > self.cap:
            mine = self.per[address] > self.per_address
            victim = self._victim(connection, address if mine else None)
            if victim is None:
                self.drop(connection)
                return
            self.drop(victim)
            total -= 1

    def socket_opened(self, connection: Guarded, peer: tuple[str, int] | None) -> None:
        """``connection`` is a page's socket (from ``peer``): it holds no seat until ``keep``."""
        if connection.dropped or connection not in self.open:
            return
        self.seatless[connection] = None
        if peer is not None:
            self.sockets[peer] = connection

    def keep(self, peer: tuple[str, int] | None) -> None:
        """The socket from ``peer`` is a seated page's: it is never closed to make room."""
        connection = self.sockets.get(peer) if peer is not None else None
        if connection is not None:
            self.seatless.pop(connection, None)

    def drop(self, connection: Guarded) -> None:
        """Close ``connection`` (a request in progress sees its client gone)."""
        if connection.dropped or connection not in self.open:
            return
        connection.dropped = True
        self.waiting.pop(connection, None)
        self.seatless.pop(connection, None)
        self.leaving += 1
        self.per[connection.address] -= 1
        connection.close()

    def closed(self, connection: Guarded, peer: tuple[str, int] | None = None) -> None:
        """Forget ``connection`` (gone, or now a page's socket, counted again as one)."""
        self.waiting.pop(connection, None)
        self.seatless.pop(connection, None)
        if peer is not None and self.sockets.get(peer) is connection:
            del self.sockets[peer]
        address = self.open.pop(connection, None)
        if address is None:
            return
        if connection.dropped:
            self.leaving -= 1
        else:
            self.per[address] -= 1
        if self.per[address] <= 0:
            del self.per[address]

    def wait(self, connection: Guarded) -> None:
        """``connection`` is idle from now on (it goes last in line to be closed)."""
        if connection.dropped:
            return
        self.waiting.pop(connection, None)
        self.waiting[connection] = None

    def busy(self, connection: Guarded) -> None:
        """``connection``'s request has begun: it is not closed to make room."""
        self.waiting.pop(connection, None)

    def _victim(self, newcomer: Guarded, address: str | None) -> Guarded | None:
        """The connection, other than ``newcomer``, closed to make room: of ``address`` when
        given (its own share is full), else of the address holding the most connections
        first, then of any; an idle one first, the longest-waiting, then a seatless socket,
        the oldest."""
        places: tuple[str | None, ...] = (address,)
        if address is None:
            places = (self.per.most_common(1)[0][0], None) if self.per else (None,)
        for line in (self.waiting, self.seatless):
            for place in places:
                for connection in line:
                    if connection is not newcomer and place in (None, connection.address):
                        return connection
        return None


class GuardedHttp(H11Protocol):
    """uvicorn's HTTP/1.1 connection, let in by the gate and timed while its request arrives."""

    gate: ClassVar[Gate]

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.address = "?"
        self.dropped = False
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.client[0] if self.client else "?"
        self._wait_for_request()
        self.gate.opened(self, len(self.connections))

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self.gate.closed(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self.idle():
            self.gate.busy(self)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._stop_waiting()
        self.gate.closed(self)  # the page's socket it becomes is let in as a connection of its own
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._wait_for_request()

    def idle(self) -> bool:
        """Whether no request is in progress: none sent yet, or only part of its head."""
        return self.conn.their_state is h11.IDLE and (
            self.cycle is None or self.cycle.response_complete
        )

    def close(self) -> None:
        """Close the connection now (the gate's ``drop`` calls it)."""
        self._stop_waiting()
        self.transport.close()

    def _wait_for_request(self) -> None:
        self._stop_waiting()
        if self.idle():  # else a request sent behind the last one is being read already
            self.gate.wait(self)
        self._deadline = self.loop.call_later(self.gate.request_s, self._late)

    def _stop_waiting(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.gate.drop(self)


class GuardedSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket, counted by the gate like the connection it was upgraded from, and
    closed as soon as it has said why (no wait for the other side's answer): a socket
    refused for want of room (FULL) at once, any other within ``CLOSE_S``."""

    gate: ClassVar[Gate]

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if config.ws_per_message_deflate:  # each live frame compressed once for all pages
            self.conn.available_extensions = [SharedDeflateFactory()]
        self.address = "?"
        self.dropped = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.address = self.client[0] if self.client else "?"
        self.gate.opened(self, len(self.connections))
        self.gate.socket_opened(self, self.client)

    def connection_lost(self, exc: Exception | None) -> None:
        self.gate.closed(self, self.client)
        super().connection_lost(exc)

    def close(self) -> None:
        """Close the socket now (the gate's ``drop`` calls it)."""
        self.transport.close()

    async def send(self, message: ASGISendEvent) -> None:
        await super().send(message)
        if message["type"] == "websocket.close" and self.close_timer is not None:
            self.gate.wait(self)  # closing: the first to go when room is needed
            self.close_timer.cancel()
            if message.get("code") == FULL:
                self.close_timer = None
                self.transport.close()
            else:
                self.close_timer = self.loop.call_later(CLOSE_S, self.transport.close)


def guarded(gate: Gate) -> type[GuardedHttp]:
    """The HTTP protocol class uvicorn makes its connections with, let in by ``gate``."""
    return type("GateHttp", (GuardedHttp,), {"gate": gate})


def guarded_sockets(gate: Gate) -> type[GuardedSocket]:
    """The WebSocket protocol class uvicorn upgrades connections to, let in by ``gate``."""
    return type("GateSocket", (GuardedSocket,), {"gate": gate})
