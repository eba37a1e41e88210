"""Whole games in French and German through the real daemon: the screens speak the language.

The same scripts as the English whole games drive the table from what it shows (read in the
language's words); on the way, the screens a player reads first are asserted in the language
of the configuration, and the journal and logs stay the same as in English.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion.games.registry import KINDS
from tests.e2e.conftest import FAST_CONFIG
from tests.e2e.scripts import Script, bare, script_of

LOCALE = Path(__file__).resolve().parents[2] / "companion" / "locale"


def config(language: str) -> str:
    return FAST_CONFIG.replace('language = "en"', f'language = "{language}"')


def watching(child: Callable[[], Any], seen: list[str]) -> Callable[[dict[str, Any]], bool]:
    """Keep every LCD row shown between two inputs (and never pull the plug)."""

    def check(view: dict[str, Any]) -> bool:
        seen.extend(bare(row) for row in child().lcd())
        return False

    return check


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
    played = script_of(game)
    seen: list[str] = []

    def start() -> Any:
        return daemon(config_text=config(language))

    holder: list[Script] = []
    script = Script(start, watching(lambda: holder[0].child, seen), language)
    holder.append(script)
    final = played.play(script, 7)
    assert holder[0].killed is False
    assert final["view"]["finished"]
    english = untranslated(language)
    assert not [row for row in [*seen, *final["lcd"]] if row.strip() in english], "English shown"
    if language not in played.SCREENS:
        return
    rows, last = played.SCREENS[language]
    assert bare(last) in bare(" ".join(final["lcd"])), final["lcd"]
    for row in rows:
        assert any(bare(row) in line for line in seen), f"{row!r} never shown"
