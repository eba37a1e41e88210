"""Playing cards of a 52-card deck: ranks, suits, cards, parsing what a reader or a person types."""

from __future__ import annotations

import enum
import unicodedata
from dataclasses import dataclass

from companion.games.errors import Refusal
from companion.games.text import N_

__all__ = ["Card", "NotACard", "Rank", "Suit", "full_deck"]


class Suit(enum.Enum):
    """One of the four suits; the value is the letter used in card codes (``QS``, ``10H``)."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        """The one-letter code: S, H, D or C."""
        return self.value

    @property
    def symbol(self) -> str:
        """The suit symbol: ♠, ♥, ♦ or ♣."""
        return _SUIT_SYMBOLS[self]

    @property
    def english(self) -> str:
        """The English plural name: spades, hearts, diamonds, clubs."""
        return self.name.lower()

    @property
    def french(self) -> str:
        """The French name: pique, cœur, carreau, trèfle."""
        return _SUIT_FRENCH[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter, a symbol, or an English or French name.

        Raises Refusal (code ``not_a_suit``) for anything else.
        """
        suit = _SUIT_WORDS.get(_fold(text))
        if suit is None:
            shown = text.strip()[:12]
            raise Refusal("not_a_suit", '"{text}" is not a suit: say S, H, D or C.', text=shown)
        return suit


