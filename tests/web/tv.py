"""The TV's scoreboard in Chromium without a daemon: a table played in-process, its public part
drawn after every input, and a page that takes each new picture as the live socket's script
does (the old ``#public`` replaced by the new one), its files served from the package.

Shared by the TV tests (``test_tv.py``) and the screenshots of the docs
(``python -m tests.web.tv``).
"""

from __future__ import annotations

import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from companion.render.language import speaking
from companion.session import autoplay
from companion.session.evening import EveningBook
from companion.session.log import LogEntry
from companion.session.session import Session
from companion.web.fragments import evening_html, public_html
from companion.web.pages import scoreboard_page
from companion.web.routes.pages import GAMES_CSS, games_css
from companion.web.state import public_state
from tests.web.conftest import CHROMIUM, TV

#: The files a scoreboard loads: the live-socket script is left out (no daemon answers it).
SERVED = {
    "style.css": "text/css",
    "tv.css": "text/css",
    "tv.js": "text/javascript",
    "favicon.svg": "image/svg+xml",
}
#: What the page does with a new picture: what app.js does with a live frame's public part.
REPLACE = """html => {
  const old = document.getElementById("public");
  const holder = document.createElement("div");
  holder.innerHTML = html;
  old.parentNode.replaceChild(holder.firstChild, old);
}"""
NAMES = ("Anna", "Ben", "Chloé")


class Race:
    """One game played in-process by seeded legal inputs, its public part drawn in a language
    (with the evening's standings when it is written to a ``journal``)."""

    def __init__(
        self,
        kind: str,
        language: str,
        seed: int,
        players: tuple[str, ...] = NAMES,
        journal: Path | None = None,
    ):
        self.session = Session.in_memory() if journal is None else Session.open(journal)
        self.session.new_game(kind, players, {})
        self.language = language
        self.rng = random.Random(seed)
        self.evenings = EveningBook()

    def drawn(self) -> str:
        """The public part now, as every page receives it."""
        with speaking(self.language):
            evening = self.evenings.evening(self.session.journal)
            table = self.session.table
            over = table is None or table.binding.finished()
            return public_html(public_state(self.session), evening_html(evening, over))

    def page(self) -> str:
        """The whole scoreboard page now."""
        with speaking(self.language):
            return scoreboard_page(self.drawn())

    def play(self, entry: LogEntry) -> None:
        outcome = self.session.submit(entry)
        assert outcome.accepted, outcome

    def step(self) -> LogEntry | None:
        """One random legal input (None: the game is over)."""
        table = self.session.table
        assert table is not None
        entry = autoplay.legal_input(table, self.rng)
        if entry is not None:
            self.play(entry)
        return entry

    def until(self, done: Callable[[Session], bool], most: int = 2000) -> Iterator[LogEntry]:
        """Play random legal inputs until ``done``, yielding each one played."""
        for _ in range(most):
            if done(self.session):
                return
            entry = self.step()
            if entry is None:
                return
            yield entry
        raise AssertionError("the game did not get there")


def open_board(browser: Any, html: str, viewport: dict[str, int], still: bool = False) -> Any:
    """A page of ``viewport`` showing ``html``, its files served from the package (reduced
    motion when ``still``); returns (context, page)."""
    motion = "reduce" if still else "no-preference"
    context = browser.new_context(viewport=viewport, reduced_motion=motion)
    page = context.new_page()
    static = resources.files("companion.web").joinpath("static")

    def serve(route: Any) -> None:
        name = route.request.url.rsplit("/", 1)[-1]
        if route.request.url.endswith("/scoreboard"):
            route.fulfill(body=html, content_type="text/html")
        elif name == GAMES_CSS:  # the games' own styles, gathered as the route does
            route.fulfill(body=games_css(), content_type="text/css")
        elif name in SERVED:
            route.fulfill(body=static.joinpath(name).read_bytes(), content_type=SERVED[name])
        else:
            route.abort()

    page.route("**/*", serve)
    page.goto("http://companion.test/scoreboard")
    return context, page


def show(page: Any, html: str) -> None:
    """Give the page a new public part, as a live frame does."""
    page.evaluate(REPLACE, html)


def screenshot(browser: Any, kind: str, language: str, seed: int, inputs: int, out: Path) -> None:
    """A 1920x1080 picture of ``kind`` after ``inputs`` seeded inputs, in ``language``."""
    race = Race(kind, language, seed)
    for _ in range(inputs):
        race.step()
    context, page = open_board(browser, race.page(), TV, True)
    page.screenshot(path=str(out))
    context.close()


def winner_screenshot(browser: Any, kind: str, language: str, seed: int, out: Path) -> None:
    """A 1920x1080 picture of ``kind``'s winner screen at the end of a seeded game, with the
    evening's standings beside it."""
    with tempfile.TemporaryDirectory() as scratch:
        race = Race(kind, language, seed, journal=Path(scratch) / "journal.sqlite3")
        for _ in race.until(lambda session: bool(session.view().finished)):
            pass
        context, page = open_board(browser, race.page(), TV, True)
        page.screenshot(path=str(out))
        context.close()
        race.session.close()


#: The docs' pictures: (game, seed, inputs played) mid-race with something to look at.
SHOTS = (("jumpy_jack", 5, 149), ("course_hippique", 0, 36), ("jockey", 0, 59))


def small(picture: Path) -> None:
    """Keep a picture small, as the guide's other pictures are (64 colours)."""
    from PIL import Image

    with Image.open(picture) as shot:
        fewer = shot.convert("RGB").quantize(colors=64)
    fewer.save(picture, optimize=True)


def main(out: Path) -> None:
    """Write docs/phones/tv-<game>-<language>.png (mid-race) and tv-<game>-winner-<language>.png
    (the winner screen at the game's end) for every game, in English and French."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        for kind, seed, inputs in SHOTS:
            for language in ("en", "fr"):
                game = kind.replace("_", "-")
                picture = out / f"tv-{game}-{language}.png"
                screenshot(browser, kind, language, seed, inputs, picture)
                small(picture)
                picture = out / f"tv-{game}-winner-{language}.png"
                winner_screenshot(browser, kind, language, seed, picture)
                small(picture)
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/phones"))
