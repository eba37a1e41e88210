"""The pages say the truth and fit a phone: the home and join pages claim no live
connection, and the host page (its games listed, the room, the new-game form) fits a 390 px
phone in every language without scrolling sideways, calling a game not being played paused."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.render.language import speaking
from companion.session.evening import Evening, GameResult, place_points
from companion.session.session import Session
from companion.web.fragments import evening_html
from companion.web.hub import Hub
from companion.web.joins import Joins
from companion.web.pages import home_page, host_page, join_page, scoreboard_page
from companion.web.seats import HOST, SeatBook
from companion.web.side import TableSide
from tests.web.conftest import PHONE, TV
from tests.web.test_page_languages import Quiet, text

STYLE = resources.files("companion.web").joinpath("static", "style.css").read_bytes()
#: The longest names the host page takes (20 letters), three of them.
NAMES = ["Maximilian-Friedrich", "Anne-Charlotte Dupré", "Bartholomew Johnsonn"]
PAUSED = {"en": "paused", "fr": "en pause", "de": "pausiert"}
CONNECTING = {"en": "connecting…", "fr": "connexion…", "de": "verbinde…"}


def host_page_of(
    language: str, journal: Path, names: Sequence[str], games: Callable[[Session], object]
) -> str:
    """The host page of a table whose journal ``games`` fills, every one of ``names`` and
    the host seated."""
    now = [100.0]
    session = Session.open(journal)
    controller = TableController(session, clock=lambda: now[0], language=language)
    daemon = Daemon(controller, Panel(), [], Quiet(), clock=lambda: now[0])
    seats = SeatBook(None)
    side = TableSide(daemon, controller, seats, Joins(lambda: now[0]), Hub(), "10.0.0.2:8080")
    games(session)
    side.refresh()
    for seat in (*names, HOST):
        seats.issue(seat)
    side.refresh()
    snap = side.drawn()
    with speaking(language):
        return host_page(snap.public, snap.host)


def host_html(language: str, journal: Path) -> str:
    """The host page of a table with many games: abandoned, paused, on."""

    def games(session: Session) -> None:
        session.abandon(session.new_game("course_hippique", NAMES))
        session.new_game("jockey", NAMES)
        session.new_game("jumpy_jack", NAMES)  # the jockey game is left, not over: paused

    return host_page_of(language, journal, NAMES, games)


def evaluated(browser: Any, html: str, script: str, viewport: dict[str, int] = PHONE) -> Any:
    """What ``script`` finds in ``html`` drawn with the stylesheet (no script of the page's
    own: the page as drawn, nothing live), on a 390 px phone or ``viewport``."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()

    def serve(route: Any) -> None:
        if route.request.url.endswith("/style.css"):
            route.fulfill(body=STYLE, content_type="text/css")
        elif route.request.url.endswith("/page"):
            route.fulfill(body=html, content_type="text/html")
        else:
            route.abort()

    page.route("**/*", serve)
    page.goto("http://companion.test/page")
    found = page.evaluate(script)
    context.close()
    return found


def width_on_a_phone(browser: Any, html: str, viewport: dict[str, int] = PHONE) -> int:
    """How wide ``html`` is drawn on a 390 px phone (or ``viewport``), with the stylesheet."""
    return int(evaluated(browser, html, "document.documentElement.scrollWidth", viewport))


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_host_page_fits_a_phone_and_calls_a_game_not_played_paused(
    browser: Any, language: str, tmp_path: Path
) -> None:
    html = host_html(language, tmp_path / "journal.sqlite3")
    seen = text(html)
    assert PAUSED[language] in seen  # the jockey game: started, not over, not the one on
    assert width_on_a_phone(browser, html) <= PHONE["width"]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_pages_without_live_updates_claim_no_connection(language: str) -> None:
    with speaking(language):
        still = [home_page(), join_page(["Anna"], frozenset({HOST}), host=False)]
        live = host_page("", "")
    for html in still:
        assert CONNECTING[language] not in text(html)
    assert CONNECTING[language] in text(live)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_evenings_standings_fit_a_phone_and_a_tv(browser: Any, language: str) -> None:
    players = tuple(NAMES)
    chips = dict(zip(players, (-12, 30, -18), strict=True))
    evening = Evening(
        (
            GameResult(
                1,
                "course_hippique",
                players,
                (NAMES[1],),
                tuple(chips.items()),
                tuple(place_points(chips).items()),
            ),
        )
    )
    with speaking(language):
        standings = evening_html(evening, shown=True)
        html = scoreboard_page(f'<section id="public">{standings}</section>')
    assert NAMES[1] in text(html) and "+30" in text(html)
    for viewport in (PHONE, TV):
        assert width_on_a_phone(browser, html, viewport) <= viewport["width"]
