"""The league board: live tables, the evening's results, standings, each player's history.

Server-drawn HTML in the table's pages' style and languages (English, French, German, from
the browser's Accept-Language or ``?lang=``), a small SVG chart of a player's rating, and
the results as CSV and JSON. Nothing here writes: the page reads the league and the live
tables the listener keeps.

At the door, as the table's pages do (``companion/web/door.py``): only the machine's own
names and addresses and the configured ones get in (421 otherwise), every answer carries the
pages' security headers (no script, style or frame from elsewhere, no inline style), and a
CSV cell that a spreadsheet would take for a formula is quoted.
"""

from __future__ import annotations

import csv
import io
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as AsgiScope

from companion.club.checks import KIND
from companion.club.league import (
    HistoryLine,
    League,
    LeagueStanding,
    Result,
    Scope,
    rows_for_export,
)
from companion.club.listener import LiveTable
from companion.games.registry import GAMES
from companion.render.language import LANGUAGES, catalog, current, speaking
from companion.web.door import HEADERS, NO_STORE, SHARED, HostNames
from companion.web.html import e, grid

log = logging.getLogger("companion.league")

STYLE = Path(__file__).resolve().parent.parent / "web" / "static" / "style.css"
#: What the league board adds to the pages' stylesheet: its sections and their tables.
STYLE_MORE = (
    "body.league{font-size:1.15rem}body.league h1{font-size:1.8rem}"
    "body.league h2{font-size:1.4rem;margin-top:1.4rem}"
    "body.league h3{font-size:1.1rem;margin:0.6rem 0 0.2rem}"
)
#: How often the board reloads itself (seconds).
REFRESH_S = 10
#: What a spreadsheet reads as a formula when a cell starts with it (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: What a standings query may ask for: an evening (a date), a season (a year).
EVENING, SEASON = re.compile(r"\d{4}-\d{2}-\d{2}"), re.compile(r"\d{4}")

#: The gettext domain of the league board's words (companion/locale/*/LC_MESSAGES/league.po).
DOMAIN = "league"

Handler = Callable[[Request], Awaitable[Response]]


def t(text: str) -> str:
    """Return ``text`` (a word of the league board) in the language being spoken."""
    return catalog(current(), DOMAIN).gettext(text)


def language_of(request: Request) -> str:
    """``?lang=`` if it names a language of the table, else the browser's first one, else en."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        word = part.split(";")[0].strip().lower()[:2]
        if word in LANGUAGES:
            return word
    return "en"


def shell(title: str, body: str, lang: str, *, refresh: bool = False) -> str:
    """A whole page: the pages' stylesheet, the title, ``body``."""
    again = f'<meta http-equiv="refresh" content="{REFRESH_S}">' if refresh else ""
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{again}<title>{e(title)}</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        '<link rel="stylesheet" href="/static/league.css"></head>'
        f'<body class="league"><h1>{e(title)}</h1>{body}</body></html>'
    )


def para(text: str) -> str:
    """A paragraph of escaped text."""
    return f"<p>{e(text)}</p>"


def title_of(kind: str, said: object = None) -> str:
    """A game's name on the board: for a game this companion lists, the registry's title in
    the board's language; for one it does not, ``said`` (the title its result carried), else
    its kind in words (``steeple_chase``: "Steeple chase")."""
    known = next((game for game in GAMES if game.kind == kind), None)
    if known is not None:
        return known.title_in(current())
    if isinstance(said, str) and said.strip():
        return said.strip()
    return kind.replace("_", " ").capitalize()


def kinds_of(results: Iterable[Result]) -> list[tuple[str, str]]:
    """The games the results were played at, each with its title: the registry's games in
    the menu's order, then the others by kind (titled by their latest result)."""
    said: dict[str, object] = {}
    for result in results:  # oldest first: the latest title is kept
        said[result.data["game"]] = result.data.get("title")
    order = [game.kind for game in GAMES if game.kind in said]
    order += sorted(kind for kind in said if kind not in order)
    return [(kind, title_of(kind, said[kind])) for kind in order]


def heading(text: str, level: int = 2) -> str:
    """A heading of escaped text."""
    return f"<h{level}>{e(text)}</h{level}>"


