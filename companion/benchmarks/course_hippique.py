"""Course hippique: how fast the exact chances are computed, and how many races run per second."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from companion.benchmarks import Figure, percentile, rate
from companion.devices.base import CardScanned, Event
from companion.games.cards import Card, full_deck
from companion.games.course_hippique import (
    CourseHippiqueGame,
    CoursePhase,
    HippiqueOptions,
    Setback,
)
from companion.session.view import PublicBoard

NAME = "course_hippique"

#: The session benchmark's game: the most players and rounds, a game of about 500 inputs.
SESSION: tuple[tuple[str, ...], dict[str, Any]] = (tuple("ABCDEF"), {"rounds": 3})

#: The web benchmark's heaviest page of this game: the croupier laying the course.
WEB_PAGE: tuple[tuple[str, ...], dict[str, str], str] = (("A", "B", "C"), {}, "croupier")
#: The glass benchmark's presses once the menu has started the game: none.
GLASS_OPENING: tuple[tuple[str, ...], ...] = ()
#: How often the glass benchmark's random input is a card scanned.
GLASS_SHARE = 0.35
#: The cards the glass benchmark scans: the whole pack.
GLASS_CARDS = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                "J", "Q", "K")]  # fmt: skip


def glass_inputs(
    rng: random.Random, board: Callable[[], PublicBoard | None]
) -> Iterator[tuple[str, Event]]:
    """A card of the pack scanned, by a new tag."""
    yield "card", CardScanned(f"{rng.getrandbits(32):08X}", rng.choice(GLASS_CARDS), "reader")


_PLAYERS = ("Ann", "Bob", "Cy", "Dee")
_HORSES = "SHDC"


def _dealt_game(
    rng: random.Random, options: HippiqueOptions
) -> tuple[CourseHippiqueGame, list[Card]]:
    """A game whose course is dealt (re-dealt until legal); return it and the rest of the deck."""
    game = CourseHippiqueGame.new(_PLAYERS, options)
    deck = [c for c in full_deck() if not c.is_ace]
    while True:
        rng.shuffle(deck)
        if options.setback is not None:
            return game, deck
        game.deal_course(deck[: options.course_length])
        if game.phase is CoursePhase.BETTING:
            return game, deck[options.course_length :]


def _play_race(game: CourseHippiqueGame, deck: list[Card], rng: random.Random) -> None:
    """One whole race through the engine: max bet, a bet per player, cards until a winner."""
    rows = deck[: game.options.course_length]
    pile = iter(deck[game.options.course_length :] if game.options.setback else deck)
    game.set_max_bet(10)
    for player in game.players:
        if player != game.croupier:
            game.place_bet(player, rng.choice(_HORSES), rng.randint(1, 10))
    while game.winner is None:
        row = game.pending_row
        game.turn_card(rows[row - 1] if row is not None else next(pile))


def run(quick: bool) -> dict[str, Figure]:
    """Time the exact chances on many fresh courses, the setback estimate, and whole races."""
    rng = random.Random(2024)
    plain = HippiqueOptions()
    timings = []
    for _ in range(50 if quick else 400):
        game, _deck = _dealt_game(rng, plain)
        start = time.perf_counter()
        game.chances()
        timings.append((time.perf_counter() - start) * 1000)
    mid_timings = []
    for _ in range(20 if quick else 200):
        game, deck = _dealt_game(rng, plain)
        for card in deck[:15]:
            if game.winner is None:
                game.turn_card(card)
        if game.winner is None:
            start = time.perf_counter()
            game.chances()
            mid_timings.append((time.perf_counter() - start) * 1000)
    setback = HippiqueOptions(setback=Setback.FIRST)
    game, _deck = _dealt_game(rng, setback)
    start = time.perf_counter()
    estimate = game.chances(seed=1)
    setback_ms = (time.perf_counter() - start) * 1000
    seconds = 0.5 if quick else 3.0

    def plain_race() -> None:
        game, deck = _dealt_game(rng, plain)
        _play_race(game, deck, rng)

    def setback_race() -> None:
        game, deck = _dealt_game(rng, setback)
        _play_race(game, deck, rng)

    return {
        "exact chances, fresh course (median)": Figure(percentile(timings, 0.5), "ms"),
        "exact chances, fresh course (p99)": Figure(percentile(timings, 0.99), "ms"),
        "exact chances, mid-race (median)": Figure(percentile(mid_timings, 0.5), "ms"),
        f"setback estimate, {estimate.samples} races": Figure(setback_ms, "ms"),
        "races simulated through the engine": Figure(rate(plain_race, seconds), "races/s"),
        "setback races through the engine": Figure(rate(setback_race, seconds), "races/s"),
    }
