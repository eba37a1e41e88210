"""No request a guest can send gets a 5xx: every route, every socket message, answered with a
4xx and a reason code (or a closed socket), never by the door's backstop.

The findings first (each failed before its fix), against the table served in this process
and, for the ones reported against it, the real daemon; then a fuzz of every route the app
has (a new route is fuzzed without an edit here).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import Message
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from companion.web.door import CSP, FAILED, Door
from tests.web.conftest import Table
from tests.web.hostile.conftest import Answer, Served, send

#: Words a page may be sent in place of a number: digits that are not ASCII.
NOT_ASCII_DIGITS = ("²", "٣", "１２", "৫", "Ⅻ", "1²")
#: Strings that are no text: JSON's escapes of lone surrogates.
SURROGATES = ("\ud800", "a\udfffb", "\udc00\udc00")
#: The fields the pages' forms and commands send.
KEYS = (
    "type", "do", "code", "seat", "game", "players", "stake", "stake2", "amount", "horse",
    "horse2", "kind", "cards", "kept", "card", "guess", "horses", "request", "decline",
    "jumpy_jack", "course_hippique", "jockey", "player", "suit",
)  # fmt: skip
TYPES = ("predict", "guess", "bet", "hand", "move", "forfeit", "deal_card", "deal_course",
         "set_max_bet", "turn_card", "play_card", "next_race", "roll", "new_game")  # fmt: skip
DOS = ("new_game", "confirm", "resume", "abandon", "undo", "nothing")


def refused_properly(answer: Answer, what: object) -> None:
    """A 2xx/3xx, or a 4xx whose JSON names a reason other than the backstop's."""
    assert answer.status < 500, (what, answer)
    if answer.status >= 400:
        assert answer.headers.get("content-type", "").startswith("application/json"), (
            what,
            answer,
        )
        said = answer.json()
        assert said["ok"] is False and re.fullmatch(r"[a-z_]+", said["code"]), (what, said)
        assert said["code"] != FAILED, (what, said)
    elif answer.headers.get("content-type", "").startswith("application/json"):
        assert answer.json().get("code") != FAILED, (what, answer)


# -- the findings ---------------------------------------------------------------------------


def test_deep_nesting_is_malformed_on_the_real_daemon(table: Table) -> None:
    for path in ("/api/join", "/api/input", "/api/host"):
        answer = send(table.port, "POST", path, b"[" * 2000)
        assert answer.status == 400 and answer.json()["code"] == "malformed", (path, answer)
        answer = send(table.port, "POST", path, b'{"a":' * 1000 + b"1" + b"}" * 1000)
        assert answer.status in (400, 413) and answer.json()["code"] in ("malformed", "too_large")


def test_a_binary_frame_closes_the_socket_on_the_real_daemon(table: Table) -> None:
    with connect(table.url.replace("http", "ws") + "/live?page=board", origin=table.url) as ws:
        ws.recv(5)  # the first picture
        ws.send(b"\x00\x01binary")
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(10):
                ws.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003


@pytest.fixture(scope="module")
def jockey(served: Served) -> dict[str, str]:
    """A Jockey race with hands counted on the phones (game 2: game 1 is a Jumpy Jack match
    left unfinished): the host's and Anna's cookies."""
    host = served.host_cookie()
    served.new_game(host, "jumpy_jack", "Anna\nBob")
    served.new_game(host, "jockey", "Anna\nBob", hands=True)
    return {"host": host, "seat": served.seat_cookie("Anna")}


@pytest.mark.parametrize(
    "form",
    [
        {"type": "bet", "horse": "red", "stake": "²"},
        {"type": "bet", "horse": "red", "stake": "١٠"},
        {"type": "hand", "cards": {"K": "²"}},
        {"type": "hand", "cards": {"K": True}},
        {"type": "hand", "cards": {"K": 1}, "kept": 5},
        {"type": "hand", "cards": {"K": 1}, "kept": {"a": 1}},
        {"type": "hand", "cards": {"\ud800": 1}},
        {"type": "bet", "horse": "\udfff", "stake": 5},
        {"type": []},
        {"type": {"bet": 1}},
        {"type": "bet", "kind": [], "horse": "red", "stake": 5},
    ],
    ids=lambda form: json.dumps(form),
)
def test_odd_numbers_and_strings_in_an_input_are_refused_with_a_reason(
    served: Served, jockey: dict[str, str], form: dict[str, Any]
) -> None:
    body = json.dumps(form).encode()
    answer = served.send("POST", "/api/input", body, Cookie=jockey["seat"])
    refused_properly(answer, form)
    assert answer.status >= 400


