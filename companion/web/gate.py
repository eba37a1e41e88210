"""The pages' gate: how many connections may be open, per address and in all, and how long a
request may take to arrive.

The web server shares the daemon's open files with the journal, the devices and the control
socket, so it keeps its connections below a cap taken from the process's limit on open files
(``open_cap``). A full gate makes room by closing the connection that has waited longest
without a request in progress (a guest's idle or half-sent one, or a page's kept-alive one,
which its browser opens again); only when every connection is busy is the newcomer closed. A
request must arrive whole, head and body, within ``REQUEST_S`` of its connection opening or of
the previous answer; a connection that trickles is closed.
"""

from __future__ import annotations

import asyncio
import resource
from collections import Counter
from typing import Any, ClassVar

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

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


class Gate:
    """The web server's open connections: counted per address, the longest-waiting one
    closed to make room."""

    def __init__(self, cap: int, per_address: int = PER_ADDRESS, request_s: float = REQUEST_S):
        self.cap = cap
        self.per_address = per_address
        self.request_s = request_s
        #: The HTTP connections (a socket leaves this count when it becomes a WebSocket).
        self.http: dict[GuardedHttp, str] = {}
        self.per: Counter[str] = Counter()
        #: The connections waiting for a request, the longest-waiting first.
        self.waiting: dict[GuardedHttp, None] = {}
        #: Connections closed here whose sockets the event loop has not released yet.
        self.leaving = 0

    def opened(self, connection: GuardedHttp, open_now: int) -> None:
        """Let ``connection`` in (``open_now`` connections are open with it), making room."""
        address = connection.address
        self.http[connection] = address
        self.per[address] += 1
        total = open_now - self.leaving
        while self.per[address] > self.per_address or total > self.cap:
            mine = self.per[address] > self.per_address
            victim = self._oldest_idle(connection, address if mine else None)
            if victim is None:
                self.drop(connection)
                return
            self.drop(victim)
            total -= 1

    def drop(self, connection: GuardedHttp) -> None:
        """Close ``connection`` (a request in progress sees its client gone)."""
        if connection.dropped or connection not in self.http:
            return
        connection.dropped = True
        self.waiting.pop(connection, None)
        self.leaving += 1
        self.per[connection.address] -= 1
        connection.close()

    def closed(self, connection: GuardedHttp) -> None:
        """Forget ``connection`` (gone, or now a WebSocket)."""
        self.waiting.pop(connection, None)
        address = self.http.pop(connection, None)
        if address is None:
            return
        if connection.dropped:
            self.leaving -= 1
        else:
            self.per[address] -= 1
        if self.per[address] <= 0:
            del self.per[address]

    def wait(self, connection: GuardedHttp) -> None:
        """``connection`` waits for a request from now on (it goes last in line to be closed)."""
        self.waiting.pop(connection, None)
        self.waiting[connection] = None

    def busy(self, connection: GuardedHttp) -> None:
        """``connection``'s request has begun: it is not closed to make room."""
        self.waiting.pop(connection, None)

    def _oldest_idle(self, newcomer: GuardedHttp, address: str | None) -> GuardedHttp | None:
        """The connection, other than ``newcomer``, waiting longest for a request (of
        ``address`` if given)."""
        for connection in self.waiting:
            if connection is not newcomer and (address is None or connection.address == address):
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
        self.gate.closed(self)
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


def guarded(gate: Gate) -> type[GuardedHttp]:
    """The HTTP protocol class uvicorn makes its connections with, let in by ``gate``."""
    return type("GateHttp", (GuardedHttp,), {"gate": gate})
