"""Every word in the table's language: the scripted games played in French and German, their
LCD, OLED and pages read after each event, and no English left where the table says it itself.

The words looked for are those put into the table's language so far (the Jockey move line and
card labels, card ranks, decimal points); a word of English found here is a regression.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.render.language import speaking
from companion.web.fragments import private_html, public_html
from companion.web.state import private_state, public_state
from tests.golden.test_golden import _read, played

#: English the French and German tables must never show, with what it is.
ENGLISH = {
    "a move line": re.compile(r"\d+ to \d+|moved nothing|past the finish"),
    "a card's colour": re.compile(r"\b(red|blue|yellow|green|brown|white|black)\b \+\d+"),
    "a queen or jack": re.compile(r"(?<![\w+-])[JQ][♠♥♦♣]"),
    "a decimal point": re.compile(r"\d\.\d+ ?%"),
}
#: The French king is the roi: an English K is English there (German keeps its König).
FRENCH = {"a king": re.compile(r"(?<![\w+-])K[♠♥♦♣]")}
#: Pages are read every this many events (and at the end): a whole game's worth of them.
PAGES_EVERY = 10

SCRIPTS = {script["name"]: script for script in _read("table_scripts.jsonl.gz")}


def english_in(text: str, language: str) -> list[str]:
    """The kinds of English found in ``text`` with what matched."""
    checks = {**ENGLISH, **(FRENCH if language == "fr" else {})}
    return [f"{kind}: {m.group(0)!r}" for kind, rx in checks.items() if (m := rx.search(text))]


def shown(table: Any, pages: bool) -> str:
    """Everything the table shows now: LCD and OLED, and its pages when asked."""
    screen = table.screen()
    parts = [*screen.lcd, *screen.oled.lines]
    if pages:
        session = table.ctx.session
        if session.table is not None:
            public = public_state(session)
            parts.append(public_html(public))
            for player in session.view().players:
                parts.append(private_html(player, private_state(session, player), public))
    return "\n".join(parts)


def test_the_checks_catch_the_english_they_look_for() -> None:
    english = "red +7: red 0 to 7. Q♠ K♥ 19.7 % blue +10 moved nothing"
    assert len(english_in(english, "fr")) == 5
    assert english_in("rouge +7 : rouge de 0 à 7. D♠ R♥ 19,7 % No.2 +15 10♥", "fr") == []
    assert english_in("rot +7: rot von 0 bis 7. D♠ K♥ 19,7 % A♣", "de") == []


@pytest.mark.parametrize("language", ["fr", "de"])
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_scripted_game_shows_no_english_in_french_and_german(name: str, language: str) -> None:
    found: dict[str, str] = {}
    with speaking(language):
        table = None
        for number, (table, _cues) in enumerate(played(SCRIPTS[name], language)):
            text = shown(table, number % PAGES_EVERY == 0)
            for said in english_in(text, language):
                found.setdefault(said, text)
        assert table is not None
        text = shown(table, True)  # the pages at the end of the game
        for said in english_in(text, language):
            found.setdefault(said, text)
    assert not found, next(iter(found.items()))


@pytest.mark.parametrize(("language", "turn"), [("fr", "À jouer : "), ("de", "Am Zug: ")])
def test_after_a_jockey_card_the_lcd_says_whose_turn_it_is_not_who_comes_later(
    language: str, turn: str
) -> None:
    with speaking(language):
        tops = {table.screen().lcd[0] for table, _ in played(SCRIPTS["jockey-short-11"], language)}
    assert any(top.startswith(turn) for top in tops)
    assert not any(top.startswith(("Puis : ", "Dann: ")) for top in tops)
