"""Phones, a host page and a scoreboard in Debian's Chromium against the real daemon.

One daemon child serves the whole module: the host joins and starts a Jumpy Jack match, two
phones join and predict, the die button rolls and the phones move the horses; every byte the
phones received is searched for the other seat's prediction before the reveal; then the
daemon is killed and every page finds its seat again by itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import PHONE, TV, Table

DOCS = Path(__file__).resolve().parents[2] / "docs" / "phones"
PREDICTIONS = {"Anna": ("blue", "white", "green"), "Bob": ("white", "yellow", "red")}


class Phone:
    """One browser context (its own cookies) with one page, and everything it received."""

    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.responses: list[Any] = []
        self.frames: list[str] = []
        self.page.on("response", lambda response: self.responses.append(response))
        self.page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(str(payload)))

    def received(self) -> str:
        """Every response body and socket frame this phone got so far, as one text."""
        bodies = []
        for response in self.responses:
            try:
                bodies.append(response.text())
            except Exception:  # a redirect has no body to read
                continue
        return "\n".join(bodies + self.frames)


def join(phone: Phone, table: Table, seat: str, *, host: bool = False) -> None:
    """Open the join page, type the code the LCD shows, ask for ``seat``."""
    phone.page.goto(table.url + ("/join?host" if host else "/join"))
    phone.page.fill("input[name=code]", table.join_code())
    phone.page.click(f"button[value='{seat}']")
    phone.page.wait_for_selector("text=Wait for the table")


@pytest.fixture(scope="module")
def seated(table: Table, browser: Any) -> dict[str, Phone]:
    """The host (confirmed by the panel's push), a started match, two phones, a scoreboard."""
    host = Phone(browser, PHONE)
    join(host, table, "#host", host=True)
    table.child.wait_text("push: yes")
    table.child.press("push")
    host.page.wait_for_url("**/host")
    host.page.select_option("select[name=game]", "jumpy_jack")
    host.page.fill("textarea[name=players]", "Anna\nBob")
    host.page.fill("input[name=target]", "2")
    host.page.click("text=Start")
    host.page.wait_for_selector("#public >> text=Jumpy Jack")
    anna, bob = Phone(browser, PHONE), Phone(browser, PHONE)
    join(anna, table, "Anna")
    host.page.click("#host >> text=Confirm")  # the host page confirms Anna
    anna.page.wait_for_url("**/play")
    join(bob, table, "Bob")
    table.child.wait_text("push: yes")
    table.child.press("push")  # the panel confirms Bob
    bob.page.wait_for_url("**/play")
    board = Phone(browser, TV)
    board.page.goto(table.url + "/scoreboard")
    return {"host": host, "Anna": anna, "Bob": bob, "board": board}


def predict(phone: Phone, horses: tuple[str, ...]) -> None:
    for place, horse in enumerate(horses):
        phone.page.select_option(f"select[name='horses.{place}']", horse)
    phone.page.click("text=Seal my prediction")


def test_predictions_from_phones_stay_sealed_until_the_reveal(
    table: Table, seated: dict[str, Phone]
) -> None:
    anna, bob, board = seated["Anna"], seated["Bob"], seated["board"]
    predict(anna, ("red", "red", "blue"))  # refused: a horse twice; the reason on Anna's phone
    anna.page.wait_for_selector("#note.refusal")
    assert table.view()["waiting_for"] == ["Anna", "Bob"]
    for name, phone in (("Anna", anna), ("Bob", bob)):
        predict(phone, PREDICTIONS[name])
        phone.page.wait_for_selector(f"text=Your prediction: {' '.join(PREDICTIONS[name])}")
    board.page.wait_for_selector("text=Sealed: Anna, Bob")
    assert table.view()["waiting_for"] == []
    anna.page.screenshot(path=str(DOCS / "player-phone.png"))
    for name, phone in (("Anna", anna), ("Bob", bob), ("board", board)):
        seen = phone.received()
        for other, horses in PREDICTIONS.items():
            if other != name:
                assert " ".join(horses) not in seen, f"{name}'s page received {other}'s secret"
                assert f"You are {other}" not in seen


def test_the_die_rolls_the_phones_move_and_the_scoreboard_reveals(
    table: Table, seated: dict[str, Phone]
) -> None:
    dice = iter([3, 5, 2, 6, 4, 1] * 40)
    steps = 0
    while (view := table.view())["phase"] != "race_over":
        steps += 1
        assert steps < 200, "the race never ended"
        if view["phase"] in ("predict", "roll"):
            table.child.act(f"die {next(dice)}", "the roll")
            if steps == 3:
                table.kill_and_restart()  # mid-race: every page finds its seat by itself
                anna = seated["Anna"].page
                anna.wait_for_selector(f"text=Your prediction: {' '.join(PREDICTIONS['Anna'])}")
        elif view["phase"] == "move":
            phone = seated[view["turn"]].page
            phone.locator("#private form[data-type=move] button").first.click()
            table.child.wait_until(lambda s, e=view["events"]: s["view"]["events"] > e, "a move")
    board = seated["board"].page
    board.wait_for_selector("text=Race 1 revealed")
    assert board.locator(".chart svg polyline").count() == 2
    board.screenshot(path=str(DOCS / "scoreboard-tv.png"))
    seated["host"].page.screenshot(path=str(DOCS / "host-phone.png"))
