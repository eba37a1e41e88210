"""Text helpers every renderer shares: rows cut to the LCD, word wrap, names, suits, pages."""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

from companion.games.text import DISPLAY_ROWS, DISPLAY_WIDTH, N_, short
from companion.render.language import _
from companion.session.view import PublicBoard

__all__ = ["short"]

#: The character LCD the renderers draw for.
COLS = DISPLAY_WIDTH
ROWS = DISPLAY_ROWS

#: What a sealed secret looks like on every shared display.
SEALED = "***"

#: Card suits by their letter (the LCD and the OLED both draw these characters).
SUIT_SYMBOLS: Mapping[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: The suits' English names, by letter.
SUIT_NAMES: Mapping[str, str] = {
    "S": N_("spades"),
    "H": N_("hearts"),
    "D": N_("diamonds"),
    "C": N_("clubs"),
}

#: The names of the ranks that are words (the others are numbers), for cards in sentences.
RANK_WORDS = (N_("ace"), N_("jack"), N_("queen"), N_("king"))


#: A game's own board type.
Board = TypeVar("Board")


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
    def board(self) -> PublicBoard: ...

    @property
    def finished(self) -> bool: ...

    @property
    def winners(self) -> tuple[str, ...]: ...


def board_as(view: PublicView, kind: type[Board], title: str) -> Board:
    """Return the board of ``view`` as a board of ``kind`` (a game's own board type, declared
    by its engine); raises TypeError for another game's view (``title``: the game's name)."""
    board = view.board
    if not isinstance(board, kind):
        raise TypeError(f"not a {title} board: {type(board).__name__}")
    return board


def cut(text: str, width: int = COLS) -> str:
    """Return ``text`` cut to ``width`` characters (never padded): the last resort of ``rows``.

    The renderers build rows that fit; only names are shortened, by ``short``.
    """
    return text if len(text) <= width else text[:width]


def named(name: str, rest: str = "", width: int = COLS) -> str:
    """Return ``name`` followed by ``rest`` in ``width`` columns, shortening only the name."""
    return short(name, max(1, width - len(rest))) + rest


def spread(left: str, right: str, width: int = COLS) -> str:
    """Put ``left`` at the start and ``right`` at the end of one row.

    When both do not fit, the row is ``left`` alone: a word is never cut to make room.
    """
    room = width - len(right) - 1
    if len(left) > room:
        return left
    return f"{left:<{room}} {right}"


def spread_name(name: str, rest: str, right: str, width: int = COLS, least: int = 6) -> str:
    """Put ``name`` + ``rest`` at the start and ``right`` at the end, shortening the name.

    The name keeps at least ``least`` characters (or its whole length): when ``right`` leaves
    less room than that, ``right`` is left out and the name gets the whole row.
    """
    room = width - len(right) - 1 - len(rest)
    if room >= min(len(name), least):
        return spread(short(name, room) + rest, right, width)
    return named(name, rest, width)


@functools.lru_cache(maxsize=1024)
def wrap(sentence: str, width: int = COLS, rows: int = ROWS) -> tuple[str, ...]:
    """Word-wrap ``sentence`` into at most ``rows`` rows of ``width`` characters."""
    lines = textwrap.wrap(sentence, width=width, break_on_hyphens=False) or [""]
    return tuple(lines[:rows])


@functools.lru_cache(maxsize=1024)
def fits(sentence: str, rows: int, width: int = COLS) -> bool:
    """Tell whether ``sentence`` word-wraps whole into ``rows`` rows (no word broken)."""
    lines = textwrap.wrap(sentence, width=width, break_long_words=False, break_on_hyphens=False)
    return len(lines) <= rows and all(len(line) <= width for line in lines)


def rows(lines: Iterable[str], count: int = ROWS, width: int = COLS) -> tuple[str, ...]:
    """Return exactly ``count`` rows, each cut to ``width`` (missing rows blank)."""
    out = [cut(line, width) for line in lines][:count]
    return tuple(out + [""] * (count - len(out)))


def _shortened(names: Sequence[str], cap: int, fixed: Collection[str] = ()) -> list[str] | None:
    """Each name shortened to ``cap``, or None when two different names would look alike."""
    shown = [n if n in fixed else short(n, cap) for n in names]
    if len(set(shown)) < len(set(names)):
        return None
    return shown


#: The narrowest a name is shortened to in a list: two letters and the ".".
NAME_LEAST = 3


def name_list(
    names: Sequence[str],
    width: int = COLS,
    lines: int = 1,
    sep: str = ", ",
    fixed: Collection[str] = (),
) -> tuple[str, ...] | None:
    """Lay ``names`` out on at most ``lines`` rows, shortening the longest names first.

    Items in ``fixed`` are never shortened. Return None when the names cannot fit even with
    every name shortened to ``NAME_LEAST``.
    """
    if not names:
        return ("",)
    longest = max(len(n) for n in names)
    for cap in range(longest, min(longest, NAME_LEAST) - 1, -1):
        shown = _shortened(names, cap, fixed)
        if shown is None:
            continue
        laid = _lay(shown, width, sep)
        if len(laid) <= lines and all(len(row) <= width for row in laid):
            return tuple(laid)
    return None


#: Two letters for a horse named by a colour, where a row lists every horse button.
TWO_LETTERS: Mapping[str, str] = {
    "red": N_("Re"),
    "blue": N_("Bl"),
    "green": N_("Gr"),
    "yellow": N_("Ye"),
    "white": N_("Wh"),
    "black": N_("Bk"),
    "orange": N_("Or"),
    "purple": N_("Pu"),
    "pink": N_("Pi"),
    "brown": N_("Br"),
    "grey": N_("Gy"),
    "gray": N_("Gy"),
    "cyan": N_("Cy"),
    "magenta": N_("Ma"),
    "no.": "No",
}

#: The colours of the table's horses, for the catalogs (a board's horses are named by them).
COLOUR_WORDS = (
    N_("red"),
    N_("blue"),
    N_("green"),
    N_("yellow"),
    N_("white"),
    N_("black"),
    N_("orange"),
    N_("purple"),
    N_("pink"),
    N_("brown"),
    N_("grey"),
    N_("gray"),
    N_("cyan"),
    N_("magenta"),
)


def button_items(labels: Sequence[str]) -> list[str]:
    """Each horse button with its horse, whole names when they all fit one row, else two
    letters: ``["1Re", "2Bl", "3Gr", "4Ye", "5Wh"]``. A colour is said in the table's
    language (``labels`` are the horses' English names, as the games keep them)."""
    whole = [f"{number}{_(label)}" for number, label in enumerate(labels, 1)]
    if len(" ".join(whole)) <= COLS:
        return whole
    return [f"{number}{two_letters(label)}" for number, label in enumerate(labels, 1)]


def two_letters(label: str) -> str:
    """The two letters of a horse in the table's language (its name's first two if none)."""
    letters = TWO_LETTERS.get(label.lower())
    return _(letters) if letters else _(label)[:2].capitalize()


def buttons_row(labels: Sequence[str]) -> str:
    """Which horse button is which horse, in one LCD row: ``1Re 2Bl 3Gr 4Ye 5Wh``."""
    return " ".join(button_items(labels))


def buttons_lines(labels: Sequence[str], per_line: int = 3) -> tuple[str, ...]:
    """The same for the OLED, ``per_line`` buttons a line: ``("1Re 2Bl 3Gr", "4Ye 5Wh")``."""
    items = button_items(labels)
    return tuple(" ".join(items[i : i + per_line]) for i in range(0, len(items), per_line))


def card_dial_rows(key: str, choice: str | None) -> tuple[str, ...]:
    """What a card being dialled (no card reader) puts on the LCD's bottom rows.

    Before a group is chosen: the horse buttons' key (one row); then the card the knob is on
    and how to play it (two rows).
    """
    if choice is None:
        return (key,)
    dialled = first_fit([_("Card: < {card} >").format(card=choice), f"< {choice} >"])
    return (dialled, _("Turn; push: play it"))


def winners_row(names: Sequence[str]) -> str:
    """The winner of a game in one row ("Winner: Ben"), or the players who tie for first."""
    if len(names) == 1:
        winner = _("Winner: ")
        return winner + short(names[0], COLS - len(winner))
    full = ", ".join(names)
    winners = _("Winners: ")
    listed = name_list(names, COLS - len(winners), lines=1)
    tie = _("{count} winners tie").format(count=len(names))
    shortened = winners + listed[0] if listed else tie
    return first_fit([winners + full, _("Tie: ") + full, shortened])


def _lay(items: Sequence[str], width: int, sep: str) -> list[str]:
    """Fill rows with ``items``; a row breaks where ``sep`` has its spaces."""
    trail = sep.rstrip()
    gap = sep[len(trail) :] or " "
    out: list[str] = []
    line = ""
    for index, item in enumerate(items):
        piece = item + (trail if index < len(items) - 1 else "")
        candidate = f"{line}{gap}{piece}" if line else piece
        if line and len(candidate) > width:
            out.append(line)
            candidate = piece
        line = candidate
    out.append(line)
    return out


def name_score_row(
    pairs: Sequence[tuple[str, int | str]], width: int = COLS, fallback: str = ""
) -> str:
    """Say every player's figure in one row ("Anna 4 Ben 10"), shortening names to fit.

    The names are shortened together, never below two letters and a "."; when the row cannot
    hold them all, ``fallback`` is returned instead.
    """
    if not pairs:
        return fallback
    names = [n for n, _ in pairs]
    longest = max(len(n) for n in names)
    for cap in range(longest, min(longest, NAME_LEAST) - 1, -1):
        shown = _shortened(names, cap)
        if shown is None:
            continue
        text = " ".join(f"{s} {v}" for s, (_, v) in zip(shown, pairs, strict=True))
        if len(text) <= width:
            return text
    return fallback


def grid(
    pairs: Sequence[tuple[str, int | str]], columns: int = 2, width: int = COLS
) -> list[str] | None:
    """Lay ``(name, figure)`` pairs out in columns, each figure at the right of its cell.

    Names are shortened to their cell; None when a name would keep fewer than
    ``NAME_LEAST`` characters.
    """
    gap = 2
    cell = (width - gap * (columns - 1)) // columns
    out: list[str] = []
    for start in range(0, len(pairs), columns):
        cells = []
        for name, figure in pairs[start : start + columns]:
            value = str(figure)
            room = cell - len(value) - 1
            if room < min(len(name), NAME_LEAST):
                return None
            cells.append(spread(short(name, room), value, cell))
        out.append((" " * gap).join(cells).rstrip())
    return out


def first_fit(candidates: Iterable[str], width: int = COLS) -> str:
    """Return the first candidate that fits ``width`` (the last one if none does)."""
    last = ""
    for text in candidates:
        if len(text) <= width:
            return text
        last = text
    return last


def numbered(pages: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Return the pages, each marked "2/5" at the end of its first row when there are several.

    The builders keep first rows short so the mark fits; a row without room stays unmarked.
    """
    out: list[tuple[str, ...]] = []
    for number, page in enumerate(pages, 1):
        lines = list(page) or [""]
        if len(pages) > 1:
            lines[0] = spread(lines[0], f"{number}/{len(pages)}")
        out.append(rows(lines))
    return out


#: Room a page keeps at the end of its first row for the page mark (" 10/12").
MARK = 6


def sealed(player: str) -> str:
    """Say in one row that ``player``'s bet is in: ``Anna: bet sealed ***``."""
    return first_fit(
        [
            _("{player}: bet sealed {sealed}").format(player=player, sealed=SEALED),
            named(player, _(": sealed {sealed}").format(sealed=SEALED)),
        ]
    )


def stars(entered: int, total: int) -> str:
    """Show how much of a secret is entered: one ``*`` per part, ``_`` for each still to come."""
    return " ".join(["*"] * entered + ["_"] * (total - entered))


def suit(letter: str) -> str:
    """Return the suit symbol of a card or horse letter (the letter itself if unknown)."""
    return SUIT_SYMBOLS.get(letter.upper(), letter)


#: The face cards' letters in a card code, and their names in the catalogs.
FACES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}


def rank_letter(rank: str) -> str:
    """Return a card code's rank (``A``, ``2``..``10``, ``J``, ``Q``, ``K``) as the table's
    language prints it: the first letter of the face's name (``V``alet, ``D``ame, ``R``oi in
    French; ``B``ube, ``D``ame, ``K``önig in German); a number stays as it is."""
    face = FACES.get(rank.upper())
    return rank if face is None else _(face)[:1].upper()


def card_text(code: str) -> str:
    """Show a playing card code ("10H", "QS") with its suit symbol and its rank as the table's
    language prints it ("10♥", "Q♠"; "D♠" in French and German)."""
    if len(code) >= 2 and code[-1].upper() in SUIT_SYMBOLS:
        return rank_letter(code[:-1]) + suit(code[-1])
    return code


def ordinal(number: int) -> str:
    """Return 1st, 2nd, 3rd, 4th... (1er, 2e... in French, 1., 2.... in German)."""
    if _("{number}th") != "{number}th":
        form = _("{number}st") if number == 1 else _("{number}th")
        return form.format(number=number)
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


def race_word(number: int) -> str:
    """Say which race it is: ``Race 2``."""
    return _("Race {number}").format(number=number)


def signed(amount: int) -> str:
    """Return an amount with its sign: +300, -100, 0."""
    return f"{amount:+d}" if amount else "0"
