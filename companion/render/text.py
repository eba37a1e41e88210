"""Text helpers every renderer shares: rows cut to the LCD, word wrap, names, suits, pages."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

#: The character LCD the renderers draw for.
COLS = 20
ROWS = 4

#: What a sealed secret looks like on every shared display.
SEALED = "***"

#: Card suits by their letter (the LCD and the OLED both draw these characters).
SUIT_SYMBOLS: Mapping[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: The suits' English names, by letter.
SUIT_NAMES: Mapping[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


class PublicView(Protocol):
    """The part of the session's public view the renderers read (plain data only)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def race(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def turn(self) -> str | None: ...

    @property
    def sealed(self) -> tuple[str, ...]: ...

    @property
    def waiting_for(self) -> tuple[str, ...]: ...

    @property
    def board(self) -> dict[str, Any]: ...

    @property
    def finished(self) -> bool: ...

    @property
    def winners(self) -> tuple[str, ...]: ...


def cut(text: str, width: int = COLS) -> str:
    """Return ``text`` cut to ``width`` characters (never padded)."""
    return text if len(text) <= width else text[:width]


def short(name: str, width: int) -> str:
    """Shorten a name to ``width`` characters, a final "." marking the cut."""
    if len(name) <= width:
        return name
    if width <= 1:
        return name[:width]
    return name[: width - 1] + "."


def spread(left: str, right: str, width: int = COLS) -> str:
    """Put ``left`` at the start and ``right`` at the end of one row (left is cut if needed)."""
    room = width - len(right) - 1
    if room < 1:
        return cut(right, width)
    return f"{cut(left, room):<{room}} {right}"


def centre(text: str, width: int = COLS) -> str:
    """Return ``text`` centred in a row (cut to the row)."""
    return cut(text, width).center(width).rstrip()


def wrap(sentence: str, width: int = COLS, rows: int = ROWS) -> tuple[str, ...]:
    """Word-wrap ``sentence`` into at most ``rows`` rows of ``width`` characters."""
    lines = textwrap.wrap(sentence, width=width, break_long_words=True) or [""]
    return tuple(lines[:rows])


def rows(lines: Iterable[str], count: int = ROWS, width: int = COLS) -> tuple[str, ...]:
    """Return exactly ``count`` rows, each cut to ``width`` (missing rows blank)."""
    out = [cut(line, width) for line in lines][:count]
    return tuple(out + [""] * (count - len(out)))


def joined(items: Sequence[str], width: int = COLS, sep: str = " ") -> str:
    """Join ``items``; when they do not fit, cut the longest ones to a common length."""
    if not items:
        return ""
    room = width - len(sep) * (len(items) - 1)
    cap = max(len(i) for i in items)
    while cap > 1 and sum(min(len(i), cap) for i in items) > room:
        cap -= 1
    return cut(sep.join(i[:cap] for i in items), width)


def name_score_row(pairs: Sequence[tuple[str, int | str]], width: int = COLS) -> str:
    """Say every player's figure in one row ("Anna 4 Ben 10"), shortening names to fit."""
    for name_width in (12, 8, 6, 5, 4, 3, 2, 1):
        text = " ".join(f"{short(n, name_width)} {v}" for n, v in pairs)
        if len(text) <= width:
            return text
    return cut(" ".join(f"{n[:1]}{v}" for n, v in pairs), width)


def stars(entered: int, total: int) -> str:
    """Show how much of a secret is entered: one ``*`` per part, ``_`` for each still to come."""
    return " ".join(["*"] * entered + ["_"] * (total - entered))


def suit(letter: str) -> str:
    """Return the suit symbol of a card or horse letter (the letter itself if unknown)."""
    return SUIT_SYMBOLS.get(letter.upper(), letter)


def card_text(code: str) -> str:
    """Show a playing card code ("10H", "QS") with its suit symbol ("10♥", "Q♠")."""
    if len(code) >= 2 and code[-1].upper() in SUIT_SYMBOLS:
        return code[:-1] + suit(code[-1])
    return code


def ordinal(number: int) -> str:
    """Return 1st, 2nd, 3rd, 4th..."""
    if 10 <= number % 100 <= 20:
        ending = "th"
    else:
        ending = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{ending}"


def page_of(pages: Sequence[tuple[str, ...]], index: int) -> tuple[str, ...]:
    """Return page ``index`` of ``pages`` (wrapping round), or an empty page."""
    if not pages:
        return ()
    return pages[index % len(pages)]


def signed(amount: int) -> str:
    """Return an amount with its sign: +300, -100, 0."""
    return f"{amount:+d}" if amount else "0"
