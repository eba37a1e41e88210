"""The catalogs: every sentence of the sources in each language, the same placeholders, the fit.

The sentences are gathered from the sources as `make catalogs-update` does (Babel's
extractor, with the refusals' keywords); a catalog that misses one, keeps one the sources
no longer say, leaves one untranslated or changes its ``{placeholders}`` fails here. The
same checks hold for the pages' own words (the ``pages`` domain, gathered from companion/web).
"""

from __future__ import annotations

import ast
import gettext
import re
import runpy
import shutil
import string
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from companion.games.registry import HOMES
from companion.games.text import Message, fits_display
from companion.render import language
from companion.render.language import LANGUAGES, LOCALE_DIR, say, speaking
from tests.registered import home

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {**DEFAULT_KEYWORDS, "Refusal": (2,), "counted": (2, 3), "PageRefusal": (2,)}
#: Each domain: where its sentences are, and the keywords marking them (as the Makefile's).
DOMAINS = {
    "companion": ("companion/**.py", KEYWORDS),
    "pages": ("companion/web/**.py", {"t": None, "tn": (1, 2), "marked": None, "refused": (3,)}),
}
#: Where a game added from outside the package (in its own folder) says each domain's words.
ADDED = {"companion": "**.py", "pages": "pages.py"}
#: At least this many sentences in each domain (a catalog nearly empty is not complete).
LEAST = {"companion": 200, "pages": 100}

#: Long values for each placeholder a refusal has (names as long as the engines let them be).
SAMPLES: dict[str, str | int] = {
    "player": "Christophine",
    "other": "Christophine",
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
    "label": "brown chase +50",
    "start": 58,
    "end": 108,
    "place": "No.3",
}


def source_messages(domain: str = "companion") -> dict[str | tuple[str, str], str]:
    """Every sentence the sources mark for ``domain``, with the file it comes from (a game
    added from outside the package included: its sentences must be in the catalogs too)."""
    found: dict[str | tuple[str, str], str] = {}
    pattern, keywords = DOMAINS[domain]
    homes = [home(kind) for kind in HOMES]
    added = [f"{h.relative_to(ROOT).as_posix()}/{ADDED[domain]}" for h in homes if h is not None]
    method_map = [(pattern, "python"), *((glob, "python") for glob in added)]
    for filename, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, keywords=keywords, comment_tags=()
    ):
        assert context is None
        key = message if isinstance(message, str) else (message[0], message[1])
        found.setdefault(key, filename)
    return found


def catalog(language: str, domain: str = "companion") -> Catalog:
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
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


def test_the_sources_mark_the_pages_words() -> None:
    pages = source_messages("pages")
    assert "Seal my prediction" in pages and "Too fast: wait a moment." in pages
    assert ("Winner: {players}", "Winners: {players}") in pages
    assert "Press the die" not in pages


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_catalog_has_every_sentence_and_no_other(
    language: str, domain: str, sources: dict[str | tuple[str, str], str]
) -> None:
    said = sources if domain == "companion" else source_messages(domain)
    entries = catalog(language, domain)
    ids = {m.id if isinstance(m.id, str) else tuple(m.id) for m in entries if m.id}
    missing = sorted(map(str, set(said) - ids))
    stale = sorted(map(str, ids - set(said)))
    assert not missing, f"{language} {domain} misses: {missing[:5]} (make catalogs-update)"
    assert not stale, f"{language} {domain} keeps sentences no source says: {stale[:5]}"


#: Every function that marks a sentence for a catalog, in either domain.
MARKERS = frozenset(
    {name for _, keywords in DOMAINS.values() for name in keywords} | {"N_", "tn", "marked"}
)


def marked_inside_f_strings(source: str) -> list[int]:
    """The lines where a call marking a sentence (a literal) sits inside an f-string.

    Babel's extractor does not look inside an f-string: a sentence marked there never reaches
    the catalogs, and the table says it in English whatever its language.
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call):
                func = inner.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                literal = any(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in inner.args
                )
                if name in MARKERS and literal:  # a word looked up by value was marked elsewhere
                    lines.append(inner.lineno)
    return lines


def test_the_f_string_check_finds_a_sentence_marked_inside_one() -> None:
    source = "\n".join(
        [
            "x = f\"{_('Race over!')} {n}\"",
            "y = _('Race over!') + f'{n}'",
            "z = f\"{e(t('odds'))}\"",
            "w = f'{_(horse)}'",
        ]
    )
    assert marked_inside_f_strings(source) == [1, 3]


def game_folders() -> list[Path]:
    """Every place a game can live: the package, and each added game's own folder."""
    return [ROOT / "companion", *(folder for kind in HOMES if (folder := home(kind)))]