def live_part(tables: Sequence[LiveTable]) -> str:
    if not tables:
        return para(t("No table has been seen yet."))
    rows = []
    for table in tables:
        board = table.board
        game = title_of(board.game) if board.game else "—"
        status = t("online") if table.status == "online" else t("offline")
        leaders = ", ".join(board.leaders) or "—"
        rows.append((table.name, status, game, board.phase or "—", board.race or "—", leaders))
    head = [t("Table"), t("Status"), t("Game"), t("Phase"), t("Race"), t("Leader")]
    return grid(head, rows, "live")


def results_part(league: League, evening: str | None) -> str:
    results = league.results(Scope(evening=evening)) if evening else []
    if not results:
        return para(t("No results yet."))
    rows = []
    for result in reversed(results):
        d = result.data
        ranked = sorted(d["players"], key=lambda p: (p["rank"], p["seat"]))
        order = ", ".join(f"{p['rank']}. {p['name']}" for p in ranked)
        rows.append((d["ended"][11:16], d["table"], title_of(d["game"], d.get("title")), order))
    return grid([t("Ended"), t("Table"), t("Game"), t("Ranking")], rows, "results")


def standings_part(lines: Sequence[LeagueStanding], lang: str) -> str:
    if not lines:
        return para(t("No results yet."))
    head = [t("Place"), t("Player"), t("Games"), t("Wins"), t("Average rank"), t("Rating")]
    body = ""
    for place, line in enumerate(lines, start=1):
        link = f'<a href="/player/{quote(line.name)}?lang={lang}">{e(line.name)}</a>'
        cells = [e(place), link, e(line.games), e(line.wins)]
        cells += [e(f"{line.average_rank:.2f}"), e(f"{line.rating:.2f}")]
        body += "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
    header = "".join(f"<th>{e(h)}</th>" for h in head)
    return f'<table class="standings"><tr>{header}</tr>{body}</table>'


def chart(history: Sequence[HistoryLine], width: int = 600, height: int = 200) -> str:
    """The player's rating after each game, as a small SVG line."""
    if not history:
        return ""
    values = [h.rating for h in history]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / max(len(values) - 1, 1)
    points = " ".join(
        f"{i * step:.1f},{height - 10 - (v - low) / span * (height - 20):.1f}"
        for i, v in enumerate(values)
    )
    label = e(t("Rating after each game"))
    return (
        f'<div class="chart"><svg viewBox="0 0 {width} {height}" role="img" aria-label="{label}">'
        f'<polyline fill="none" stroke="#0b5" stroke-width="3" points="{points}"/>'
        f'<text x="4" y="14" font-size="12">{high:.1f}</text>'
        f'<text x="4" y="{height - 2}" font-size="12">{low:.1f}</text></svg></div>'
    )


def board_body(league: League, tables: Sequence[LiveTable], lang: str) -> str:
    evenings = league.evenings()
    tonight = evenings[0] if evenings else None
    season = tonight[:4] if tonight else None
    parts = [heading(t("Live tables")), live_part(tables)]
    parts.append(heading(t("Results of the evening") + " " + (tonight or "")))
    parts.append(results_part(league, tonight))
    for title, scope in ((t("Standings of the evening"), Scope(evening=tonight)),
                         (t("Standings of the season"), Scope(season=season))):  # fmt: skip
        if tonight is None:
            break
        parts.append(heading(title) + heading(t("All games"), 3))
        parts.append(standings_part(league.standings(scope), lang))
        for kind, shown in kinds_of(league.results(scope)):
            kind_scope = Scope(scope.evening, scope.season, kind)
            parts.append(f"<h3>{e(shown)}</h3>")
            parts.append(standings_part(league.standings(kind_scope), lang))
    links = '<a href="/results.csv">CSV</a> · <a href="/results.json">JSON</a>'
    every = e(t("Every result:"))
    parts.append(f'<p class="note">{every} {links}</p>')
    parts.append(set_aside_part(league))
    return "".join(parts)


def set_aside_part(league: League) -> str:
    """The stored results that no longer read or draw, kept apart (nothing when none)."""
    kept = league.quarantined()
    if not kept:
        return ""
    rows = [(s.table, s.id, s.reason, s.at[:16].replace("T", " ")) for s in kept]
    head = [t("Table"), t("Result"), t("Why"), t("Set aside")]
    intro = para(t("These stored results no longer read or draw: they are kept apart."))
    return heading(t("Results set aside")) + intro + grid(head, rows, "aside")


def cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: one that starts like a formula is quoted."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def scope_of(request: Request) -> Scope | None:
    """The standings a query asks for, or None when it asks for none the league keeps."""
    evening = request.query_params.get("evening") or None
    season = request.query_params.get("season") or None
    kind = request.query_params.get("game") or None
    if evening is not None and not EVENING.fullmatch(evening):
        return None
    if season is not None and not SEASON.fullmatch(season):
        return None
    if kind is not None and not KIND.fullmatch(kind):
        return None
    return Scope(evening, season, kind)


class LeagueDoor:
    """ASGI middleware in front of the board: the host names it answers to, the headers."""

    def __init__(self, app: ASGIApp, names: HostNames) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        private = not str(scope.get("path", "")).startswith(SHARED)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k != b"cache-control"]
                added = [*HEADERS, NO_STORE] if private else list(HEADERS)
                message = {**message, "headers": [*kept, *added]}
            await send(message)

        if not self.names.allows(headers.get(b"host", b"").decode("latin-1")):
            with speaking(language_of(Request(scope))):
                words = para(t("Open the league board by its own address."))
            await HTMLResponse(words, status_code=421)(scope, receive, sending)
            return
        await self.app(scope, receive, sending)


def player_body(league: League, name: str) -> str | None:
    history = league.history(name)
    if not history:
        return None
    rows = [
        (
            h.result.evening,
            h.result.table,
            title_of(h.result.kind, h.result.data.get("title")),
            h.rank,
            f"{h.rating:.2f}",
        )
        for h in reversed(history)
    ]
    head = [t("Evening"), t("Table"), t("Game"), t("Rank"), t("Rating")]
    return chart(history) + grid(head, rows, "history")


def create_league_app(
    league: League, live: Callable[[], Sequence[LiveTable]], names: Iterable[str] = ()
) -> ASGIApp:
    """The league board's ASGI app, behind its door (``names``: the host names it answers to
    besides this machine's own)."""

    def guarded(handler: Handler) -> Handler:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except Exception:  # a page never answers 5xx: the reason goes to the log
                log.exception("the league page %s failed", request.url.path)
                return HTMLResponse(para(t("Try again in a moment.")))

        return run

    async def board(request: Request) -> Response:
        lang = language_of(request)
        with speaking(lang):
            body = board_body(league, live(), lang)
            return HTMLResponse(shell(t("Club league"), body, lang, refresh=True))

    async def player(request: Request) -> Response:
        lang = language_of(request)
        name = request.path_params["name"][:80]
        with speaking(lang):
            body = player_body(league, name)
            if body is None:
                page = shell(t("Club league"), para(t("No such player.")), lang)
                return HTMLResponse(page, status_code=404)
            title = t("History of {name}").format(name=name)
            home = e(t("Club league"))
            back = f'<p><a href="/?lang={lang}">{home}</a></p>'
            return HTMLResponse(shell(title, body + back, lang))

    async def as_csv(request: Request) -> Response:
        rows = rows_for_export(league.results())
        out = io.StringIO()
        fields = list(rows[0]) if rows else ["result_id"]
        writer = csv.DictWriter(out, fieldnames=fields)
        writer.writeheader()
        writer.writerows({key: cell(value) for key, value in row.items()} for row in rows)
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8")

    async def as_json(request: Request) -> Response:
        return JSONResponse(league.exported())

    async def standings_json(request: Request) -> Response:
        scope = scope_of(request)
        if scope is None:
            refusal = {"error": "bad_scope", "sentence": "evening=YYYY-MM-DD, season=YYYY, game="}
            return JSONResponse(refusal, status_code=400)
        return JSONResponse([line.__dict__ for line in league.standings(scope)])

    async def style(request: Request) -> Response:
        return FileResponse(STYLE, media_type="text/css")

    async def style_more(request: Request) -> Response:
        return Response(STYLE_MORE, media_type="text/css")

    routes = [
        Route("/", guarded(board)),
        Route("/player/{name:path}", guarded(player)),
        Route("/results.csv", guarded(as_csv)),
        Route("/results.json", guarded(as_json)),
        Route("/standings.json", guarded(standings_json)),
        Route("/static/style.css", guarded(style)),
        Route("/static/league.css", guarded(style_more)),
    ]
    return LeagueDoor(Starlette(routes=routes), HostNames(names))
