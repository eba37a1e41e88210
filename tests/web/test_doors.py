"""Every door, one truth: the panel, a scan and the phones take the same inputs at a real table.

A real daemon with its pages on; phones are plain HTTP clients with their own seat cookies
(the pages' own routes), the panel is pressed and scanned through the control socket. The two
Course hippique seams a table of friends met: the croupier's phone turned a card while the
max bet was still being set (the race started with no maximum and no bets), and a horse
pressed at the panel for one bettor became the next bettor's bet once the first bet from
their phone.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import Table

PLAYERS = ("Anna", "Benoît", "Chloé", "Anaïs")
COURSE = ("7H", "QS", "2C", "9D", "KH", "5S", "8C")


class Pad:
    """One phone's pages, over HTTP: its own cookies, the pages' own routes."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.cookies: dict[str, str] = {}

    def call(self, path: str, data: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        headers = {"Origin": self.table.url, "Content-Type": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = json.dumps(data).encode() if data is not None else None
        sent = urllib.request.Request(self.table.url + path, data=body, headers=headers)
        try:
            with urllib.request.urlopen(sent, timeout=10) as answer:
                self._keep(answer.headers.get_all("Set-Cookie") or [])
                text = answer.read()
                status = answer.status
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"{}")
        try:
            return status, json.loads(text or b"{}")
        except json.JSONDecodeError:
            return status, {"html": text.decode()}

    def _keep(self, cookies: list[str]) -> None:
        for cookie in cookies:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]

    def join(self, seat: str, code: str) -> None:
        """Ask for ``seat`` with ``code``; the panel's long push gives it."""
        status, answer = self.call("/api/join", {"code": code, "seat": seat})
        assert status == 200, answer
        asked = "the host" if seat == "#host" else seat
        self.table.child.wait_until(
            lambda s: any(f"Phone for {asked}?" in row for row in s["lcd"] + s["oled"]["lines"]),
            f"the table asking about {asked}",
        )
        self.table.child.send("hold push")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            status, answer = self.call("/api/join")
            if answer.get("go"):
                return
            time.sleep(0.05)  # as the join page polls, a little more often
        raise AssertionError(f"{seat} was never seated: {answer}")

    def enter(self, entry: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self.call("/api/input", entry)

    def page(self) -> str:
        return str(self.call("/play")[1]["html"])


@pytest.fixture(scope="module")
def pads(table: Table) -> Iterator[dict[str, Pad]]:
    """The host's phone starts a Course hippique game; Anna, Chloé and Anaïs take a seat."""
    host = Pad(table)
    host.join("#host", table.join_code())
    status, answer = host.call(
        "/api/host", {"do": "new_game", "game": "course_hippique", "players": "\n".join(PLAYERS)}
    )
    assert status == 200, answer
    code = re.search(r'class="code">(\d+)<', str(host.call("/host")[1]["html"]))
    assert code is not None
    seated = {"host": host}
    for name in ("Anna", "Chloé", "Anaïs"):
        seated[name] = Pad(table)
        seated[name].join(name, code.group(1))
    yield seated


def test_the_croupiers_phone_cannot_turn_a_card_before_the_max_bet(
    table: Table, pads: dict[str, Pad]
) -> None:
    anna = pads["Anna"]
    status, answer = anna.enter({"type": "deal_course", "cards": ",".join(COURSE)})
    assert status == 200, answer
    view = table.view()
    assert view["phase"] == "betting" and view["board"]["max_bet"] is None
    page = anna.page()
    assert 'data-type="set_max_bet"' in page
    assert 'data-type="turn_card"' not in page  # no card picker while the max is being set
    status, answer = anna.enter({"type": "turn_card", "card": "2S"})
    assert (status, answer["code"]) == (409, "no_max_bet"), answer
    table.child.send("scan 2S")  # the same card at the panel: the same refusal
    table.child.wait_text("croupier has not")
    after = table.view()
    assert (after["phase"], after["board"]["max_bet"], after["events"]) == (
        "betting",
        None,
        view["events"],
    )


def test_a_horse_pressed_for_one_bettor_never_becomes_the_next_bettors_bet(
    table: Table, pads: dict[str, Pad]
) -> None:
    child = table.child
    child.wait_until(lambda s: "max bet" in " ".join(s["lcd"]).lower(), "the max bet dial")
    child.press("push")  # Anna, the croupier, announces the dial's max bet
    child.wait_text("Benoît: bet")
    child.press("push")  # Benoît passes
    child.wait_text("Chloé: bet")
    child.press("horse4")  # a horse pressed for Chloé...
    assert "Horse *" in "\n".join(child.lcd())
    status, answer = pads["Chloé"].enter({"type": "bet", "horse": "D", "stake": "5"})
    assert status == 200, answer  # ...who bets from her phone instead
    state = child.wait_text("Anaïs: bet")
    assert "Horse *" not in "\n".join(state["lcd"])  # nothing chosen for Anaïs
    assert "Anaïs" in state["view"]["waiting_for"]
    child.press("push")  # Anaïs wants no bet: the push passes
    view = child.wait_until(lambda s: not s["view"]["waiting_for"], "every bet in")["view"]
    assert view["sealed"] == ["Chloé"]
    anais = pads["Anaïs"].page()
    assert "Your bet" not in anais and 'data-type="bet"' not in anais
    assert 'data-type="turn_card"' in pads["Anna"].page()  # now the croupier turns
    child.act("scan 2S", "the first card")
    bets = table.view()["board"]["bets"]
    assert [(b["player"], b["horse"], b["stake"]) for b in bets] == [("Chloé", "D", 5)]
