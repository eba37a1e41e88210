"""Whole games in French and German through the real daemon: the screens speak the language.

The same scripts as the English whole games drive the table from what it shows (read in the
language's words); on the way, the screens a player reads first are asserted in the language
of the configuration, and the journal and logs stay the same as in English.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion.daemon.flows.base import HORSE_BUTTONS
from companion.games.registry import KINDS, find_game
from tests.e2e.conftest import FAST_CONFIG
from tests.e2e.test_whole_games import (
    Script,
    bare,
    dice,
    menu,
    play_course_hippique,
    play_jockey,
    play_jumpy_jack,
)

LOCALE = Path(__file__).resolve().parents[2] / "companion" / "locale"

#: Rows each game shows, by language: on the way (each seen at least once), and at its end.
SCREENS: dict[str, dict[str, tuple[tuple[str, ...], str]]] = {
    "fr": {
        "jumpy_jack": (
            ("Course 1: scellés", "Lancez le dé", "Joueur 1 joue"),
            "Match fini!",
        ),
        "course_hippique": (("Carte parcours 2/7", "1/3  banque Joueur"), "Partie finie!"),
        "jockey": (("Course 1/3: paris", "Pari: < gagnant >"), "Partie finie!"),
    },
    "de": {
        "jumpy_jack": (
            ("Rennen 1: verdeckt", "Würfel drücken", "Spieler 1 ist dran"),
            "Partie vorbei!",
        ),
        "course_hippique": (("Streckenkarte 2/7", "Rennen 1/3 Bank"), "Spielende!"),
        "jockey": (("Rennen 1/3: Wetten", "Art: < Sieg >"), "Spielende!"),
    },
}


def config(language: str) -> str:
    return FAST_CONFIG.replace('language = "en"', f'language = "{language}"')


def watching(child: Callable[[], Any], seen: list[str]) -> Callable[[dict[str, Any]], bool]:
    """Keep every LCD row shown between two inputs (and never pull the plug)."""

    def check(view: dict[str, Any]) -> bool:
        seen.extend(bare(row) for row in child().lcd())
        return False

    return check


def play_die_race(script: Script, button: str, dice: Iterator[int]) -> dict[str, Any]:
    """A game whose only input is the die (a game added since the scripted ones): picked by
    its horse button, started as offered, rolled until it is over."""
    menu(script, button)
    while not script.state()["view"]["finished"]:
        script.child.act(f"die {next(dice)}", "the roll")
        script.checkpoint()
    return script.finish()


def untranslated(language: str) -> set[str]:
    """The table's sentences as they read in English where the language says them otherwise."""
    with (LOCALE / language / "LC_MESSAGES" / "companion.po").open("rb") as handle:
        return {
            bare(m.id)
            for m in read_po(handle)
            if isinstance(m.id, str) and m.id and m.string != m.id
        }


@pytest.mark.slow(6)  # each game and language
@pytest.mark.parametrize("language", ["fr", "de"])
@pytest.mark.parametrize("game", KINDS)
def test_a_whole_game_plays_in_the_language_of_the_table(
    daemon: Callable[..., Any], game: str, language: str
) -> None:
    info = find_game(game)
    if game not in SCREENS[language] and info.entries != {"roll"}:
        pytest.skip(f"no script plays {game} from the panel yet")
    seen: list[str] = []

    def start() -> Any:
        return daemon(config_text=config(language))

    holder: list[Script] = []
    script = Script(start, watching(lambda: holder[0].child, seen), language)
    holder.append(script)
    if game == "jumpy_jack":
        final = play_jumpy_jack(script, dice(7))
    elif game == "course_hippique":
        final = play_course_hippique(script, random.Random(7))
    elif game == "jockey":
        final = play_jockey(script, random.Random(7))
    else:
        final = play_die_race(script, HORSE_BUTTONS[KINDS.index(game)], dice(7))
    assert holder[0].killed is False
    assert final["view"]["finished"]
    english = untranslated(language)
    assert not [row for row in [*seen, *final["lcd"]] if row.strip() in english], "English shown"
    if game not in SCREENS[language]:
        return
    rows, last = SCREENS[language][game]
    assert bare(last) in bare(" ".join(final["lcd"])), final["lcd"]
    for row in rows:
        assert any(bare(row) in line for line in seen), f"{row!r} never shown"
