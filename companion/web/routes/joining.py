"""Joining a seat: the join page, a phone's request with the code, and its answer once the
table has confirmed (or declined) it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from companion.daemon.flows.base import Reply
from companion.render.language import speaking
from companion.web.inputs import PageRefusal
from companion.web.joins import Refused, Verdict
from companion.web.names import new_name
from companion.web.pages import join_page
from companion.web.routes.common import (
    HOST_COOKIE,
    JOIN_COOKIE,
    SEAT_COOKIE,
    body,
    client,
    html_in_language,
    refusal,
    refused,
    served,
    set_cookie,
)
from companion.web.seats import HOST


async def join(request: Request) -> Response:
    side = served(request).side
    players = await side.read(side.joinable)
    wants_host = "host" in request.query_params
    taken, hosted = side.seats.taken(), side.host_taken()
    return html_in_language(side, lambda: join_page(players, taken, wants_host, hosted))


async def ask_seat(request: Request) -> Response:
    table = served(request)
    side = table.side
    data = await body(request)
    if isinstance(data, Response):
        return data
    if not table.joins_limit.allow(client(request), spend=False):
        return refused(side, "too_many", "Too many tries: wait a minute.", 429)
    code, seat, name = data.get("code"), data.get("seat"), data.get("name")
    if (seat is None) == (name is None):  # a seat offered, or a new person's name: one of them
        return refused(side, "malformed", "That was not an input.")
    if not isinstance(code, str) or not isinstance(seat or name, str) or len(code) > 16:
        return refused(side, "malformed", "That was not an input.")
    before = side.joins.code
    verdict = side.joins.check(code.strip())
    if verdict is Verdict.SPENT:
        return refused(side, "long_code", "The table shows a longer code now: type it.", 403)
    if verdict is Verdict.WRONG:
        table.joins_limit.allow(client(request))  # one address cannot take the whole budget
        if side.joins.code != before:
            await side.enter(lambda ctx: Reply())  # the table shows the new code
        return refused(side, "wrong_code", "Wrong code: read it on the table.", 403)
    if seat == HOST and side.host_taken():
        return refused(side, "host_taken", "This table has a host already.", 409)
    players = await side.read(side.joinable)
    if name is not None:
        try:
            seat = new_name(name, players)
        except PageRefusal as error:
            with speaking(side.language):
                return refusal(error.code, error.said(), 409 if error.code == "name_taken" else 400)
    elif seat != HOST and seat not in players:
        return refused(side, "no_such_seat", "There is no such seat.", 404)
    assert isinstance(seat, str)
    asked = side.joins.ask(seat, new=name is not None)
    if asked is Refused.SEAT_ASKED:
        return refused(side, "seat_asked", "A phone is already asking for that seat.", 409)
    if asked is Refused.TOO_MANY:
        return refused(side, "too_many", "Too many phones waiting: try again.", 429)
    await side.enter(lambda ctx: Reply())  # the table asks about it at once
    response = JSONResponse({"ok": True, "waiting": True})
    set_cookie(response, JOIN_COOKIE, asked.key)
    return response


async def seat_status(request: Request) -> Response:
    side = served(request).side
    asked = side.joins.find(request.cookies.get(JOIN_COOKIE))
    if asked is None:
        return refused(side, "no_request", "Ask for a seat first.", 404)
    if asked.declined:
        side.joins.collect(asked.key)
        return refused(side, "declined", "The table said no.", 403)
    if asked.token is None:
        return JSONResponse({"ok": True, "waiting": True})
    side.joins.collect(asked.key)
    where = "/host" if asked.seat == HOST else "/play"
    response = JSONResponse({"ok": True, "waiting": False, "go": where})
    set_cookie(response, HOST_COOKIE if asked.seat == HOST else SEAT_COOKIE, asked.token)
    response.delete_cookie(JOIN_COOKIE, path="/")
    return response


ROUTES: list[BaseRoute] = [
    Route("/join", join),
    Route("/api/join", ask_seat, methods=["POST"]),
    Route("/api/join", seat_status, methods=["GET"]),
]
