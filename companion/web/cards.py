"""Card pickers: the cards a page offers to tap, and the physical card a tap names.

A Jockey card is tapped by its kind (``red +7``), as a player holding the card sees it: the
copy (``red+7#2``) is the table's bookkeeping, so the companion gives the tap a copy that is
free (in the player's hand when hands are tracked; not yet on the pile when they are not).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.jockey import Deck, JockeyOptions

SUITS = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def playing_cards() -> list[tuple[str, str]]:
    """The 48 cards of a pack but the aces (the horses), as (code, label), suit by suit."""
    return [(f"{r}{s}", f"{r}{SUITS[s][0]}") for s in SUITS for r in RANKS]


@dataclass(frozen=True)
class PickerRow:
    """One kind of Jockey card as a picker shows it: its name, its printed label, and how
    many of it (copies in the deck, cards in a hand, or cards still to play)."""

    kind: str
    label: str
    count: int


def jockey_deck(options: Mapping[str, Any]) -> Deck:
    """The deck a Jockey game plays with (its ``deck`` option, else the default one)."""
    return JockeyOptions.from_data(options).deck


def kind_of(card_id: str) -> str:
    """The kind of a card id: ``red+7`` for ``red+7#2``."""
    return card_id.split("#", 1)[0]


def by_kind(deck: Deck, ids: Iterable[str]) -> tuple[PickerRow, ...]:
    """``ids`` counted kind by kind, in deck order (kinds with none left out)."""
    counts: dict[str, int] = {}
    for card_id in ids:
        counts[kind_of(card_id)] = counts.get(kind_of(card_id), 0) + 1
    kinds: dict[str, PickerRow] = {}
    for card in deck.cards:
        kind = kind_of(card.id)
        if kind in counts and kind not in kinds:
            kinds[kind] = PickerRow(kind, card.label, counts[kind])
    return tuple(kinds.values())


def copies_of(deck: Deck, kind: str, free: Iterable[str], count: int) -> list[str] | None:
    """``count`` copies of ``kind`` among the ``free`` card ids, in deck order; None if fewer."""
    allowed = set(free)
    found = [c.id for c in deck.cards if kind_of(c.id) == kind and c.id in allowed][:count]
    return found if len(found) == count else None


def label_of(deck: Deck, kind: str) -> str:
    """The printed label of ``kind`` (the kind itself when the deck has no such card)."""
    return next((c.label for c in deck.cards if kind_of(c.id) == kind), kind)
