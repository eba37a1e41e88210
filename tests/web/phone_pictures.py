"""Draw the guide's pictures of the pads: ``.venv/bin/python -m tests.web.phone_pictures``.

A table served in this process and Debian's Chromium at 390 px: for each game, in English
and in French, a phone in the middle of an input (docs/phones/phone-<game>-<language>.png,
kept small: 64 colours).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import sync_playwright

from tests.web.conftest import CHROMIUM, PHONE
from tests.web.hostile.conftest import Served, serving

DOCS = Path(__file__).resolve().parents[2] / "docs" / "phones"
#: The course the croupier lays (suits interleaved: no redeal), then the largest stake.
COURSE = "2C,2D,2H,2S,3C,3D,3H"


def speak(served: Served, language: str) -> None:
    """The table speaks ``language`` (as the menu's language row makes it)."""
    side = served.companion.daemon.table.side  # type: ignore[attr-defined]

    def change() -> None:
        side.controller.ctx.language = language
        side.refresh()

    served.call(change)


def send(served: Served, cookie: str, data: dict[str, Any]) -> None:
    """An input from the phone of ``cookie``, as its page sends it."""
    answer = served.send("POST", "/api/input", json.dumps(data).encode(), Cookie=cookie)
    assert answer.json()["ok"], answer


def tap(page: Any, form: str, *chips: str) -> None:
    for chip in chips:
        page.locator(f"form[data-type={form}] button.chip[value='{chip}']").first.click()


def jumpy_jack(served: Served, host: str, phone: Callable[[str], Any]) -> Any:
    """Anna has tapped two horses of her podium."""
    served.new_game(host, "jumpy_jack", "Anna\nBob")
    page = phone("Anna")
    tap(page, "predict", "blue", "white")
    return page


def course_hippique(served: Served, host: str, phone: Callable[[str], Any]) -> Any:
    """The course is laid and the largest stake set: Bob has chosen his horse."""
    served.new_game(host, "course_hippique", "Anna\nBob\nChloé")
    croupier = served.seat_cookie("Anna")  # the first race's croupier
    send(served, croupier, {"type": "deal_course", "cards": COURSE})
    send(served, croupier, {"type": "set_max_bet", "amount": 5})
    page = phone("Bob")
    tap(page, "bet", "H")
    page.fill("form[data-type=bet] input[name=stake]", "3")
    return page


def jockey(served: Served, host: str, phone: Callable[[str], Any]) -> Any:
    """Anna is betting on a double: red and blue."""
    served.new_game(host, "jockey", "Anna\nBob")
    page = phone("Anna")
    tap(page, "bet", "double", "red", "blue")
    return page


GAMES = {"jumpy-jack": jumpy_jack, "course-hippique": course_hippique, "jockey": jockey}


def main(folder: Path = DOCS) -> None:
    with serving() as served, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        host = served.host_cookie()

        def phone(player: str) -> Any:
            """``player``'s phone, on their page."""
            context = browser.new_context(viewport=PHONE)
            key, value = served.seat_cookie(player).split("=", 1)
            context.add_cookies([{"name": key, "value": value, "url": served.url}])
            page = context.new_page()
            page.goto(served.url + "/play")
            page.wait_for_selector("form[data-type]")
            return page

        for language in ("en", "fr"):
            speak(served, language)
            for name, scene in GAMES.items():
                page = scene(served, host, phone)
                path = folder / f"phone-{name}-{language}.png"
                page.screenshot(path=str(path))
                with Image.open(path) as shot:
                    small = shot.convert("RGB").quantize(colors=64)
                small.save(path, optimize=True)
                page.context.close()
                print(path.name)
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS)
