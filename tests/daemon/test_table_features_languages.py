"""The table's newer screens in French and German: cards dialled without a reader, Jockey hands
scanned, a real die keyed in, a roll taken back, and the horse buttons' key in the table's
colour words. Each is asserted as the glass shows it; every row fits (20 columns)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.render.text import COLS
from companion.session.session import Session
from tests.daemon.test_table_course_hippique import NAMES
from tests.daemon.test_table_course_hippique import start as start_course
from tests.daemon.test_table_jockey import start as start_jockey
from tests.daemon.test_table_jumpy_jack import SHORT_BOARD, predict

DIAL_COURSE = {
    "fr": ("Composez carte 1/7", "Carte: < D♥ >", "Tournez puis appuyez", "Carte", "Repris."),
    "de": ("Karte 1/7 wählen", "Karte: < D♥ >", "Drehen, drücken: ok", "Karte", "Zurückgenommen."),
}


def fits(table: Any) -> bool:
    return len(table.screen.lcd) == 4 and all(len(row) <= COLS for row in table.screen.lcd)


@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_course_card_dialled_without_a_reader_is_asked_in_the_tables_language(
    make_table: Any, language: str
) -> None:
    prompt, card, how, oled, back = DIAL_COURSE[language]
    table = make_table(Session.in_memory(), NAMES, cards="dial", language=language)
    start_course(table)
    table.wait()
    assert table.screen.lcd[1:] == (prompt, "", "1♠ 2♥ 3♦ 4♣")
    table.press("horse2")
    table.turn(10)
    assert table.screen.lcd[2:] == (card, how) and fits(table)
    assert table.screen.oled.lines == (oled, "D♥")  # the queen is the Dame in French and German
    table.hold_undo()
    assert table.screen.lcd[3] == back


@pytest.mark.parametrize(
    ("language", "prompt", "key", "card"),
    [
        ("fr", "Composez la carte", "1Ma 2Ja 3Bl 4Ro 5No", "Carte: < No.2 +15 >"),
        ("de", "Karte wählen", "1Br 2Ge 3Bl 4Ro 5No", "Karte: < No.2 +15 >"),
    ],
)
def test_a_jockey_card_is_dialled_by_the_horses_colour_words(
    make_table: Any, language: str, prompt: str, key: str, card: str
) -> None:
    table = make_table(Session.in_memory(), cards="dial", language=language)
    start_jockey(table)
    for _bettor in range(2):  # a win bet of 100 on brown each
        table.press("push", "horse1", "push")
    table.wait()
    assert table.screen.lcd[2:] == (prompt, key)
    table.press("horse5")  # the position cards
    assert table.screen.lcd[2] == card and fits(table)


@pytest.mark.parametrize(
    ("language", "hands", "refusal"),
    [
        (
            "fr",
            ("Course 1/3: mains", "Anna: main à scanner", "Cartes: 0/15", "Autres: yeux fermés"),
            "Les mains exigent un lecteur: une carte composée se verrait.",
        ),
        (
            "de",
            ("Rennen 1/3: Hände", "Anna: Hand scannen", "Karten: 0/15", "Andere wegschauen"),
            "Hände brauchen einen Kartenleser: eine gewählte Karte wäre sichtbar.",
        ),
    ],
)
def test_jockey_hands_are_scanned_in_the_tables_language(
    make_table: Any, language: str, hands: tuple[str, ...], refusal: str
) -> None:
    for cards in ("reader", "dial"):
        table = make_table(Session.in_memory(), cards=cards, language=language)
        table.press("horse3", "push")
        table.turn(-2)  # from Start up past the language to the hands
        table.press("push")  # hands: off, then scanned
        table.turn(2)
        table.press("push")
        if cards == "dial":
            assert table.said.endswith(refusal) and table.view.game is None and fits(table)
            continue
        table.wait()
        assert table.screen.lcd == hands


@pytest.mark.parametrize(
    ("language", "keyed", "oled", "taken_back"),
    [
        (
            "fr",
            ("Dé: < 1 >, appuyez", "Ou cheval 1-5, dé 6"),
            ("Anna", "lance", "dé 1?"),
            "Lancer repris: le dé reste à 4.",
        ),
        (
            "de",
            ("Wurf: < 1 > drücken", "Pferd 1-5, Würfel: 6"),
            ("Anna", "würfelt", "Würfel 1?"),
            "Wurf zurückgenommen: der Würfel bleibt 4.",
        ),
    ],
)
def test_a_die_keyed_or_taken_back_is_said_in_the_tables_language(
    make_table: Any, language: str, keyed: tuple[str, str], oled: tuple[str, ...], taken_back: str
) -> None:
    options = {"jumpy_jack": {"board": SHORT_BOARD}}
    for die in ("manual", "electronic"):
        table = make_table(Session.in_memory(), die=die, language=language, game_options=options)
        table.press("horse1", "push", "push")  # Jumpy Jack, 2 players
        predict(table, "red", "blue", "green")
        predict(table, "blue", "red", "white")
        if die == "manual":
            assert table.screen.lcd[1:3] == keyed and table.screen.oled.lines == oled
            continue
        table.roll(4)
        table.hold_undo()
        assert table.said.endswith(taken_back) and fits(table)
