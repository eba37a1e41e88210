"""The session's binding to Jockey: sealed bets, dealt hands and played cards in, the race out.

Options of a ``new_game`` entry: ``track_length`` (default 80), ``hands`` (true when the
companion tracks every hand: then each ``hand`` entry says what a player was dealt) and
``deck`` (a deck file's mapping). Bets stay sealed until the race is settled; a hand is
never shown to the table, only how many cards each player holds.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.errors import Refusal
from companion.games.jockey import (
    BET_SHAPES,
    GAME,
    BetKind,
    JockeyBoard,
    JockeyGame,
    JockeyPhase,
    JockeyPrivate,
)
from companion.session.binding import Binding
from companion.session.log import BetEntry, Hand, LogEntry, NextRace, PlayCard
from companion.session.offers import NEXT_RACE, NOTHING, Offer, Offers

if TYPE_CHECKING:
    from companion.session.session import Game

_SEALED = (JockeyPhase.BETTING, JockeyPhase.RACING)
_OVER = (JockeyPhase.RACE_OVER, JockeyPhase.GAME_OVER)


class JockeyBinding(Binding):
    """A game of Jockey driven by table-log entries."""

    KIND = "jockey"

    def __init__(self, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.game = JockeyGame.new(players, dict(options))

    def apply(self, entry: LogEntry) -> None:
        """Forward one input to the game (Refusal comes from the engine)."""
        g = self.game
        if isinstance(entry, BetEntry):
            horses = (entry.horse,) if entry.horse2 is None else (entry.horse, entry.horse2)
            stakes = (entry.stake,) if entry.stake2 is None else (entry.stake, entry.stake2)
            g.bet(entry.player, entry.kind, horses, stakes)
        elif isinstance(entry, Hand):
            g.deal(entry.player, entry.cards, entry.kept)
        elif isinstance(entry, PlayCard):
            g.play(entry.card, entry.player)
        elif isinstance(entry, NextRace):
            g.next_race()
        else:
            raise Refusal("wrong_game", "Not an input of Jockey.")

    def offers(self) -> Offers:
        """Each missing bet, the cards owed to each hand, the next card, the next race."""
        g = self.game
        if g.phase is JockeyPhase.GAME_OVER:
            return NOTHING
        if g.phase is JockeyPhase.RACE_OVER:
            return NEXT_RACE
        horses = tuple(GAME.horses)
        missing = set(g.bets_missing)
        items = [Offer("bet", p, horses, 100, g.limit(p)) for p in g.players if p in missing]
        items += [Offer("hand", p) for p in g.players if g.owed(p)]
        owed = tuple(p for p in g.players if g.owed(p))  # hands are counted before bets
        waiting = owed + tuple(p for p in g.players if p in missing and p not in owed)
        turn = g.current_player
        if not waiting and turn is not None:
            items.append(Offer("play_card", turn))
            waiting = (turn,)
        return Offers.of(items, waiting)

    def turn(self) -> str | None:
        """The player who plays the next card (None once the race is over)."""
        return self.game.current_player

    def phase(self) -> JockeyPhase:
        """``betting``, ``racing``, ``race_over`` or ``game_over``."""
        return self.game.phase

    def race(self) -> int:
        """The race number, 1 to 3."""
        return self.game.race_number

    def sealed(self) -> tuple[str, ...]:
        """The players whose bet for this race is in but not yet settled."""
        if self.game.phase not in _SEALED:
            return ()
        return self.game.bets_placed

    def waiting_for(self) -> tuple[str, ...]:
        """The players who still owe a bet, or are owed cards, before play can go on."""
        g = self.game
        if g.phase in _OVER:
            return ()
        owed = {p for p in g.players if g.owed(p)}
        missing = set(g.bets_missing) | owed
        return tuple(p for p in g.players if p in missing)

    def finished(self) -> bool:
        """Whether the third race is settled."""
        return self.game.phase is JockeyPhase.GAME_OVER

    def winners(self) -> tuple[str, ...]:
        """The players sharing the highest balance once the game is over."""
        return self.game.winners

    def board(self) -> JockeyBoard:
        """Squares, positions, the last card's effect, the pile, balances, markers, results."""
        g = self.game
        hands = g.options.hands
        return JockeyBoard(
            track_length=g.options.track_length,
            starter=g.starter,
            progress=g.progress,
            standings=g.standings,
            finish_order=g.finish_order,
            last_effect=g.last_effect,
            pile=g.pile,
            cards_left=g.cards_left,
            hands=hands,
            hand_sizes={p: len(g.hand(p)) for p in g.players} if hands else {},
            owed={p: g.owed(p) for p in g.players} if hands else {},
            limits={p: g.limit(p) for p in g.players},
            balances=g.balances,
            markers=g.markers,
            ranking=g.ranking,
            results=g.results,
        )

    def private(self, player: str) -> JockeyPrivate:
        """The player's sealed bet, hand, cards to keep, and playable cards on their turn."""
        g = self.game
        on_turn = g.current_player == player and g.options.hands
        return JockeyPrivate(
            bet=g.state.ledger.bets[g.players.index(player)],
            hand=tuple(sorted(g.hand(player))),
            leftover=tuple(sorted(g.leftover(player))),
            owed=g.owed(player),
            playable=g.playable() if on_turn else (),
            limit=g.limit(player),
        )

    def engine_state(self) -> Any:
        """The game's saved form (players, options, state)."""
        return json.loads(self.game.to_json())


