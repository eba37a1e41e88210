"""docs/api.md is the pages' API as served: every route the app serves is in its Routes
table, and every route there answers a client with no cookie as the table says."""

from __future__ import annotations

import http.client
import re
from pathlib import Path
from urllib.parse import urlsplit

from starlette.routing import Route, WebSocketRoute
from websockets.sync.client import connect

from companion.web.app import create_app
from tests.web.conftest import Table
from tests.web.test_page_languages import table_side

API = Path(__file__).resolve().parents[2] / "docs" / "api.md"
ROW = re.compile(
    r"^\| (GET|POST|WS) \| `([^`]+)` \| (.*?) \| (\d{3}) \| (?:`([a-z_]+)`|—) \|", re.M
)
#: A documented path's placeholders, filled in to ask it.
FILLED = {"{game_id}": "1", "{name}": "style.css"}


def documented() -> list[tuple[str, str, str, int, str]]:
    """The Routes table: method, path, what is sent, anonymous status and code."""
    return [
        (method, path, sent, int(status), code)
        for method, path, sent, status, code in ROW.findall(API.read_text())
    ]


def served() -> set[tuple[str, str]]:
    """Every method and path the app serves (HEAD goes with GET; converters left out)."""
    app = create_app(table_side("en", "jumpy_jack", ["Anna", "Bob"]))
    routes: set[tuple[str, str]] = set()
    for route in app.routes:
        if isinstance(route, WebSocketRoute):
            routes.add(("WS", route.path))
        elif isinstance(route, Route):
            path = re.sub(r":\w+\}", "}", route.path)
            routes |= {(m, path) for m in route.methods or () if m != "HEAD"}
    return routes


def test_every_route_served_is_documented_and_nothing_else() -> None:
    listed = {(method, path.split("?")[0]) for method, path, *_ in documented()}
    assert listed == served()


def test_every_documented_route_answers_as_documented(table: Table) -> None:
    where = urlsplit(table.url)
    for method, path, sent, status, code in documented():
        for placeholder, value in FILLED.items():
            path = path.replace(placeholder, value)
        if method == "WS":
            with connect(table.url.replace("http", "ws") + path, origin=table.url) as socket:
                assert '"public"' in str(socket.recv(timeout=10))  # switched: 101
            assert status == 101
            continue
        body = re.search(r"`(\{.*\})`", sent)
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
        headers = {"Origin": table.url, "Content-Type": "application/json"}
        connection.request(method, path, body.group(1) if body else None, headers)
        answer = connection.getresponse()
        text = answer.read().decode()
        connection.close()
        assert answer.status == status, (method, path, answer.status, text)
        if code:
            assert f'"code":"{code}"' in text, (method, path, text)
