"""Course hippique: the rules as pure steps from one table state to the next, or a Refusal."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.games.cards import Card, Suit
from companion.games.course_hippique.odds import (
    RaceChances,
    announced_odds,
    estimated_chances,
    exact_chances,
)
from companion.games.course_hippique.table import (
    CourseBet,
    CoursePhase,
    CourseRaceResult,
    HippiqueOptions,
    Turn,
)
from companion.games.course_hippique.track import CARDS_PER_SUIT, HORSES, CourseTrack
from companion.games.errors import Refusal
from companion.games.text import short

#: A course row with this many cards of one suit is dealt again.
REDEAL_AT = 5


@dataclass(frozen=True)
class CourseState:
    """Everything that changes during a game, as one immutable value."""

    #: The current race, counted from 0.
    race: int
    #: Chips per seat.
    balances: tuple[int, ...]
    track: CourseTrack
    #: The face-up course as dealt; in the setback variant, the rows turned so far.
    course: tuple[Card, ...] = ()
    max_bet: int | None = None
    bets: tuple[CourseBet, ...] = ()
    #: Every card turned in this race, in order (setback: the course rows included).
    turned: tuple[Card, ...] = ()
    results: tuple[CourseRaceResult, ...] = ()


@dataclass(frozen=True)
class Rules:
    """The rules for one table: its players (in seat order) and options.

    Each step takes a state and returns the next one, or raises Refusal and changes nothing.
    """

    players: tuple[str, ...]
    options: HippiqueOptions

    @property
    def races_total(self) -> int:
        """How many races the game lasts: one per player per round."""
        return self.options.rounds * len(self.players)

    def start(self) -> CourseState:
        """The state before the first course card."""
        chips = (self.options.starting_chips,) * len(self.players)
        return CourseState(race=0, balances=chips, track=self.fresh_track())

    def fresh_track(self) -> CourseTrack:
        """Four horses on the start line."""
        return CourseTrack(self.options.course_length, self.options.setback)

    def croupier_seat(self, state: CourseState) -> int:
        """The seat keeping the book: the first player in race 1, then the next, and so on."""
        return state.race % len(self.players)

    def phase(self, state: CourseState) -> CoursePhase:
        """What the table is expected to do next."""
        if len(state.results) == self.races_total:
            return CoursePhase.GAME_OVER
        if state.track.winner is not None:
            return CoursePhase.RACE_OVER
        if state.turned:
            return CoursePhase.RACING
        if self.options.setback is not None:
            return CoursePhase.BETTING
        if len(state.course) < self.options.course_length:
            return CoursePhase.DEALING
        if max(counts(state.course).values()) >= REDEAL_AT:
            return CoursePhase.REDEAL
        return CoursePhase.BETTING

    def odds(self, state: CourseState) -> dict[Suit, int | None]:
        """Announced odds per horse (None with 5 or more in the row); setback: all 1 to 1."""
        if self.options.setback is not None:
            return dict.fromkeys(HORSES, 1)
        return {h: announced_odds(n) for h, n in counts(state.course).items()}

    def seat(self, player: str) -> int:
        """Find a player by name (case and surrounding spaces ignored).

        Raises Refusal ``unknown_player``.
        """
        if isinstance(player, str):
            wanted = player.strip().casefold()
            for seat, name in enumerate(self.players):
                if name.casefold() == wanted:
                    return seat
        raise Refusal(
            "unknown_player", '"{player}" is not playing here.', player=short(str(player), 14)
        )

    # ----------------------------------------------------------------- steps

    def deal(self, state: CourseState, card: Card) -> CourseState:
        """Add one face-up course card; in REDEAL it starts a new row."""
        phase = self.phase(state)
        _refuse_if_over(phase)
        if self.options.setback is not None:
            raise Refusal("course_face_down", "Setback: the course lies face down, unscanned.")
        if phase is CoursePhase.RACING:
            raise Refusal("betting_closed", "The race is on: the course cannot change.")
        if phase is CoursePhase.BETTING:
            length = self.options.course_length
            raise Refusal(
                "course_complete", "The course already has its {count} cards.", count=length
            )
        course = () if phase is CoursePhase.REDEAL else state.course
        if card.is_ace:
            raise Refusal("ace_in_course", "Aces are the horses: an ace never goes in the course.")
        if card in course:
            raise Refusal("card_seen", "The {card} is already in the course.", card=card.english)
        return replace(state, course=(*course, card))

    def set_max_bet(self, state: CourseState, amount: int) -> CourseState:
        """Announce or change the maximum stake."""
        self._betting_open(state)
        if not whole(amount) or amount < 1:
            raise Refusal("max_bet_not_positive", "The max bet is a whole number of chips.")
        return replace(state, max_bet=amount)

    def may_bet(self, state: CourseState, player: str) -> int:
        """Return the seat of ``player`` if they may bet now (before the stake is looked at);
        raises the refusal a bet of theirs would get. A pass is taken on the same terms."""
        self._betting_open(state)
        seat = self.seat(player)
        name = self.players[seat]
        if seat == self.croupier_seat(state):
            raise Refusal(
                "croupier_cannot_bet",
                "{player} is the croupier and cannot bet.",
                player=short(name, 12),
            )
        if any(b.player == name for b in state.bets):
            raise Refusal(
                "already_bet", "{player} has already bet on this race.", player=short(name, 12)
            )
        if state.max_bet is None:
            raise Refusal("no_max_bet", "The croupier has not announced the max bet yet.")
        return seat

    def bet(self, state: CourseState, player: str, horse: Suit, stake: int) -> CourseState:
        """Record a bet; the stake moves from the player to the croupier."""
        seat = self.may_bet(state, player)
        name = self.players[seat]
        croupier = self.croupier_seat(state)
        assert state.max_bet is not None
        if not whole(stake):
            raise Refusal("stake_not_whole", "A stake is a whole number of chips.")
        if stake < 1:
            raise Refusal("stake_not_positive", "A stake is at least 1 chip.")
        if stake > state.max_bet:
            raise Refusal("stake_over_max", "The max bet is {count} chips.", count=state.max_bet)
        held = state.balances[seat]
        if stake > held:
            raise Refusal(
                "stake_over_chips",
                "{player} holds only {count} chips.",
                player=short(name, 12),
                count=held,
            )
        odds = self.odds(state)[horse]
        assert odds is not None, "betting opens only on a course without 5 of a suit"
        balances = list(state.balances)
        balances[seat] -= stake
        balances[croupier] += stake
        bet = CourseBet(name, horse, stake, odds)
        return replace(state, bets=(*state.bets, bet), balances=tuple(balances))

    def turn(self, state: CourseState, card: Card) -> tuple[CourseState, Turn]:
        """Turn one card: move its horse, or (setback) push it back; pay out on a win."""
        phase = self.phase(state)
        _refuse_if_over(phase)
        if phase is CoursePhase.DEALING:
            raise self._no_course(state)
        if phase is CoursePhase.REDEAL:
            raise self._redeal(state)
        if card.is_ace:
            raise Refusal("ace_in_race", "Aces are the horses: an ace is never turned.")
        if card in state.course and self.options.setback is None:
            raise Refusal("card_seen", "The {card} is in the course.", card=card.english)
        if card in state.turned:
            raise Refusal(
                "card_seen", "The {card} was already turned this race.", card=card.english
            )
        row = state.track.pending_row
        track = state.track.step(card.suit)
        course = state.course if row is None else (*state.course, card)
        new = replace(state, track=track, course=course, turned=(*state.turned, card))
        if track.winner is not None:
            new = self._settle(new, track.winner)
        return new, Turn(card, card.suit, row, track.position(card.suit), track.winner)

    def next_race(self, state: CourseState) -> CourseState:
        """Clear the course, bets and track; the next seat keeps the book."""
        phase = self.phase(state)
        if phase is CoursePhase.GAME_OVER:
            raise Refusal("game_over", "The game is over.")
        if phase is not CoursePhase.RACE_OVER:
            raise Refusal("race_not_over", "This race has no winner yet.")
        return CourseState(
            race=state.race + 1,
            balances=state.balances,
            track=self.fresh_track(),
            results=state.results,
        )

    def chances(self, state: CourseState, samples: int, seed: int) -> RaceChances:
        """Each horse's chance from here: exact, or (setback) a seeded estimate."""
        phase = self.phase(state)
        if phase is CoursePhase.DEALING:
            raise self._no_course(state)
        if phase is CoursePhase.REDEAL:
            raise self._redeal(state)
        odds = {h: o or 0 for h, o in self.odds(state).items()}
        in_course = counts(state.course)
        turned = counts(state.turned)
        if self.options.setback is not None:
            unseen = {h: CARDS_PER_SUIT - turned[h] for h in HORSES}
            rng = random.Random(seed)
            return estimated_chances(state.track, unseen, in_course, odds, rng, samples)
        left = {h: CARDS_PER_SUIT - in_course[h] - turned[h] for h in HORSES}
        return exact_chances(state.track, left, in_course, odds)

    # ----------------------------------------------------------------- helpers

    def _settle(self, state: CourseState, winner: Suit) -> CourseState:
        """Pay the winning bets from the croupier's chips and record the race."""
        croupier = self.croupier_seat(state)
        balances = list(state.balances)
        for bet in state.bets:
            if bet.horse is winner:
                balances[self.players.index(bet.player)] += bet.payout
                balances[croupier] -= bet.payout
        result = CourseRaceResult(
            number=state.race + 1,
            croupier=self.players[croupier],
            course=state.course,
            winner=winner,
            bets=state.bets,
            cards_turned=len(state.turned),
        )
        return replace(state, balances=tuple(balances), results=(*state.results, result))

    def _betting_open(self, state: CourseState) -> None:
        phase = self.phase(state)
        _refuse_if_over(phase)
        if phase is CoursePhase.RACING:
            raise Refusal("betting_closed", "Bets are closed: the first card is turned.")
        if phase is CoursePhase.DEALING:
            raise self._no_course(state)
        if phase is CoursePhase.REDEAL:
            raise self._redeal(state)

    def _no_course(self, state: CourseState) -> Refusal:
        to_go = self.options.course_length - len(state.course)
        return Refusal("no_course", "Deal the course first: {count} more cards.", count=to_go)

    def _redeal(self, state: CourseState) -> Refusal:
        in_course = counts(state.course)
        suit = max(HORSES, key=lambda h: in_course[h])
        return Refusal(
            "redeal_required",
            "{count} {suit} in the course: shuffle and deal a new course.",
            count=in_course[suit],
            suit=suit.english,
        )


def _refuse_if_over(phase: CoursePhase) -> None:
    if phase is CoursePhase.GAME_OVER:
        raise Refusal("game_over", "The game is over.")
    if phase is CoursePhase.RACE_OVER:
        raise Refusal("race_over", "The race is over: start the next race.")


def counts(cards: Sequence[Card]) -> dict[Suit, int]:
    """Count ``cards`` per suit (every horse listed, zero included)."""
    found = dict.fromkeys(HORSES, 0)
    for card in cards:
        found[card.suit] += 1
    return found


def whole(value: object) -> bool:
    """Tell whether ``value`` is a whole number (and not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)
