"""The pages a browser opens: the first page, the scoreboard, a player's and the host's page,
and the files they load."""

from __future__ import annotations

from importlib import resources

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from companion.games.registry import KINDS, style_file
from companion.web.pages import home_page, host_page, play_page, scoreboard_page
from companion.web.routes.common import html_in_language, is_host, refused, seat_of, served

STATIC = {
    "app.js": "text/javascript",
    "style.css": "text/css",
    "tv.js": "text/javascript",
    "tv.css": "text/css",
    "favicon.svg": "image/svg+xml",
    # Installing the pages to a phone's home screen: the manifest and its icons.
    "manifest.webmanifest": "application/manifest+json",
    "icon-192.png": "image/png",
    "icon-512.png": "image/png",
}


async def home(request: Request) -> Response:
    return html_in_language(served(request).side, home_page)


async def scoreboard(request: Request) -> Response:
    side = served(request).side
    snap = await side.read(side.drawn)
    return html_in_language(side, lambda: scoreboard_page(snap.public))


async def play(request: Request) -> Response:
    side = served(request).side
    seat = seat_of(request)
    if seat is None:
        return RedirectResponse("/join", 303)
    snap = await side.read(side.drawn)
    return html_in_language(side, lambda: play_page(snap.public, snap.private.get(seat, "")))


async def host(request: Request) -> Response:
    side = served(request).side
    if not is_host(request):
        return RedirectResponse("/join?host", 303)
    snap = await side.read(side.drawn)
    return html_in_language(side, lambda: host_page(snap.public, snap.host))


#: The styles every game brings to the pages (each game's own file, one after the other).
GAMES_CSS = "games.css"


def games_css() -> bytes:
    """Every registered game's own styles, in the menu's order (a game may bring none)."""
    found = (style_file(kind) for kind in KINDS)
    return b"".join(style.read_bytes() for style in found if style.is_file())


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name == GAMES_CSS:
        headers = {"cache-control": "max-age=300"}
        return Response(games_css(), media_type="text/css", headers=headers)
    if name not in STATIC:
        return refused(served(request).side, "not_found", "There is no such page.", 404)
    data = resources.files("companion.web").joinpath("static", name).read_bytes()
    return Response(data, media_type=STATIC[name], headers={"cache-control": "max-age=300"})


ROUTES: list[BaseRoute] = [
    Route("/", home),
    Route("/scoreboard", scoreboard),
    Route("/play", play),
    Route("/host", host),
    Route("/static/{name}", static),
]
