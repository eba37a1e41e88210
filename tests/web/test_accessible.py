"""Accessible pages: axe-core finds no serious or critical violation on any page the app
serves, in English, French and German, in Debian's Chromium; every horse's mark on a page
stands out from what it is drawn on.

One companion in this process (its pages on a real port, its loop on a thread) plays a
game of each kind from the engines' own legal inputs; at every new phase, each page the app
serves as HTML (its routes are walked, so a page added later is checked too) is fetched with
a player's or the host's cookie and opened in one shared browser, with the app's own files:
every page in every language once, each game's player page in each phase, the scoreboard at
each game's end (on a 1920x1080 screen that prefers a dark theme). Each window loads axe
once; the next page is written into the same window, with its stylesheet and script.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from companion.daemon.table import TableController
from companion.session import autoplay
from companion.web.routes.common import HOST_COOKIE, SEAT_COOKIE
from companion.web.seats import HOST
from companion.web.side import TableSide, WebTable
from tests.web.conftest import PHONE, TV
from tests.web.hostile.conftest import Served, served  # noqa: F401 (the served table)

LANGUAGES = ("en", "fr", "de")
GAMES = ("jumpy_jack", "course_hippique", "jockey")
PLAYERS = ("Anna", "Ben", "Chloé")
#: What axe may find and still pass: only moderate and minor findings.
FAILING = frozenset({"serious", "critical"})
#: Rules the pages once broke, failing whatever axe rates them: every link and button large
#: enough to tap, every cell of a table under a header, everything inside a landmark, no
#: paragraph dressed up as a heading.
NEVER = frozenset({"target-size", "td-has-header", "region", "p-as-heading"})
#: The host's page and the join page asked for the host's seat, beside the app's own routes.
QUERIES = {"/join": ("/join", "/join?host")}
#: WCAG 2.1's least contrast for a graphical object against what is next to it (1.4.11).
LEAST_CONTRAST = 3.0
#: The pages made for a TV across the room: opened at 1920x1080, preferring a dark theme.
TV_PAGES = frozenset({"/scoreboard", "/tv"})
#: Where the browser opens the pages the app served (the page's files come from the app).
ORIGIN = "http://localhost"


class Site:
    """The served table, driven on its loop, and its pages as a player's or the host's phone."""

    def __init__(self, companion: Served) -> None:
        self.served = companion
        table: WebTable = companion.companion.daemon.table  # type: ignore[assignment]
        assert table.side is not None
        self.controller: TableController = table.controller
        self.side: TableSide = table.side
        self.cookies: dict[str, str] = {}

    def start(self, game: str) -> None:
        """A new game of ``game`` for the three players, each with a phone, and the host's."""

        def started() -> None:
            self.controller.session.new_game(game, PLAYERS)
            self.side.refresh()
            for seat in (*PLAYERS, HOST):
                if seat not in self.cookies:
                    name = HOST_COOKIE if seat == HOST else SEAT_COOKIE
                    self.cookies[seat] = f"{name}={self.side.seats.issue(seat)}"
            self.side.refresh()

        self.served.call(started)

    def speak(self, language: str) -> None:
        def said() -> None:
            self.controller.ctx.language = language
            self.side.refresh()

        self.served.call(said)

    def play(self, rng: random.Random) -> str | None:
        """Legal inputs of the game on until its phase changes; the new phase (None once the
        game is over). All on the loop, in one turn: the pages are read between phases."""

        def played() -> str | None:
            session = self.controller.session
            assert session.table is not None
            before = str(session.view().phase)
            while True:
                entry = autoplay.legal_input(session.table, rng)
                if entry is None:
                    self.side.refresh()
                    return None
                assert session.submit(entry).accepted, entry
                phase = str(session.view().phase)
                if phase != before:
                    self.side.refresh()
                    return phase

        phase: str | None = self.served.call(played)
        return phase

    def pages(self, wanted: Callable[[str], bool]) -> Iterator[tuple[str, str, str]]:
        """(path, seat, HTML) of every page the app serves as HTML at a ``wanted`` path, for
        each phone it serves."""
        web = self.served.companion.web
        assert web is not None
        app = web.server.config.app
        assert isinstance(app, Starlette)
        for route in app.routes:
            if not isinstance(route, Route) or "GET" not in (route.methods or ()):
                continue
            if route.param_convertors:
                continue  # a file or a log, not a page
            for path in filter(wanted, QUERIES.get(route.path, (route.path,))):
                for seat in ("", *(s for s in (HOST, PLAYERS[0]) if s in self.cookies)):
                    cookie = {"Cookie": self.cookies[seat]} if seat else {}
                    answer = self.served.send("GET", path, None, **cookie)
                    if answer.headers.get("content-type", "").startswith("text/html"):
                        yield path, seat, answer.body.decode()


