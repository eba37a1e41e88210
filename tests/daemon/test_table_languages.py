"""Whole scripted games of every game in French, English and German: every screen fits.

The scripts are the golden test's (button, knob, die and card events through whole games of
each game), and for a game newer than them, scripts drawn the same way. Every row the
renderers build, and every message flashed, must fit the 20x4 LCD whole: a row cut or a
sentence wrapped past the fourth row fails; so does a refusal said whose sentence the
language's catalog lacks (it would show in English).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.flows import base
from companion.render import language as spoken
from companion.render import text
from companion.render.text import COLS, ROWS, fits
from tests.daemon.test_table_fuzz import GAMES
from tests.golden.make_inputs import NAMES, table_script
from tests.golden.test_golden import played

SCRIPTS = Path(__file__).resolve().parents[1] / "golden" / "table_scripts.jsonl.gz"


def scripts() -> list[dict[str, Any]]:
    """The golden test's scripts, and as many drawn now for each game added since."""
    with gzip.open(SCRIPTS, "rt", encoding="utf-8") as handle:
        recorded = [json.loads(line) for line in handle]
    done = {script["name"].rsplit("-", 2)[0] for script in recorded}
    added = [game for game in sorted(GAMES) if game not in done]
    return recorded + [table_script(game, names, 11) for game in added for names in NAMES]


def play(script: dict[str, Any], language: str) -> list[tuple[str, ...]]:
    return [table.screen().lcd for table, _cues in played(script, language)]


@pytest.mark.parametrize("language", ["fr", "de", "en"])
def test_every_screen_of_whole_games_fits_in_every_language(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    overflow: list[str] = []

    def cut(line: str, width: int = COLS) -> str:
        if len(line) > width:
            overflow.append(line)
        return line[:width]

    def wrap(sentence: str, width: int = COLS, rows: int = ROWS) -> tuple[str, ...]:
        if not fits(sentence, rows, width):
            overflow.append(sentence)
        return text.wrap(sentence, width, rows)

    untranslated: set[str] = set()
    said = spoken.catalog(language)
    known = set(getattr(said, "_catalog", {})) | {""} if language != "en" else None

    original = spoken._

    def lookup(sentence: str) -> str:
        # Still the table's language whoever calls it: a module imported while this test
        # runs keeps this function, and must go on speaking the language of its own table.
        if spoken.current() == language and known is not None and sentence not in known:
            untranslated.add(sentence)
        return original(sentence)

    monkeypatch.setattr(text, "cut", cut)
    monkeypatch.setattr(base, "wrap", wrap)
    monkeypatch.setattr(spoken, "_", lookup)
    for script in scripts():
        screens = play(script, language)
        assert screens
    assert not overflow, f"{language}: rows do not fit: {sorted(set(overflow))}"
    assert not untranslated, f"{language}: refusals missing from the catalog: {untranslated}"