def test_a_name_that_is_no_text_is_refused_and_starts_no_game(
    served: Served, jockey: dict[str, str]
) -> None:
    game = served.companion.session.game_id
    form = {"do": "new_game", "game": "jumpy_jack", "players": "Anna\n\udc00Bob"}
    answer = served.send("POST", "/api/host", json.dumps(form).encode(), Cookie=jockey["host"])
    refused_properly(answer, form)
    assert answer.status == 400 and answer.json()["code"] == "malformed"
    assert served.companion.session.game_id == game


def test_true_is_not_game_1(served: Served, jockey: dict[str, str]) -> None:
    host = jockey["host"]
    current = served.companion.session.game_id
    assert current is not None and current > 1
    for game in (True, 1.0, "1", [1]):
        form = {"do": "resume", "game": game}
        answer = served.send("POST", "/api/host", json.dumps(form).encode(), Cookie=host)
        refused_properly(answer, form)
        assert answer.status == 409 and answer.json()["code"] == "no_such_game", form
        assert served.companion.session.game_id == current


def test_game_options_nested_deep_are_refused(served: Served, jockey: dict[str, str]) -> None:
    form = {"do": "new_game", "game": "jockey", "players": "A\nB", "jockey": {"hands": "[" * 1500}}
    answer = served.send("POST", "/api/host", json.dumps(form).encode(), Cookie=jockey["host"])
    refused_properly(answer, form)
    assert answer.json().get("code") == "bad_option", answer


def test_a_game_number_beyond_the_journal_is_no_game(
    served: Served, jockey: dict[str, str]
) -> None:
    answer = served.send("GET", "/host/log/" + "9" * 30, Cookie=jockey["host"])
    refused_properly(answer, "log")
    assert answer.status == 404


def socket_paths(served: Served) -> list[str]:
    """Every socket route of the app (a page's view of it)."""
    assert served.companion.web is not None
    app = served.companion.web.server.config.app
    found = [r.path for r in app.routes if isinstance(r, WebSocketRoute)]
    assert found == ["/live"], "a new socket route: give it a page to open it with here"
    return [path + "?page=board" for path in found]


@pytest.mark.parametrize("message", [b"", b"\xff\xfe", b"ping"])
def test_every_binary_frame_closes_the_socket(served: Served, message: bytes) -> None:
    for path in socket_paths(served):
        with connect(f"ws://127.0.0.1:{served.port}{path}", origin=served.url) as ws:
            ws.recv(5)
            ws.send("ping")
            ws.send(message)
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(10):
                    ws.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003, path


# -- the fuzz -------------------------------------------------------------------------------

hostile_text = st.one_of(
    st.sampled_from(NOT_ASCII_DIGITS + SURROGATES + TYPES + DOS),
    st.sampled_from(("#host", "Anna", "K", "red", "1234", " 7 ", "-3", "")),
    st.text(max_size=12),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    hostile_text,
)


