"""A Jockey game's options and state as values, and their saved (JSON-ready) form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from companion.games.errors import DataError, Refusal
from companion.games.jockey.bets import JockeyBet, JockeyRaceResult, Ledger
from companion.games.jockey.deck import DECK_SIZE, Deck, deck_from_data, default_deck
from companion.games.jockey.race import TRACK_LENGTH, CardEffect, Race

#: Cards dealt to each player at the start of a race, by number of players.
HAND_SIZES = {2: 15, 3: 12, 4: 10, 5: 9, 6: 9}

#: A game is this many races.
RACES = 3

#: Unplayed cards a player may keep for the next race.
KEEP_LIMIT = 2

#: Cards each player receives when every hand has run out before the race ends.
REDEAL = 2

#: The version of the saved form written by ``state_to_data``.
SAVE_VERSION = 1

T = TypeVar("T")


class JockeyPhase(StrEnum):
    """Where the game stands."""

    BETTING = "betting"  # before the race's first card: bets (and hands) go in
    RACING = "racing"
    RACE_OVER = "race_over"  # settled; the next race has not started
    GAME_OVER = "game_over"  # the third race is settled


@dataclass(frozen=True)
class JockeyOptions:
    """How this table plays: the last square, whether hands are tracked, and the deck."""

    track_length: int = TRACK_LENGTH
    hands: bool = False
    deck: Deck = field(default_factory=default_deck)

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> JockeyOptions:
        """Read options from a mapping: ``track_length``, ``hands``, ``deck``.

        ``deck`` is the mapping a deck file holds. Raises DataError on an unknown key or
        a bad value.
        """
        unknown = sorted(set(data) - {"track_length", "hands", "deck"})
        if unknown:
            raise DataError(f"jockey options: unknown option {unknown[0]!r}")
        track = data.get("track_length", TRACK_LENGTH)
        if type(track) is not int or track < 1:
            raise DataError(f"jockey options: track_length must be at least 1, not {track!r}")
        hands = data.get("hands", False)
        if type(hands) is not bool:
            raise DataError(f"jockey options: hands must be true or false, not {hands!r}")
        deck = data.get("deck")
        if deck is None:
            return cls(track, hands)
        if not isinstance(deck, Mapping):
            raise DataError("jockey options: deck must be the mapping of a deck file")
        return cls(track, hands, deck_from_data(deck, "jockey options: deck"))

    def to_data(self) -> dict[str, object]:
        """Return the options as plain JSON-ready data (the deck in full)."""
        return {"track_length": self.track_length, "hands": self.hands, "deck": self.deck.to_data()}


@dataclass(frozen=True, slots=True)
class JockeyState:
    """Everything a Jockey game holds at one moment; a value, so undo keeps old ones.

    Per-player tuples follow the seating order. ``pile`` is this race's played pile,
    bottom first. ``left`` counts the cards still to be played before every hand has run
    out (counted even when hands are not tracked). When hands are tracked: ``hands`` holds
    each player's cards, ``owed`` the cards each is still to be dealt, and ``leftover`` each
    player's unplayed cards from the previous race (the ones they may keep).
    """

    number: int
    race: Race
    ledger: Ledger
    plays: int
    pile: tuple[str, ...]
    left: int
    hands: tuple[frozenset[str], ...]
    owed: tuple[int, ...]
    leftover: tuple[frozenset[str], ...]
    effect: CardEffect | None
    results: tuple[JockeyRaceResult, ...]

    @property
    def phase(self) -> JockeyPhase:
        """Return where the game stands."""
        if self.race.over:
            return JockeyPhase.GAME_OVER if self.number == RACES else JockeyPhase.RACE_OVER
        return JockeyPhase.RACING if self.plays else JockeyPhase.BETTING

    @property
    def seat(self) -> int:
        """Return the seat whose turn it is (the race's starter before its first card)."""
        return (self.number - 1 + self.plays) % len(self.ledger.players)


def opening_state(players: tuple[str, ...], options: JockeyOptions) -> JockeyState:
    """Return the state before race 1: horses on the start, 1000 each, nobody has bet."""
    count = len(players)
    empty = (frozenset[str](),) * count
    return JockeyState(
        number=1,
        race=Race(options.track_length),
        ledger=Ledger.opening(players),
        plays=0,
        pile=(),
        left=count * HAND_SIZES[count],
        hands=empty,
        owed=(HAND_SIZES[count] if options.hands else 0,) * count,
        leftover=empty,
        effect=None,
        results=(),
    )


def with_item(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """Return ``items`` with the one at ``index`` replaced by ``value``."""
    return (*items[:index], value, *items[index + 1 :])


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """Return the seating order (oldest player first) with names trimmed.

    Raises Refusal ``player_count``, ``bad_player_name`` or ``player_named_twice``.
    """
    if isinstance(players, str) or not 2 <= len(players) <= 6:
        raise Refusal("player_count", "Jockey is for 2 to 6 players.")
    names = tuple(str(p).strip() for p in players)
    if not all(names):
        raise Refusal("bad_player_name", "Every player needs a name.")
    if len({n.casefold() for n in names}) != len(names):
        raise Refusal("player_named_twice", "Every player needs a different name.")
    return names


def state_to_data(
    players: tuple[str, ...], options: JockeyOptions, state: JockeyState
) -> dict[str, object]:
    """Return a whole game (players, options, state) as plain JSON-ready data."""

    def per_player(values: Sequence[object]) -> dict[str, object]:
        return dict(zip(players, values, strict=True))

    return {
        "game": "jockey",
        "version": SAVE_VERSION,
        "players": list(players),
        "options": options.to_data(),
        "race_number": state.number,
        "race": state.race.to_data(),
        "balances": per_player(state.ledger.balances),
        "bets": per_player([None if b is None else b.to_data() for b in state.ledger.bets]),
        "plays": state.plays,
        "pile": list(state.pile),
        "left": state.left,
        "hands": per_player([sorted(h) for h in state.hands]),
        "owed": per_player(state.owed),
        "leftover": per_player([sorted(h) for h in state.leftover]),
        "last_effect": None if state.effect is None else state.effect.to_data(),
        "results": [r.to_data() for r in state.results],
    }


def _whole(value: object, what: str, low: int = 0) -> int:
    if type(value) is not int or value < low:
        raise DataError(f"saved game: {what} must be a whole number of at least {low}")
    return value


def _balance(value: object) -> int:
    if type(value) is not int or value % 100:
        raise DataError("saved game: a balance must be a whole number of hundreds")
    return value


def _per_player(data: Mapping[str, object], key: str, players: tuple[str, ...]) -> list[object]:
    values = data[key]
    if not isinstance(values, Mapping) or set(values) != set(players):
        raise DataError(f"saved game: {key} must name every player once")
    return [values[p] for p in players]


def _cards(value: object, deck: Deck, what: str, once: bool = True) -> tuple[str, ...]:
    """Card ids of the deck; each at most ``once`` (a pile of copies from hands may not be)."""
    if not isinstance(value, list):
        raise DataError(f"saved game: {what} must be a list of card ids")
    ids = tuple(str(card) for card in value)
    for card in ids:
        if card not in deck.by_id:
            raise DataError(f"saved game: {what} holds an unknown card {card!r}")
    if once and len(set(ids)) != len(ids):
        raise DataError(f"saved game: {what} holds a card twice")
    return ids


def state_from_data(data: object) -> tuple[tuple[str, ...], JockeyOptions, JockeyState]:
    """Rebuild players, options and state from ``state_to_data`` output.

    Raises DataError, naming the key, when the data is not a saved Jockey game or does not
    hold together (unknown cards, a card in two places, figures out of range...).
    """
    try:
        if not isinstance(data, Mapping) or data.get("game") != "jockey":
            raise DataError("saved game: not a saved Jockey game")
        if data.get("version") != SAVE_VERSION:
            raise DataError(f"saved game: version {data.get('version')!r} is not {SAVE_VERSION}")
        raw_players, raw_options = data["players"], data["options"]
        if not isinstance(raw_players, list) or not isinstance(raw_options, Mapping):
            raise DataError("saved game: players must be a list and options a mapping")
        players = check_players([str(p) for p in raw_players])
        options = JockeyOptions.from_data(raw_options)
        deck = options.deck
        race = data["race"]
        if not isinstance(race, Mapping):
            raise DataError("saved game: race must be a mapping")
        bets = [
            None if b is None else JockeyBet.from_data(b)
            for b in _per_player(data, "bets", players)
        ]
        balances = [_balance(b) for b in _per_player(data, "balances", players)]
        hands = [frozenset(_cards(h, deck, "a hand")) for h in _per_player(data, "hands", players)]
        leftover = [
            frozenset(_cards(h, deck, "a leftover")) for h in _per_player(data, "leftover", players)
        ]
        owed = [_whole(n, "owed cards") for n in _per_player(data, "owed", players)]
        effect = data["last_effect"]
        results = data["results"]
        if not isinstance(results, list) or not (effect is None or isinstance(effect, Mapping)):
            raise DataError("saved game: results must be a list and last_effect a mapping")
        state = JockeyState(
            number=_whole(data["race_number"], "race_number", 1),
            race=Race.from_data(race),
            ledger=Ledger(players, tuple(balances), tuple(bets)),
            plays=_whole(data["plays"], "plays"),
            pile=_cards(data["pile"], deck, "the pile", once=not options.hands),
            left=_whole(data["left"], "left"),
            hands=tuple(hands),
            owed=tuple(owed),
            leftover=tuple(leftover),
            effect=None if effect is None else CardEffect.from_data(effect),
            results=tuple(JockeyRaceResult.from_data(r) for r in results),
        )
    except KeyError as error:
        raise DataError(f"saved game: missing {error}") from None
    except Refusal as refusal:
        raise DataError(f"saved game: {refusal.sentence}") from None
    _check_state(players, options, state)
    return players, options, state


def _check_state(players: tuple[str, ...], options: JockeyOptions, state: JockeyState) -> None:
    """Raise DataError when a loaded state cannot have come from play."""
    problems = []
    if state.number > RACES:
        problems.append(f"race_number is past {RACES}")
    if state.race.track_length != options.track_length:
        problems.append("the race's track length differs from the options")
    settled = state.number if state.race.over else state.number - 1
    if len(state.results) != settled:
        problems.append(f"{len(state.results)} results for {settled} settled races")
    if state.race.over and any(state.ledger.bets):
        problems.append("bets are still open on a settled race")
    if state.plays and not all(state.ledger.bets) and not state.race.over:
        problems.append("cards were played before every bet was in")
    places: list[str] = [*state.pile]
    for hand in state.hands:
        places += hand
    # With hands counted on the phones a copy number is bookkeeping: two hands may name it.
    twice = len(set(places)) != len(places) and not options.hands
    if twice or len(places) > DECK_SIZE:
        problems.append("a card is in two places at once")
    if not options.hands and (any(state.hands) or any(state.owed) or any(state.leftover)):
        problems.append("hands are recorded but the table does not track them")
    if problems:
        raise DataError(f"saved game: {problems[0]}")
