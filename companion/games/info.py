"""What a game declares about itself once: kind, title, players, horses, options, log entries,
and the figure that ranks its players."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.text import N_

#: The figures a game may rank its players by (each a field of the league's result).
FIGURES = ("points", "chips", "balance")


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
class Measure:
    """The figure that ranks a game's players: what the evening, the pages and the league show.

    ``figure`` is its word, one of ``FIGURES`` (points, chips, balance: the league's result
    has one field for each); ``field`` the mapping of player to number in the game's board
    (its ``to_json``) that holds it; ``since_start`` counts what changed since the game began
    (chips won or lost), shown with its sign.
    """

    figure: str
    field: str
    since_start: bool = False

    def __post_init__(self) -> None:
        if self.figure not in FIGURES:
            raise ValueError(f"a measure's figure is one of {', '.join(FIGURES)}: {self.figure!r}")

    @property
    def signed(self) -> bool:
        """Whether the figure is shown with its sign (a gain or a loss)."""
        return self.since_start

    def of(self, board: Mapping[str, Any], start: Mapping[str, Any]) -> dict[str, int]:
        """Each player's figure from the board's JSON at the end (and, for a gain, at the
        start)."""
        now: dict[str, int] = dict(board.get(self.field) or {})
        if not self.since_start:
            return now
        first: dict[str, int] = dict(start.get(self.field) or {})
        return {player: value - first.get(player, 0) for player, value in now.items()}


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

    ``measure`` is the figure that ranks its players (None: its winners first, the others
    level behind them). ``title`` is its name, the same in every language unless ``titles``
    gives another for a language (``(("fr", "..."), ...)``): see ``title_in``.
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
    measure: Measure | None = None
    titles: tuple[tuple[str, str], ...] = ()

    def title_in(self, lang: str) -> str:
        """The game's name in language ``lang`` (its ``title`` when ``titles`` has none)."""
        return dict(self.titles).get(lang, self.title)
