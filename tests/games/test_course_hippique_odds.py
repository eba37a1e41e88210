"""Course hippique chances: exact fractions checked by hand, by recursion and by sampling."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.cards import Card, Suit, full_deck
from companion.games.course_hippique import CourseHippiqueGame
from companion.games.course_hippique.odds import (
    ODDS,
    fair_odds,
    house_margin,
    win_probabilities,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
SUITS = (S, H, D, C)
COURSE = "7H QS 2D 9H KC 4S JH"


def words(text: str) -> list[str]:
    return text.split()


def four(values: tuple[int, int, int, int]) -> dict[Suit, int]:
    return dict(zip(SUITS, values, strict=True))


@cache
def by_recursion(need: tuple[int, ...], left: tuple[int, ...]) -> tuple[Fraction, ...]:
    """Each suit's chance, drawing one card at a time: an independent oracle."""
    total = sum(left)
    chances = [Fraction(0)] * 4
    for suit in range(4):
        if left[suit] == 0:
            continue
        weight = Fraction(left[suit], total)
        if need[suit] == 1:
            chances[suit] += weight
            continue
        after = by_recursion(
            tuple(n - (i == suit) for i, n in enumerate(need)),
            tuple(n - (i == suit) for i, n in enumerate(left)),
        )
        for i in range(4):
            chances[i] += weight * after[i]
    return tuple(chances)


def test_the_odds_schedule_of_the_rules() -> None:
    assert dict(ODDS) == {0: 1, 1: 2, 2: 3, 3: 5, 4: 10}


def test_equal_counts_give_a_quarter_each() -> None:
    chances = win_probabilities(four((8, 8, 8, 8)), four((11, 11, 11, 11)))
    assert all(p == Fraction(1, 4) for p in chances.values())


def test_one_card_needed_against_eight_by_inclusion_exclusion() -> None:
    # Hearts need 1 of their 4 cards; the others need all 8 of theirs. Hearts lose only
    # if some other suit's 8 cards all come before the first heart.
    chances = win_probabilities(four((8, 1, 8, 8)), four((8, 4, 8, 8)))
    lose = Fraction(3, 495) - Fraction(3, 4845) + Fraction(1, 20475)
    assert chances[H] == 1 - lose
    assert chances[S] == chances[D] == chances[C] == lose / 3


def test_a_single_heart_left_against_three_full_suits() -> None:
    # One heart among 24 others: it loses when one suit's 8 all come before it.
    chances = win_probabilities(four((8, 1, 8, 8)), four((8, 1, 8, 8)))
    assert chances[H] == 1 - (Fraction(3, 9) - Fraction(3, 17) + Fraction(1, 25))


def test_a_horse_that_cannot_finish_has_no_chance_and_the_last_runner_is_sure() -> None:
    chances = win_probabilities(four((8, 8, 8, 8)), four((7, 8, 7, 7)))
    assert chances == {S: 0, H: 1, D: 0, C: 0}
    with pytest.raises(ValueError, match="no horse"):
        win_probabilities(four((8, 8, 8, 8)), four((7, 7, 7, 7)))


def test_two_single_cards_race_evenly() -> None:
    chances = win_probabilities(four((1, 1, 5, 5)), four((1, 1, 2, 2)))
    assert chances == {S: Fraction(1, 2), H: Fraction(1, 2), D: 0, C: 0}


@given(
    need=st.tuples(*[st.integers(1, 5)] * 4),
    left=st.tuples(*[st.integers(0, 7)] * 4),
)
@settings(max_examples=150, deadline=None)
def test_the_formula_matches_card_by_card_recursion_and_sums_to_one(
    need: tuple[int, int, int, int], left: tuple[int, int, int, int]
) -> None:
    if all(left_ < need_ for left_, need_ in zip(left, need, strict=True)):
        return
    chances = win_probabilities(four(need), four(left))
    assert tuple(chances[s] for s in SUITS) == by_recursion(need, left)
    assert sum(chances.values()) == 1


