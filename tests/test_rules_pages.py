"""The rules pages and their translations: linked both ways, every link resolves, same facts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.registry import BUILT_IN, GAMES, HOMES
from tests.registered import home, rules_page

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"

#: The English rules page of each registered game kept in docs/rules/ (every shipped game's),
#: and the languages it is translated into (the folders of docs/rules/ holding that page).
TRANSLATIONS: dict[str, tuple[str, ...]] = {
    page.stem: tuple(sorted(p.parent.name for p in RULES.glob(f"*/{page.name}")))
    for page in (rules_page(game.kind) for game in GAMES)
    if page.parent == RULES
}

#: How each language writes a number: the pattern, its thousands separator, its decimal mark.
NUMBERS: dict[str, tuple[re.Pattern[str], str, str]] = {
    "en": (re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?"), ",", "."),
    "fr": (re.compile(r"\d{1,3}(?:\u202f\d{3})+(?!\d)|\d+(?:,\d+)?"), "\u202f", ","),
    "de": (re.compile(r"\d{1,3}(?:\.\d{3})+(?!\d)|\d+(?:,\d+)?"), ".", ","),
}

#: The facts a player checks first, as each language words them (line breaks read as spaces):
#: Jumpy Jack's scores and target, Course hippique's 8 cards of a suit, Jockey's 80 squares and
#: 54 cards.
KEY_FACTS: dict[str, dict[str, tuple[str, ...]]] = {
    "jumpy-jack": {
        "en": ("is worth 2 points", "are worth 4", "are worth 10", "16 points", "(30 squares"),
        "fr": ("rapporte 2 points", "en rapportent 4", "rapportent 10", "16 points", "(30 cases"),
    },
    "course-hippique": {
        "en": ("8th card of its suit", "5 or more cards of one suit", "3 to 10 players"),
        "fr": ("8e carte de sa couleur", "5 cartes ou plus d'une même couleur", "3 à 10 joueurs"),
    },
    "jockey": {
        "en": ("square of the standard board is **80**", "80-square track", "54 cards"),
        "fr": ("case du plateau standard est la **80**", "piste de 80 cases", "54 cartes"),
        "de": ("Feld des Standard-Spielplans ist die **80**", "Bahn mit 80 Feldern", "54 Karten"),
    },
}

LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_ROW = re.compile(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \|", re.MULTILINE)


def english(name: str) -> Path:
    return RULES / f"{name}.md"


def translated(name: str, language: str) -> Path:
    return RULES / language / f"{name}.md"


def every_page() -> Iterator[Path]:
    for name, languages in TRANSLATIONS.items():
        yield english(name)
        yield from (translated(name, language) for language in languages)


def head(path: Path) -> str:
    """The page's top: everything before its first section."""
    return path.read_text(encoding="utf-8").split("\n## ", 1)[0]


def anchors(path: Path) -> set[str]:
    """The anchors a renderer gives the page's headings (lower case, punctuation dropped)."""
    found: set[str] = set()
    for title in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def numbers(path: Path, language: str) -> Counter[str]:
    """Every number the page states, as often as it states it, written the English way."""
    pattern, group, mark = NUMBERS[language]
    text = path.read_text(encoding="utf-8")
    return Counter(found.replace(group, "").replace(mark, ".") for found in pattern.findall(text))


def codes(path: Path) -> set[str]:
    """The reason codes the page's refusal table explains."""
    rows = CODE_ROW.findall(path.read_text(encoding="utf-8"))
    return {code for row in rows for code in row if code}


PAIRS = [(name, language) for name, languages in TRANSLATIONS.items() for language in languages]


def test_every_shipped_game_has_its_rules_page_here() -> None:
    assert {rules_page(game.kind) for game in BUILT_IN} <= {RULES / f"{n}.md" for n in TRANSLATIONS}


def test_the_translated_pages_are_the_ones_the_english_pages_announce() -> None:
    on_disk = {path.relative_to(RULES).as_posix() for path in RULES.glob("*/*.md")}
    assert on_disk == {f"{language}/{name}.md" for name, language in PAIRS}
    assert {path.stem for path in RULES.glob("*.md")} == set(TRANSLATIONS)


