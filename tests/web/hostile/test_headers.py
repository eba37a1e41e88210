"""Every answer carries the pages' security headers, private ones are never cached, every page
has its icon, and every page works in Chromium under the Content-Security-Policy with no
console error and no violation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.games.registry import GAMES
from companion.web.door import CSP
from tests.web.conftest import PHONE, Table
from tests.web.hostile.conftest import Served, send

#: Pages and answers only a seat, the host or a joining phone sees.
PRIVATE = ("/play", "/host", "/join", "/join?host", "/api/join", "/host/log/1")
PUBLIC = ("/", "/scoreboard", "/nowhere")
FILES = ("/static/app.js", "/static/style.css", "/static/favicon.svg")
#: What no page may hold under the policy: inline style or script, handlers in attributes.
INLINE = re.compile(r"<style|\sstyle=|<script(?![^>]*\ssrc=)|\son[a-z]+=", re.IGNORECASE)


def secured(headers: dict[str, str], path: str) -> None:
    policy = headers.get("content-security-policy", "")
    for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'",
                      "frame-ancestors 'none'"):  # fmt: skip
        assert directive in policy, (path, policy)
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert headers.get("x-content-type-options") == "nosniff", path
    assert headers.get("referrer-policy") == "no-referrer", path


def test_every_answer_of_the_real_daemon_is_secured(table: Table) -> None:
    for path in PRIVATE + PUBLIC + FILES:
        answer = send(table.port, "GET", path)
        secured(answer.headers, path)
        if path in PRIVATE:
            assert answer.headers.get("cache-control") == "no-store", path
    for path in ("/api/input", "/api/host", "/api/join"):
        answer = send(table.port, "POST", path, b"{}")
        assert 400 <= answer.status < 500
        secured(answer.headers, path)
        assert answer.headers.get("cache-control") == "no-store", path
    assert "no-store" not in send(table.port, "GET", "/static/app.js").headers["cache-control"]


def test_the_icon_is_served_and_linked_from_every_page(table: Table) -> None:
    icon = send(table.port, "GET", "/static/favicon.svg")
    assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.body.startswith(b"<svg")
    for path in ("/", "/scoreboard", "/join", "/join?host"):
        page = send(table.port, "GET", path).body.decode()
        assert '<link rel="icon" href="/static/favicon.svg"' in page, path


def cookie(said: str, url: str) -> dict[str, str]:
    name, value = said.split("=", 1)
    return {"name": name, "value": value, "url": url}


@pytest.fixture(scope="module")
def seats(served: Served) -> dict[str, str]:
    return {"host": served.host_cookie()}


def pages_of_each_game(served: Served, seats: dict[str, str]) -> Any:
    """For each game: start it from the host page, seat Anna; yield the game's kind."""
    for game in GAMES:
        options = {"hands": True} if game.kind == "jockey" else {}
        served.new_game(seats["host"], game.kind, "Anna\nBob\nCleo", **options)
        seats["seat"] = served.seat_cookie("Anna")
        yield game.kind


def test_no_page_holds_inline_script_or_style(served: Served, seats: dict[str, str]) -> None:
    for kind in pages_of_each_game(served, seats):
        for path, who in (("/play", "seat"), ("/host", "host"), ("/scoreboard", ""), ("/", "")):
            headers = {"Cookie": seats[who]} if who else {}
            page = served.send("GET", path, **headers)
            assert page.status == 200, (kind, path)
            text = page.body.decode()
            assert not INLINE.search(text), (kind, path, INLINE.search(text))
            assert '<link rel="icon"' in text


def failed(request: Any, problems: list[str]) -> None:
    """Note a request that failed, but not one cancelled by the next page being opened (the
    icon of a page left at once: Chromium aborts it, and says nothing in the console)."""
    if request.failure != "net::ERR_ABORTED":
        problems.append(f"failed: {request.url} ({request.failure})")


@pytest.mark.slow(12)
def test_every_page_works_in_chromium_under_the_policy(
    served: Served, seats: dict[str, str], browser: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in (
        "error", "warning") else None)  # fmt: skip
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("requestfailed", lambda request: failed(request, problems))
    icons: list[int] = []
    page.on("response", lambda r: icons.append(r.status) if "favicon" in r.url else None)
    page.add_init_script(
        "window.violations = [];"
        "document.addEventListener('securitypolicyviolation', function (e) {"
        " window.violations.push(e.violatedDirective + ' ' + e.blockedURI); });"
    )
    visited = 0
    for kind in pages_of_each_game(served, seats):
        context.clear_cookies()
        context.add_cookies([cookie(seats["host"], served.url), cookie(seats["seat"], served.url)])
        for path in ("/", "/join", "/join?host", "/scoreboard", "/play", "/host"):
            answer = page.goto(served.url + path)
            assert answer is not None and answer.status == 200, (kind, path)
            assert answer.headers["content-security-policy"] == CSP
            if path not in ("/", "/join", "/join?host"):  # the live pages: their socket opens
                expect(page.locator("#link")).to_have_text("live")  # no eval: the policy holds
            assert page.evaluate("window.violations") == [], (kind, path)
            assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith(
                "system-ui"
            ), "the stylesheet applies"
            visited += 1
        # The host's new-game form shows only the chosen game's options (rules in the file);
        # during a game the form is folded: the host opens it.
        page.goto(served.url + "/host")
        folded = page.locator("details[data-fold=new] > summary")
        if folded.count():
            folded.click()
        for chosen in GAMES:
            page.select_option("select[name=game]", chosen.kind)
            for game in GAMES:
                shown = page.locator(f"fieldset[data-game={game.kind}]").is_visible()
                assert shown == (game.kind == chosen.kind), (chosen.kind, game.kind)
        # A lane's bar is drawn by its attributes alone: 3 of 4 squares is three quarters.
        bar = page.locator(".lane .bar").first
        drawn = bar.evaluate(
            "b => { b.firstChild.firstChild.setAttribute('width', '75');"
            " var r = b.firstChild.firstChild.getBoundingClientRect();"
            " return [r.width / b.getBoundingClientRect().width, r.height > 0]; }"
        )
        assert abs(drawn[0] - 0.75) < 0.02 and drawn[1], drawn
    assert visited == 6 * len(GAMES)
    assert problems == [], problems
    assert icons and set(icons) == {200}, icons
    context.close()
