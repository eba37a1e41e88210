"""Course hippique: where the four ace horses stand, and how one turned card moves them."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.cards import Suit
from companion.games.course_hippique.variants import HORSE_LETTERS, Setback

#: The four horses, in the order the table lists them: the aces of spades, hearts, diamonds, clubs.
HORSES: tuple[Suit, ...] = tuple(Suit(letter) for letter in HORSE_LETTERS)

#: Non-ace cards of one suit in a 52-card deck.
CARDS_PER_SUIT = 12


@dataclass(frozen=True)
class CourseTrack:
    """The horses on the track during one race.

    Position 0 is the start line, 1..``rows`` are the course rows, ``rows + 1`` is past the
    finish line. In the plain game every turned card moves its horse one step forward. In the
    setback variant the course rows are turned in order, ``revealed`` of them so far; when
    ``pending`` is true a horse has just reached row ``revealed + 1`` and the next card turned
    is that row's course card, which sends the horse of its suit one row back.
    """

    rows: int
    setback: Setback | None = None
    positions: tuple[int, int, int, int] = (0, 0, 0, 0)
    revealed: int = 0
    pending: bool = False
    winner: Suit | None = None

    @property
    def finish(self) -> int:
        """The position a horse must reach to win: one step beyond the last row."""
        return self.rows + 1

    def position(self, horse: Suit) -> int:
        """Where ``horse`` stands: 0 on the start line, ``finish`` once it has won."""
        return self.positions[HORSES.index(horse)]

    @property
    def pending_row(self) -> int | None:
        """The row whose face-down course card must be turned next (setback), else None."""
        return self.revealed + 1 if self.pending else None

    def step(self, suit: Suit) -> CourseTrack:
        """Return the track after a card of ``suit`` is turned.

        The card is the pending course card when a row waits to be turned, else a card from
        the deck. Trusts its input: the race must not be over.
        """
        moved = list(self.positions)
        index = HORSES.index(suit)
        revealed = self.revealed
        if self.pending:
            moved[index] = max(0, moved[index] - 1)
            revealed += 1
        else:
            moved[index] += 1
            if moved[index] == self.finish:
                return CourseTrack(self.rows, self.setback, _four(moved), revealed, False, suit)
        pending = False
        if self.setback is not None and revealed < self.rows:
            front = max(moved) if self.setback is Setback.FIRST else min(moved)
            pending = front >= revealed + 1
        return CourseTrack(self.rows, self.setback, _four(moved), revealed, pending, None)


def _four(values: list[int]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])
