"""The host page at a glance, on a 390x844 phone in English, French and German: during a game
its first screen holds the game's commands; the commands that take something back or stop
something (undo, abandon, end the evening) are plain buttons, not the green of "Start",
grouped apart, and each asks to confirm; between games the new game's "Start" is on the first
screen; every link, button and folded title of the host page and the first page is at least
44 px each way."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from companion.render.language import speaking
from companion.session import autoplay
from companion.session.session import Session
from companion.web.pages import home_page
from tests.web.conftest import PHONE
from tests.web.test_page_fit import evaluated, host_page_of

STYLE = resources.files("companion.web").joinpath("static", "style.css").read_bytes()
NAMES = ("Anna", "Benoît", "Chloé")
#: The commands that take something back or stop something.
CAREFUL = ("undo", "abandon", "end_evening")

#: Where each of the host's commands stands, how it looks, whether it asks to confirm.
LOOK = """() => {
  const box = el => el.getBoundingClientRect();
  const forms = [...document.querySelectorAll("#host form[data-do]")].map(f => {
    const button = f.querySelector("button");
    const style = getComputedStyle(button);
    return {do: f.dataset.do, confirm: f.dataset.confirm || "", bottom: box(button).bottom,
            shown: box(button).height > 0, background: style.backgroundColor,
            group: f.closest(".careful") ? "careful" : "", said: button.textContent};
  });
  const targets = [...document.querySelectorAll("a, button, summary, select")]
    .filter(el => box(el).height > 0)
    .map(el => ({said: el.textContent.trim().slice(0, 40), width: box(el).width,
                 height: box(el).height}));
  return {forms, targets};
}"""


def host(language: str, journal: Path, over: bool) -> str:
    """The host page of a table whose room has three people, a game on (``over``: finished)."""

    def games(session: Session) -> None:
        session.new_game("jockey", NAMES)
        session.abandon(session.game_id or 0)
        session.new_game("jumpy_jack", NAMES, {"target": 2})
        rng = random.Random(4)
        while over and not session.view().finished:
            assert session.table is not None
            entry = autoplay.legal_input(session.table, rng)
            assert entry is not None and session.submit(entry).accepted

    return host_page_of(language, journal, NAMES, games)


def look(browser: Any, html: str) -> dict[str, Any]:
    seen: dict[str, Any] = evaluated(browser, html, LOOK)
    return seen


def large_enough(seen: dict[str, Any]) -> None:
    small = [t for t in seen["targets"] if t["width"] < 44 or t["height"] < 44]
    assert not small, small


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_host_page_holds_a_game_s_commands_on_one_screen(
    browser: Any, language: str, tmp_path: Path
) -> None:
    seen = look(browser, host(language, tmp_path / "journal.sqlite3", over=False))
    forms = seen["forms"]
    start = next(f for f in forms if f["do"] == "new_game")
    careful = [f for f in forms if f["do"] in CAREFUL and f["shown"]]
    assert {f["do"] for f in careful} == set(CAREFUL)
    for form in careful:
        assert form["confirm"], form  # each asks first
        assert form["background"] != start["background"], form  # not the green of "Start"
    grouped = [f for f in careful if f["group"] == "careful"]
    assert {f["do"] for f in grouped} == set(CAREFUL)  # together, apart from the rest
    for form in grouped:
        assert form["bottom"] <= PHONE["height"], form  # on the first screen
    large_enough(seen)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_between_games_the_host_page_starts_the_next_one_from_its_first_screen(
    browser: Any, language: str, tmp_path: Path
) -> None:
    seen = look(browser, host(language, tmp_path / "journal.sqlite3", over=True))
    start = next(f for f in seen["forms"] if f["do"] == "new_game")
    assert start["shown"] and start["bottom"] <= PHONE["height"]
    assert not any(f["do"] == "abandon" and f["group"] for f in seen["forms"])  # nothing on
    large_enough(seen)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_first_page_has_three_large_doors(browser: Any, language: str) -> None:
    with speaking(language):
        seen = look(browser, home_page())
    doors = [t for t in seen["targets"]]
    assert len(doors) == 3
    assert all(t["height"] >= 64 and t["width"] >= 300 for t in doors), doors


APP = resources.files("companion.web").joinpath("static", "app.js").read_bytes()


def test_a_part_folded_by_hand_stays_so_and_the_others_follow_the_table(
    browser: Any, tmp_path: Path
) -> None:
    """Between games the join code is open; the host opens the room; a game starts: the
    room stays open (the host opened it), the join code folds (the page's choice)."""
    between = host("en", tmp_path / "one.sqlite3", over=True)
    during = host("en", tmp_path / "two.sqlite3", over=False)

    def part(html: str) -> str:
        """The host's part of a page, as a live frame carries it."""
        start = html[html.index('<section id="host">') :]
        return start[: start.index("</section>") + len("</section>")]

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()

    def serve(route: Any) -> None:
        url = route.request.url
        if url.endswith("/style.css"):
            route.fulfill(body=STYLE, content_type="text/css")
        elif url.endswith("/app.js"):
            route.fulfill(body=APP, content_type="text/javascript")
        elif url.endswith("/host"):
            route.fulfill(body=between, content_type="text/html")
        else:
            route.abort()

    page.route("**/*", serve)
    page.goto("http://companion.test/host")  # its live socket finds nobody, and tries again
    folds = "() => Object.fromEntries([...document.querySelectorAll('details[data-fold]')]" \
        ".map(d => [d.dataset.fold, d.open]))"  # fmt: skip
    assert page.evaluate(folds)["join"] is True
    sockets: list[Any] = []

    def live(socket: Any) -> None:  # the same picture again, as after any change
        sockets.append(socket)
        socket.send(json.dumps({"v": 2, "lang": "en", "host": part(between)}))

    page.route_web_socket("**/*", live)
    page.wait_for_selector("#link:text-is('live')")  # the redrawn picture is in
    page.click("details[data-fold=room] > summary")
    sockets[0].send(json.dumps({"v": 3, "lang": "en", "host": part(during)}))  # a game began
    page.wait_for_selector("#host details[data-fold=new]")  # the new picture is in
    seen = page.evaluate(folds)
    context.close()
    assert seen["room"] is True  # opened by hand: stays open
    assert seen["join"] is False  # opened by the page between games: folds with the game
