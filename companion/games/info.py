"""What a game declares about itself once: kind, title, players, horses, options, log entries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.text import N_


@dataclass(frozen=True)
class Option:
    """One option of a game: its key in the new game, its label, the values the menu offers.

    The first of ``values`` is the default. ``words`` say the values on the LCD, in the same
    order (by default: on/off for true/false, off for none, the value itself otherwise).
    """

    key: str
    label: str
    values: tuple[Any, ...]
    words: tuple[str, ...] = ()

    def shown(self, value: Any) -> str:
        """Say a value on the LCD."""
        if self.words and value in self.values:
            return self.words[self.values.index(value)]
        if value is None or value is False:
            return N_("off")
        if value is True:
            return N_("on")
        return str(value)


@dataclass(frozen=True)
class GameInfo:
    """A game as the whole companion knows it; each layer finds its own part by ``kind``.

    ``low`` and ``high`` are the player counts the menu offers; ``options`` the options the
    menu cycles through; ``teams`` whether the game has the teams variant (offered when the
    players split evenly); ``entries`` the table-log entry types the game takes besides the
    ones every game takes.

    What a game has or needs, for the tests and tools that run over every game:
    ``has_secret`` (an entry kept from the table until its reveal: a prediction, a guess, a
    bet or a hand), ``uses_die`` (it is played with a die: it takes ``roll``), ``uses_cards``
    (cards are dealt, turned or played) and ``shortest`` (the fewest table-log entries, the
    ``new_game`` included, of a whole game its random inputs play: a test asking for a
    longer random game asks for no more than this).
    """

    kind: str
    title: str
    low: int
    high: int
    horses: tuple[str, ...]
    options: tuple[Option, ...]
    entries: frozenset[str]
    teams: bool = False
    has_secret: bool = False
    uses_die: bool = False
    uses_cards: bool = False
    shortest: int = 11
