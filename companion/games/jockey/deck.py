"""The four Jockey horses and the 54-card Jockey deck, read from a TOML deck file."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources

from companion.games.errors import DataError, Refusal

#: Every Jockey deck holds exactly this many cards (the hand sizes assume it).
DECK_SIZE = 54

#: The deck file shipped with the companion.
DEFAULT_DECK_FILE = "data/jockey_deck.toml"


class JockeyHorse(StrEnum):
    """A horse, named by its colour (the colour cards carry the same names)."""

    BROWN = "brown"
    YELLOW = "yellow"
    BLUE = "blue"
    RED = "red"


#: The horses in their fixed order (the order of progress tuples and of the deck's colours).
HORSES: tuple[JockeyHorse, ...] = tuple(JockeyHorse)


def parse_horse(name: str) -> JockeyHorse:
    """Return the horse called ``name`` (any case).

    Raises Refusal ``unknown_horse`` for any other name.
    """
    try:
        return JockeyHorse(str(name).strip().lower())
    except ValueError:
        raise Refusal("unknown_horse", "Horses: brown, yellow, blue or red.") from None


class CardKind(StrEnum):
    """What a Jockey card does; the numbers it does it with are on the card."""

    ADVANCE = "advance"
    LEAD = "lead"
    CHASE = "chase"
    POSITION = "position"


#: For each kind: the section it belongs to, its required numbers and its optional ones.
_KIND_KEYS: dict[CardKind, tuple[str, frozenset[str], frozenset[str]]] = {
    CardKind.ADVANCE: ("colour", frozenset({"steps"}), frozenset()),
    CardKind.LEAD: ("colour", frozenset({"factor"}), frozenset()),
    CardKind.CHASE: ("colour", frozenset({"steps", "behind"}), frozenset()),
    CardKind.POSITION: ("neutral", frozenset({"position", "steps"}), frozenset({"ahead"})),
}

#: The smallest (and, where there is one, largest) allowed value of each number.
_BOUNDS: dict[str, tuple[int, int | None]] = {
    "count": (1, DECK_SIZE),
    "steps": (1, None),
    "factor": (2, None),
    "behind": (0, None),
    "position": (1, 4),
    "ahead": (0, None),
}


@dataclass(frozen=True, slots=True)
class JockeyCard:
    """One physical Jockey card: its id (kind and copy number) and the numbers it carries.

    ``colour`` is the horse a colour card moves, None for a neutral card. Numbers a kind
    does not use are 0 (``ahead`` is None when the card has no cap past the leader).
    ``label`` is the card as printed (``red +7``, ``No.3 +18``), filled in when left empty.
    """

    id: str
    kind: CardKind
    colour: JockeyHorse | None
    steps: int = 0
    factor: int = 0
    behind: int = 0
    position: int = 0
    ahead: int | None = None
    label: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.printed())

    def printed(self) -> str:
        """Name the card as printed: ``red +7``, ``red lead x3``, ``No.3 +18``..."""
        if self.kind is CardKind.ADVANCE:
            return f"{self.colour} +{self.steps}"
        if self.kind is CardKind.LEAD:
            return f"{self.colour} lead x{self.factor}"
        if self.kind is CardKind.CHASE:
            return f"{self.colour} chase +{self.steps}"
        return f"No.{self.position} +{self.steps}"


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One line of a deck file: a kind, its numbers and how many copies (per colour)."""

    section: str
    kind: CardKind
    count: int
    steps: int = 0
    factor: int = 0
    behind: int = 0
    position: int = 0
    ahead: int | None = None

    def base_id(self, colour: JockeyHorse | None) -> str:
        """Return the id shared by every copy of this card (before ``#copy``)."""
        if self.kind is CardKind.ADVANCE:
            return f"{colour}+{self.steps}"
        if self.kind is CardKind.LEAD:
            return f"{colour}-lead"
        if self.kind is CardKind.CHASE:
            return f"{colour}-chase"
        return f"no{self.position}+{self.steps}"

    def to_data(self) -> dict[str, object]:
        """Return the entry as it is written in a deck file (without its section)."""
        data: dict[str, object] = {"kind": str(self.kind)}
        _, required, optional = _KIND_KEYS[self.kind]
        for key in sorted(required | optional):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        data["count"] = self.count
        return data


