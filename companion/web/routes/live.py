"""The live socket: every open page gets the newest picture it may see, pushed by the hub."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.web.guard import MAX_SOCKETS, same_origin
from companion.web.hub import REJOIN, PageSocket
from companion.web.routes.common import client, is_host, seat_of, served
from companion.web.seats import HOST


async def text_frame(socket: WebSocket) -> str | None:
    """The next text frame a page sent; None for a binary one (the caller closes the socket).

    Raises WebSocketDisconnect when the page went away.
    """
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if isinstance(text, str) else None


async def live(socket: WebSocket) -> None:
    side = served(socket).side
    hub = side.hub
    if not same_origin(socket.headers):
        await socket.close(code=1008)
        return
    page = socket.query_params.get("page", "board")
    seat = seat_of(socket) if page == "play" else None
    host_seat = page == "host" and is_host(socket)
    await socket.accept()  # from here a refusal is a closing code the page acts on
    if (page == "play" and seat is None) or (page == "host" and not host_seat):
        await socket.close(code=REJOIN)  # the page goes back to joining
        return
    held = seat if seat is not None else (HOST if host_seat else None)
    stamp = side.seats.stamps().get(held, "") if held else ""
    holder = held or (HOST if is_host(socket) else seat_of(socket))  # a seat's scoreboard
    peer = (socket.client.host, socket.client.port) if socket.client else None
    connection = PageSocket(socket, seat, host_seat, stamp, client(socket), holder, peer)
    if not await hub.admit(connection, MAX_SOCKETS):  # from now on every change is drawn...
        return
    await side.read(side.drawn)  # ...and what changed while no page was open is drawn now
    task = asyncio.ensure_future(hub.serve(connection))
    try:
        while True:  # pages only ping; anything else, or too large, closes the socket
            message = await text_frame(socket)
            if message is None:  # a binary frame: no page sends one
                await socket.close(code=1003)
                break
            if len(message) > 64:
                await socket.close(code=1009)
                break
    except WebSocketDisconnect:
        pass
    finally:
        task.cancel()
        hub.connections.discard(connection)


async def board(request: Request) -> Response:
    """The scoreboard's picture over plain HTTP, for a page the live socket has no room for
    (204 when it already shows version ``v``): the TV's updates never wait on a socket."""
    side = served(request).side
    await side.read(side.drawn)
    frame = side.hub.frame()
    if request.query_params.get("v") == str(frame["v"]):
        return Response(status_code=204)
    return JSONResponse(frame)


ROUTES: list[BaseRoute] = [WebSocketRoute("/live", live), Route("/api/board", board)]
