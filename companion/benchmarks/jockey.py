"""How fast the Jockey engine runs random complete races, with and without hands."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from companion.benchmarks import Figure, rate
from companion.devices.base import CardScanned, Event
from companion.games.jockey import HORSES, JockeyGame, Race, default_deck
from companion.session.view import PublicBoard

NAME = "jockey"

#: The session benchmark's game: the most players, with hands (about 150 inputs).
SESSION: tuple[tuple[str, ...], dict[str, Any]] = (tuple("ABCDEF"), {"hands": True})

#: The web benchmark's heaviest page of this game: a hand being counted (the host page's
#: players, options and the page's name).
WEB_PAGE: tuple[tuple[str, ...], dict[str, str], str] = (("A", "B"), {"hands": "true"}, "hand")
#: The glass benchmark's presses once the menu has started the game: none.
GLASS_OPENING: tuple[tuple[str, ...], ...] = ()
#: How often the glass benchmark's random input is a card scanned.
GLASS_SHARE = 0.35
#: The cards the glass benchmark scans: the 54 of the deck, by their number.
GLASS_CARDS = [f"jockey:{n}" for n in range(1, 55)]


def glass_inputs(
    rng: random.Random, board: Callable[[], PublicBoard | None]
) -> Iterator[tuple[str, Event]]:
    """A card of the deck scanned, by a new tag."""
    yield "card", CardScanned(f"{rng.getrandbits(32):08X}", rng.choice(GLASS_CARDS), "reader")


PLAYERS = ("Ann", "Ben", "Cleo", "Dev")


def _bets(game: JockeyGame, rng: random.Random) -> None:
    for player in PLAYERS:
        game.bet(player, "win", [rng.choice(HORSES)], [rng.randrange(1, 11) * 100])


def shuffled_race(rng: random.Random) -> JockeyGame:
    """Run one race without hands: random bets, then the shuffled deck played in turn.

    Once the whole deck is spent (the played pile is dealt out again), the engine's own
    list of playable cards supplies the rest.
    """
    game = JockeyGame.new(PLAYERS)
    _bets(game, rng)
    deck = [c.id for c in game.options.deck.cards]
    rng.shuffle(deck)
    while game.current_player is not None:
        game.play(deck.pop() if deck else rng.choice(game.playable()))
    return game


def dealt_race(rng: random.Random) -> JockeyGame:
    """Run one race with hands tracked: deal shuffled hands, each turn a random card in hand."""
    game = JockeyGame.new(PLAYERS, {"hands": True})
    _bets(game, rng)
    deck = [c.id for c in game.options.deck.cards]
    rng.shuffle(deck)
    size = game.hand_size
    for player in PLAYERS:
        game.deal(player, [deck.pop() for _ in range(size)])
    while game.current_player is not None:
        if any(game.state.owed):
            played = set(game.pile)
            held = set().union(*game.state.hands)
            free = [c for c in game.options.deck.by_id if c not in played and c not in held]
            for player in PLAYERS:
                game.deal(player, [free.pop(), free.pop()])
        game.play(rng.choice(game.playable()))
    return game


def bare_race(rng: random.Random) -> Race:
    """Run one race on the Race value alone (no turns, no bets): shuffled cards until it ends."""
    race = Race()
    cards = list(default_deck().cards)
    rng.shuffle(cards)
    while not race.over:
        if not cards:
            cards = list(default_deck().cards)
            rng.shuffle(cards)
        race, _ = race.apply(cards.pop())
    return race


def run(quick: bool) -> dict[str, Figure]:
    """Measure complete random races per second on one core (4 players, 80 squares)."""
    seconds = 0.5 if quick else 3.0
    rng = random.Random(2024)
    lengths = [shuffled_race(rng).state.plays for _ in range(200)]
    return {
        "races/s, bets, no hands": Figure(rate(lambda: shuffled_race(rng), seconds), "races/s"),
        "races/s, bets, hands dealt": Figure(rate(lambda: dealt_race(rng), seconds), "races/s"),
        "races/s, board only": Figure(rate(lambda: bare_race(rng), seconds), "races/s"),
        "cards per race (mean of 200)": Figure(sum(lengths) / len(lengths), "cards"),
    }