@dataclass(frozen=True)
class Deck:
    """A complete Jockey deck: its entries and every card, each with its own id.

    Card ids are ``<kind>#<copy>``: ``red+7#2``, ``blue-lead#1``, ``yellow-chase#2``,
    ``no3+18#1``; copies are numbered from 1.
    """

    entries: tuple[DeckEntry, ...]
    cards: tuple[JockeyCard, ...]
    by_id: Mapping[str, JockeyCard] = field(compare=False, repr=False)

    def card(self, card_id: str) -> JockeyCard:
        """Return the card with this id (any case, blanks and a ``jockey:`` prefix ignored).

        Raises Refusal ``unknown_card`` when the deck has no such card.
        """
        found = self.by_id.get(str(card_id).strip().lower().removeprefix("jockey:"))
        if found is None:
            raise Refusal("unknown_card", "Unknown card: check the deck or enroll it.")
        return found

    def to_data(self) -> dict[str, list[dict[str, object]]]:
        """Return the deck as the mapping a deck file holds."""
        data: dict[str, list[dict[str, object]]] = {"colour": [], "neutral": []}
        for entry in self.entries:
            data[entry.section].append(entry.to_data())
        return data


def _number(entry: Mapping[str, object], key: str, where: str) -> int:
    value = entry[key]
    low, high = _BOUNDS[key]
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise DataError(f"{where}.{key}: must be a whole number {span}, not {value!r}")
    return value


def _entry(section: str, raw: object, where: str) -> DeckEntry:
    if not isinstance(raw, Mapping):
        raise DataError(f"{where}: must be a table of kind, numbers and count")
    if "kind" not in raw:
        raise DataError(f"{where}: has no kind")
    try:
        kind = CardKind(raw["kind"])
    except ValueError:
        known = ", ".join(str(k) for k in CardKind)
        raise DataError(f"{where}.kind: unknown kind {raw['kind']!r} (known: {known})") from None
    home, required, optional = _KIND_KEYS[kind]
    if home != section:
        raise DataError(f"{where}.kind: {kind} cards belong in [[{home}]], not [[{section}]]")
    allowed = required | optional | {"kind", "count"}
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise DataError(f"{where}: unknown key {unknown[0]!r} for a {kind} card")
    missing = sorted((required | {"count"}) - set(raw))
    if missing:
        raise DataError(f"{where}: a {kind} card needs {missing[0]!r}")
    numbers = {key: _number(raw, key, where) for key in raw if key != "kind"}
    return DeckEntry(section=section, kind=kind, **numbers)


def deck_from_data(data: Mapping[str, object], source: str = "deck") -> Deck:
    """Build and check a deck from the mapping a deck file holds.

    Raises DataError, naming ``source`` and the key, when an entry names an unknown kind,
    lacks or misspells a number, holds a bad value, repeats a card, or the deck does not
    hold exactly 54 cards.
    """
    unknown = sorted(set(data) - {"colour", "neutral"})
    if unknown:
        raise DataError(f"{source}: unknown section {unknown[0]!r} (use colour or neutral)")
    entries: list[DeckEntry] = []
    for section in ("colour", "neutral"):
        raws = data.get(section, [])
        if not isinstance(raws, list):
            raise DataError(f"{source}: {section} must be a list of [[{section}]] tables")
        entries += [_entry(section, raw, f"{source}: {section}[{i}]") for i, raw in enumerate(raws)]
    cards: list[JockeyCard] = []
    bases: set[str] = set()
    for entry in entries:
        colours: tuple[JockeyHorse | None, ...] = HORSES if entry.section == "colour" else (None,)
        for colour in colours:
            base = entry.base_id(colour)
            if base in bases:
                raise DataError(f"{source}: the card {base!r} is listed twice")
            bases.add(base)
            for copy in range(1, entry.count + 1):
                cards.append(
                    JockeyCard(
                        id=f"{base}#{copy}",
                        kind=entry.kind,
                        colour=colour,
                        steps=entry.steps,
                        factor=entry.factor,
                        behind=entry.behind,
                        position=entry.position,
                        ahead=entry.ahead,
                    )
                )
    if len(cards) != DECK_SIZE:
        raise DataError(f"{source}: the deck holds {len(cards)} cards, not {DECK_SIZE}")
    return Deck(tuple(entries), tuple(cards), {card.id: card for card in cards})


def load_deck(text: str, source: str = "deck file") -> Deck:
    """Read a deck from the text of a TOML deck file.

    Raises DataError when the text is not TOML or the deck is not a valid Jockey deck.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{source}: not a TOML file ({error})") from None
    return deck_from_data(data, source)


@functools.cache
def default_deck() -> Deck:
    """Return the default 54-card deck shipped with the companion."""
    text = resources.files("companion.games").joinpath(DEFAULT_DECK_FILE).read_text("utf-8")
    return load_deck(text, "jockey_deck.toml")
