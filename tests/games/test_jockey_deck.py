"""The Jockey deck file: the default 54 cards, their ids, and every way a deck file can be wrong."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.errors import DataError, Refusal
from companion.games.jockey.deck import CardKind, JockeyHorse, default_deck, load_deck

DEFAULT = """
[[colour]]
kind = "advance"
steps = 7
count = 4

[[colour]]
kind = "advance"
steps = 10
count = 3

[[colour]]
kind = "lead"
factor = 3
count = 2

[[colour]]
kind = "chase"
steps = 50
behind = 5
count = 2

[[neutral]]
kind = "position"
position = 2
steps = 15
count = 4

[[neutral]]
kind = "position"
position = 4
steps = 20
count = 3

[[neutral]]
kind = "position"
position = 3
steps = 18
ahead = 1
count = 3
"""


def test_the_default_deck_holds_the_54_cards_of_the_rules() -> None:
    deck = default_deck()
    labels = Counter(card.label for card in deck.cards)
    assert len(deck.cards) == 54
    for horse in JockeyHorse:
        assert labels[f"{horse} +7"] == 4
        assert labels[f"{horse} +10"] == 3
        assert labels[f"{horse} lead x3"] == 2
        assert labels[f"{horse} chase +50"] == 2
    assert labels["No.2 +15"] == 4
    assert labels["No.4 +20"] == 3
    assert labels["No.3 +18"] == 3
    assert sum(1 for card in deck.cards if card.colour is None) == 10


def test_the_shipped_file_says_what_the_rules_say() -> None:
    assert load_deck(DEFAULT) == default_deck()


def test_the_numbers_on_the_cards_come_from_the_file() -> None:
    deck = default_deck()
    chase = deck.card("red-chase#1")
    assert (chase.kind, chase.colour, chase.steps, chase.behind) == (
        CardKind.CHASE,
        JockeyHorse.RED,
        50,
        5,
    )
    no3 = deck.card("no3+18#3")
    assert (no3.kind, no3.colour, no3.position, no3.steps, no3.ahead) == (
        CardKind.POSITION,
        None,
        3,
        18,
        1,
    )
    assert deck.card("no2+15#1").ahead is None
    assert deck.card("blue-lead#2").factor == 3


def test_every_card_has_its_own_id_of_kind_and_copy_number() -> None:
    deck = default_deck()
    ids = [card.id for card in deck.cards]
    assert len(set(ids)) == 54
    assert {"red+7#1", "red+7#4", "yellow+10#3", "brown-lead#2", "blue-chase#1"} <= set(ids)
    assert {"no2+15#4", "no4+20#3", "no3+18#1"} <= set(ids)
    assert "red+7#5" not in ids and "no3+18#4" not in ids


def test_a_card_id_is_read_in_any_case_and_with_the_reader_prefix() -> None:
    deck = default_deck()
    assert deck.card(" RED+7#2 ").id == "red+7#2"
    assert deck.card("jockey:red+7#2").id == "red+7#2"


def test_an_unknown_card_is_refused() -> None:
    with pytest.raises(Refusal) as refused:
        default_deck().card("green+7#1")
    assert refused.value.code == "unknown_card"


def test_a_table_whose_chase_cards_read_30_edits_one_number() -> None:
    deck = load_deck(DEFAULT.replace("steps = 50", "steps = 30"))
    assert deck.card("red-chase#2").steps == 30
    assert deck.card("red-chase#2").label == "red chase +30"


NEUTRAL_NO2 = '[[neutral]]\nkind = "position"\nposition = 2'
FIRST_ADVANCE = '[[colour]]\nkind = "advance"\nsteps = 7'

BAD_FILES = [
    ('kind = "lead"', 'kind = "jump"', "unknown kind 'jump'"),
    ("factor = 3", "factor = 1", "factor: must be a whole number of at least 2"),
    ("steps = 7", "steps = 0", "steps: must be a whole number of at least 1"),
    ("steps = 7", 'steps = "7"', "steps: must be a whole number"),
    ("steps = 7", "steps = true", "steps: must be a whole number"),
    ("position = 4", "position = 5", "position: must be a whole number from 1 to 4"),
    ("behind = 5", "behind = -1", "behind: must be a whole number of at least 0"),
    ("factor = 3", "factr = 3", "unknown key 'factr'"),
    ("behind = 5\n", "", "needs 'behind'"),
    (NEUTRAL_NO2, NEUTRAL_NO2.replace("neutral", "colour"), "belong in [[neutral]]"),
    ("position = 4\nsteps = 20", "position = 2\nsteps = 15", "'no2+15' is listed twice"),
    (FIRST_ADVANCE, FIRST_ADVANCE.replace("colour", "colours"), "unknown section 'colours'"),
]


@pytest.mark.parametrize(("old", "new", "message"), BAD_FILES)
def test_a_bad_deck_file_says_which_key_is_wrong_and_why(old: str, new: str, message: str) -> None:
    assert old in DEFAULT
    with pytest.raises(DataError, match=r"^my_deck\.toml: ") as error:
        load_deck(DEFAULT.replace(old, new, 1), "my_deck.toml")
    assert message in str(error.value)


def test_a_deck_of_the_wrong_size_names_the_count() -> None:
    with pytest.raises(DataError, match=r"^big\.toml: the deck holds 58 cards, not 54$"):
        load_deck(DEFAULT.replace("count = 4", "count = 5", 1), "big.toml")
    with pytest.raises(DataError, match=r"^small\.toml: the deck holds 53 cards, not 54$"):
        load_deck(DEFAULT.replace("ahead = 1\ncount = 3", "ahead = 1\ncount = 2"), "small.toml")


def test_a_file_that_is_not_toml_is_a_data_error() -> None:
    with pytest.raises(DataError, match=r"^broken\.toml: not a TOML file"):
        load_deck("[[colour]\nkind =", "broken.toml")


def test_a_deck_survives_its_own_saved_form() -> None:
    from companion.games.jockey.deck import deck_from_data

    deck = default_deck()
    assert deck_from_data(deck.to_data()) == deck
