"""Figures on the pages as the table's language writes them: balances, chips, stakes and the
chart's labels with their thousands grouped; the LCD keeps plain digits."""

from __future__ import annotations

from html import unescape

import pytest

from companion.render.language import figure, speaking
from companion.session.log import BetEntry
from companion.session.session import Session
from companion.web.fragments import private_html, public_html
from companion.web.state import private_state, public_state
from tests.golden.test_golden import _read, played

#: A thousand in each language (the French group separator is a narrow no-break space).
THOUSAND = {"en": "1,000", "fr": "1\u202f000", "de": "1.000"}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_a_figure_groups_its_thousands_as_the_language_does(language: str) -> None:
    with speaking(language):
        assert figure(1000) == THOUSAND[language]
        assert figure(-1200) == "\u2212" + THOUSAND[language].replace("000", "200")  # minus
        assert figure(30, signed=True) == "+30" and figure(-18, signed=True) == "\u221218"
        assert figure(999) == "999"


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_jockey_balances_and_stakes_on_the_pages_group_their_thousands(language: str) -> None:
    session = Session.in_memory()
    session.new_game("jockey", ("Anna", "Bob"), {})
    assert session.submit(BetEntry("Anna", "red", 1000)).accepted
    with speaking(language):
        public = public_state(session)
        board = unescape(public_html(public))
        mine = unescape(private_html("Anna", private_state(session, "Anna"), public))
    assert f"<td>{THOUSAND[language]}</td>" in board  # Bob's balance, the race not run yet
    assert THOUSAND[language] in mine  # Anna's balance, or her sealed stake of 1000
    if language != "en":
        assert "1000" not in board.replace('="', "").split("<svg")[0]


def test_the_lcd_writes_figures_as_plain_digits() -> None:
    script = next(s for s in _read("table_scripts.jsonl.gz") if s["name"] == "jockey-short-11")
    with speaking("fr"):
        rows = {row for table, _ in played(script, "fr") for row in table.screen().lcd}
    assert any("1000" in row for row in rows)
    assert not any("\u202f" in row or "1.000" in row or "1 000" in row for row in rows)
