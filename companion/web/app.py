"""The web app: the pages, their socket, joins and inputs, every request checked at the door.

Rules kept by every route: a seat's private part and inputs need that seat's token (an
HttpOnly, SameSite=Strict cookie), a POST or socket from another origin is refused, bodies
and messages are size-bounded, joins and inputs are rate-limited per client address, and no
token reaches a URL or a log. The routes themselves are in ``companion/web/routes/``, one
module a part of the pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response

from companion.web.door import Door, HostNames
from companion.web.guard import RateLimit
from companion.web.routes import joining, live, pages, play
from companion.web.routes.common import Served, refused, served
from companion.web.side import TableSide


async def no_route(request: Request, error: Exception) -> Response:
    """A path or method no route serves: refused like any other request."""
    side = served(request).side
    if isinstance(error, HTTPException) and error.status_code == 405:
        return refused(side, "wrong_method", "That request is not one the pages make.", 405)
    return refused(side, "not_found", "There is no such page.", 404)


def create_app(
    side: TableSide, clock: Callable[[], float] = time.monotonic, names: HostNames | None = None
) -> Starlette:
    """Return the app serving ``side``'s table under ``names`` (see ``HostNames``)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        side.hub.loop = asyncio.get_running_loop()
        yield

    app = Starlette(
        routes=[*pages.ROUTES, *joining.ROUTES, *play.ROUTES, *live.ROUTES],
        lifespan=lifespan,
        middleware=[Middleware(Door, refuse=functools.partial(refused, side), names=names)],
        exception_handlers={HTTPException: no_route},
    )
    app.state.served = Served(
        side,
        joins_limit=RateLimit(burst=5, per_s=0.2, clock=clock),
        inputs_limit=RateLimit(burst=20, per_s=5.0, clock=clock),
    )
    return app
