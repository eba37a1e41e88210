"""Scanned card names to the engines' card ids: the one place the two namings meet.

The card reader reports an enrolled card by its name in the enrolled-cards file
(``companion/devices/cards_file.py``): playing cards as ``"QS"`` or ``"10H"``, Jockey cards
as ``"jockey:1"`` .. ``"jockey:54"``, numbered in the order of the deck file. The Jockey
engine names each physical card ``<kind>#<copy>`` (``red+7#2``), its deck listing the cards
in that same order, so ``jockey:N`` is the N-th card of the deck in play. A Jockey engine id
(``jockey:red+7#2`` or ``red+7#2``) is taken as it is, for tables that enrolled by id.
"""

from __future__ import annotations

from companion.games.cards import Card
from companion.games.errors import Refusal
from companion.games.jockey import Deck
from companion.games.text import N_

JOCKEY_PREFIX = "jockey:"

#: What the table sees when the reader reads a tag that is no enrolled card.
UNKNOWN_CARD = N_("Unknown card: enroll it, then scan it again.")


def playing_card(name: str) -> str | None:
    """Return the code of the playing card a scanned name names ("QS"), or None."""
    if name.lower().startswith(JOCKEY_PREFIX):
        return None
    try:
        return Card.parse(name).code
    except Refusal:
        return None


def jockey_card(name: str, deck: Deck) -> str | None:
    """Return the engine id of the Jockey card a scanned name names, or None."""
    text = name.strip()
    rest = text[len(JOCKEY_PREFIX) :] if text.lower().startswith(JOCKEY_PREFIX) else None
    if rest is not None and rest.isdigit():
        number = int(rest)
        return deck.cards[number - 1].id if 1 <= number <= len(deck.cards) else None
    try:
        return deck.card(text).id
    except Refusal:
        return None


def jockey_number(card_id: str, deck: Deck) -> int | None:
    """Return N of the name ``jockey:N`` the reader uses for the engine's ``card_id``."""
    for number, card in enumerate(deck.cards, start=1):
        if card.id == card_id:
            return number
    return None
