"""Playing cards: every one of the 52 reads and prints back, anything else is refused."""

from __future__ import annotations

import pytest

from companion.games.cards import Card, NotACard, Rank, Suit, full_deck
from companion.games.errors import Refusal, fits_display


def test_the_deck_has_52_different_cards_13_per_suit() -> None:
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    for suit in Suit:
        assert sum(c.suit is suit for c in deck) == 13
    assert sum(c.is_ace for c in deck) == 4


@pytest.mark.parametrize("card", full_deck(), ids=str)
def test_every_card_reads_back_from_its_code_and_its_symbol(card: Card) -> None:
    assert Card.parse(card.code) == card
    assert Card.parse(card.code.lower()) == card
    assert Card.parse(card.symbol) == card
    assert Card.parse(card.english) == card
    assert Card.parse(card.french) == card
    assert str(card) == card.code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10♥", "10H"),
        ("♥10", "10H"),
        (" 10 ♥️ ", "10H"),
        ("QS", "QS"),
        ("Q♤", "QS"),
        ("AD", "AD"),
        ("7C", "7C"),
        ("queen of spades", "QS"),
        ("Ten of Hearts", "10H"),
        ("dame de pique", "QS"),
        ("As de cœur", "AH"),
        ("as de coeur", "AH"),
        ("sept de trèfle", "7C"),
        ("valet de carreau", "JD"),
        ("roi de trefle", "KC"),
    ],
)
def test_the_usual_spellings_are_read(text: str, code: str) -> None:
    assert Card.parse(text).code == code


def test_codes_print_as_the_table_writes_them() -> None:
    card = Card(Rank.TEN, Suit.HEARTS)
    assert (card.code, card.symbol, card.english, card.french) == (
        "10H",
        "10♥",
        "10 of hearts",
        "10 de cœur",
    )
    assert Card(Rank.QUEEN, Suit.SPADES).french == "dame de pique"
    assert repr(Card(Rank.ACE, Suit.DIAMONDS)) == "Card('AD')"


@pytest.mark.parametrize(
    "text",
    [
        *("", "ZZ", "1H", "11H", "0S", "H", "10", "AHH", "joker", "Joker rouge", "queen of stars"),
        *("}", "{0}", "T}{", "{text}"),  # a garbled scan is words, never a sentence's field
    ],
)
def test_anything_else_is_refused_with_a_sentence_for_the_lcd(text: str) -> None:
    with pytest.raises(NotACard) as caught:
        Card.parse(text)
    refusal = caught.value
    assert isinstance(refusal, Refusal)
    assert refusal.code == "not_a_card"
    assert "52 cards" in refusal.sentence
    assert fits_display(refusal.sentence)
    assert f'"{" ".join(text.split())}"' in refusal.sentence


def test_a_long_garbled_scan_is_cut_so_the_refusal_still_fits() -> None:
    with pytest.raises(NotACard) as caught:
        Card.parse("x" * 300)
    assert fits_display(caught.value.sentence)
    assert caught.value.text == "x" * 300


def test_suits_read_letters_symbols_and_names() -> None:
    assert Suit.parse("h") is Suit.HEARTS
    assert Suit.parse("♣") is Suit.CLUBS
    assert Suit.parse("Carreau") is Suit.DIAMONDS
    assert Suit.parse("spades") is Suit.SPADES
    with pytest.raises(Refusal) as caught:
        Suit.parse("stars")
    assert caught.value.code == "not_a_suit"
