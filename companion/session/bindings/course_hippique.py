"""The session's binding to Course hippique: the croupier's cards and sealed bets in, the race out.

Options of a ``new_game`` entry: ``starting_chips`` (default 100), ``rounds`` (default 1),
``course_length`` (5, 6 or 7) and ``setback`` (``"first"``, ``"all"`` or absent).
A bet stays sealed until the race's first card is turned: until then the table sees who
has bet, and every balance as it stood before the bets (a stake goes to the croupier at
once, so the real balances would give stakes away).

The table's order of a race, kept here for every door alike: the croupier deals the course,
announces the max bet, then each other player with chips bets or passes (a ``pass`` entry,
said aloud, so not sealed), and only then is the first card turned. A journal written before
passes were journaled still replays: the order is checked for new inputs only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.cards import full_deck
from companion.games.course_hippique import (
    GAME,
    HORSES,
    CourseHippiqueBoard,
    CourseHippiqueGame,
    CourseHippiquePrivate,
    CoursePhase,
    CourseStanding,
)
from companion.games.errors import Refusal
from companion.games.text import short
from companion.session.binding import Binding
from companion.session.log import (
    BetEntry,
    DealCard,
    DealCourse,
    LogEntry,
    NextRace,
    PassEntry,
    SetMaxBet,
    TurnCard,
)
from companion.session.offers import NEXT_RACE, NOTHING, Offer, Offers

if TYPE_CHECKING:
    from companion.session.session import Game

_OPEN = (CoursePhase.DEALING, CoursePhase.REDEAL, CoursePhase.BETTING)
_OVER = (CoursePhase.RACE_OVER, CoursePhase.GAME_OVER)
#: The horses in the order of the horse buttons and the odds row: spades first.
_HORSES = tuple(h.letter for h in HORSES)
#: The largest max bet the croupier may announce (more chips than a table holds).
MOST_MAX_BET = 9999


class CourseHippiqueBinding(Binding):
    """A game of Course hippique driven by table-log entries."""

    KIND = "course_hippique"

    def __init__(self, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.game = CourseHippiqueGame.new(players, dict(options))
        #: The players who passed this race, in the order they did.
        self.passed: tuple[str, ...] = ()
        #: The max bet set last this game (the dials and pads start there).
        self.last_max_bet: int | None = None

    def apply(self, entry: LogEntry) -> None:
        """Forward one input to the game (Refusal comes from the engine)."""
        g = self.game
        if isinstance(entry, PassEntry):
            self._pass(entry.player)
        elif isinstance(entry, DealCard):
            g.deal_course_card(entry.card)
        elif isinstance(entry, DealCourse):
            g.deal_course(list(entry.cards))
        elif isinstance(entry, SetMaxBet):
            g.set_max_bet(entry.amount)
            self.last_max_bet = entry.amount
        elif isinstance(entry, BetEntry):
            if entry.kind != "win" or entry.horse2 is not None or entry.stake2 is not None:
                raise Refusal("unknown_bet", "Here a bet is one horse to win.")
            self._not_passed(entry.player)
            g.place_bet(entry.player, entry.horse, entry.stake)
        elif isinstance(entry, TurnCard):
            g.turn_card(entry.card)
        elif isinstance(entry, NextRace):
            g.next_race()
            self.passed = ()
        else:
            raise Refusal("wrong_game", "Not an input of Course hippique.")

    def _pass(self, player: str) -> None:
        """``player`` places no bet this race: taken on the terms of a bet, once."""
        self.game.check_bettor(player)
        self._not_passed(player)
        self.passed += (player,)

    def _not_passed(self, player: str) -> None:
        """Refuse a bet or a pass from a player who passed this race (an undo takes it back)."""
        if player in self.passed:
            raise Refusal(
                "already_passed", "{player} has already passed this race.", player=short(player, 12)
            )

    def bettors(self) -> tuple[str, ...]:
        """The players still to bet or pass this race, in betting order (the players after
        the croupier, round the table; a player without chips has nothing to bet)."""
        g = self.game
        if g.phase is not CoursePhase.BETTING or g.max_bet is None:
            return ()
        seat = g.players.index(g.croupier)
        order = g.players[seat + 1 :] + g.players[:seat]
        balances = self.public_balances()
        return tuple(
            p for p in order if g.bet_of(p) is None and p not in self.passed and balances[p] >= 1
        )

    def order(self, entry: LogEntry) -> None:
        """A card is turned once the max bet is set and every bettor has bet or passed."""
        g = self.game
        if not isinstance(entry, TurnCard) or g.phase is not CoursePhase.BETTING:
            return
        if g.max_bet is None:
            raise Refusal("no_max_bet", "The croupier has not announced the max bet yet.")
        pending = self.bettors()
        if pending:
            raise Refusal(
                "bets_open", "Bets first: {player} to bet or pass.", player=short(pending[0], 12)
            )

    def offers(self) -> Offers:
        """The croupier's cards and max bet, each bettor's bet or pass, the next race."""
        g = self.game
        croupier = g.croupier
        phase = g.phase
        if phase is CoursePhase.GAME_OVER:
            return NOTHING
        if phase is CoursePhase.RACE_OVER:
            return NEXT_RACE
        if phase in (CoursePhase.DEALING, CoursePhase.REDEAL):
            deal = (Offer("deal_card", croupier), Offer("deal_course", croupier))
            return Offers.of(deal, [croupier])
        if phase is CoursePhase.RACING:
            return Offers.of([Offer("turn_card", croupier)], [croupier])
        max_bet = Offer("set_max_bet", croupier, least=1, most=MOST_MAX_BET)
        if g.max_bet is None:
            return Offers.of([max_bet], [croupier])
        pending = self.bettors()
        if not pending:
            return Offers.of([max_bet, Offer("turn_card", croupier)], [croupier])
        balances = self.public_balances()
        bets = [
            o
            for p in pending
            for o in (
                Offer("bet", p, _HORSES, 1, min(g.max_bet, balances[p])),
                Offer("pass", p),
            )
        ]
        return Offers.of([max_bet, *bets], pending)

    def turn(self) -> str | None:
        """The croupier, who deals, sets the maximum and turns the cards (None between races)."""
        return None if self.game.phase in _OVER else self.game.croupier

    def phase(self) -> CoursePhase:
        """``dealing``, ``redeal``, ``betting``, ``racing``, ``race_over`` or ``game_over``."""
        return self.game.phase

    def race(self) -> int:
        """The race number, from 1."""
        return self.game.race_number

    def _sealed_bets(self) -> bool:
        return self.game.phase in _OPEN

    def sealed(self) -> tuple[str, ...]:
        """The players whose bet is placed but not yet shown (before the first card)."""
        if not self._sealed_bets():
            return ()
        return tuple(b.player for b in self.game.bets)

    def waiting_for(self) -> tuple[str, ...]:
        """The players still to bet or pass before the first card, in betting order."""
        return self.bettors()

    def finished(self) -> bool:
        """Whether the last race has a winner."""
        return self.game.phase is CoursePhase.GAME_OVER

    def winners(self) -> tuple[str, ...]:
        """The players with the most chips once the game is over."""
        return self.game.winners()

    def public_balances(self) -> dict[str, int]:
        """Every balance as the table may see it: stakes of sealed bets not yet moved."""
        g = self.game
        shown = g.balances()
        if self._sealed_bets():
            for bet in g.bets:
                shown[bet.player] += bet.stake
                shown[g.croupier] -= bet.stake
        return shown

    def board(self) -> CourseHippiqueBoard:
        """Croupier, course, odds, maximum bet, horses, cards turned, balances, results."""
        g = self.game
        balances = self.public_balances()
        return CourseHippiqueBoard(
            players=g.players,
            croupier=g.croupier,
            races=g.races_total,
            course=g.course_rows,
            odds=g.odds(),
            max_bet=g.max_bet,
            last_max_bet=self.last_max_bet,
            positions=g.positions(),
            finish=g.finish,
            pending_row=g.pending_row,
            turned=g.turned,
            cards_left=g.cards_left,
            winner=g.winner,
            bets=() if self._sealed_bets() else g.bets,
            balances=balances,
            ranking=_ranking(balances),
            results=g.results,
        )

    def private(self, player: str) -> CourseHippiquePrivate:
        """The player's own bet this race and their balance less their own sealed stake.

        Stakes of sealed bets are counted as the public balances count them (not moved yet):
        a croupier shown the stakes coming in would learn other players' sealed bets.
        """
        bet = self.game.bet_of(player)
        balance = self.public_balances()[player]
        if bet is not None and self._sealed_bets():
            balance -= bet.stake
        return CourseHippiquePrivate(bet, balance)

    def engine_state(self) -> Any:
        """The game's saved form (players, options, every input, a summary)."""
        return self.game.to_dict()


