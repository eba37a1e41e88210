"""What every route shares: the table it serves, refusals in the table's language, seats read
from cookies, and a request's body read with every check at the door."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from companion.render.language import speaking
from companion.web.guard import MAX_BODY, RateLimit, same_origin
from companion.web.seats import HOST
from companion.web.shapes import Malformed, read_json, whole
from companion.web.side import Answer, TableSide
from companion.web.words import t

SEAT_COOKIE = "seat"
HOST_COOKIE = "host"
JOIN_COOKIE = "join"
#: A seat's cookie lasts a long evening of games.
COOKIE_S = 24 * 3600


@dataclass(frozen=True)
class Served:
    """The table the app serves and the rate limits of its joins and inputs."""

    side: TableSide
    joins_limit: RateLimit
    inputs_limit: RateLimit


def served(connection: HTTPConnection) -> Served:
    """The table a request or socket reached (kept in the app's state by ``create_app``)."""
    table: Served = connection.app.state.served
    return table


def refusal(code: str, sentence: str, status: int = 400) -> JSONResponse:
    """A refused request: its reason code and a sentence the page shows."""
    return JSONResponse({"ok": False, "code": code, "sentence": sentence}, status_code=status)


def answered(answer: Answer) -> JSONResponse:
    """A request the table answered."""
    if answer.ok:  # with what was done, when there is more to say than "Done."
        return JSONResponse(
            {"ok": True, "sentence": answer.sentence} if answer.sentence else {"ok": True}
        )
    return refusal(answer.code, answer.sentence, 409)


def refused(side: TableSide, code: str, sentence: str, status: int = 400) -> JSONResponse:
    """A refused request: ``sentence`` (a word of the pages) in the table's language."""
    with speaking(side.language):
        return refusal(code, t(sentence), status)


def html_in_language(side: TableSide, draw: Callable[[], str]) -> HTMLResponse:
    """A page drawn in the table's language."""
    with speaking(side.language):
        return HTMLResponse(draw())


def set_cookie(response: Response, name: str, value: str) -> None:
    """Give the phone a cookie only the companion's own pages send back, and no script reads."""
    response.set_cookie(name, value, max_age=COOKIE_S, path="/", httponly=True, samesite="strict")


def client(connection: HTTPConnection) -> str:
    """The address a request or socket came from."""
    return connection.client.host if connection.client else "?"


def seat_of(connection: HTTPConnection) -> str | None:
    """The player's seat whose token the phone holds, or None."""
    seat = served(connection).side.seats.seat_of(connection.cookies.get(SEAT_COOKIE))
    return seat if seat != HOST else None


def is_host(connection: HTTPConnection) -> bool:
    """Whether the phone holds the host's token."""
    return served(connection).side.seats.seat_of(connection.cookies.get(HOST_COOKIE)) == HOST


async def body(request: Request) -> dict[str, Any] | JSONResponse:
    """A page's JSON object, or the refusal of a request from elsewhere, too large or not one."""
    side = served(request).side
    if not same_origin(request.headers):
        return refused(side, "cross_origin", "Open the companion's own page.", 403)
    length = whole(request.headers.get("content-length"))
    if length is None or length > MAX_BODY:
        return refused(side, "too_large", "That request is too large.", 413)
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return refused(side, "too_large", "That request is too large.", 413)
    try:
        data = read_json(raw)
    except Malformed:
        return refused(side, "malformed", "That was not an input.")
    if not isinstance(data, dict):
        return refused(side, "malformed", "That was not an input.")
    return data
