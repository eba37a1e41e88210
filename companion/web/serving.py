"""uvicorn serving the pages' application, made on the pages' own thread once the table plays."""

from __future__ import annotations

import asyncio
import socket

import uvicorn
from starlette.types import ASGIApp

from companion.web import gate
from companion.web.hub import Hub
from companion.web.hush import QuietLoop, quiet_server_logs
from companion.web.server import QUEUE

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
            listener.listen(QUEUE)


def server_for(app: ASGIApp, hub: Hub) -> Server:
    """The server of ``app``: no access log, the gate's limits, no server header; ``hub``
    tells the gate which sockets are seated pages'."""
    keeper = gate.Gate(gate.open_cap(gate.files_limit()))
    hub.keep = keeper.keep
    quiet_server_logs()
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,  # no request line (nor anything a phone sent) reaches a log
        ws=gate.guarded_sockets(keeper),
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
    return Server(config)
