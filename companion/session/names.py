"""The one rule for players' names: when two names are one person, and which names mislead.

The table and the league compare names by ``fold_name``: Unicode NFKC (full-width and
styled letters become plain ones), case folded ("Strauß" is "strauss"), invisible characters
dropped (a zero-width space, a soft hyphen, a variation selector) and every run of spaces
made one. A name that mixes letters of two alphabets that look alike ("Anna" with a
Cyrillic "А") is refused: it would be another person who looks the same. Japanese, Chinese
and Korean names keep the scripts they are written in together.

This module uses the standard library only: the configuration's checker reads it too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Characters that draw nothing but are not of the category Cf (format): the combining
#: grapheme joiner, the Hangul fillers, the variation selectors (Unicode's
#: Default_Ignorable_Code_Point, less what Cf already holds).
_IGNORABLE = frozenset(
    (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0x180B, 0x1810))
) | frozenset((*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)))

#: The scripts that may share one name (UTS #39's "highly restrictive" level): Latin with
#: the scripts of Japanese, of Chinese with its phonetic letters, and of Korean.
_TOGETHER = (
    frozenset({"latin", "han", "hiragana", "katakana"}),
    frozenset({"latin", "han", "bopomofo"}),
    frozenset({"latin", "han", "hangul"}),
)

#: The first word of a letter's Unicode name, when it is not the name of its script (None:
#: a modifier letter, such as the apostrophe U+02BC, belongs to no alphabet).
_SCRIPT_WORDS: dict[str, str | None] = {
    "cjk": "han",
    "ideographic": "han",
    "katakana-hiragana": "katakana",
    "modifier": None,
}


def _invisible(char: str) -> bool:
    """Tell whether ``char`` draws nothing and is no space (format, control, ignorable)."""
    if char.isspace():
        return False
    return unicodedata.category(char) in ("Cf", "Cc") or ord(char) in _IGNORABLE


def fold_name(name: str) -> str:
    """Return the form of ``name`` two names are compared by: equal forms are one person.

    NFKC, case folded, invisible characters removed, runs of spaces made one, no space at
    either end: "Strauß" and "STRAUSS", "Ann  a" and "ann a", "An\u200bna" and "Anna" fold equal.
    """
    visible = "".join(c for c in unicodedata.normalize("NFKC", name) if not _invisible(c))
    folded = unicodedata.normalize("NFKC", visible.casefold())
    return " ".join(folded.split())


def script_of(char: str) -> str | None:
    """Return the script of a letter (``latin``, ``cyrillic``, ``greek``, ``han``...), or None
    for what is no letter (digits, spaces, punctuation, marks), which any name may hold."""
    if not unicodedata.category(char).startswith("L"):
        return None
    word = unicodedata.name(char, "").split(" ")[0].lower()
    return _SCRIPT_WORDS.get(word, word) if word else None


def scripts_of(name: str) -> frozenset[str]:
    """Return the scripts of the letters of ``name`` (after NFKC: a full-width "Ａ" is Latin)."""
    found = (script_of(c) for c in fold_name(name))
    return frozenset(s for s in found if s is not None)


def mixes_scripts(name: str) -> bool:
    """Tell whether ``name`` mixes alphabets that do not go together (Latin and Cyrillic...)."""
    scripts = scripts_of(name)
    return len(scripts) > 1 and not any(scripts <= together for together in _TOGETHER)


@dataclass(frozen=True)
class NameProblem:
    """What is wrong with a list of names: a reason code, and the names concerned.

    ``code`` is ``bad_name`` (a name with nothing visible in it), ``mixed_scripts`` (``names``
    holds the name) or ``same_name`` (``names`` holds the two names that fold equal).
    """

    code: str
    names: tuple[str, ...]


def name_problem(names: Iterable[str]) -> NameProblem | None:
    """Return the first thing wrong with ``names`` as one game's or one team's players, or None
    when every name is visible, written in one alphabet, and no two are one person."""
    seen: dict[str, str] = {}
    for name in names:
        folded = fold_name(name)
        if not folded:
            return NameProblem("bad_name", (name,))
        if mixes_scripts(name):
            return NameProblem("mixed_scripts", (name,))
        if folded in seen:
            return NameProblem("same_name", (seen[folded], name))
        seen[folded] = name
    return None


def same_person(first: str, second: str) -> bool:
    """Tell whether two names are one person's under the rule (``fold_name`` equal)."""
    return fold_name(first) == fold_name(second)


def distinct(names: Sequence[str]) -> bool:
    """Tell whether no two of ``names`` are one person's."""
    return len({fold_name(n) for n in names}) == len(names)