#: The max bet a croupier's dial and pad start on before any is set this game.
FIRST_MAX_BET = 10


def max_bet_start(board: CourseHippiqueBoard) -> int:
    """The max bet the croupier's dial and pad start on: the last one set this game (where
    the previous croupier left it), else 10. The LCD and the phones read it here alike."""
    return board.last_max_bet or FIRST_MAX_BET


def stake_start(board: CourseHippiqueBoard, player: str) -> int:
    """The stake ``player``'s dial and pad start on: their last stake this game (else 1),
    lowered to what they may stake now (the max bet, their chips), never under 1. The LCD
    and the phones read it here alike."""
    stakes = [b.stake for r in board.results for b in r.bets if b.player == player]
    most = min(board.max_bet or 0, board.balances.get(player, 0))
    return max(1, min(stakes[-1] if stakes else 1, most))


def _ranking(balances: Mapping[str, int]) -> tuple[CourseStanding, ...]:
    chips = list(balances.values())
    ordered = sorted(balances.items(), key=lambda pc: -pc[1])
    return tuple(
        CourseStanding(place=1 + sum(c > amount for c in chips), player=p, chips=amount)
        for p, amount in ordered
    )


#: The players and options autoplay starts a game with.
SET_UP: tuple[tuple[str, ...], dict[str, Any]] = (("Anna", "Bob", "Chloé"), {"rounds": 2})


