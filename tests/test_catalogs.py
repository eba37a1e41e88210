"""The catalogs: every sentence of the sources in each language, the same placeholders, the fit.

The sentences are gathered from the sources as `make catalogs-update` does (Babel's
extractor, with the refusals' keywords); a catalog that misses one, keeps one the sources
no longer say, leaves one untranslated or changes its ``{placeholders}`` fails here.
"""

from __future__ import annotations

import gettext
import runpy
import string
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from companion.games.text import Message, fits_display
from companion.render.language import LANGUAGES, LOCALE_DIR, say, speaking

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {**DEFAULT_KEYWORDS, "Refusal": (2,), "counted": (2, 3), "PageRefusal": (2,)}

#: Long values for each placeholder a refusal has (names as long as the engines let them be).
SAMPLES: dict[str, str | int] = {
    "player": "Christophine",
    "players": "Anna, Ben, Chloé",
    "horse": "yellow",
    "die": 6,
    "square": 12,
    "count": 12,
    "limit": 10000,
    "text": "Twelve chars",
    "option": "a_long_option_name",
    "game": "Course hippique",
    "card": "queen of diamonds",
    "suit": "diamonds",
}


def source_messages() -> dict[str | tuple[str, str], str]:
    """Every sentence the sources mark, with the file it comes from."""
    found: dict[str | tuple[str, str], str] = {}
    method_map = [("companion/**.py", "python")]
    for filename, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, keywords=KEYWORDS, comment_tags=()
    ):
        assert context is None
        key = message if isinstance(message, str) else (message[0], message[1])
        found.setdefault(key, filename)
    return found


def catalog(language: str) -> Catalog:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "companion.po").open("rb") as handle:
        return read_po(handle)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module")
def sources() -> dict[str | tuple[str, str], str]:
    return source_messages()


def test_the_sources_mark_the_table_sentences(sources: dict[str | tuple[str, str], str]) -> None:
    assert "Barrage on square {square}: no horse may pass it." in sources
    assert ("{count} player", "{count} players") in sources
    assert "Press the die" in sources


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_catalog_has_every_sentence_and_no_other(
    language: str, sources: dict[str | tuple[str, str], str]
) -> None:
    ids = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog(language) if m.id}
    missing = sorted(map(str, set(sources) - ids))
    stale = sorted(map(str, ids - set(sources)))
    assert not missing, f"{language} catalog misses: {missing[:5]} (make catalogs-update)"
    assert not stale, f"{language} catalog keeps sentences no source says: {stale[:5]}"


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_a_translation_is_complete_and_keeps_the_placeholders(language: str) -> None:
    entries = [m for m in catalog(language) if m.id]
    assert len(entries) > 200
    for m in entries:
        assert not m.fuzzy, f"{language}: fuzzy {m.id!r}"
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        assert all(strings), f"{language}: untranslated {m.id!r}"
        wanted = set().union(*map(fields, ids))
        for text in strings:
            assert fields(text) == wanted, f"{language}: {m.id!r} -> {text!r}"


def test_a_translation_with_other_placeholders_is_caught() -> None:
    assert fields("Barrage case {case}.") != fields("Barrage on {square}.")


def refusal_templates(sources: dict[str | tuple[str, str], str]) -> list[Message]:
    """The refusals' sentences (engines and session), filled in with long samples."""
    out = []
    for key, filename in sources.items():
        if not filename.startswith(("companion/games", "companion/session")):
            continue
        template, plural = (key, None) if isinstance(key, str) else key
        if not fields(template) | (fields(plural) if plural else set()):
            out.append(Message.of(template, plural))
            continue
        names = fields(template) | (fields(plural) if plural else set())
        params = {name: SAMPLES[name] for name in names}
        out.append(Message.of(template, plural, **params))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_fits_the_lcd_in_every_language(
    language: str, sources: dict[str | tuple[str, str], str]
) -> None:
    messages = refusal_templates(sources)
    assert len(messages) > 100
    with speaking(language):
        for message in messages:
            said = say(message)
            assert fits_display(said), f"{language}: {said!r} does not fit 20x4"
            for name, value in message.params:
                if name in ("player", "players", "game"):
                    assert str(value) in said, f"{language}: {said!r} shortened {value!r}"


def test_the_package_build_compiles_the_catalogs_into_the_package(tmp_path: Path) -> None:
    hook = runpy.run_path(str(ROOT / "setup.py"), run_name="the_build_hook")
    made = hook["compile_catalogs"](ROOT, tmp_path)
    assert sorted(mo.parts[-3] for mo in made) == ["de", "en", "fr"]
    french = gettext.translation("companion", tmp_path / "companion" / "locale", ["fr"])
    assert french.gettext("Press the die") == "Lancez le dé"
    assert french.ngettext("{count} horse", "{count} horses", 2) == "{count} chevaux"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "locale/*/LC_MESSAGES/*.mo" in project["tool"]["setuptools"]["package-data"]["companion"]
    assert any(need.startswith("babel") for need in project["build-system"]["requires"])
