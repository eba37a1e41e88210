"""Course hippique under random legal play: chips never appear or vanish, races always end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.cards import Card, full_deck
from companion.games.course_hippique import CourseHippiqueGame
from companion.games.course_hippique.table import CoursePhase
from companion.games.errors import Refusal

NON_ACES = [c for c in full_deck() if not c.is_ace]


def snapshot(game: CourseHippiqueGame) -> tuple[object, ...]:
    return (game.phase, game.course, game.bets, game.turned, game.balances(), game.max_bet)


def try_illegal(game: CourseHippiqueGame, rng: random.Random) -> None:
    """Make one input the rules refuse at this moment and check that nothing changed."""
    before = snapshot(game)
    attempts = [
        lambda: game.place_bet(game.croupier, "H", 1),
        lambda: game.turn_card(rng.choice([c for c in full_deck() if c.is_ace])),
        lambda: game.place_bet(rng.choice(game.players), "S", 0),
    ]
    if game.turned:
        attempts.append(lambda: game.turn_card(rng.choice(game.turned)))
    try:
        rng.choice(attempts)()
    except Refusal:
        pass
    else:
        raise AssertionError("an illegal input was accepted")
    assert snapshot(game) == before


def play_race(game: CourseHippiqueGame, rng: random.Random, total: int) -> None:
    """Play one race as a table would, with random bets; check chips and the deck throughout."""
    deck = list(NON_ACES)
    rng.shuffle(deck)
    length = game.options.course_length
    if game.options.setback is None:
        game.deal_course(deck[:length])
        while game.phase is CoursePhase.REDEAL:
            rng.shuffle(deck)
            game.deal_course(deck[:length])
        rows: list[Card] = []
        pile = deck[length:]
    else:
        rows, pile = deck[:length], deck[length:]
    game.set_max_bet(rng.randint(1, 40))
    for player in game.players:
        held = game.balance(player)
        if player == game.croupier or held < 1 or rng.random() < 0.2:
            continue
        if rng.random() < 0.2:
            game.set_max_bet(rng.randint(1, 40))
        stake = rng.randint(1, min(held, game.max_bet or 1))
        game.place_bet(player, rng.choice("SHDC"), stake)
        assert sum(game.balances().values()) == total
    while game.winner is None:
        row = game.pending_row
        if row is not None:
            game.turn_card(rows[row - 1])
        else:
            assert pile, "the deck ran out before a horse finished"
            game.turn_card(pile.pop(0))
        assert sum(game.balances().values()) == total
        if rng.random() < 0.05:
            try_illegal(game, rng)


@given(
    seed=st.integers(0, 2**31),
    players=st.integers(3, 10),
    length=st.sampled_from([5, 6, 7]),
    setback=st.sampled_from([None, "first", "all"]),
    rounds=st.integers(1, 2),
)
@settings(max_examples=120, deadline=None)
def test_random_legal_play_conserves_chips_and_every_race_ends(
    seed: int, players: int, length: int, setback: str | None, rounds: int
) -> None:
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    options = {"course_length": length, "setback": setback, "rounds": rounds}
    game = CourseHippiqueGame.new(names, options)
    total = sum(game.balances().values())
    while True:
        play_race(game, rng, total)
        if game.phase is CoursePhase.GAME_OVER:
            break
        game.next_race()
    assert len(game.results) == players * rounds
    assert [r.croupier for r in game.results] == names * rounds
    ranking = game.ranking()
    assert set(game.winners()) == {s.player for s in ranking if s.chips == ranking[0].chips}
    for result in game.results:
        assert sum(result.change(p) for p in names) == 0
    copy = CourseHippiqueGame.from_json(game.to_json())
    assert copy.balances() == game.balances() and copy.results == game.results