_PACK = tuple(c.code for c in full_deck() if not c.is_ace)


def _balance(table: Game, player: str) -> int:
    mine = table.binding.private(player)
    assert isinstance(mine, CourseHippiquePrivate)
    return mine.balance


def random_input(table: Game, rng: random.Random) -> LogEntry | None:
    """Draw an input the game accepts now (for autoplay), or None when it is over."""
    view = table.view(None)
    board = view.board
    assert isinstance(board, CourseHippiqueBoard)
    turned = {c.code for c in board.turned}
    seen = {c.code for c in board.course if c} | turned
    unseen = [c for c in _PACK if c not in seen]
    croupier = board.croupier
    if view.phase in ("dealing", "redeal"):
        if view.phase == "redeal":
            unseen = [c for c in _PACK if c not in turned]
        if rng.random() < 0.5:
            return DealCard(rng.choice(unseen), croupier)
        missing = len(board.course) if view.phase == "redeal" else board.course.count(None)
        return DealCourse(tuple(rng.sample(unseen, missing)), croupier)
    if view.phase == "betting":
        if board.max_bet is None or rng.random() < 0.05:
            return SetMaxBet(rng.randint(1, 20), croupier)
        bettors = view.waiting_for
        if not bettors:
            return TurnCard(rng.choice(unseen), croupier)
        player = rng.choice(bettors)
        if rng.random() < 0.3:
            return PassEntry(player)
        most = min(board.max_bet, _balance(table, player))
        horse = rng.choice(GAME.horses)
        return BetEntry(player, horse, rng.randint(1, most))
    if view.phase == "racing":
        return TurnCard(rng.choice(unseen), croupier if rng.random() < 0.5 else None)
    if view.phase == "race_over":
        return NextRace()
    return None


BINDING = CourseHippiqueBinding
