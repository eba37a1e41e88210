"""Jockey's hands option at the table: chosen in the menu, each hand scanned card by card
(only counted on the displays), then the bets, then only cards from the hand on turn."""

from __future__ import annotations

from typing import Any

from companion.session.session import Session
from tests.daemon.test_table_jockey import bet


def start_with_hands(table: Any) -> None:
    table.press("horse3", "push")  # Jockey, 2 players
    table.turn(-2)  # from Start up past Language to Hands
    assert ">Hands" in table.lcd and "off" in table.lcd
    table.press("push")
    assert "scan" in table.lcd
    table.turn(2)
    table.press("push")  # Start


def test_each_hand_is_scanned_then_bets_then_cards_from_the_hand(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_with_hands(table)
    assert table.view.game == "jockey" and table.view.board.hands
    table.wait()
    assert table.screen.lcd == (
        "Race 1/3: hands",
        "Anna: scan your hand",
        "Cards: 0/15",
        "Others look away",
    )
    for number in range(1, 16):
        table.scan(f"jockey:{number}")
    table.wait()
    assert table.screen.lcd[1:3] == ("Ben: scan your hand", "Cards: 0/15")
    assert "red" not in table.lcd and "+7" not in table.lcd  # counted, never named
    # A card scanned to Anna's hand is taken for Ben too: refusing it would tell Ben what
    # Anna holds (a hand is judged by the deck, the pile and its own cards alone).
    table.scan("jockey:3")
    table.wait()
    assert table.screen.lcd[1:3] == ("Ben: scan your hand", "Cards: 1/15")
    assert "refused" not in table.said
    for number in range(16, 30):
        table.scan(f"jockey:{number}")
    table.wait()
    assert "Anna: bet" in table.lcd
    bet(table, "win", ["red"], [300])
    bet(table, "win", ["blue"], [200])
    table.scan("jockey:20")  # Ben's card, on Anna's turn
    assert table.view.board.pile == ()
    table.scan("jockey:1")
    assert len(table.view.board.pile) == 1
    assert table.view.board.hand_sizes == {"Anna": 14, "Ben": 15}


def test_hands_are_refused_without_a_card_reader(make_table: Any) -> None:
    table = make_table(Session.in_memory(), cards="dial")
    start_with_hands(table)
    assert table.view.game is None
    assert "Hands need a card reader: a dialled card would show." in table.said