class Rank(enum.IntEnum):
    """A card rank; the ace counts 1, the jack 11, the queen 12 and the king 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The rank as written in a card code: A, 2..10, J, Q, K."""
        return _RANK_LETTERS[self]

    @property
    def english(self) -> str:
        """The English name used in sentences: ace, 2..10, jack, queen, king."""
        return self.name.lower() if self in _FACES else str(int(self))

    @property
    def french(self) -> str:
        """The French name: as, 2..10, valet, dame, roi."""
        return _RANK_FRENCH.get(self, str(int(self)))


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_FRENCH = {Suit.SPADES: "pique", Suit.HEARTS: "cœur", Suit.DIAMONDS: "carreau"}
_SUIT_FRENCH[Suit.CLUBS] = "trèfle"
_FACES = {Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING}
_RANK_LETTERS = {r: str(int(r)) for r in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
_RANK_FRENCH = {Rank.ACE: "as", Rank.JACK: "valet", Rank.QUEEN: "dame", Rank.KING: "roi"}


def _fold(text: str) -> str:
    """Lower-case, drop accents and emoji variation selectors, trim: the form parsing compares."""
    text = text.strip().lower().replace("œ", "oe").replace("\ufe0f", "")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_SUIT_NAMES = {
    Suit.SPADES: ("spade", "spades", "pique", "piques"),
    Suit.HEARTS: ("heart", "hearts", "coeur", "coeurs"),
    Suit.DIAMONDS: ("diamond", "diamonds", "carreau", "carreaux"),
    Suit.CLUBS: ("club", "clubs", "trefle", "trefles"),
}
_RANK_NAMES = {
    Rank.ACE: ("ace", "as"),
    Rank.TWO: ("two", "deux"),
    Rank.THREE: ("three", "trois"),
    Rank.FOUR: ("four", "quatre"),
    Rank.FIVE: ("five", "cinq"),
    Rank.SIX: ("six",),
    Rank.SEVEN: ("seven", "sept"),
    Rank.EIGHT: ("eight", "huit"),
    Rank.NINE: ("nine", "neuf"),
    Rank.TEN: ("ten", "dix"),
    Rank.JACK: ("jack", "valet"),
    Rank.QUEEN: ("queen", "dame", "reine"),
    Rank.KING: ("king", "roi"),
}
_WHITE_SYMBOLS = {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}

#: Every spelling of a suit, folded: letter, symbol, English and French names.
_SUIT_WORDS: dict[str, Suit] = (
    {s.letter.lower(): s for s in Suit}
    | {s.symbol: s for s in Suit}
    | _WHITE_SYMBOLS
    | {word: s for s, words in _SUIT_NAMES.items() for word in words}
)

#: Rank tokens of the compact form (``10H``, ``TH``, ``QS``), with the letters French cards
#: print (``V``alet, ``D``ame, ``R``oi) and German ones (``B``ube, ``D``ame, ``K``önig).
_RANK_TOKENS: dict[str, Rank] = {r.letter.lower(): r for r in Rank} | {
    "t": Rank.TEN,
    "v": Rank.JACK,
    "d": Rank.QUEEN,
    "r": Rank.KING,
    "b": Rank.JACK,
}

#: Rank words of the spoken form (``queen of spades``, ``dame de pique``, ``7 de trèfle``).
_RANK_WORDS: dict[str, Rank] = _RANK_TOKENS | {
    word: r for r, words in _RANK_NAMES.items() for word in words
}


class NotACard(Refusal):
    """A text that names none of the 52 cards (code ``not_a_card``)."""

    def __init__(self, text: str) -> None:
        shown = " ".join(text.split())
        if len(shown) > 14:
            shown = shown[:13] + "…"
        super().__init__("not_a_card", N_('"{text}" is not one of the 52 cards.'), text=shown)
        self.text = text


@dataclass(frozen=True, repr=False)
class Card:
    """One card of the 52: a rank and a suit. ``str(card)`` is its code, e.g. ``10H``."""

    rank: Rank
    suit: Suit

    @property
    def code(self) -> str:
        """The compact code: ``10H``, ``QS``, ``AD``, ``7C``."""
        return f"{self.rank.letter}{self.suit.letter}"

    @property
    def symbol(self) -> str:
        """The code with the suit symbol: ``10♥``, ``Q♠``."""
        return f"{self.rank.letter}{self.suit.symbol}"

    @property
    def english(self) -> str:
        """The card in words, for sentences: ``queen of spades``, ``7 of hearts``."""
        return f"{self.rank.english} of {self.suit.english}"

    @property
    def french(self) -> str:
        """The card in French: ``dame de pique``, ``7 de cœur``."""
        return f"{self.rank.french} de {self.suit.french}"

    @property
    def is_ace(self) -> bool:
        """Tell whether this card is an ace."""
        return self.rank is Rank.ACE

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its code or its name.

        Accepted: ``10H``, ``TH``, ``th``, ``10♥``, ``♥10``, ``Q S``, ``queen of spades``,
        ``dame de pique``, ``7 de trèfle`` (case and accents do not matter).
        Raises NotACard (a Refusal, code ``not_a_card``) for anything that is not one of the
        52 cards, a joker included.
        """
        if not isinstance(text, str):
            raise NotACard(repr(text))
        folded = _fold(text)
        card = _parse_words(folded) or _parse_compact(folded.replace(" ", ""))
        if card is None:
            raise NotACard(text)
        return card


def _parse_compact(token: str) -> Card | None:
    """Read ``10h``, ``qs``, ``♥10``: a rank token and a one-character suit, either order."""
    for rank_part, suit_part in ((token[:-1], token[-1:]), (token[1:], token[:1])):
        rank = _RANK_TOKENS.get(rank_part)
        suit = _SUIT_WORDS.get(suit_part)
        if rank is not None and suit is not None:
            return Card(rank, suit)
    return None


def _parse_words(folded: str) -> Card | None:
    parts = folded.split()
    if len(parts) != 3 or parts[1] not in ("of", "de"):
        return None
    rank = _RANK_WORDS.get(parts[0])
    suit = _SUIT_WORDS.get(parts[2])
    if rank is None or suit is None:
        return None
    return Card(rank, suit)


def full_deck() -> tuple[Card, ...]:
    """Return the 52 cards, suit by suit (spades, hearts, diamonds, clubs), ace to king."""
    return tuple(Card(rank, suit) for suit in Suit for rank in Rank)
