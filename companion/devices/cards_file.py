"""Enrolled cards: which tag is which card, kept in a TOML file written atomically.

The decks and their cards' names are defined in ``companion.devices.decks``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from companion.devices.config import ConfigError, ConfigProblem
from companion.devices.config.checker import read_text_file, read_toml
from companion.devices.decks import DECKS, DeckCard
from companion.devices.readers.base import normalize_uid

_BY_NAME = {card.name: card for cards in DECKS.values() for card in cards}
_ORDER = {name: index for index, name in enumerate(_BY_NAME)}


def deck_cards(deck: str) -> tuple[DeckCard, ...]:
    """Return the cards of a deck ("playing" or "jockey") in order. Raises KeyError."""
    try:
        return DECKS[deck]
    except KeyError:
        raise KeyError(f"unknown deck {deck!r}: use {' or '.join(DECKS)}") from None


def deck_of(card: str) -> str | None:
    """Return the deck a card name belongs to, or None for a name no deck has."""
    for deck, cards in DECKS.items():
        if any(c.name == card for c in cards):
            return deck
    return None


def card_label(card: str) -> str | None:
    """Return the label of a card name ("queen of spades (Q♠)"), or None if unknown."""
    known = _BY_NAME.get(card)
    return known.label if known is not None else None


class CardsFileError(ConfigError):
    """An enrolled-cards file that cannot be used: names the file, the tag and the reason."""


class CardBook:
    """Enrolled tags: each tag is one card, and each card has at most one tag."""

    def __init__(self, tags: Mapping[str, str] | None = None) -> None:
        self._cards: dict[str, str] = {}
        self._tags: dict[str, str] = {}
        for uid, card in (tags or {}).items():
            self.enroll(uid, card)

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        """Yield (tag, card) in deck order."""
        ordered = sorted(self._cards.items(), key=lambda item: _ORDER.get(item[1], len(_ORDER)))
        return iter(ordered)

    def card_for(self, uid: str) -> str | None:
        """Return the card enrolled for a tag, or None (the reader's lookup)."""
        normal = normalize_uid(uid)
        return self._cards.get(normal) if normal is not None else None

    def tag_for(self, card: str) -> str | None:
        """Return the tag enrolled for a card, or None."""
        return self._tags.get(card)

    def enroll(self, uid: str, card: str) -> None:
        """Record that tag ``uid`` is ``card``; the card's earlier tag, if any, is forgotten.

        Raises ValueError for a tag that is not a UID, an unknown card name, or a tag
        already enrolled as another card (forget it first).
        """
        normal = normalize_uid(uid)
        if normal is None:
            raise ValueError(f"{uid!r} is not a tag UID")
        if card not in _BY_NAME:
            raise ValueError(f"{card!r} is no card of any deck")
        owner = self._cards.get(normal)
        if owner is not None and owner != card:
            raise ValueError(f"tag {normal} is already {owner}")
        self.forget_card(card)
        self._cards[normal] = card
        self._tags[card] = normal

    def forget_card(self, card: str) -> str | None:
        """Forget the tag of a card; return it (None if it had none)."""
        uid = self._tags.pop(card, None)
        if uid is not None:
            del self._cards[uid]
        return uid

    def forget_tag(self, uid: str) -> str | None:
        """Forget a tag; return the card it was (None if it was not enrolled)."""
        normal = normalize_uid(uid)
        card = self._cards.pop(normal, None) if normal is not None else None
        if card is not None:
            del self._tags[card]
        return card

    def missing(self, deck: str) -> list[str]:
        """Return the names of the deck's cards that have no tag, in deck order."""
        return [card.name for card in deck_cards(deck) if card.name not in self._tags]


def load_cards(path: str | os.PathLike[str]) -> CardBook:
    """Read an enrolled-cards file; a file that does not exist yet is an empty book.

    Raises CardsFileError naming the file, the tag and the reason.
    """
    file = Path(path)
    try:
        text = read_text_file(file)
    except FileNotFoundError:
        return CardBook()
    except ConfigError as error:
        raise CardsFileError(error.problems) from None
    return parse_cards(text, str(file))


def parse_cards(text: str, source: str = "cards.toml") -> CardBook:
    """Check the text of an enrolled-cards file. Raises CardsFileError listing the problems."""
    problems: list[ConfigProblem] = []
    try:
        data = read_toml(text, source)
    except ConfigError as error:
        raise CardsFileError(error.problems) from None
    for key in data:
        if key != "tags":
            problems.append(ConfigProblem(source, key, "unknown key (the file holds [tags])"))
    tags = data.get("tags", {})
    book = CardBook()
    if not isinstance(tags, dict):
        problems.append(ConfigProblem(source, "tags", "must be a table: [tags]"))
        tags = {}
    for uid, card in tags.items():
        key = f"tags.{uid}"
        if not isinstance(card, str):
            problems.append(ConfigProblem(source, key, f"must be a card name, not {card!r}"))
            continue
        earlier = book.tag_for(card)
        if earlier is not None:
            problems.append(ConfigProblem(source, key, f"{card} already has the tag {earlier}"))
            continue
        try:
            book.enroll(uid, card)
        except ValueError as error:
            problems.append(ConfigProblem(source, key, str(error)))
    if problems:
        raise CardsFileError(problems)
    return book


def _quoted(text: str) -> str:
    """Write a TOML basic string."""
    out = ['"']
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def cards_text(book: CardBook) -> str:
    """Return the file text for a book: one ``"TAG" = "CARD"`` line per tag, in deck order."""
    lines = [
        "# Card tags enrolled with `companion cards enroll`: tag UID = card.",
        "# Playing cards are AS..KC (10H = ten of hearts); Jockey cards are jockey:1..54,",
        "# numbered as `companion cards labels jockey` prints them.",
        "",
        "[tags]",
    ]
    for uid, card in book:
        label = card_label(card)
        lines.append(f"{_quoted(uid)} = {_quoted(card)}" + (f"  # {label}" if label else ""))
    return "\n".join(lines) + "\n"


def save_cards(path: str | os.PathLike[str], book: CardBook) -> None:
    """Write the book to ``path`` atomically: a crash leaves the old file or the new one.

    The folder is created if needed. Raises OSError when the file cannot be written.
    """
    file = Path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{file.name}.", dir=file.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(cards_text(book))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, file)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    folder = os.open(file.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
