"""A table without a card reader: the croupier (Course hippique) or the player (Jockey) dials
each card with a horse button (the suit, the horse's cards) and the knob, then pushes."""

from __future__ import annotations

import random
from typing import Any

from companion.session.session import Session
from tests.daemon.test_table_course_hippique import NAMES, RANKS, SUITS
from tests.daemon.test_table_course_hippique import start as start_course
from tests.daemon.test_table_jockey import bet
from tests.daemon.test_table_jockey import start as start_jockey


def dial_playing_card(table: Any, code: str) -> None:
    """Dial ``code`` ("QS"): the suit's button, the knob from 2 to the rank, push."""
    table.press(f"horse{SUITS.index(code[-1]) + 1}")
    table.turn(RANKS.index(code[:-1]))
    table.press("push")


def test_course_hippique_is_played_with_no_reader(make_table: Any) -> None:
    table = make_table(Session.in_memory(), NAMES, cards="dial")
    start_course(table)
    table.wait()
    assert table.screen.lcd[1] == "Dial course card 1/7"
    assert table.screen.lcd[3] == "1♠ 2♥ 3♦ 4♣"
    table.press("horse2")  # hearts
    assert table.screen.lcd[2:] == ("Card: < 2♥ >", "Turn; push: play it")
    table.turn(10)
    assert table.screen.lcd[2] == "Card: < Q♥ >"
    assert table.screen.oled.lines == ("Card", "Q♥")
    table.hold_undo()  # takes back the suit, nothing else
    assert "Taken back." in table.lcd
    assert not any(table.view.board.course)
    table.wait()
    assert table.screen.lcd[3] == "1♠ 2♥ 3♦ 4♣"
    table.press("horse2")
    table.turn(-2)  # round from 2♥ to K♥, Q♥
    table.press("push")
    assert [c.code for c in table.view.board.course if c] == ["QH"]
    rng = random.Random(3)
    deck = [r + s for s in SUITS for r in RANKS if r + s != "QH"]
    rng.shuffle(deck)
    while table.view.phase in ("dealing", "redeal"):
        if table.view.phase == "redeal":
            deck = [r + s for s in SUITS for r in RANKS]
            rng.shuffle(deck)
        dial_playing_card(table, deck.pop())
    assert "Anna: max bet" in table.lcd
    table.press("horse1")  # the buttons do not dial while the max bet is set
    table.press("push")
    table.press("horse3")  # Ben bets on diamonds
    table.press("push")
    table.press("push")  # Chloé passes
    table.wait()
    assert "Anna: turn cards" in table.lcd and table.screen.lcd[3] == "1♠ 2♥ 3♦ 4♣"
    while table.view.phase in ("betting", "racing"):
        dial_playing_card(table, deck.pop())
    assert table.view.phase == "race_over"
    assert "wins race 1" in table.screen.lcd[0] or "win!" in table.lcd


def test_jockey_is_played_with_no_reader(make_table: Any) -> None:
    table = make_table(Session.in_memory(), cards="dial")
    start_jockey(table)
    bet(table, "win", ["red"], [300])
    bet(table, "place", ["blue"], [200])
    table.wait()
    assert table.screen.lcd[2] == "Dial the card played"
    assert table.screen.lcd[3] == "1Br 2Ye 3Bl 4Re 5No"
    table.press("horse4")  # red's cards
    assert table.screen.lcd[2] == "Card: < red +7 >"
    table.press("push")
    assert table.view.board.pile == ("red+7#1",)
    assert table.screen.lcd[2] == "Anna: red +7"
    table.press("horse4", "push")  # the same card again: its next copy
    assert table.view.board.pile == ("red+7#1", "red+7#2")
    table.press("horse5")  # the position cards
    assert table.screen.lcd[2].startswith("Card: < No.")
    table.hold_undo()
    assert table.view.board.pile == ("red+7#1", "red+7#2")
    table.press("horse3")
    table.turn(1)
    assert table.screen.lcd[2] == "Card: < blue +10 >"
    table.press("push")
    assert table.view.board.pile[-1] == "blue+10#1"
    rng = random.Random(8)
    while table.view.phase == "racing":
        group = rng.randint(1, 5)
        table.press(f"horse{group}")
        table.turn(rng.randint(0, 4))
        table.press("push")
    assert table.view.phase == "race_over"
    assert "1st" in table.screen.lcd[1]
