"""Course hippique: the table's value types — options, phases, bets, turned cards, results."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields

from companion.games.cards import Card, Suit
from companion.games.course_hippique.variants import Setback
from companion.games.errors import Refusal

COURSE_LENGTHS = (5, 6, 7)


class CoursePhase(enum.StrEnum):
    """Where the current race stands: what the table is expected to do next."""

    #: The croupier deals (scans) the face-up course, one card at a time.
    DEALING = "dealing"
    #: The course is complete but holds 5 or more cards of one suit: deal a new one.
    REDEAL = "redeal"
    #: The course is ready: the croupier announces the max bet, players bet.
    BETTING = "betting"
    #: The first card is turned: bets are closed, cards are turned until a horse wins.
    RACING = "racing"
    #: A horse has won and the bets are paid: the next race may start.
    RACE_OVER = "race_over"
    #: The last race has a winner: the game is over.
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class HippiqueOptions:
    """How this table plays. Raises Refusal (``bad_option``) for a value the rules do not know."""

    #: Chips every player holds at the start.
    starting_chips: int = 100
    #: Rounds of races; each round gives every player one race as croupier.
    rounds: int = 1
    #: Cards in the course row (5, 6 or 7); a horse needs one more card to finish.
    course_length: int = 7
    #: The setback variant (course face down, horses pushed back), or None.
    setback: Setback | None = None

    def __post_init__(self) -> None:
        if not _whole(self.starting_chips) or self.starting_chips < 1:
            raise Refusal("bad_option", "Starting chips must be a whole number, 1 or more.")
        if not _whole(self.rounds) or self.rounds < 1:
            raise Refusal("bad_option", "Rounds must be a whole number, 1 or more.")
        if self.course_length not in COURSE_LENGTHS or not _whole(self.course_length):
            raise Refusal("bad_option", "The course has 5, 6 or 7 cards.")
        if self.setback is not None and not isinstance(self.setback, Setback):
            raise Refusal("bad_option", 'Setback is "first", "all" or off.')

    def to_dict(self) -> dict[str, int | str | None]:
        """Return the options as plain JSON data."""
        return {
            "starting_chips": self.starting_chips,
            "rounds": self.rounds,
            "course_length": self.course_length,
            "setback": None if self.setback is None else self.setback.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> HippiqueOptions:
        """Read options from plain data (missing keys take their default).

        Raises Refusal (``bad_option``) for an unknown key or a bad value.
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise Refusal("bad_option", "Unknown option: {option}.", option=unknown[0][:40])
        setback = data.get("setback")
        if setback is not None:
            try:
                setback = Setback(setback)
            except ValueError:
                raise Refusal("bad_option", 'Setback is "first", "all" or off.') from None
        values = {k: v for k, v in data.items() if k != "setback"}
        return cls(setback=setback, **values)  # type: ignore[arg-type]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class CourseBet:
    """One player's bet for a race: a horse, a stake, and the odds it was placed at."""

    player: str
    horse: Suit
    stake: int
    odds: int

    @property
    def payout(self) -> int:
        """What the croupier hands back if the horse wins: the stake plus odds times it."""
        return self.stake * (self.odds + 1)


@dataclass(frozen=True)
class Turn:
    """What one turned card did on the track."""

    card: Card
    horse: Suit
    #: Setback variant: the course row this card lay on (it pushed its horse back); else None.
    row: int | None
    #: Where the horse of the card's suit stands afterwards.
    position: int
    #: The horse that won with this card, or None.
    winner: Suit | None


@dataclass(frozen=True)
class CourseRaceResult:
    """A finished race: who kept the book, the course, the winner and every bet."""

    number: int
    croupier: str
    course: tuple[Card, ...]
    winner: Suit
    bets: tuple[CourseBet, ...]
    cards_turned: int

    @property
    def winning_bets(self) -> tuple[CourseBet, ...]:
        """The bets on the winner."""
        return tuple(b for b in self.bets if b.horse is self.winner)

    def change(self, player: str) -> int:
        """Return how many chips ``player`` won (or lost, negative) in this race."""
        if player == self.croupier:
            return sum(b.stake for b in self.bets) - sum(b.payout for b in self.winning_bets)
        own = [b for b in self.bets if b.player == player]
        return sum((b.payout if b.horse is self.winner else 0) - b.stake for b in own)


@dataclass(frozen=True)
class CourseStanding:
    """A player's place in the ranking; players with equal chips share the place."""

    place: int
    player: str
    chips: int
