"""Every door, one truth: the panel, a scan and the phones take the same inputs at a real table.

A real daemon with its pages on; phones are plain HTTP clients with their own seat cookies
(the pages' own routes), the panel is pressed and scanned through the control socket. The two
Course hippique seams a table of friends met: the croupier's phone turned a card while the
max bet was still being set (the race started with no maximum and no bets), and a horse
pressed at the panel for one bettor became the next bettor's bet once the first bet from
their phone.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.conftest import Table
from tests.web.http_pads import Pad, seat_everyone

PLAYERS = ("Anna", "Benoît", "Chloé", "Anaïs")
COURSE = ("7H", "QS", "2C", "9D", "KH", "5S", "8C")


@pytest.fixture(scope="module")
def pads(table: Table) -> Iterator[dict[str, Pad]]:
    """The host's phone starts a Course hippique game; every player takes a seat."""
    yield seat_everyone(table, "course_hippique", PLAYERS)


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

    def asked(player: str) -> None:
        child.wait_until(lambda s: s["view"]["offers"]["waiting"][:1] == [player], player)
        child.wait_text(f"{player}: bet")  # the LCD names the same person

    if table.view()["phase"] == "dealing":  # this test alone: Anna's phone lays the course
        status, answer = pads["Anna"].enter({"type": "deal_course", "cards": ",".join(COURSE)})
        assert status == 200, answer
    child.press("push")  # Anna, the croupier, announces the dial's max bet
    asked("Benoît")
    child.press("push")  # Benoît passes
    asked("Chloé")
    child.press("horse4")  # a horse pressed for Chloé...
    assert "Horse *" in "\n".join(child.lcd())
    status, answer = pads["Chloé"].enter({"type": "bet", "horse": "D", "stake": "5"})
    assert status == 200, answer  # ...who bets from her phone instead
    asked("Anaïs")
    state = child.send("state")
    assert "Horse -" in "\n".join(state["lcd"])  # nothing chosen for Anaïs
    assert "Anaïs" in state["view"]["waiting_for"]
    child.press("push")  # Anaïs wants no bet: the push passes
    view = child.wait_until(lambda s: not s["view"]["waiting_for"], "every bet in")["view"]
    assert view["sealed"] == ["Chloé"]
    anais = pads["Anaïs"].page()
    assert "Your bet" not in anais and 'data-type="bet"' not in anais
    assert 'data-type="turn_card"' in pads["Anna"].page()  # now the croupier turns
    child.act("scan 3S", "the first card")  # a card not scanned before: no repeat to filter
    bets = table.view()["board"]["bets"]
    assert [(b["player"], b["horse"], b["stake"]) for b in bets] == [("Chloé", "D", 5)]
