"""Course hippique: the game a table plays — croupier, course, bets, race, payouts, ranking.

``CourseHippiqueGame`` takes one method call per table input. Every call checks the whole
input against the rules and raises ``Refusal`` before anything changes; the game's state is
an immutable value replaced on each accepted input (undo is the session's, by replay). The
cards are whatever the table scanned: the engine never shuffles.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games.cards import Card, Suit
from companion.games.course_hippique.odds import RaceChances
from companion.games.course_hippique.rules import CourseState, Rules
from companion.games.course_hippique.table import (
    CourseBet,
    CoursePhase,
    CourseRaceResult,
    CourseStanding,
    HippiqueOptions,
    Turn,
)
from companion.games.course_hippique.track import CARDS_PER_SUIT, HORSES, CourseTrack
from companion.games.course_hippique.variants import DEFAULT_SAMPLES, MAX_PLAYERS, MIN_PLAYERS
from companion.games.errors import DataError, GameError, Refusal
from companion.games.text import short

__all__ = ["Action", "CourseHippiqueGame"]

GAME_NAME = "course_hippique"
SAVE_VERSION = 1

#: A recorded table input: plain JSON data, e.g. ``{"do": "turn_card", "card": "7H"}``.
Action = dict[str, Any]


class CourseHippiqueGame:
    """A game of Course hippique at one table, from the first course to the final ranking."""

    def __init__(self, players: tuple[str, ...], options: HippiqueOptions) -> None:
        """Use ``CourseHippiqueGame.new``: it checks the players and the options."""
        self._rules = Rules(players, options)
        self._actions: list[Action] = []
        self._set_state(self._rules.start())

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        options: HippiqueOptions | Mapping[str, object] | None = None,
    ) -> CourseHippiqueGame:
        """Start a game: 3 to 10 players in seat order; the first player is the first croupier.

        Raises Refusal: ``player_count``, ``bad_name``, ``same_name``, ``bad_option``.
        """
        if options is None:
            options = HippiqueOptions()
        elif not isinstance(options, HippiqueOptions):
            options = HippiqueOptions.from_dict(options)
        names: list[str] = []
        for raw in [players] if isinstance(players, str) else players:
            name = raw.strip() if isinstance(raw, str) else ""
            if not name:
                raise Refusal("bad_name", "Every player needs a name.")
            if name.casefold() in (n.casefold() for n in names):
                raise Refusal(
                    "same_name", "Two players are called {player}.", player=short(name, 12)
                )
            names.append(name)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise Refusal("player_count", "Course hippique needs 3 to 10 players.")
        return cls(tuple(names), options)

    # ----------------------------------------------------------------- table inputs

    def deal_course_card(self, card: Card | str) -> None:
        """Record one face-up course card, dealt left to right.

        When the row is complete with 5 or more cards of one suit the phase becomes REDEAL;
        the next course card then starts a new row. Raises Refusal: ``not_a_card``,
        ``ace_in_course``, ``card_seen``, ``course_complete``, ``course_face_down``,
        ``betting_closed``, ``race_over``, ``game_over``.
        """
        dealt = _card(card)
        new = self._rules.deal(self._state, dealt)
        self._commit(new, {"do": "deal_course_card", "card": dealt.code})

    def deal_course(self, cards: Sequence[Card | str] | str) -> None:
        """Record several course cards at once, as one input (one table input).

        ``cards`` may also be one text, e.g. ``"7H,QS,2D"`` (commas or spaces between).
        Same rules and refusals as ``deal_course_card`` for each card, plus ``no_cards``;
        if any card is refused, none is recorded.
        """
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        dealt = [_card(c) for c in cards]
        if not dealt:
            raise Refusal("no_cards", "Scan the course cards.")
        state = self._state
        for card in dealt:
            state = self._rules.deal(state, card)
        self._commit(state, {"do": "deal_course", "cards": [c.code for c in dealt]})

    def set_max_bet(self, amount: int) -> None:
        """Announce (or change) the maximum stake for this race; bets already placed stand.

        Raises Refusal: ``max_bet_not_positive``, ``no_course``, ``redeal_required``,
        ``betting_closed``, ``race_over``, ``game_over``.
        """
        new = self._rules.set_max_bet(self._state, amount)
        self._commit(new, {"do": "set_max_bet", "amount": amount})

    def place_bet(self, player: str, horse: Suit | str, stake: int) -> CourseBet:
        """Record a player's bet; the stake goes to the croupier at once.

        Raises Refusal: ``not_a_horse``, ``unknown_player``, ``croupier_cannot_bet``,
        ``already_bet``, ``no_max_bet``, ``stake_not_whole``, ``stake_not_positive``,
        ``stake_over_max``, ``stake_over_chips``, ``no_course``, ``redeal_required``,
        ``betting_closed``, ``race_over``, ``game_over``.
        """
        chosen = _horse(horse)
        new = self._rules.bet(self._state, player, chosen, stake)
        bet = new.bets[-1]
        action = {"do": "place_bet", "player": bet.player, "horse": chosen.letter, "stake": stake}
        self._commit(new, action)
        return bet

    def check_bettor(self, player: str) -> None:
        """Refuse, as a bet of theirs would be refused, a player who may not bet now (a pass
        is taken on the same terms): ``unknown_player``, ``croupier_cannot_bet``,
        ``already_bet``, ``no_max_bet``, ``no_course``, ``redeal_required``,
        ``betting_closed``, ``race_over``, ``game_over``."""
        self._rules.may_bet(self._state, player)

    def turn_card(self, card: Card | str) -> Turn:
        """Record the next card the croupier turns; it moves (or, setback, pushes back) a horse.

        When a horse finishes, the race stops and the croupier pays the winning bets.
        Raises Refusal: ``not_a_card``, ``ace_in_race``, ``card_seen``, ``no_course``,
        ``redeal_required``, ``race_over``, ``game_over``.
        """
        turned = _card(card)
        new, turn = self._rules.turn(self._state, turned)
        self._commit(new, {"do": "turn_card", "card": turned.code})
        return turn

    def next_race(self) -> None:
        """Start the next race: the next player keeps the book; course, bets and track clear.

        Raises Refusal: ``race_not_over``, ``game_over``.
        """
        self._commit(self._rules.next_race(self._state), {"do": "next_race"})

    def apply(self, action: Mapping[str, Any]) -> object:
        """Apply one recorded input (as in ``actions``); return what its method returns.

        Raises Refusal as the method does, DataError for an input that is not well formed.
        """
        kind = action.get("do")
        handler = self._handlers().get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise DataError(f"unknown action {kind!r}")
        try:
            return handler(action)
        except (KeyError, TypeError, AttributeError) as error:
            raise DataError(f"action {dict(action)!r} is not well formed ({error})") from None

    # ----------------------------------------------------------------- read-only queries

    @property
    def players(self) -> tuple[str, ...]:
        """The players in seat order (the croupier role passes along this order)."""
        return self._rules.players

    @property
    def options(self) -> HippiqueOptions:
        """How this table plays."""
        return self._rules.options

    @property
    def phase(self) -> CoursePhase:
        """What the table is expected to do next."""
        return self._phase

    @property
    def races_total(self) -> int:
        """How many races the game lasts: one per player per round."""
        return self._rules.races_total

    @property
    def race_number(self) -> int:
        """The current race, counted from 1."""
        return self._state.race + 1

    @property
    def croupier(self) -> str:
        """The player who keeps the book in the current race."""
        return self.players[self._rules.croupier_seat(self._state)]

    @property
    def course(self) -> tuple[Card, ...]:
        """The course cards known so far: the face-up row, or (setback) the rows turned."""
        return self._state.course

    @property
    def course_rows(self) -> tuple[Card | None, ...]:
        """One entry per course row: its card once known, None while face down or not dealt."""
        known = self._state.course
        return known + (None,) * (self.options.course_length - len(known))

    def odds(self) -> dict[Suit, int | None]:
        """The announced odds ("N to 1") per horse; None for a suit with 5 or more in the row."""
        return self._rules.odds(self._state)

    @property
    def max_bet(self) -> int | None:
        """The maximum stake the croupier announced for this race, or None."""
        return self._state.max_bet

    @property
    def bets(self) -> tuple[CourseBet, ...]:
        """The bets placed on the current race, in the order they were placed."""
        return self._state.bets

    def bet_of(self, player: str) -> CourseBet | None:
        """Return ``player``'s bet on the current race, or None."""
        name = self.players[self._rules.seat(player)]
        return next((b for b in self._state.bets if b.player == name), None)

    @property
    def turned(self) -> tuple[Card, ...]:
        """Every card turned in the current race, in order (setback: course rows included)."""
        return self._state.turned

    @property
    def track(self) -> CourseTrack:
        """The horses on the track."""
        return self._state.track

    def positions(self) -> dict[Suit, int]:
        """Where each horse stands: 0 on the start line, ``finish`` when it has won."""
        return {h: self._state.track.position(h) for h in HORSES}

    @property
    def finish(self) -> int:
        """The position a horse must reach: the course length plus one."""
        return self._state.track.finish

    @property
    def pending_row(self) -> int | None:
        """Setback: the row whose face-down course card the croupier must turn next."""
        return self._state.track.pending_row

    @property
    def cards_left(self) -> int:
        """Cards still in the croupier's pile (face-down course rows not counted)."""
        rows = self.options.course_length
        if self.options.setback is not None:
            from_deck = len(self._state.turned) - len(self._state.course)
            return 4 * CARDS_PER_SUIT - rows - from_deck
        return 4 * CARDS_PER_SUIT - len(self._state.course) - len(self._state.turned)

    @property
    def winner(self) -> Suit | None:
        """The horse that won the current race, or None while it runs."""
        return self._state.track.winner

    def balances(self) -> dict[str, int]:
        """Every player's chips (a croupier's may be negative: a debt the table sees)."""
        return dict(zip(self.players, self._state.balances, strict=True))

    def balance(self, player: str) -> int:
        """Return ``player``'s chips. Raises Refusal ``unknown_player``."""
        return self._state.balances[self._rules.seat(player)]

    @property
    def results(self) -> tuple[CourseRaceResult, ...]:
        """The finished races, in order."""
        return self._state.results

    def ranking(self) -> tuple[CourseStanding, ...]:
        """Players by chips, most first; equal chips share a place (1, 1, 3...)."""
        chips = self._state.balances
        order = sorted(range(len(chips)), key=lambda seat: -chips[seat])
        return tuple(
            CourseStanding(1 + sum(c > chips[seat] for c in chips), self.players[seat], chips[seat])
            for seat in order
        )

    def winners(self) -> tuple[str, ...]:
        """Once the game is over, the players with the most chips (ties share); else ()."""
        if self.phase is not CoursePhase.GAME_OVER:
            return ()
        return tuple(s.player for s in self.ranking() if s.place == 1)

    def chances(self, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> RaceChances:
        """Each horse's chance of winning the current race from here, next to its odds.

        Exact for the plain game; for the setback variant an estimate from ``samples``
        simulated endings seeded with ``seed`` (``exact`` is False). Raises Refusal
        ``no_course`` or ``redeal_required`` before a usable course is dealt.
        """
        return self.chances_as_now(samples, seed)()

    def chances_as_now(
        self, samples: int = DEFAULT_SAMPLES, seed: int = 0
    ) -> Callable[[], RaceChances]:
        """The work of ``chances`` for the race as it stands now, to run later or on another
        thread: it keeps this moment's state, so inputs taken meanwhile do not change it."""
        rules, state = self._rules, self._state
        return lambda: rules.chances(state, samples, seed)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every accepted input since the start, as plain data (replayable with ``apply``)."""
        return tuple(dict(a) for a in self._actions)

    # ----------------------------------------------------------------- saving

    def to_dict(self) -> dict[str, Any]:
        """Return the whole game as plain JSON data: players, options, every input, a summary."""
        return {
            "game": GAME_NAME,
            "version": SAVE_VERSION,
            "players": list(self.players),
            "options": self.options.to_dict(),
            "actions": [dict(a) for a in self._actions],
            "summary": self._summary(),
        }

    def to_json(self) -> str:
        """Return the whole game as a JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CourseHippiqueGame:
        """Rebuild a game from ``to_dict`` data by replaying its inputs.

        Raises DataError naming the key and the reason when the data cannot be used.
        """
        if not isinstance(data, Mapping):
            raise DataError("saved game: not a JSON object")
        if data.get("game") != GAME_NAME:
            raise DataError(f"saved game: 'game' is {data.get('game')!r}, not {GAME_NAME!r}")
        if data.get("version") != SAVE_VERSION:
            raise DataError(f"saved game: 'version' {data.get('version')!r} is not supported")
        players, options, actions = (
            data.get("players"),
            data.get("options", {}),
            data.get("actions"),
        )
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise DataError("saved game: 'players' must be a list of names")
        if not isinstance(options, Mapping):
            raise DataError("saved game: 'options' must be an object")
        if not isinstance(actions, list):
            raise DataError("saved game: 'actions' must be a list")
        try:
            game = cls.new(players, options)
        except GameError as error:
            raise DataError(f"saved game: 'players'/'options': {error}") from None
        for index, action in enumerate(actions):
            if not isinstance(action, Mapping):
                raise DataError(f"saved game: actions[{index}] is not an object")
            try:
                game.apply(action)
            except GameError as error:
                raise DataError(f"saved game: actions[{index}] {dict(action)}: {error}") from None
        summary = data.get("summary")
        if summary is not None and summary != game._summary():
            raise DataError("saved game: 'summary' does not match what its actions give")
        return game

    @classmethod
    def from_json(cls, text: str) -> CourseHippiqueGame:
        """Rebuild a game from ``to_json`` text. Raises DataError."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise DataError(f"saved game: not JSON ({error})") from None
        return cls.from_dict(data)

    def _commit(self, state: CourseState, action: Action) -> None:
        self._actions.append(action)
        self._set_state(state)

    def _set_state(self, state: CourseState) -> None:
        """Make ``state`` the game's, with its phase (worked out once: every query reads it)."""
        self._state = state
        self._phase = self._rules.phase(state)

    def _summary(self) -> dict[str, Any]:
        return {"phase": self.phase.value, "race": self.race_number, "balances": self.balances()}

    def _handlers(self) -> dict[str, Callable[[Mapping[str, Any]], object]]:
        return {
            "deal_course_card": lambda a: self.deal_course_card(_text(a["card"])),
            "deal_course": lambda a: self.deal_course([_text(c) for c in a["cards"]]),
            "set_max_bet": lambda a: self.set_max_bet(a["amount"]),
            "place_bet": lambda a: self.place_bet(
                _text(a["player"]), _text(a["horse"]), a["stake"]
            ),
            "turn_card": lambda a: self.turn_card(_text(a["card"])),
            "next_race": lambda a: self.next_race(),
        }


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {value!r}")
    return value


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def _horse(horse: Suit | str) -> Suit:
    if isinstance(horse, Suit):
        return horse
    try:
        return Suit.parse(horse) if isinstance(horse, str) else Suit.parse("")
    except Refusal:
        shown = short(str(horse), 10)
        raise Refusal(
            "not_a_horse", '"{text}" is not a horse: say S, H, D or C.', text=shown
        ) from None