def nested(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists and objects of ``inner`` values."""
    return st.one_of(st.lists(inner, max_size=4), st.dictionaries(hostile_text, inner, max_size=4))


values = st.recursive(scalars, nested, max_leaves=12)
forms = st.dictionaries(st.sampled_from(KEYS), values, max_size=6)


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    """A request body: a form of hostile fields, deep nesting, a cut JSON text or raw bytes."""
    form = draw(forms)
    if draw(st.booleans()):
        form["type"] = draw(st.sampled_from(TYPES))
    if draw(st.booleans()):
        form["do"] = draw(st.sampled_from(DOS))
    text = json.dumps(form).encode()  # lone surrogates become "\ud800" escapes
    shape = draw(st.sampled_from(("form", "form", "cut", "nested", "bytes", "scalar")))
    if shape == "cut":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if shape == "nested":
        depth = draw(st.integers(5, 1500))
        opener = draw(st.sampled_from((b"[", b'{"a":', b'{"type":[')))
        return opener * depth + draw(st.sampled_from((b"", b"1", b"]" * depth)))
    if shape == "bytes":
        return draw(st.binary(max_size=64))
    if shape == "scalar":
        return json.dumps(draw(scalars)).encode()
    return text


def fuzzed_paths(served: Served) -> list[tuple[str, str]]:
    """Every (method, path) of the app, path parameters filled in."""
    assert served.companion.web is not None
    app = served.companion.web.server.config.app
    found: list[tuple[str, str]] = []
    for route in app.routes:
        if isinstance(route, WebSocketRoute):
            continue
        assert isinstance(route, Route), route
        path = re.sub(r"\{game_id(:int)?\}", "1", route.path)
        path = re.sub(r"\{name\}", "app.js", path)
        assert "{" not in path, f"fill in the parameters of {route.path} for the fuzz"
        for method in sorted(route.methods or ()):
            if method != "HEAD":
                found.append((method, path))
    return found


@st.composite
def path_params(draw: st.DrawFn, path: str) -> str:
    """``path`` with its filled-in parameter swapped for odd ones now and then."""
    odd = draw(st.sampled_from(("", "0", "9" * 40, "%D9%A3", "%00", "..%2F..", "x" * 300)))
    if not odd:
        return path
    return re.sub(r"/(1|app\.js)$", "/" + odd, path)


#: A cookie header a page never sends: odd names, odd values, tokens of every length.
junk_cookies = st.tuples(
    st.sampled_from(("seat=", "host=", "join=", "")),
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=300),
).map("".join)


def test_every_route_answers_a_reason_to_anything(served: Served, jockey: dict[str, str]) -> None:
    routes = fuzzed_paths(served)
    assert ("POST", "/api/input") in routes and ("POST", "/api/join") in routes

    @settings(
        max_examples=300,
        deadline=None,
        derandomize=True,  # the same examples every run: a new finding goes in the list above
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        route=st.sampled_from(routes),
        body=bodies(),
        who=st.sampled_from(("", "host", "seat", "junk")),
        data=st.data(),
    )
    def fuzz(route: tuple[str, str], body: bytes, who: str, data: st.DataObject) -> None:
        method, path = route
        path = data.draw(path_params(path))
        if data.draw(st.integers(0, 9)) == 0:  # now and then a method no page uses
            method = data.draw(st.sampled_from(("PUT", "DELETE", "OPTIONS", "PATCH", "POST")))
        headers = {"Cookie": jockey[who]} if who in jockey else {}
        if who == "junk":
            headers = {"Cookie": data.draw(junk_cookies)}
        sent = body if method in ("POST", "PUT", "PATCH") else None
        answer = served.send(method, path, sent, **headers)
        refused_properly(answer, (method, path, body))

    fuzz()


@pytest.mark.parametrize("frame", ["ping", "\u00b2", '{"type":"bet"}', "[" * 60], ids=repr)
def test_a_short_text_frame_of_any_kind_leaves_the_socket_open(served: Served, frame: str) -> None:
    for path in socket_paths(served):
        with connect(f"ws://127.0.0.1:{served.port}{path}", origin=served.url) as ws:
            ws.recv(5)
            ws.send(frame)
            assert ws.ping().wait(5), "the socket answers still"
            ws.send("ping")
            assert ws.ping().wait(5)


def test_a_long_text_frame_closes_the_socket_as_too_big(served: Served) -> None:
    for path in socket_paths(served):
        with connect(f"ws://127.0.0.1:{served.port}{path}", origin=served.url) as ws:
            ws.recv(5)
            ws.send("x" * 65)
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(10):
                    ws.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, path


def test_the_backstop_answers_a_short_refusal_and_logs_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An error no route expected (none is known: the fuzz fails if one is) answers 400
    "failed" in JSON, with the headers, and logs one line with no traceback."""

    async def broken(request: Request) -> Response:
        raise KeyError("a secret the request carried")

    def refuse(code: str, sentence: str, status: int) -> Response:
        return JSONResponse({"ok": False, "code": code, "sentence": sentence}, status)

    app = Starlette(routes=[Route("/broken", broken)], middleware=[Middleware(Door, refuse=refuse)])
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def collect(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http", "method": "GET", "path": "/broken", "raw_path": b"/broken",
        "query_string": b"", "headers": [(b"host", b"localhost:8080")], "scheme": "http",
        "http_version": "1.1", "server": ("127.0.0.1", 8080), "client": ("127.0.0.1", 5000),
        "root_path": "",
    }  # fmt: skip
    with caplog.at_level(logging.ERROR, logger="companion.web"):
        asyncio.run(app(scope, receive, collect))
    start, body = sent[0], sent[1]
    assert start["status"] == 400
    assert json.loads(body["body"])["code"] == FAILED
    assert (b"content-security-policy", CSP.encode()) in start["headers"]
    lines = [r for r in caplog.records if r.name == "companion.web"]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert lines[0].getMessage() == "GET /broken failed: KeyError"


def test_a_body_cut_by_a_phone_going_away_is_not_logged(
    served: Served, jockey: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="companion.web"):
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", served.port)) as raw:
                raw.sendall(
                    b"POST /api/input HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Origin: http://127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 100\r\nCookie: " + jockey["seat"].encode() + b"\r\n\r\n"
                    b'{"type": "bet", '
                )
        answer = served.send("GET", "/scoreboard")  # the pages go on
    assert answer.status == 200
    assert [r.getMessage() for r in caplog.records if r.name == "companion.web"] == []
