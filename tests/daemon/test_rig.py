"""The simulator's rig: every card it can lay on the reader has a tag the Pico protocol takes."""

from __future__ import annotations

import re

from companion.daemon.rig import (
    CATALOGUE,
    UNKNOWN_TAG,
    card_name,
    simulated_lookup,
    simulated_uid,
)


def test_every_card_of_both_decks_round_trips_through_a_valid_tag() -> None:
    assert len(CATALOGUE) == 52 + 54
    for name in CATALOGUE:
        uid = simulated_uid(name)
        assert re.fullmatch(r"[0-9A-F]{8,20}", uid), uid  # what a reader reports
        assert simulated_lookup(uid) == name


def test_cards_are_read_as_people_type_them() -> None:
    assert card_name("7♥") == "7H"
    assert card_name(" qs ") == "QS"
    assert card_name("JOCKEY:12") == "jockey:12"
    assert simulated_lookup(simulated_uid("j12")) == "jockey:12"


def test_a_name_that_is_no_card_reads_as_a_tag_nobody_enrolled() -> None:
    assert simulated_uid("ZZ") == UNKNOWN_TAG
    assert simulated_uid("jockey:red+7#2") == UNKNOWN_TAG  # an engine id, not a tag
    assert simulated_lookup(UNKNOWN_TAG) is None
    assert simulated_lookup("04A1B2C3") is None
