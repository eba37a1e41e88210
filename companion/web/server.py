"""Serve the pages from inside the daemon: the socket and the table's side bound before the
table plays, the application and uvicorn made and run on a thread of their own beside it."""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.daemon.loop import Daemon
from companion.daemon.table import TableController
from companion.devices.config.sections import WebSection
from companion.web.hub import Hub
from companion.web.joins import Joins
from companion.web.qr import KEPT_NAME, KeptRows
from companion.web.seats import SeatBook
from companion.web.side import TableSide, WebOutputs, WebTable

if TYPE_CHECKING:
    from companion.web.serving import Server

log = logging.getLogger("companion.web")

#: Connections the kernel completes and holds until the server takes them (no file each): a
#: long queue, so that a phone's connection waits in line instead of being dropped and tried
#: again a second or three later while a guest's device opens connection after connection,
#: or while the server is still being made just after the start.
QUEUE = 1024


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


@dataclass
class WebServer:
    """The pages' server: its listening socket, the table's side it serves, its thread, and
    the uvicorn server made on that thread."""

    listener: socket.socket
    side: TableSide
    seats: SeatBook
    address: str
    #: The table's outputs with the pages beside them (they owe the OLED its QR code).
    outputs: WebOutputs
    #: The host names the pages answer to besides the machine's own (``[web] names``).
    names: tuple[str, ...] = ()
    #: The clock of the pages' rate limits (a test moves it on).
    clock: Callable[[], float] = time.monotonic
    thread: threading.Thread | None = None
    #: uvicorn's server, once the pages' thread has made it.
    server: Server | None = None
    _stopping: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        """Where the pages are (what `companion simulate` prints)."""
        return f"http://{self.address}/"

    @property
    def loopback(self) -> bool:
        """Whether the pages answer this computer only (bound to a loopback address): no
        phone can open them."""
        host = self.address.rsplit(":", 1)[0]
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:  # a name: only "localhost" is this computer alone
            return host == "localhost"

    @property
    def started(self) -> bool:
        """Whether the pages answer (a connection made before waits in the socket's queue)."""
        return self.server is not None and self.server.started

    def start(self) -> None:
        """Make the application and its server, and serve, on a thread of its own."""
        self.thread = threading.Thread(target=self._serve, name="web", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            self.outputs.work_out_code()
        except Exception as error:  # the OLED keeps showing the join code in words
            log.error("the join QR code cannot be drawn (%r)", error)
        try:  # the pages' libraries load here, while the table already plays
            from companion.web.app import create_app
            from companion.web.door import HostNames
            from companion.web.serving import server_for

            app = create_app(self.side, clock=self.clock, names=HostNames(self.names))
            server = server_for(app, self.side.hub)
        except Exception as error:
            # The table plays without its pages rather than not at all; no phone is left
            # waiting on a socket nobody will answer.
            log.error("the pages cannot be served on %s (%r)", self.address, error)
            self.listener.close()
            return
        with self._lock:
            if self._stopping:
                return
            self.server = server
        server.run(sockets=[self.listener])

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the server to finish, wait for it, and close the seats' connection."""
        with self._lock:
            self._stopping = True
            server = self.server
        if server is not None:
            server.exit()
        if self.thread is not None:
            self.thread.join(timeout)
        self.listener.close()
        self.seats.close()


def install(
    section: WebSection, daemon: Daemon, controller: TableController, journal: Path | None
) -> WebServer:
    """Put the pages beside the table: wrap the loop's table and outputs, bind the socket and
    listen on it (a phone that connects waits in its queue until the server is up).

    Raises OSError when the address cannot be bound (the port is taken, say).
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((section.bind, section.port))
        listener.listen(QUEUE)
    except OSError:
        listener.close()
        raise
    port = listener.getsockname()[1]
    host = lan_address() if section.bind == "0.0.0.0" else section.bind
    address = f"{host}:{port}"
    seats = SeatBook(journal)
    side = TableSide(daemon, controller, seats, Joins(daemon.clock), Hub(), address)
    table = WebTable(controller)
    table.side = side
    daemon.table = table
    codes = KeptRows(journal.parent / KEPT_NAME if journal is not None else None)
    outputs = WebOutputs(daemon.outputs, side, codes)
    daemon.outputs = outputs
    return WebServer(listener, side, seats, address, outputs, names=section.names)
