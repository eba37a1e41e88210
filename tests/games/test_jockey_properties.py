"""Properties of random legal Jockey play: races end, finished horses stay, positions never skip.

"Positions never skip" means: the places of ``standings()`` cover the positions 1 to 4 exactly
once and in order, each place holding as many positions as it has horses, so a shared place
is followed by the position right after the last one it holds (two horses sharing No. 1 hold
1 and 2, and the next horse is No. 3).
"""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.errors import Refusal
from companion.games.jockey import JockeyGame
from companion.games.jockey.bets import BetKind
from companion.games.jockey.deck import HORSES
from companion.games.jockey.race import Race
from companion.games.jockey.state import JockeyPhase

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")

#: No race of random play needs more cards than this (the deck is 54; caps are generous).
MOST_CARDS = 400


def check_positions(race: Race) -> None:
    places = race.standings()
    assert places[0].first == 1 and places[-1].last == 4
    for before, after in itertools.pairwise(places):
        assert after.first == before.last + 1
    for place in places:
        assert len(place.horses) == place.last - place.first + 1
        assert all(race.square(h) == place.square for h in place.horses)
        assert race.holder(place.first) == (place.horses[0] if place.determined else None)
    assert sorted(h for p in places for h in p.horses) == sorted(HORSES)
    finished = places[: len(race.finish_order)]
    assert tuple(p.horses[0] for p in finished) == race.finish_order
    running = [p.square for p in places[len(race.finish_order) :]]
    assert running == sorted(running, reverse=True) and len(set(running)) == len(running)


def random_bet(game: JockeyGame, player: str, rng: random.Random) -> None:
    kind = rng.choice(list(BetKind))
    horses = rng.sample(HORSES, 2 if kind in (BetKind.DOUBLE, BetKind.ORDER) else 1)
    limit = game.limit(player) // 100
    if kind is BetKind.ORDER:
        first = rng.randint(1, limit - 1)
        stakes = [first * 100, rng.randint(1, limit - first) * 100]
    else:
        stakes = [rng.randint(1, limit) * 100]
    game.bet(player, kind, horses, stakes)


def deal_owed(game: JockeyGame, rng: random.Random) -> None:
    """Deal every player what they are owed: first the cards each keeps from the last race,
    then cards in no hand and off the played pile."""
    kept = {}
    for player in game.players:
        leftover = sorted(game.leftover(player))
        kept[player] = rng.sample(leftover, rng.randint(0, min(2, len(leftover))))
    held = set().union(*(game.hand(p) for p in game.players), game.pile, *kept.values())
    free = [c for c in game.options.deck.by_id if c not in held]
    rng.shuffle(free)
    for player in game.players:
        cards = [free.pop() for _ in range(game.owed(player) - len(kept[player]))]
        if cards or kept[player]:
            game.deal(player, cards, kept=kept[player])


def random_game(players: int, hands: bool, track: int, rng: random.Random) -> JockeyGame:
    """Play a whole game at random, checking every property after every card."""
    game = JockeyGame.new(NAMES[:players], {"hands": hands, "track_length": track})
    deck = list(game.options.deck.by_id)
    while True:
        for player in game.players:
            random_bet(game, player, rng)
            assert all(b % 100 == 0 for b in game.balances.values())
        for _ in range(MOST_CARDS):
            if game.phase is not JockeyPhase.BETTING and game.phase is not JockeyPhase.RACING:
                break
            if hands and any(game.state.owed):
                deal_owed(game, rng)
            before = game.state
            stray = rng.choice(deck)
            try:
                game.play(stray, rng.choice(game.players))
            except Refusal:
                assert game.state is before, "a refused card changed the game"
                game.play(rng.choice(game.playable()))
            after = game.state
            for horse in before.race.finish_order:
                assert after.race.square(horse) == before.race.square(horse)
            for horse in HORSES:
                assert after.race.square(horse) >= before.race.square(horse)
            check_positions(after.race)
            assert all(b % 100 == 0 for b in game.balances.values())
        assert game.phase in (JockeyPhase.RACE_OVER, JockeyPhase.GAME_OVER), "the race did not end"
        assert len(game.finish_order) == 2
        if game.phase is JockeyPhase.GAME_OVER:
            return game
        game.next_race()


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(2, 6),
    hands=st.booleans(),
    track=st.sampled_from([80, 81, 82, 20]),
    seed=st.integers(0, 2**32),
)
def test_random_legal_play_keeps_every_rule(
    players: int, hands: bool, track: int, seed: int
) -> None:
    game = random_game(players, hands, track, random.Random(seed))
    assert len(game.results) == 3 and game.phase is JockeyPhase.GAME_OVER
    total = 0
    for result in game.results:
        assert result.first != result.second
        total += sum(p.change for p in result.payouts)
    assert sum(game.balances.values()) == 1000 * players + total
    best = max(game.balances.values())
    assert set(game.winners) == {p for p, b in game.balances.items() if b == best}
    assert JockeyGame.from_json(game.to_json()) == game
