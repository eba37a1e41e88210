"""The decks a tag can be enrolled for and their cards' names: no configuration, no reader.

The names of the cards of each deck are defined here and nowhere else: playing cards are
"AS".."KC" ("10H" for the ten of hearts); Jockey cards are "jockey:1".."jockey:54",
numbered in the order of the default Jockey deck file (every brown, yellow, blue and red
copy of "+7", then of "+10", "lead x3", "chase +50", then the neutral cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class DeckCard:
    """One card of a deck: its name in events and files, and a label for people."""

    name: str
    label: str


_SUITS = (("S", "spades", "♠"), ("H", "hearts", "♥"), ("D", "diamonds", "♦"), ("C", "clubs", "♣"))
_RANKS = (
    ("A", "ace"), ("2", "two"), ("3", "three"), ("4", "four"), ("5", "five"), ("6", "six"),
    ("7", "seven"), ("8", "eight"), ("9", "nine"), ("10", "ten"), ("J", "jack"),
    ("Q", "queen"), ("K", "king"),
)  # fmt: skip

#: The default Jockey deck: (what the card says, copies); colour cards come in each colour.
_JOCKEY_COLOURS = ("brown", "yellow", "blue", "red")
_JOCKEY_COLOUR_CARDS = (("+7", 4), ("+10", 3), ("lead x3", 2), ("chase +50", 2))
_JOCKEY_NEUTRAL_CARDS = (("No.2 +15", 4), ("No.4 +20", 3), ("No.3 +18", 3))


def jockey_card_name(number: int) -> str:
    """Name the Jockey card with this number (1..54): ``jockey:7``."""
    return f"jockey:{number}"


def _playing_deck() -> tuple[DeckCard, ...]:
    return tuple(
        DeckCard(f"{rank}{letter}", f"{word} of {suit} ({rank}{symbol})")
        for letter, suit, symbol in _SUITS
        for rank, word in _RANKS
    )


def _jockey_deck() -> tuple[DeckCard, ...]:
    labels: list[str] = []
    for text, copies in _JOCKEY_COLOUR_CARDS:
        for colour in _JOCKEY_COLOURS:
            labels += [f"{colour} {text} ({copy} of {copies})" for copy in range(1, copies + 1)]
    for text, copies in _JOCKEY_NEUTRAL_CARDS:
        labels += [f"{text} ({copy} of {copies})" for copy in range(1, copies + 1)]
    return tuple(DeckCard(jockey_card_name(n), label) for n, label in enumerate(labels, start=1))


#: Every deck a tag can be enrolled for, its cards in order.
DECKS: Mapping[str, tuple[DeckCard, ...]] = {"playing": _playing_deck(), "jockey": _jockey_deck()}