def test_no_sentence_hides_inside_an_f_string() -> None:
    assert ROOT / "tests" / "fixture_game" in game_folders()
    hidden = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in game_folders()
        for path in sorted(folder.rglob("*.py"))
        for line in marked_inside_f_strings(path.read_text(encoding="utf-8"))
    ]
    assert not hidden, "marked sentences Babel cannot see (take them out of the f-string)"


def test_a_checkout_without_compiled_catalogs_still_speaks_its_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for po in LOCALE_DIR.glob("*/LC_MESSAGES/*.po"):  # the sources only, as a fresh clone
        copy = tmp_path / po.relative_to(LOCALE_DIR)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(po.read_bytes())
    monkeypatch.setattr(language, "LOCALE_DIR", tmp_path)
    language.catalog.cache_clear()
    try:
        assert language.catalog("fr").gettext("Press the die") == "Lancez le dé"
        assert language.catalog("de", "pages").gettext("Seal my prediction") != "Seal my prediction"
        assert not list(tmp_path.rglob("*.mo")), "compiled in memory: the checkout is left as is"
    finally:
        language.catalog.cache_clear()


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_a_translation_is_complete_and_keeps_the_placeholders(language: str, domain: str) -> None:
    entries = [m for m in catalog(language, domain) if m.id]
    assert len(entries) > LEAST[domain]
    for m in entries:
        assert not m.fuzzy, f"{language}: fuzzy {m.id!r}"
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        assert all(strings), f"{language}: untranslated {m.id!r}"
        wanted = set().union(*map(fields, ids))
        for text in strings:
            assert fields(text) == wanted, f"{language}: {m.id!r} -> {text!r}"


#: A space (plain, no-break or narrow no-break) before a colon, semicolon, "!" or "?".
SPACE_BEFORE_MARK = re.compile(r"[ \u00a0\u202f][:;!?]")


@pytest.mark.parametrize("domain", [*DOMAINS, "league"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_sentence_puts_a_space_before_a_colon_or_a_question_mark(
    language: str, domain: str
) -> None:
    """French typography is chosen once (docs/table.md): no space before : ; ! ? in any
    language, on the LCD and on the pages alike (the same sentences reach both, and a
    space there would cost the LCD a column and let a row begin with the mark)."""
    spaced = []
    for m in (m for m in catalog(language, domain) if m.id):
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        spaced += [text for text in strings if text and SPACE_BEFORE_MARK.search(text)]
    assert not spaced, f"{language} {domain}: {spaced[:5]}"


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
    assert sorted((mo.parts[-3], mo.stem) for mo in made) == [
        (language, domain)
        for language in ("de", "en", "fr")
        for domain in ("companion", "league", "pages")
    ]
    french = gettext.translation("companion", tmp_path / "companion" / "locale", ["fr"])
    assert french.gettext("Press the die") == "Lancez le dé"
    assert french.ngettext("{count} horse", "{count} horses", 2) == "{count} chevaux"
    pages = gettext.translation("pages", tmp_path / "companion" / "locale", ["fr"])
    assert pages.gettext("Seal my prediction") == "Sceller mon pronostic"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "locale/*/LC_MESSAGES/*.mo" in project["tool"]["setuptools"]["package-data"]["companion"]
    assert any(need.startswith("babel") for need in project["build-system"]["requires"])


def test_every_option_of_make_catalogs_update_is_one_the_pinned_babel_takes() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ncatalogs-update:", 1)[1].split("\n\n", 1)[0]
    commands = re.findall(r"pybabel (\w+) (.*)", recipe)
    assert {command for command, _ in commands} == {"extract", "update"}
    for command, arguments in commands:
        usage = subprocess.run(
            [sys.executable, "-m", "babel.messages.frontend", command, "--help"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for option in re.findall(r"(--[a-z-]+)", arguments):
            assert re.search(rf"{option}\b", usage), f"pybabel {command} has no {option}"


def test_updating_the_catalogs_of_a_clean_checkout_changes_nothing(tmp_path: Path) -> None:
    """`make catalogs-update` keeps the catalogs in the tool's own order, so a new sentence's
    lines are all its diff shows: on catalogs already up to date it changes nothing."""
    repo = ROOT
    copy = tmp_path / "checkout"
    for name in ("Makefile", "babel.cfg", "babel-pages.cfg"):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((repo / name).read_bytes())
    shutil.copytree(
        repo / "companion", copy / "companion", ignore=shutil.ignore_patterns("*.mo", "__pycache__")
    )
    venv = Path(sys.prefix)
    made = subprocess.run(
        ["make", "-C", str(copy), f"VENV={venv}", "-o", f"{venv}/.dev", "catalogs-update"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    for kept in sorted((repo / "companion" / "locale").glob("*/LC_MESSAGES/*.po")):
        updated = copy / kept.relative_to(repo)
        assert updated.read_text("utf-8") == kept.read_text("utf-8"), kept.relative_to(repo)
    assert not list((copy / "companion" / "locale").glob("*.pot"))  # no template is kept
