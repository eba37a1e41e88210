"""Serve the pages from inside the daemon: uvicorn on its own thread, stopped with the daemon."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from companion.daemon.loop import Daemon
from companion.daemon.table import TableController
from companion.devices.config.sections import WebSection
from companion.web import gate
from companion.web.app import create_app
from companion.web.door import HostNames
from companion.web.hub import Hub
from companion.web.hush import QuietLoop, quiet_server_logs
from companion.web.joins import Joins
from companion.web.seats import SeatBook
from companion.web.side import TableSide, WebOutputs, WebTable

log = logging.getLogger("companion.web")


def lan_address() -> str:
    """The address other machines on the local network reach this one by (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


#: How often the idle server wakes to renew the date its answers carry (uvicorn's own loop
#: wakes ten times a second, which is most of what an idle table costs a small Pi).
TICK_S = 1.0


class Server(uvicorn.Server):
    """uvicorn's server, with an event loop whose errors cannot flood the log, which sleeps
    between its once-a-second chores and wakes at once when asked to stop."""

    _loop: asyncio.AbstractEventLoop | None = None
    _stop: asyncio.Event | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(QuietLoop())
        await super().serve(sockets)

    async def main_loop(self) -> None:
        """Do uvicorn's chores (the date header, the exit check) once per tick; sleep between."""
        self._stop = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        while not await self.on_tick(0):  # tick 0: uvicorn renews the date on every tenth
            try:
                await asyncio.wait_for(self._stop.wait(), TICK_S)
            except TimeoutError:
                pass

    def exit(self) -> None:
        """Ask the server to finish (from any thread); its loop wakes for it at once."""
        self.should_exit = True
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:  # the loop has closed: the server has finished already
                pass

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        for listener in sockets or []:  # uvicorn takes BACKLOG at once; the kernel holds more
            listener.listen(gate.QUEUE)


@dataclass
class WebServer:
    """The pages' server: its listening socket, its thread, the uvicorn server in it."""

    listener: socket.socket
    server: Server
    seats: SeatBook
    address: str
    thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Where the pages are (what `companion simulate` prints)."""
        return f"http://{self.address}/"

    def start(self) -> None:
        """Serve on a thread of its own, with its own event loop."""
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listener]}, name="web", daemon=True
        )
        self.thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the server to finish, wait for it, and close the seats' connection."""
        self.server.exit()
        if self.thread is not None:
            self.thread.join(timeout)
        self.listener.close()
        self.seats.close()


def install(
    section: WebSection, daemon: Daemon, controller: TableController, journal: Path | None
) -> WebServer:
    """Put the pages beside the table: wrap the loop's table and outputs, bind the socket.

    Raises OSError when the address cannot be bound (the port is taken, say).
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((section.bind, section.port))
        listener.listen(gate.BACKLOG)
    except OSError:
        listener.close()
        raise
    port = listener.getsockname()[1]
    host = lan_address() if section.bind == "0.0.0.0" else section.bind
    address = f"{host}:{port}"
    seats = SeatBook(journal)
    hub = Hub()
    side = TableSide(daemon, controller, seats, Joins(daemon.clock), hub, address)
    table = WebTable(controller)
    table.side = side
    daemon.table = table
    daemon.outputs = WebOutputs(daemon.outputs, side)
    keeper = gate.Gate(gate.open_cap(gate.files_limit()))
    quiet_server_logs()
    config = uvicorn.Config(
        create_app(side, names=HostNames(section.names)),
        log_level="warning",
        access_log=False,  # no request line (nor anything a phone sent) reaches a log
        ws="websockets-sansio",
        ws_max_size=4096,
        lifespan="on",
        proxy_headers=False,
        server_header=False,
        http=gate.guarded(keeper),
        limit_concurrency=2 * keeper.cap,  # never reached: the gate makes room first
        timeout_keep_alive=gate.KEEP_ALIVE_S,
        backlog=gate.BACKLOG,
        h11_max_incomplete_event_size=gate.MAX_HEAD,
    )
    return WebServer(listener, Server(config), seats, address)
