"""The limits of the table's text: the 20x4 LCD every sentence fits, and shortened names."""

from __future__ import annotations

import functools
import re
import textwrap
from dataclasses import dataclass

#: The character LCD every sentence is written for: 20 columns, 4 rows.
DISPLAY_WIDTH = 20
DISPLAY_ROWS = 4

_NUMBERED = re.compile(r"(.*\S) (\d+)\Z")
#: What a shortened name never ends with before its ".".
_TRAILING = " -'."


@dataclass(frozen=True)
class Message:
    """A sentence for the table, kept as its English template and its parameters.

    The English sentence (``english``) is what journals and logs keep; the displays look the
    template up in the table's language and fill in the same parameters.
    """

    template: str
    params: tuple[tuple[str, str | int], ...] = ()
    #: The plural template of a sentence that counts (its ``count`` parameter), else None.
    plural: str | None = None

    @classmethod
    def of(cls, template: str, plural: str | None = None, **params: str | int) -> Message:
        """Return the message ``template`` filled in with ``params`` (``{name}`` fields)."""
        return cls(template, tuple(params.items()), plural)

    @property
    def count(self) -> int | None:
        """The number a counting sentence counts (None for the others)."""
        value = dict(self.params).get("count") if self.plural is not None else None
        return value if isinstance(value, int) else None

    @property
    def english(self) -> str:
        """The sentence in English."""
        template = self.template if self.plural is None or self.count == 1 else self.plural
        return template.format(**dict(self.params))


def N_(template: str) -> str:
    """Mark ``template`` for the catalogs where it is chosen; it is translated where shown."""
    return template


def display_lines(sentence: str, width: int = DISPLAY_WIDTH) -> list[str]:
    """Word-wrap ``sentence`` into the rows of a character display ``width`` columns wide."""
    return list(_wrapped(sentence, width))


@functools.lru_cache(maxsize=1024)
def _wrapped(sentence: str, width: int) -> tuple[str, ...]:
    """``display_lines``, worked out once per sentence (the same ones come back all game)."""
    return tuple(textwrap.wrap(sentence, width=width, break_long_words=True) or [""])


def fits_display(sentence: str) -> bool:
    """Tell whether ``sentence`` word-wraps into the 4 rows of a 20-column LCD."""
    return len(_wrapped(sentence, DISPLAY_WIDTH)) <= DISPLAY_ROWS


def short(name: str, width: int) -> str:
    """Shorten a name to ``width`` characters, a "." marking the cut, at a word boundary
    where one leaves a whole first word ("Jean-Baptiste Durand" -> "Jean-Baptiste D.",
    "Jean-B.", "Jean."), else inside the first word ("Bartholomew" -> "Barthol.").

    A numbered name keeps its number: it first loses only the space before it ("Joueur 2"
    -> "Joueur2"), then its stem is cut the same way ("Player 12" -> "Play.12", "P.12"), so
    seats and teams stay told apart however short.
    """
    if len(name) <= width:
        return name
    numbered = _NUMBERED.match(name)
    if numbered is not None:
        stem, number = numbered.groups()
        if len(stem) + len(number) <= width:
            return stem + number
        room = width - len(number)
        if room >= 2:
            return _cut(stem, room) + number
    if width <= 1:
        return name[:width]
    return _cut(name, width)


#: Where a name may be cut between words: its spaces and hyphens.
_BOUNDARY = re.compile(r"[ -]+")


def _cut(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters ending with "." (``width`` >= 2): the longest of
    its whole first words, then the initial of the next one, or the first words alone; when
    even the first word does not fit, the first word cut."""
    best = ""
    for gap in _BOUNDARY.finditer(name):
        words = name[: gap.start()].rstrip(_TRAILING)
        if not words:
            continue
        after = name[gap.end() :]
        for cut in (name[: gap.end()] + after[:1] + "." if after else "", words + "."):
            if len(best) < len(cut) <= width:
                best = cut
    return best or name[: width - 1].rstrip(_TRAILING) + "."
