"""The table's language: chosen in the configuration, by the system's locale, or at the table."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import babel.localedata
import pytest

from companion.daemon.app import LanguageChoice, build
from companion.devices.config import ConfigError, parse_config
from companion.games.cards import Card
from companion.games.errors import Refusal
from companion.games.jockey import Blocked, CardEffect
from companion.render import language
from companion.render.jockey import effect_rows
from companion.render.language import _, decimal, say, speaking, system_language
from companion.render.menu import options
from companion.render.text import card_text
from companion.web.games.course_hippique import playing_cards
from tests.daemon.test_simulator import quick_config


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "de_AT.UTF-8"}, "de"),
        ({"LC_ALL": "de_CH.UTF-8", "LANG": "fr_FR.UTF-8"}, "de"),
        ({"LANGUAGE": "fr:en", "LANG": "en_GB.UTF-8"}, "fr"),
        ({"LANG": "it_IT.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_without_a_language_configured_the_system_locale_chooses(
    environ: dict[str, str], language: str
) -> None:
    assert system_language(environ) == language


def test_the_configuration_takes_a_language_and_check_config_refuses_others() -> None:
    assert parse_config('[companion]\nlanguage = "de"\n').companion.language == "de"
    assert parse_config("[companion]\n").companion.language == ""
    with pytest.raises(ConfigError) as caught:
        parse_config('[companion]\nlanguage = "it"\n')
    assert 'companion.language: must be "fr", "en" or "de"' in str(caught.value)


def test_the_language_chosen_at_the_table_is_kept_beside_the_journal(tmp_path: Path) -> None:
    kept = LanguageChoice(tmp_path / "language")
    assert kept.read() is None
    kept.write("fr")
    assert LanguageChoice(tmp_path / "language").read() == "fr"
    (tmp_path / "language").write_text("klingon\n")
    assert kept.read() is None


def test_a_refusal_is_said_in_the_table_s_language_and_kept_in_english() -> None:
    refusal = Refusal("barrage", "Barrage on square {square}: no horse may pass it.", square=12)
    assert refusal.sentence == "Barrage on square 12: no horse may pass it."
    with speaking("fr"):
        assert say(refusal.message) == "Barrage case 12: aucun cheval ne peut le franchir."
    with speaking("de"):
        assert say(refusal.message) == "Sperre auf Feld 12: kein Pferd darf vorbei."
    assert say(refusal.message) == refusal.sentence
    assert refusal.sentence == "Barrage on square 12: no horse may pass it."


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize("blocked", list(Blocked))
def test_a_card_that_moves_nothing_says_why_in_every_language(
    language: str, blocked: Blocked
) -> None:
    label = "No.3 +18" if blocked is Blocked.POSITION_SHARED else "brown chase +50"
    effect = CardEffect("card", label, "brown", 60, 60, blocked)
    with speaking(language):
        rows = effect_rows(effect)
        bare = _("No move")
    said = {"en": "brown chase +50", "fr": "marron chasse +50", "de": "braun Jagd +50"}
    position = {"en": "No.3 +18", "fr": "N° 3 +18", "de": "Nr. 3 +18"}  # as each writes it
    assert rows[0] == (position if blocked is Blocked.POSITION_SHARED else said)[language]
    assert len(rows[1]) <= 20
    assert rows[1] != bare, f"{language}: the reason did not fit the LCD"


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", ["Q♠", "J♥", "K♦", "A♣", "10♥"]),
        ("fr", ["D♠", "V♥", "R♦", "A♣", "10♥"]),
        ("de", ["D♠", "B♥", "K♦", "A♣", "10♥"]),
    ],
)
def test_cards_show_their_ranks_as_the_language_prints_them_and_read_back(
    language: str, shown: list[str]
) -> None:
    codes = ["QS", "JH", "KD", "AC", "10H"]
    with speaking(language):
        assert [card_text(code) for code in codes] == shown
        picked = playing_cards()  # the croupier's picker on the pages
    assert [Card.parse(label).code for label in shown] == codes
    assert all(Card.parse(label).code == code for code, label, _ in picked)
    assert len({label for _, label, _ in picked}) == 48


def test_every_spelling_of_a_face_card_is_read() -> None:
    for text in ("QS", "DS", "dame de pique", "queen of spades", "Q♠", "D♠"):
        assert Card.parse(text).code == "QS", text
    for text in ("JH", "VH", "BH", "valet de cœur", "V♥", "B♥"):
        assert Card.parse(text).code == "JH", text
    for text in ("KC", "RC", "roi de trèfle", "R♣", "K♣"):
        assert Card.parse(text).code == "KC", text


def test_the_hands_option_is_said_in_french() -> None:
    with speaking("fr"):
        lcd = options("Jockey", 3, [("Hands", "off"), ("Hands", "scan")], 0).lcd
    assert lcd[1:3] == (">Mains           non", " Mains      scannées")


def test_a_started_table_reads_its_figures_before_the_first_one_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    language._locale.cache_clear()  # as in a fresh process: no language's data read yet
    language._pattern.cache_clear()
    read: list[str] = []
    get = babel.localedata.get_locale_data  # what a new Locale asks for its data

    def spied(name: str) -> Any:
        read.append(name)
        return get(name)

    monkeypatch.setattr(babel.localedata, "get_locale_data", spied)
    config = quick_config()
    config = dataclasses.replace(
        config, companion=dataclasses.replace(config.companion, language="fr")
    )
    companion = build(config, simulate=True, state_dir=tmp_path)
    runner = threading.Thread(target=companion.run, kwargs={"handle_signals": False})
    runner.start()
    try:
        assert companion.daemon.running.wait(10)
        for reader in [t for t in threading.enumerate() if t.name == "figures"]:
            reader.join(10)
        assert "fr" in read  # read aside once the table plays, with no figure drawn
        before = len(read)
        with speaking("fr"):
            assert decimal(12.5) == "12,5"  # the first Course hippique chance on the OLED
        assert len(read) == before  # nothing more read in the middle of a press
    finally:
        companion.daemon.stop()
        runner.join(10)
