"""What the table may see of a game (its public board) and what one player alone may see."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.jockey.bets import JockeyBet, JockeyRaceResult, JockeyStanding, Markers
from companion.games.jockey.deck import JockeyHorse
from companion.games.jockey.race import CardEffect, Place


@dataclass(frozen=True)
class JockeyBoard:
    """The public board of a game: never a bet before its race is settled, never a hand.

    ``progress`` is each horse's square; ``standings`` the positions the horses hold;
    ``last_effect`` what the last card played did; ``pile`` the cards played this race;
    ``hand_sizes`` and ``owed`` (cards each player holds, cards owed to them) are empty
    unless the companion tracks every hand (``hands``); ``limits`` each player's largest
    stake; ``markers`` where each player's marker pieces go.
    """

    track_length: int
    starter: str
    progress: Mapping[JockeyHorse, int]
    standings: tuple[Place, ...]
    finish_order: tuple[JockeyHorse, ...]
    last_effect: CardEffect | None
    pile: tuple[str, ...]
    cards_left: int
    hands: bool
    hand_sizes: Mapping[str, int]
    owed: Mapping[str, int]
    limits: Mapping[str, int]
    balances: Mapping[str, int]
    markers: Mapping[str, Markers]
    ranking: tuple[JockeyStanding, ...]
    results: tuple[JockeyRaceResult, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the board as JSON-ready data (the table log's and the pages' form)."""
        effect = self.last_effect
        return {
            "track_length": self.track_length,
            "starter": self.starter,
            "progress": {str(h): square for h, square in self.progress.items()},
            "standings": [
                {
                    "first": place.first,
                    "last": place.last,
                    "horses": [str(h) for h in place.horses],
                    "square": place.square,
                    "determined": place.determined,
                }
                for place in self.standings
            ],
            "finish_order": [str(h) for h in self.finish_order],
            "last_effect": None
            if effect is None
            else {**effect.to_data(), "sentence": effect.sentence()},
            "pile": list(self.pile),
            "cards_left": self.cards_left,
            "hands": self.hands,
            "hand_sizes": dict(self.hand_sizes),
            "owed": dict(self.owed),
            "limits": dict(self.limits),
            "balances": dict(self.balances),
            "markers": {p: [list(c) for c in m.columns()] for p, m in self.markers.items()},
            "ranking": [
                {"place": s.place, "player": s.player, "balance": s.balance} for s in self.ranking
            ],
            "results": [r.to_data() for r in self.results],
        }


@dataclass(frozen=True)
class JockeyPrivate:
    """What one player alone may see: their sealed bet, their hand, the cards they may keep,
    the cards owed to them, the cards they may play on their turn and their largest stake."""

    bet: JockeyBet | None
    hand: tuple[str, ...]
    leftover: tuple[str, ...]
    owed: int
    playable: tuple[str, ...]
    limit: int

    def to_json(self) -> dict[str, Any]:
        """Return the private view's details as JSON-ready data."""
        return {
            "bet": None if self.bet is None else self.bet.to_data(),
            "hand": list(self.hand),
            "leftover": list(self.leftover),
            "owed": self.owed,
            "playable": list(self.playable),
            "limit": self.limit,
        }
