"""What an undo took back, in the pages' words: a sealed input is named, never shown."""

from __future__ import annotations

from companion.render.language import word
from companion.render.text import rank_letter
from companion.session.log import (
    BetEntry,
    DealCard,
    DealCourse,
    Forfeit,
    GuessEntry,
    Hand,
    LogEntry,
    MoveEntry,
    NextRace,
    PlayCard,
    Predict,
    Roll,
    SetMaxBet,
    TurnCard,
)
from companion.web.words import t

#: A Course hippique card's suit as the pages print it.
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_words(card: str) -> str:
    """A card as a page prints it: ``D♠`` for ``QS`` in French, ``red+7`` for a Jockey
    card's copy ``red+7#2`` (the copy number is the table's bookkeeping)."""
    if "#" in card or card[-1:] not in SUITS:
        return card.split("#", 1)[0]
    return rank_letter(card[:-1]) + SUITS[card[-1]]


def _what(entry: LogEntry) -> str:
    """The input ``entry`` in a few words; what a sealed one holds stays out."""
    player = getattr(entry, "player", None) or ""
    if isinstance(entry, Predict):
        return t("{player}'s prediction").format(player=player)
    if isinstance(entry, GuessEntry):
        return t("{player}'s guess").format(player=player)
    if isinstance(entry, BetEntry):
        return t("{player}'s bet").format(player=player)
    if isinstance(entry, Hand):
        return t("{player}'s cards counted").format(player=player)
    if isinstance(entry, Roll):
        return t("the roll {value}").format(value=entry.value)
    if isinstance(entry, MoveEntry):
        return t("the move of {horse}").format(horse=word(entry.horse))
    if isinstance(entry, Forfeit):
        return t("{player}'s forfeit").format(player=player) if player else t("a forfeit")
    if isinstance(entry, DealCard):
        return t("the course card {card}").format(card=card_words(entry.card))
    if isinstance(entry, DealCourse):
        return t("the course laid")
    if isinstance(entry, SetMaxBet):
        return t("the largest stake {amount}").format(amount=entry.amount)
    if isinstance(entry, TurnCard):
        return t("the card turned {card}").format(card=card_words(entry.card))
    if isinstance(entry, PlayCard):
        card = card_words(entry.card)
        if player:
            return t("{player}'s card {card}").format(player=player, card=card)
        return t("the card {card}").format(card=card)
    if isinstance(entry, NextRace):
        return t("the start of the next race")
    return entry.TYPE.replace("_", " ")


def undone_sentence(entry: LogEntry | None) -> str:
    """What the host page says after an undo: ``Undone: Anna's bet.`` (or just ``Undone.``
    when the undo took back a step of an entry not made yet)."""
    if entry is None:
        return t("Undone.")
    return t("Undone: {what}.").format(what=_what(entry))