@pytest.mark.parametrize("name", TRANSLATIONS)
def test_every_english_rules_page_links_its_translations_at_its_top(name: str) -> None:
    linked = {target for target in LINK.findall(head(english(name))) if target.endswith(".md")}
    assert linked == {f"{language}/{name}.md" for language in TRANSLATIONS[name]}
    for target in linked:
        assert (RULES / target).is_file(), f"{name}.md links to {target}, which does not exist"


@pytest.mark.parametrize(("name", "language"), PAIRS)
def test_each_translation_says_at_its_top_which_english_page_it_follows(
    name: str, language: str
) -> None:
    assert f"](../{name}.md)" in head(translated(name, language))


@pytest.mark.parametrize("page", list(every_page()), ids=lambda p: p.relative_to(RULES).as_posix())
def test_every_link_on_a_rules_page_resolves(page: Path) -> None:
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        assert "://" not in target, f"{page.name}: the rules pages link only inside the project"
        file, _, anchor = target.partition("#")
        resolved = (page.parent / file).resolve() if file else page
        assert resolved.is_file(), f"{page.name} links to {target}, which does not exist"
        assert ROOT in resolved.parents, f"{page.name} links outside the repository: {target}"
        if anchor:
            assert anchor in anchors(resolved), f"{page.name}: no heading for #{anchor}"


#: A refusal the engine raises, by its reason code (``Refusal("code", ...)``, or
#: ``counted("code", ...)`` for a sentence that counts).
RAISED = re.compile(r'(?:Refusal|counted)\(\s*"([a-z_]+)"')


def raised(kind: str) -> set[str]:
    """The reason codes a shipped game's engine package can give."""
    package = ROOT / "companion" / "games" / kind
    return {code for path in package.glob("*.py") for code in RAISED.findall(path.read_text())}


@pytest.mark.parametrize("name", TRANSLATIONS)
def test_a_rules_page_explains_every_reason_code_its_engine_gives(name: str) -> None:
    engine = raised(name.replace("-", "_"))
    assert engine, f"no refusal found in {name}'s engine"
    assert engine <= codes(english(name)), (
        f"{name}.md: unexplained {sorted(engine - codes(english(name)))}"
    )


@pytest.mark.parametrize(("name", "language"), PAIRS)
def test_a_translation_explains_the_same_reason_codes(name: str, language: str) -> None:
    expected = codes(english(name))
    assert expected >= raised(name.replace("-", "_"))
    assert codes(translated(name, language)) == expected


@pytest.mark.parametrize(("name", "language"), PAIRS)
def test_a_translation_states_the_same_numbers(name: str, language: str) -> None:
    expected = numbers(english(name), "en")
    stated = numbers(translated(name, language), language)
    assert set(stated) - set(expected) == set(), "numbers the English page does not state"
    assert expected - stated == Counter(), "numbers the English page states more often"


@pytest.mark.parametrize(
    ("name", "language"),
    [(name, language) for name, facts in KEY_FACTS.items() for language in facts],
)
def test_the_facts_that_matter_are_on_every_language_s_page(name: str, language: str) -> None:
    page = english(name) if language == "en" else translated(name, language)
    text = " ".join(page.read_text(encoding="utf-8").split())
    for fact in KEY_FACTS[name][language]:
        assert fact in text, f"{page.relative_to(ROOT)} no longer says {fact!r}"


@pytest.mark.parametrize("kind", sorted(HOMES))
def test_an_added_game_s_rules_explain_every_reason_code_its_folder_gives(kind: str) -> None:
    folder = home(kind)
    assert folder is not None
    given = {code for path in folder.glob("*.py") for code in RAISED.findall(path.read_text())}
    assert given, f"no refusal found in {folder.name}"
    unexplained = sorted(given - codes(rules_page(kind)))
    assert not unexplained, f"{rules_page(kind).relative_to(ROOT)}: unexplained {unexplained}"