def luminance(colour: tuple[float, float, float]) -> float:
    """WCAG's relative luminance of an sRGB colour (0-255 channels)."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: tuple[float, float, float], other: tuple[float, float, float]) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


#: Every horse's mark on the page (a lane's bar, or anything marked as a horse's): its fill,
#: its outline, and the colour of what it is drawn on, as the browser computed them.
MARKS_JS = """() => {
  const rgb = (text) => {
    const m = text.match(/rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?/);
    return m && (m[4] === undefined || +m[4] > 0) ? [+m[1], +m[2], +m[3]] : null;
  };
  const under = (el) => {
    for (let at = el.parentElement; at; at = at.parentElement) {
      const seen = rgb(getComputedStyle(at).backgroundColor);
      if (seen) return seen;
    }
    return [255, 255, 255];
  };
  const marks = document.querySelectorAll(
    '.lane .bar rect, [data-horse] rect, [data-horse] circle, .horse, .chip');
  // A group (an SVG <g>) paints nothing itself: its circles and bars are the marks.
  return Array.from(marks).filter((el) => el.tagName !== 'g').map((el) => {
    const style = getComputedStyle(el);
    const svg = el instanceof SVGElement;
    return {
      what: el.outerHTML.slice(0, 120),
      fill: rgb(svg ? style.fill : style.backgroundColor),
      outline: rgb(svg ? style.stroke : style.borderTopColor),
      width: parseFloat(svg ? style.strokeWidth : style.borderTopWidth) || 0,
      under: under(el),
    };
  }).filter((mark) => mark.fill);
}"""


def unreadable_marks(marks: list[dict[str, Any]]) -> list[str]:
    """The marks that do not stand out: neither their fill against what is under them, nor an
    outline against both what is under them and their fill, reaches ``LEAST_CONTRAST``."""
    bad = []
    for mark in marks:
        fill, under = tuple(mark["fill"]), tuple(mark["under"])
        if contrast(fill, under) >= LEAST_CONTRAST:
            continue
        outline = mark["outline"]
        if outline and mark["width"] > 0:
            line = tuple(outline)
            if min(contrast(line, under), contrast(line, fill)) >= LEAST_CONTRAST:
                continue
        bad.append(f"{mark['what']} on {mark['under']}")
    return bad


@pytest.fixture(scope="module")
def site(request: pytest.FixtureRequest) -> Site:
    return Site(request.getfixturevalue("served"))


def test_the_contrast_ratio_is_wcags() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    white_bar = {"fill": [255, 255, 255], "under": [221, 221, 221], "what": "white"}
    assert unreadable_marks([{**white_bar, "outline": None, "width": 0}]) == [
        "white on [221, 221, 221]"
    ]
    assert unreadable_marks([{**white_bar, "outline": [34, 34, 34], "width": 1.5}]) == []


#: The next page drawn in the same window, its stylesheet and script loaded again.
REWRITE = """(html) => new Promise((done) => {
  document.open();
  document.write(html);
  document.close();
  if (document.readyState === 'complete') done(); else window.addEventListener('load', done);
})"""
#: The rules axe runs: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and Deque's best practices.
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
#: axe's run on the page loaded (axe itself is in every page of the contexts, loaded once).
AXE_RUN = (
    "(rules) => axe.run(document, {runOnly: {type: 'tag', values: rules}, "
    "resultTypes: ['violations']}).then((r) => r.violations)"
)


@pytest.mark.slow(18)
def test_every_page_in_every_language_has_no_serious_accessibility_violation(
    browser: Any, site: Site
) -> None:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    current: dict[str, str] = {}

    def answer(route: Any) -> None:
        url = route.request.url
        if url == f"{ORIGIN}/checked":
            route.fulfill(body=current["html"], content_type="text/html")
            return
        if not url.startswith(f"{ORIGIN}/static/"):
            route.abort()
            return
        got = site.served.send("GET", url.removeprefix(ORIGIN))
        route.fulfill(status=got.status, body=got.body, headers=got.headers)

    tabs = {}
    for name, viewport, scheme in (("phone", PHONE, "light"), ("tv", TV, "dark")):
        context = browser.new_context(viewport=viewport, color_scheme=scheme)
        context.add_init_script(Axe().axe_script)
        context.route("**/*", answer)
        context.route_web_socket("**/*", lambda socket: None)  # live, with nothing new
        tabs[name] = context.new_page()

    found: dict[str, str] = {}
    marks: dict[str, str] = {}
    checked: set[tuple[str, str, str]] = set()
    drawn: set[str] = set()
    counted = {"marks": 0}

    def check(language: str, phase: str, again: tuple[str, ...] = ()) -> None:
        """Every page once per language, the pages in ``again`` once more (a page drawn the
        same as one checked already is not checked again)."""
        site.speak(language)

        def wanted(path: str) -> bool:
            return path in again or not any(k[:2] == (language, path) for k in checked)

        for path, seat, html in site.pages(wanted):
            key = (language, path, seat)
            if not wanted(path) or html in drawn:
                continue
            checked.add(key)
            drawn.add(html)
            current["html"] = html
            tab = tabs["tv" if path in TV_PAGES else "phone"]
            if tab.url == f"{ORIGIN}/checked":
                tab.evaluate(REWRITE, html)  # axe, loaded once, stays in the window
            else:
                tab.goto(f"{ORIGIN}/checked")
            where = f"{language} {path} as {seat or 'nobody'} ({phase})"
            for violation in tab.evaluate(AXE_RUN, RULES):
                if violation["impact"] in FAILING or violation["id"] in NEVER:
                    nodes = [n["html"][:100] for n in violation["nodes"][:3]]
                    found.setdefault(violation["id"], f"{where}: {violation['help']} {nodes}")
            drawn_marks = tab.evaluate(MARKS_JS)
            counted["marks"] += len(drawn_marks)
            for bad in unreadable_marks(drawn_marks):
                marks.setdefault(bad, where)

    rng = random.Random(26)
    for number, game in enumerate(GAMES):
        site.start(game)
        language = LANGUAGES[number % len(LANGUAGES)]  # each game's phases in one language
        if number == 0:  # every page in every language, a game just started
            for spoken in LANGUAGES:
                check(spoken, f"{game} start")
        seen_phases: set[str] = set()
        phase: str | None = site.play(rng)
        while phase is not None:
            if phase not in seen_phases:
                seen_phases.add(phase)
                check(language, f"{game} {phase}", ("/play",))
            phase = site.play(rng)
        check(language, f"{game} over", ("/play", "/scoreboard"))
    for tab in tabs.values():
        tab.context.close()
    assert {language for language, _, _ in checked} == set(LANGUAGES)
    assert {path for _, path, _ in checked} >= {"/", "/join", "/play", "/host", "/scoreboard"}
    assert counted["marks"] > 0, "no horse's mark was found on any page"
    assert not found, "\n".join(f"{rule}: {said}" for rule, said in found.items())
    assert not marks, "\n".join(f"{mark} ({where})" for mark, where in marks.items())
