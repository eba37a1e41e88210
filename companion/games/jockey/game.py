"""Jockey at the table: three races, turn order, hands, bets and balances, and saving.

``JockeyGame`` is the object the table session drives: one method per table input
(``bet``, ``deal``, ``play``, ``next_race``), each checking everything and raising
``Refusal`` before it changes anything, and read-only properties for the view. Undo is the
session's: it replays the table log without the input taken back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.games.errors import N_, DataError, Refusal, fits_display
from companion.games.jockey.bets import JockeyBet, JockeyRaceResult, JockeyStanding, Markers, rank
from companion.games.jockey.deck import DECK_SIZE, HORSES, JockeyCard, JockeyHorse
from companion.games.jockey.race import CardEffect, Place, Race
from companion.games.jockey.state import (
    HAND_SIZES,
    KEEP_LIMIT,
    REDEAL,
    JockeyOptions,
    JockeyPhase,
    JockeyState,
    check_players,
    opening_state,
    state_from_data,
    state_to_data,
    with_item,
)

_GAME_OVER = ("game_over", N_("The game is over after three races."))
_RACE_OVER = ("race_over", N_("The race is over: start the next race."))


def _refusal(code: str, template: str, fallback: str, **params: str | int) -> Refusal:
    """Build a refusal with ``template``, or ``fallback`` when a long name would overflow."""
    if fits_display(template.format(**params)):
        return Refusal(code, template, None, **params)
    return Refusal(code, fallback)


class JockeyGame:
    """A game of Jockey: three races, every bet and balance, the cards played.

    Inputs refuse with ``Refusal`` and change nothing, or change the game: ``bet``,
    ``deal``, ``play``, ``next_race``. Every other member only reads.
    """

    def __init__(self, players: Sequence[str], options: JockeyOptions, state: JockeyState) -> None:
        """Wrap a known state; ``new`` starts a game."""
        self._players = tuple(players)
        self._options = options
        self._deck = options.deck
        self._deck_order = {card_id: i for i, card_id in enumerate(options.deck.by_id)}
        self._state = state

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        options: JockeyOptions | Mapping[str, object] | None = None,
    ) -> JockeyGame:
        """Start a game; ``players`` in seating order, oldest first (they start race 1).

        ``options`` may be a mapping (``track_length``, ``hands``, ``deck``). Raises Refusal
        ``player_count``, ``bad_player_name`` or ``player_named_twice``, and DataError for
        bad options.
        """
        names = check_players(players)
        if options is None:
            options = JockeyOptions()
        elif not isinstance(options, JockeyOptions):
            options = JockeyOptions.from_data(options)
        return cls(names, options, opening_state(names, options))

    # -- saving --------------------------------------------------------------------------

    def to_json(self) -> str:
        """Return the game as JSON text: players, options with the deck, and the state."""
        return json.dumps(state_to_data(self._players, self._options, self._state), indent=1)

    @classmethod
    def from_json(cls, text: str) -> JockeyGame:
        """Rebuild a game from ``to_json`` output. Raises DataError when it cannot."""
        try:
            data = json.loads(text)
        except ValueError as error:
            raise DataError(f"saved game: not JSON ({error})") from None
        return cls(*state_from_data(data))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JockeyGame):
            return NotImplemented
        return (self._players, self._options, self._state) == (
            other._players,
            other._options,
            other._state,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<JockeyGame race {self._state.number} {self.phase}: {self._state.race}>"

    # -- reading -------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """Return the players in seating order (the first is the oldest)."""
        return self._players

    @property
    def options(self) -> JockeyOptions:
        """Return the table's options."""
        return self._options

    @property
    def state(self) -> JockeyState:
        """Return the current state (a value: it never changes under you)."""
        return self._state

    @property
    def hand_size(self) -> int:
        """Return the number of cards each player holds at the start of a race."""
        return HAND_SIZES[len(self._players)]

    @property
    def phase(self) -> JockeyPhase:
        """Return where the game stands."""
        return self._state.phase

    @property
    def race_number(self) -> int:
        """Return the number of the race being run or just settled (1 to 3)."""
        return self._state.number

    @property
    def starter(self) -> str:
        """Return the player who plays this race's first card."""
        return self._players[(self._state.number - 1) % len(self._players)]

    @property
    def current_player(self) -> str | None:
        """Return whose turn it is to play a card; None once the race is over."""
        return None if self._state.race.over else self._players[self._state.seat]

    @property
    def race(self) -> Race:
        """Return the board of the race being run (or just settled)."""
        return self._state.race

    @property
    def progress(self) -> dict[JockeyHorse, int]:
        """Return each horse's square."""
        return dict(zip(HORSES, self._state.race.progress, strict=True))

    @property
    def standings(self) -> tuple[Place, ...]:
        """Return positions No. 1 to No. 4 with ties (see ``Race.standings``)."""
        return self._state.race.standings()

    @property
    def finish_order(self) -> tuple[JockeyHorse, ...]:
        """Return the horses that have passed the finish, first first."""
        return self._state.race.finish_order

    @property
    def last_effect(self) -> CardEffect | None:
        """Return what this race's last card did (None before its first card)."""
        return self._state.effect

    @property
    def bets_placed(self) -> tuple[str, ...]:
        """Return who has bet in this race (never what), in seating order."""
        ledger = self._state.ledger
        return tuple(p for p, b in zip(ledger.players, ledger.bets, strict=True) if b is not None)

    @property
    def bets_missing(self) -> tuple[str, ...]:
        """Return who still has to bet before this race's first card."""
        return () if self._state.race.over else self._state.ledger.missing()

    @property
    def deals_missing(self) -> tuple[str, ...]:
        """Return who is still owed cards (hands tracked only), in seating order."""
        return tuple(p for p, n in zip(self._players, self._state.owed, strict=True) if n)

    def sealed_bet(self, player: str) -> JockeyBet | None:
        """Return the player's bet for this race: a secret, for that player's eyes only.

        Raises Refusal ``unknown_player``.
        """
        return self._state.ledger.bets[self._seat(player)]

    @property
    def balances(self) -> dict[str, int]:
        """Return each player's balance after the settled races (may be below zero)."""
        ledger = self._state.ledger
        return dict(zip(ledger.players, ledger.balances, strict=True))

    @property
    def markers(self) -> dict[str, Markers]:
        """Return where each player's marker pieces stand on the scoring table."""
        return {p: Markers.of(b) for p, b in self.balances.items()}

    @property
    def results(self) -> tuple[JockeyRaceResult, ...]:
        """Return the settled races, first first, each with every bet revealed."""
        return self._state.results

    @property
    def ranking(self) -> tuple[JockeyStanding, ...]:
        """Return the players ranked by balance; equal balances share a place."""
        ledger = self._state.ledger
        return rank(ledger.players, ledger.balances)

    @property
    def winners(self) -> tuple[str, ...]:
        """Return the players sharing the highest balance once the game is over, else ()."""
        if self.phase is not JockeyPhase.GAME_OVER:
            return ()
        return tuple(s.player for s in self.ranking if s.place == 1)

    @property
    def pile(self) -> tuple[str, ...]:
        """Return this race's played pile, bottom first (cards dealt out again leave it)."""
        return self._state.pile

    @property
    def cards_left(self) -> int:
        """Return how many cards are still to be played before every hand has run out.

        Counted even when hands are not tracked; once hands run out, the 2 cards each now
        owed are counted.
        """
        return self._state.left

    def limit(self, player: str) -> int:
        """Return the most ``player`` may stake in a bet now. Raises Refusal unknown_player."""
        self._seat(player)
        return self._state.ledger.limit(player)

    def hand(self, player: str) -> frozenset[str]:
        """Return the card ids in the player's hand (always empty when hands are off)."""
        return self._state.hands[self._seat(player)]

    def owed(self, player: str) -> int:
        """Return how many cards the player is still to be dealt (0 when hands are off)."""
        return self._state.owed[self._seat(player)]

    def leftover(self, player: str) -> frozenset[str]:
        """Return the unplayed cards of the last race the player may still keep."""
        return self._state.leftover[self._seat(player)]

    def playable(self) -> tuple[str, ...]:
        """Return the cards the current player may play now, in deck order.

        Empty while a bet or a deal is missing and once the race is over. Without hands,
        that is every card not on the played pile.
        """
        s = self._state
        if s.race.over or s.ledger.missing() or any(s.owed):
            return ()
        if self._options.hands:
            return tuple(sorted(s.hands[s.seat], key=self._deck_order.__getitem__))
        played = frozenset(s.pile)
        return tuple([c for c in self._deck.by_id if c not in played])

    # -- inputs --------------------------------------------------------------------------

    def bet(
        self, player: str, kind: str, horses: Sequence[str], stakes: Sequence[int]
    ) -> JockeyBet:
        """Seal ``player``'s bet for this race and return it.

        ``kind`` is ``win``, ``double``, ``place`` or ``order``; ``horses`` and ``stakes``
        as on the betting slip (an order bet: first horse, second horse; a stake each).
        Raises Refusal ``unknown_player``, ``game_over``, ``race_over``,
        ``betting_closed``, ``already_bet``, ``unknown_bet``, ``bet_incomplete``,
        ``unknown_horse``, ``horse_named_twice``, ``stake_under_minimum``,
        ``stake_not_hundreds`` or ``stake_over_limit``.
        """
        seat = self._seat(player)
        self._check_race_open()
        s = self._state
        if s.plays:
            raise Refusal("betting_closed", "Bets closed at this race's first card.")
        if s.ledger.bets[seat] is not None:
            raise Refusal("already_bet", "You have already bet in this race.")
        sealed = JockeyBet.parse(kind, horses, stakes)
        self._commit(replace(s, ledger=s.ledger.with_bet(self._players[seat], sealed)))
        return sealed

    def deal(self, player: str, cards: Sequence[str], kept: Sequence[str] = ()) -> None:
        """Put scanned cards in ``player``'s hand (only when hands are tracked).

        At a race's start each player is owed a full hand; ``kept`` names up to 2 unplayed
        cards of the last race the player keeps (only with the player's first cards of the
        race), and they are owed that many fewer. When every hand has run out, each is owed
        2 more, from the reserve or then the bottom of the played pile. Raises Refusal
        ``hands_off``, ``game_over``, ``race_over``, ``unknown_player``, ``unknown_card``,
        ``no_cards``, ``card_scanned_twice``, ``keep_too_many``, ``keep_too_late``,
        ``card_not_left_over``, ``no_cards_owed``, ``too_many_cards``, ``card_in_a_hand``
        (already in the player's own hand) or ``card_on_pile``.

        A deal is judged by the deck, the played pile and the player's own hand alone, never
        by another player's hand: which refusal a player gets must not tell them what another
        holds. A card's copy number is bookkeeping, so two hands may name the same copy.
        """
        if not self._options.hands:
            raise Refusal("hands_off", "This table does not track hands.")
        self._check_race_open()
        seat = self._seat(player)
        ids = self._card_ids([*kept, *cards])
        s = self._state
        keeping = ids[: len(kept)]
        if len(keeping) > KEEP_LIMIT:
            raise Refusal("keep_too_many", "Keep at most {count} cards.", count=KEEP_LIMIT)
        if keeping and (s.plays or s.hands[seat] or s.owed[seat] != self.hand_size):
            raise Refusal("keep_too_late", "Name kept cards with the first cards dealt.")
        if not set(keeping) <= s.leftover[seat]:
            raise Refusal("card_not_left_over", "Only cards left from the last race are kept.")
        owed = s.owed[seat] - len(keeping)
        if owed <= 0 and len(ids) > len(keeping):
            raise Refusal("no_cards_owed", "That player is owed no cards now.")
        if len(ids) - len(keeping) > owed:
            raise Refusal(
                "too_many_cards", "Too many cards: that player is owed {count}.", count=owed
            )
        if not s.hands[seat].isdisjoint(ids):
            raise Refusal("card_in_a_hand", "That card is already in your hand.")
        if not set(s.pile).isdisjoint(ids):
            raise Refusal("card_on_pile", "That card is still on the played pile.")
        self._commit(
            replace(
                s,
                hands=with_item(s.hands, seat, s.hands[seat] | frozenset(ids)),
                owed=with_item(s.owed, seat, s.owed[seat] - len(ids)),
                leftover=with_item(s.leftover, seat, frozenset[str]()),
            )
        )

    def play(self, card: str, player: str | None = None) -> CardEffect:
        """Play ``card`` (an id such as ``red+7#2``) for ``player``, by default whoever's
        turn it is: move the horse it names and, if that ends the race, settle every bet.

        Returns what the card did. Raises Refusal ``game_over``, ``race_over``,
        ``unknown_card``, ``unknown_player``, ``not_your_turn``, ``bets_missing``,
        ``deal_missing``, ``card_played_twice`` or ``card_not_in_hand``.
        """
        self._check_race_open()
        played = self._deck.card(card)
        s = self._state
        seat = s.seat
        if player is not None and self._seat(player) != seat:
            turn = self._players[seat]
            raise _refusal(
                "not_your_turn",
                N_("It is {player}'s turn."),
                N_("It is not your turn."),
                player=turn,
            )
        missing = s.ledger.missing()
        if missing:
            raise _refusal(
                "bets_missing",
                N_("Waiting for bets from {players}."),
                N_("Every player must bet before the first card."),
                players=", ".join(missing),
            )
        if any(s.owed):
            raise Refusal("deal_missing", "Deal every player's cards first.")
        hands = s.hands
        own = self._options.hands and played.id in hands[seat]
        if played.id in s.pile and not own:  # a copy in one's hand is one's own card
            raise Refusal("card_played_twice", "That card was already played this race.")
        if self._options.hands:
            if played.id not in hands[seat]:
                raise self._not_in_hand(played, player)
            hands = with_item(hands, seat, hands[seat] - {played.id})
        self._commit(self._after_play(s, played, hands))
        assert self._state.effect is not None
        return self._state.effect

    def next_race(self) -> None:
        """Start the next race: the deck reshuffled, the horses on the start, bets open.

        With hands tracked, each player's unplayed cards become their leftover, of which
        they may keep 2 (see ``deal``). Raises Refusal ``race_not_over`` or ``game_over``.
        """
        s = self._state
        if s.phase is JockeyPhase.GAME_OVER:
            raise Refusal(*_GAME_OVER)
        if s.phase is not JockeyPhase.RACE_OVER:
            raise Refusal("race_not_over", "Finish this race first.")
        count = len(self._players)
        empty = (frozenset[str](),) * count
        hands = self._options.hands
        self._commit(
            replace(
                s,
                number=s.number + 1,
                race=Race(self._options.track_length),
                plays=0,
                pile=(),
                left=count * self.hand_size,
                hands=empty,
                owed=(self.hand_size if hands else 0,) * count,
                leftover=s.hands if hands else empty,
                effect=None,
            )
        )

    # -- helpers -------------------------------------------------------------------------

    def _commit(self, state: JockeyState) -> None:
        self._state = state

    def _seat(self, player: str) -> int:
        try:
            return self._players.index(player)
        except ValueError:
            raise Refusal("unknown_player", "No player of that name at this table.") from None

    def _check_race_open(self) -> None:
        phase = self._state.phase
        if phase is JockeyPhase.GAME_OVER:
            raise Refusal(*_GAME_OVER)
        if phase is JockeyPhase.RACE_OVER:
            raise Refusal(*_RACE_OVER)

    def _card_ids(self, cards: Sequence[str]) -> tuple[str, ...]:
        ids = tuple(self._deck.card(c).id for c in cards)
        if not ids:
            raise Refusal("no_cards", "Scan at least one card.")
        if len(set(ids)) != len(ids):
            raise Refusal("card_scanned_twice", "The same card was scanned twice.")
        return ids

    def _not_in_hand(self, card: JockeyCard, player: str | None) -> Refusal:
        held = any(card.id in hand for hand in self._state.hands)
        if held and player is None:  # never say whose: a hand is secret
            return Refusal("not_your_turn", "That card's holder is not on turn.")
        return Refusal("card_not_in_hand", "That card is not in your hand.")

    def _after_play(
        self, s: JockeyState, card: JockeyCard, hands: tuple[frozenset[str], ...]
    ) -> JockeyState:
        race, effect = s.race.apply(card)
        pile = (*s.pile, card.id)
        ledger, results = s.ledger, s.results
        left, owed = s.left - 1, s.owed
        if race.over:
            first, second = race.finish_order[:2]
            ledger, result = ledger.settle(s.number, first, second)
            results = (*results, result)
        elif left == 0:
            # Every hand has run out: 2 more cards each, from the reserve first, then from
            # the bottom of the played pile (the cards dealt out again leave the pile).
            count = len(self._players)
            reserve = DECK_SIZE - len(pile)
            pile = pile[max(0, REDEAL * count - reserve) :]
            left = REDEAL * count
            if self._options.hands:
                owed = (REDEAL,) * count
        return JockeyState(
            s.number,
            race,
            ledger,
            s.plays + 1,
            pile,
            left,
            hands,
            owed,
            s.leftover,
            effect,
            results,
        )