def test_a_fresh_course_matches_the_recursion_exactly() -> None:
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"])
    game.deal_course(words(COURSE))
    chances = game.chances()
    assert chances.exact and chances.samples == 0
    expected = by_recursion((8, 8, 8, 8), (10, 9, 11, 11))
    assert tuple(h.exact for h in chances.horses) == expected
    assert sum(h.probability for h in chances.horses) == pytest.approx(1)


def sample_winner(rng: random.Random, pile: list[Suit], need: dict[Suit, int]) -> Suit:
    """Shuffle what is left and turn it until a suit has its count: plain sampling."""
    rng.shuffle(pile)
    got = dict.fromkeys(SUITS, 0)
    for suit in pile:
        got[suit] += 1
        if got[suit] == need[suit]:
            return suit
    raise AssertionError("the deck ran out")


@pytest.mark.parametrize(
    ("course", "turned"),
    [
        ("7H QS 2D 9H KC 4S JH", ""),
        ("2H 3H 4H 5H 6S 7S 8D", ""),
        ("7H QS 2D 9H KC 4S JH", "3D 4D 5D 2C 3C 5S 6S 7S 8S 2H"),
        ("7H QS 2D 9H KC", ""),
    ],
)
def test_exact_chances_agree_with_a_monte_carlo_estimate(course: str, turned: str) -> None:
    length = len(course.split())
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"], {"course_length": length})
    game.deal_course(course.split())
    for card in turned.split():
        game.turn_card(card)
    seen = set(game.course) | set(game.turned)
    pile = [c.suit for c in full_deck() if not c.is_ace and c not in seen]
    need = {s: game.finish - p for s, p in game.positions().items()}
    rng = random.Random(4)
    samples = 20000
    wins = dict.fromkeys(SUITS, 0)
    for _ in range(samples):
        wins[sample_winner(rng, pile, need)] += 1
    for chance in game.chances().horses:
        p = chance.probability
        error = max((p * (1 - p) / samples) ** 0.5, 1 / samples)
        assert abs(wins[chance.horse] / samples - p) < 4.5 * error, chance


def test_fair_odds_and_the_house_margin() -> None:
    assert fair_odds(0.25) == pytest.approx(3.0)
    assert fair_odds(0.0) is None
    # A quarter chance paid at 1 to 1: the croupier keeps half of every chip on average.
    assert house_margin(0.25, 1) == pytest.approx(0.5)
    assert house_margin(1 / 11, 10) == pytest.approx(0.0)
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"])
    game.deal_course(words(COURSE))
    diamonds = game.chances().of(D)
    assert diamonds.odds == 2 and diamonds.course_cards == 1
    assert diamonds.house_margin == pytest.approx(1 - 3 * diamonds.probability)
    assert diamonds.fair_odds == pytest.approx((1 - diamonds.probability) / diamonds.probability)


def test_chances_follow_the_race_and_end_certain() -> None:
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"])
    game.deal_course(words(COURSE))
    before = game.chances().of(D).probability
    for card in words("3D 4D 5D 6D 7D"):
        game.turn_card(card)
    during = game.chances().of(D).probability
    assert before < during < 1
    for card in words("8D 9D 10D"):
        game.turn_card(card)
    after = game.chances()
    assert after.of(D).probability == 1 and after.of(S).probability == 0


def test_every_fresh_course_is_computed_exactly_and_sums_to_one() -> None:
    rng = random.Random(11)
    deck: list[Card] = [c for c in full_deck() if not c.is_ace]
    checked = 0
    while checked < 40:
        rng.shuffle(deck)
        game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"])
        game.deal_course(deck[:7])
        if game.phase.value != "betting":
            continue
        chances = game.chances()
        assert sum(h.exact or 0 for h in chances.horses) == 1
        checked += 1
