"""The web app: the pages, their socket, joins and inputs, every request checked at the door.

Rules kept by every route: a seat's private part and inputs need that seat's token (an
HttpOnly, SameSite=Strict cookie), a POST or socket from another origin is refused, bodies
and messages are size-bounded, joins and inputs are rate-limited per client address, and no
token reaches a URL or a log.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.daemon.flows.base import Reply
from companion.render.language import _, speaking
from companion.web.door import Door, HostNames
from companion.web.guard import MAX_BODY, MAX_SOCKETS, RateLimit, same_origin
from companion.web.hub import REJOIN, PageSocket
from companion.web.inputs import PageRefusal, seat_request
from companion.web.joins import Refused, Verdict
from companion.web.pages import home_page, host_page, join_page, play_page, scoreboard_page
from companion.web.seats import HOST
from companion.web.shapes import Malformed, read_json, text_frame, whole
from companion.web.side import Answer, TableSide
from companion.web.words import t

SEAT_COOKIE = "seat"
HOST_COOKIE = "host"
JOIN_COOKIE = "join"
#: A seat's cookie lasts a long evening of games.
COOKIE_S = 24 * 3600
STATIC = {"app.js": "text/javascript", "style.css": "text/css", "favicon.svg": "image/svg+xml"}


def refusal(code: str, sentence: str, status: int = 400) -> JSONResponse:
    """A refused request: its reason code and a sentence the page shows."""
    return JSONResponse({"ok": False, "code": code, "sentence": sentence}, status_code=status)


def answered(answer: Answer) -> JSONResponse:
    """A request the table answered."""
    if answer.ok:
        return JSONResponse({"ok": True})
    return refusal(answer.code, answer.sentence, 409)


def _set_cookie(response: Response, name: str, value: str) -> None:
    response.set_cookie(name, value, max_age=COOKIE_S, path="/", httponly=True, samesite="strict")


def _client(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "?"


def create_app(
    side: TableSide, clock: Callable[[], float] = time.monotonic, names: HostNames | None = None
) -> Starlette:
    """Return the app serving ``side``'s table under ``names`` (see ``HostNames``)."""
    joins_limit = RateLimit(burst=5, per_s=0.2, clock=clock)
    inputs_limit = RateLimit(burst=20, per_s=5.0, clock=clock)
    hub = side.hub

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        yield

    def refused(code: str, sentence: str, status: int = 400) -> JSONResponse:
        """A refused request: ``sentence`` (a word of the pages) in the table's language."""
        with speaking(side.language):
            return refusal(code, t(sentence), status)

    def html_in_language(draw: Callable[[], str]) -> HTMLResponse:
        """A page drawn in the table's language."""
        with speaking(side.language):
            return HTMLResponse(draw())

    def seat_of(request: Request | WebSocket) -> str | None:
        seat = side.seats.seat_of(request.cookies.get(SEAT_COOKIE))
        return seat if seat != HOST else None

    def is_host(request: Request | WebSocket) -> bool:
        return side.seats.seat_of(request.cookies.get(HOST_COOKIE)) == HOST

    async def body(request: Request) -> dict[str, Any] | JSONResponse:
        if not same_origin(request.headers):
            return refused("cross_origin", "Open the companion's own page.", 403)
        length = whole(request.headers.get("content-length"))
        if length is None or length > MAX_BODY:
            return refused("too_large", "That request is too large.", 413)
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return refused("too_large", "That request is too large.", 413)
        try:
            data = read_json(raw)
        except Malformed:
            return refused("malformed", "That was not an input.")
        if not isinstance(data, dict):
            return refused("malformed", "That was not an input.")
        return data

    async def home(request: Request) -> Response:
        return html_in_language(home_page)

    async def scoreboard(request: Request) -> Response:
        snap = await side.read(side.drawn)
        return html_in_language(lambda: scoreboard_page(snap.public))

    async def play(request: Request) -> Response:
        seat = seat_of(request)
        if seat is None:
            return RedirectResponse("/join", 303)
        snap = await side.read(side.drawn)
        return html_in_language(lambda: play_page(snap.public, snap.private.get(seat, "")))

    async def host(request: Request) -> Response:
        if not is_host(request):
            return RedirectResponse("/join?host", 303)
        snap = await side.read(side.drawn)
        return html_in_language(lambda: host_page(snap.public, snap.host))

    async def join(request: Request) -> Response:
        players = await side.read(side.joinable)
        wants_host = "host" in request.query_params
        taken, hosted = side.seats.taken(), side.host_taken()
        return html_in_language(lambda: join_page(players, taken, wants_host, hosted))

    async def ask_seat(request: Request) -> Response:
        data = await body(request)
        if isinstance(data, Response):
            return data
        if not joins_limit.allow(_client(request), spend=False):
            return refused("too_many", "Too many tries: wait a minute.", 429)
        code, seat = data.get("code"), data.get("seat")
        if not isinstance(code, str) or not isinstance(seat, str) or len(code) > 16:
            return refused("malformed", "That was not an input.")
        before = side.joins.code
        verdict = side.joins.check(code.strip())
        if verdict is Verdict.SPENT:
            return refused("long_code", "The table shows a longer code now: type it.", 403)
        if verdict is Verdict.WRONG:
            joins_limit.allow(_client(request))  # one address cannot take the whole budget
            if side.joins.code != before:
                await side.enter(lambda ctx: Reply())  # the table shows the new code
            return refused("wrong_code", "Wrong code: read it on the table.", 403)
        if seat == HOST and side.host_taken():
            return refused("host_taken", "This table has a host already.", 409)
        players = await side.read(side.joinable)
        if seat != HOST and seat not in players:
            return refused("no_such_seat", "There is no such seat.", 404)
        asked = side.joins.ask(seat)
        if asked is Refused.SEAT_ASKED:
            return refused("seat_asked", "A phone is already asking for that seat.", 409)
        if asked is Refused.TOO_MANY:
            return refused("too_many", "Too many phones waiting: try again.", 429)
        await side.enter(lambda ctx: Reply())  # the table asks about it at once
        response = JSONResponse({"ok": True, "waiting": True})
        _set_cookie(response, JOIN_COOKIE, asked.key)
        return response

    async def seat_status(request: Request) -> Response:
        asked = side.joins.find(request.cookies.get(JOIN_COOKIE))
        if asked is None:
            return refused("no_request", "Ask for a seat first.", 404)
        if asked.declined:
            side.joins.collect(asked.key)
            return refused("declined", "The table said no.", 403)
        if asked.token is None:
            return JSONResponse({"ok": True, "waiting": True})
        side.joins.collect(asked.key)
        where = "/host" if asked.seat == HOST else "/play"
        response = JSONResponse({"ok": True, "waiting": False, "go": where})
        _set_cookie(response, HOST_COOKIE if asked.seat == HOST else SEAT_COOKIE, asked.token)
        response.delete_cookie(JOIN_COOKIE, path="/")
        return response

    async def make_input(request: Request) -> Response:
        data = await body(request)
        if isinstance(data, Response):
            return data
        seat = seat_of(request)
        if seat is None:
            return refused("no_seat", "This phone has no seat: join first.", 401)
        if not inputs_limit.allow(seat):
            return refused("too_many", "Too fast: wait a moment.", 429)
        game_id = side.seats.game_id
        try:
            fields = seat_request(seat, data)
        except PageRefusal as error:
            with speaking(side.language):
                return refusal(error.code, _(error.sentence))
        return answered(await side.seat_input(seat, game_id, fields))

    async def leave(request: Request) -> Response:
        data = await body(request)
        if isinstance(data, Response):
            return data
        seat = seat_of(request)
        if seat is None:
            return refused("no_seat", "This phone has no seat: join first.", 401)
        return answered(await side.leave(seat))

    async def host_command(request: Request) -> Response:
        data = await body(request)
        if isinstance(data, Response):
            return data
        if not is_host(request):
            return refused("not_host", "Only the host page can do that.", 401)
        if not inputs_limit.allow(HOST):
            return refused("too_many", "Too fast: wait a moment.", 429)
        command = data.pop("do", None)
        if not isinstance(command, str):
            return refused("malformed", "That was not a command.")
        return answered(await side.host_command(command, data))

    async def game_log(request: Request) -> Response:
        if not is_host(request):
            return refused("not_host", "Only the host page can do that.", 401)
        game_id = int(request.path_params["game_id"])
        known, text = await side.read(lambda: side.game_log(game_id))
        if not known:
            return refused("no_such_game", "There is no such game.", 404)
        if text is None:  # a game's log holds its sealed inputs
            return refused("log_sealed", "A game's log opens once the game is over.", 403)
        return Response(
            text,
            media_type="application/jsonl",
            headers={"content-disposition": f'attachment; filename="game-{game_id}.jsonl"'},
        )

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return refused("not_found", "There is no such page.", 404)
        data = resources.files("companion.web").joinpath("static", name).read_bytes()
        return Response(data, media_type=STATIC[name], headers={"cache-control": "max-age=300"})

    async def live(socket: WebSocket) -> None:
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
        connection = PageSocket(socket, seat, host_seat, stamp, _client(socket), holder)
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

    async def no_route(request: Request, error: Exception) -> Response:
        """A path or method no route serves: refused like any other request."""
        if isinstance(error, HTTPException) and error.status_code == 405:
            return refused("wrong_method", "That request is not one the pages make.", 405)
        return refused("not_found", "There is no such page.", 404)

    app = Starlette(
        routes=[
            Route("/", home),
            Route("/scoreboard", scoreboard),
            Route("/play", play),
            Route("/host", host),
            Route("/join", join),
            Route("/api/join", ask_seat, methods=["POST"]),
            Route("/api/join", seat_status, methods=["GET"]),
            Route("/api/input", make_input, methods=["POST"]),
            Route("/api/leave", leave, methods=["POST"]),
            Route("/api/host", host_command, methods=["POST"]),
            Route("/host/log/{game_id:int}", game_log),
            Route("/static/{name}", static),
            WebSocketRoute("/live", live),
        ],
        lifespan=lifespan,
        middleware=[Middleware(Door, refuse=refused, names=names)],
        exception_handlers={HTTPException: no_route},
    )

    return app
