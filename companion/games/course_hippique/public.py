"""What the table may see of a game (its public board) and what one player alone may see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.cards import Card, Suit
from companion.games.course_hippique.table import CourseBet, CourseRaceResult, CourseStanding


def bet_json(bet: CourseBet) -> dict[str, Any]:
    """Return a bet as JSON-ready data (the horse by its suit letter)."""
    return {"player": bet.player, "horse": bet.horse.letter, "stake": bet.stake, "odds": bet.odds}


@dataclass(frozen=True)
class CourseHippiqueBoard:
    """The public board of a game: never a bet before the race's first card is turned.

    ``course`` holds one card per course row (None: face down or not dealt); ``bets`` are
    the race's bets once revealed (empty while sealed); ``balances`` every balance as the
    table may see it (a sealed bet's stake not yet moved); ``players`` the seats, in order
    (each result's changes are theirs); ``last_max_bet`` the max bet a croupier set last
    this game (this race's once set; None before the first).
    """

    players: tuple[str, ...]
    croupier: str
    races: int
    course: tuple[Card | None, ...]
    odds: Mapping[Suit, int | None]
    max_bet: int | None
    last_max_bet: int | None
    positions: Mapping[Suit, int]
    finish: int
    pending_row: int | None
    turned: tuple[Card, ...]
    cards_left: int
    winner: Suit | None
    bets: tuple[CourseBet, ...]
    balances: Mapping[str, int]
    ranking: tuple[CourseStanding, ...]
    results: tuple[CourseRaceResult, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the board as JSON-ready data (the table log's and the pages' form)."""
        winner = self.winner
        return {
            "croupier": self.croupier,
            "races": self.races,
            "course": [None if c is None else c.code for c in self.course],
            "odds": {suit.letter: odds for suit, odds in self.odds.items()},
            "max_bet": self.max_bet,
            "last_max_bet": self.last_max_bet,
            "positions": {suit.letter: square for suit, square in self.positions.items()},
            "finish": self.finish,
            "pending_row": self.pending_row,
            "turned": [c.code for c in self.turned],
            "cards_left": self.cards_left,
            "winner": None if winner is None else winner.letter,
            "bets": [bet_json(b) for b in self.bets],
            "balances": dict(self.balances),
            "ranking": [
                {"place": s.place, "player": s.player, "chips": s.chips} for s in self.ranking
            ],
            "results": [
                {
                    "number": r.number,
                    "croupier": r.croupier,
                    "course": [c.code for c in r.course],
                    "winner": r.winner.letter,
                    "bets": [bet_json(b) for b in r.bets],
                    "cards_turned": r.cards_turned,
                    "changes": {p: r.change(p) for p in self.players},
                }
                for r in self.results
            ],
        }


@dataclass(frozen=True)
class CourseHippiquePrivate:
    """What one player alone may see: their own bet this race and their real balance."""

    bet: CourseBet | None
    balance: int

    def to_json(self) -> dict[str, Any]:
        """Return the private view's details as JSON-ready data."""
        return {"bet": None if self.bet is None else bet_json(self.bet), "balance": self.balance}