#: The players and options autoplay starts a game with.
SET_UP: tuple[tuple[str, ...], dict[str, Any]] = (("Anna", "Bob", "Chloé"), {"hands": True})


#: The stake a dial and a pad start on before a player's first bet (stakes are hundreds).
FIRST_STAKE = 100


def stake_start(board: JockeyBoard, player: str, second: bool, most: int) -> int:
    """The stake ``player``'s dial and pad start on: their last stake in that place this game
    (the first stake; with ``second``, an order's second stake, else the last first one),
    else 100, lowered to ``most`` (what they may stake now), never under 100. The LCD and
    the phones read it here alike."""
    bets = [s.bet for r in board.results for s in r.payouts if s.player == player]
    last = FIRST_STAKE
    if bets:
        stakes = bets[-1].stakes
        last = stakes[1] if second and len(stakes) > 1 else stakes[0]
    return max(FIRST_STAKE, min(most, last))


def _jockey_bet(player: str, limit: int, rng: random.Random) -> BetEntry:
    kind = str(rng.choice(list(BET_SHAPES)))
    horses = rng.sample(GAME.horses, BET_SHAPES[BetKind(kind)][0])
    units = max(1, limit // 100)
    if kind == "order" and units >= 2:
        first = rng.randint(1, units - 1)
        second = rng.randint(1, units - first)
        return BetEntry(player, horses[0], first * 100, kind, horses[1], second * 100)
    if kind == "order":
        kind, horses = "win", horses[:1]
    second_horse = horses[1] if kind == "double" else None
    return BetEntry(player, horses[0], rng.randint(1, units) * 100, kind, second_horse)


def random_input(table: Game, rng: random.Random) -> LogEntry | None:
    """Draw an input the game accepts now (for autoplay), or None when it is over."""
    binding = table.binding
    assert isinstance(binding, JockeyBinding)
    view = table.view(None)
    board = view.board
    assert isinstance(board, JockeyBoard)
    game = binding.game
    if view.phase in ("race_over",):
        return NextRace()
    if view.phase == "game_over":
        return None
    waiting = list(view.waiting_for)
    if waiting:
        player = rng.choice(waiting)
        mine = binding.private(player)
        if mine.bet is None and (mine.owed == 0 or rng.random() < 0.5):
            return _jockey_bet(player, mine.limit, rng)
        held = {c for p in view.players for c in game.hand(p)}
        free = [c for c in game.options.deck.by_id if c not in held and c not in board.pile]
        keepable = [c for c in mine.leftover if c not in held]
        kept = tuple(rng.sample(keepable, min(len(keepable), rng.randint(0, 2))))
        free = [c for c in free if c not in kept]
        count = mine.owed - len(kept)
        return Hand(player, tuple(rng.sample(free, count)), kept)
    if board.hands:
        playable = binding.private(view.turn or "").playable
        return PlayCard(rng.choice(playable), view.turn if rng.random() < 0.5 else None)
    unplayed = [c for c in game.options.deck.by_id if c not in board.pile]
    return PlayCard(rng.choice(unplayed), view.turn if rng.random() < 0.5 else None)


BINDING = JockeyBinding
