"""Small pictures no display ROM has (the card suits, a horse, a lock); text folded to what a
display can show (a letter spelled out where it must keep its sound, else one cell for one)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import cast

#: A 5x8 character cell: eight rows, each the five low bits of an int (bit 4 = leftmost pixel).
Bitmap = tuple[int, int, int, int, int, int, int, int]

#: The special characters, in the order they take the LCD's eight custom-character slots.
#: Row 7 stays blank: on an HD44780 it is where the cursor underline would go.
GLYPHS: Mapping[str, Bitmap] = {
    "♠": (0b00100, 0b01110, 0b11111, 0b11111, 0b10101, 0b00100, 0b01110, 0b00000),
    "♥": (0b00000, 0b01010, 0b11111, 0b11111, 0b01110, 0b00100, 0b00000, 0b00000),
    "♦": (0b00000, 0b00100, 0b01110, 0b11111, 0b01110, 0b00100, 0b00000, 0b00000),
    "♣": (0b01110, 0b01110, 0b10101, 0b11111, 0b10101, 0b00100, 0b01110, 0b00000),
    "♞": (0b00110, 0b01110, 0b11111, 0b10111, 0b00111, 0b01111, 0b11111, 0b00000),
    "🔒": (0b01110, 0b10001, 0b10001, 0b11111, 0b11011, 0b11011, 0b11111, 0b00000),
    "→": (0b00000, 0b00100, 0b00010, 0b11111, 0b00010, 0b00100, 0b00000, 0b00000),
    "✓": (0b00000, 0b00001, 0b00011, 0b10110, 0b11100, 0b01000, 0b00000, 0b00000),
}

#: Letter bodies: lower case five rows high (the ROM's x-height), under a mark of two rows;
#: capitals six rows high, under a mark of one row (as the A02 ROM draws them).
_BODIES: Mapping[str, tuple[int, ...]] = {
    "a": (0b01110, 0b00001, 0b01111, 0b10001, 0b01111),
    "e": (0b01110, 0b10001, 0b11111, 0b10000, 0b01110),
    "i": (0b01100, 0b00100, 0b00100, 0b00100, 0b01110),
    "o": (0b01110, 0b10001, 0b10001, 0b10001, 0b01110),
    "u": (0b10001, 0b10001, 0b10001, 0b10011, 0b01101),
    "n": (0b10110, 0b11001, 0b10001, 0b10001, 0b10001),
    "y": (0b10001, 0b10001, 0b01111, 0b00001, 0b01110),
    "A": (0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001),
    "E": (0b11111, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111),
    "I": (0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110),
    "O": (0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110),
    "U": (0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110),
    "N": (0b10001, 0b11001, 0b10101, 0b10101, 0b10011, 0b10001),
    "Y": (0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100),
}  # fmt: skip

#: Marks above a letter (acute, grave, circumflex, diaeresis, tilde): two rows over a lower
#: case body, one over a capital.
_MARKS: Mapping[str, tuple[tuple[int, int], int]] = {
    "\u0301": ((0b00010, 0b00100), 0b00010),
    "\u0300": ((0b01000, 0b00100), 0b01000),
    "\u0302": ((0b00100, 0b01010), 0b00100),
    "\u0308": ((0b01010, 0b00000), 0b01010),
    "\u0303": ((0b01101, 0b10010), 0b01101),
}


def _accented() -> dict[str, Bitmap]:
    """Every letter of Latin-1 made of one body and one mark, plus the two cedillas."""
    letters: dict[str, Bitmap] = {}
    for code in range(0xC0, 0x100):
        char = chr(code)
        decomposed = unicodedata.normalize("NFD", char)
        if len(decomposed) == 2 and decomposed[0] in _BODIES and decomposed[1] in _MARKS:
            small, capital = _MARKS[decomposed[1]]
            body = _BODIES[decomposed[0]]
            mark = small if decomposed[0].islower() else (capital,)
            letters[char] = cast(Bitmap, (*mark, *body, 0))
    letters["ç"] = (0, 0b01110, 0b10000, 0b10000, 0b10001, 0b01110, 0b00100, 0b01100)
    letters["Ç"] = (0b01111, 0b10000, 0b10000, 0b10000, 0b01111, 0b00100, 0b01100, 0)
    return letters


#: Accented letters a character ROM may lack, as 5x8 pictures for the LCD's custom slots.
LETTERS: Mapping[str, Bitmap] = _accented()

#: Characters that mean the same as one of GLYPHS, or as a plainer character, in one cell.
ALIASES: Mapping[str, str] = {
    "♤": "♠", "♡": "♥", "♢": "♦", "♧": "♣", "♘": "♞", "🐎": "♞", "🔐": "🔒", "➜": "→",
    "✔": "✓", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "‘": "'", "’": "'", "‚": ",", "“": '"',
    "”": '"', "„": '"', "–": "-", "—": "-", "−": "-", "•": "*", "·": ".", "×": "x",
    "\u00a0": " ",
}  # fmt: skip

#: Letters that keep their sound only as two letters when a display cannot show them: "cœur"
#: reads "coeur", never "cour"; "Straße" reads "Strasse"; "Bär" reads "Baer" once no custom
#: character is left for "ä". A capital is spelled "Oe" in a word, "OE" in a word in capitals.
SPELLED: Mapping[str, str] = {
    "œ": "oe", "Œ": "Oe", "æ": "ae", "Æ": "Ae", "ß": "ss", "ẞ": "SS", "ø": "oe", "Ø": "Oe",
    "þ": "th", "Þ": "Th", "ĳ": "ij", "Ĳ": "IJ", "ä": "ae", "Ä": "Ae", "ö": "oe", "Ö": "Oe",
    "ü": "ue", "Ü": "Ue",
}  # fmt: skip

#: What a character nobody can show becomes.
UNKNOWN = "?"


def fold_char(char: str, supported: Callable[[str], bool]) -> str:
    """Return one character a display can show for ``char``: itself, an alias, its plain letter.

    Accented letters lose their accent ("é" → "e"); anything else unknown becomes "?".
    The result is always exactly one character, so columns stay where the caller put them.
    """
    if supported(char):
        return char
    alias = ALIASES.get(char)
    if alias is not None and supported(alias):
        return alias
    decomposed = unicodedata.normalize("NFKD", char)
    base, marks = decomposed[:1], decomposed[1:]
    if base != char and all(unicodedata.combining(m) for m in marks) and supported(base):
        return base
    return UNKNOWN


def spell(text: str, shown: Callable[[str], bool]) -> str:
    """Return ``text`` with each letter of SPELLED that ``shown`` refuses written out in two
    letters (the text grows by one character for each); every other character is left as is."""
    out: list[str] = []
    for index, char in enumerate(text):
        letters = SPELLED.get(char)
        if letters is None or shown(char):
            out.append(char)
            continue
        after = text[index + 1 : index + 2]
        before = text[index - 1 : index]
        capitals = after.isupper() or (not after.isalpha() and before.isupper())
        out.append(letters.upper() if char.isupper() and capitals else letters)
    return "".join(out)


def fold(text: str, supported: Callable[[str], bool]) -> str:
    """Spell out with :func:`spell` what must keep its sound, then fold every other character
    with :func:`fold_char` (one character out for each one in)."""
    return "".join(fold_char(char, supported) for char in spell(text, supported))


def glyph_rows(char: str) -> list[str]:
    """Return a glyph as eight strings of '#' and '.', for tests and documentation."""
    return [format(row, "05b").replace("1", "#").replace("0", ".") for row in GLYPHS[char]]
