"""Course hippique: the odds the croupier pays, and each horse's true chance of winning.

The plain game is computed exactly. What is left of the deck is a uniformly shuffled pile
with known counts per suit; the winner is the first suit whose horse collects the cards it
still needs. For horse ``i`` the chance is a sum over the moment it takes its last step:
just before, it has drawn ``need_i - 1`` of its cards and every other horse ``j`` has drawn
``a_j < need_j`` of its own; the number of such hands of each size is a product of binomials,
collected suit by suit (a small dynamic programme over polynomials), and each hand of size
``m`` has probability ``1 / C(left, m)``, times the chance ``(left_i - need_i + 1) / (left - m)``
that the next card is the horse's own. Everything is done in integers and fractions.

The setback variant has hidden course cards that push horses back; its chances are a seeded
Monte Carlo estimate, labelled as such.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from companion.games.cards import Suit
from companion.games.course_hippique.track import HORSES, CourseTrack
from companion.games.course_hippique.variants import DEFAULT_SAMPLES, Setback

#: Announced odds ("N to 1") by the number of the horse's suit in the course row.
ODDS: Mapping[int, int] = {0: 1, 1: 2, 2: 3, 3: 5, 4: 10}


def announced_odds(course_cards: int) -> int | None:
    """Return N of "N to 1" for a horse with ``course_cards`` of its suit in the course.

    None for 5 or more: such a course is dealt again.
    """
    return ODDS.get(course_cards)


def win_probabilities(need: Mapping[Suit, int], left: Mapping[Suit, int]) -> dict[Suit, Fraction]:
    """Return each horse's exact chance of winning the race from here.

    ``need[s]`` is how many more cards of suit ``s`` its horse needs (at least 1), ``left[s]``
    how many cards of suit ``s`` remain unseen in the shuffled deck. Raises ValueError when
    the counts are impossible: a horse that needs nothing, a negative count, or no horse able
    to finish with the cards left.
    """
    for suit in HORSES:
        if need[suit] < 1 or left[suit] < 0:
            raise ValueError(f"impossible race: need {dict(need)}, left {dict(left)}")
    if all(left[s] < need[s] for s in HORSES):
        raise ValueError(f"no horse can finish: need {dict(need)}, left {dict(left)}")
    total = sum(left[s] for s in HORSES)
    result: dict[Suit, Fraction] = {}
    for horse in HORSES:
        own_need, own_left = need[horse], left[horse]
        if own_left < own_need:
            result[horse] = Fraction(0)
            continue
        # hands[m]: ways to hold m cards of the other suits with every other horse short of
        # its need, built one suit at a time.
        hands = [1]
        for other in HORSES:
            if other is horse:
                continue
            most = min(need[other] - 1, left[other])
            factor = [math.comb(left[other], a) for a in range(most + 1)]
            hands = _multiply(hands, factor)
        own_ways = math.comb(own_left, own_need - 1) * (own_left - own_need + 1)
        chance = Fraction(0)
        for others, ways in enumerate(hands):
            drawn = own_need - 1 + others
            chance += Fraction(ways * own_ways, math.comb(total, drawn) * (total - drawn))
        result[horse] = chance
    return result


def _multiply(left: list[int], right: list[int]) -> list[int]:
    """Multiply two polynomials given by their coefficients, lowest degree first."""
    product = [0] * (len(left) + len(right) - 1)
    for i, a in enumerate(left):
        for j, b in enumerate(right):
            product[i + j] += a * b
    return product


def fair_odds(probability: float) -> float | None:
    """Return N such that "N to 1" is a fair bet at this chance; None when it cannot win."""
    return None if probability <= 0 else (1 - probability) / probability


def house_margin(probability: float, odds: int) -> float:
    """Return the croupier's expected gain per chip staked on a horse paid at "odds to 1"."""
    return 1 - probability * (odds + 1)


@dataclass(frozen=True)
class HorseChance:
    """One horse's chance next to the odds the croupier pays on it."""

    horse: Suit
    course_cards: int
    odds: int
    probability: float
    #: The exact fraction, or None for an estimate.
    exact: Fraction | None = None

    @property
    def fair_odds(self) -> float | None:
        """The odds that would make a bet on this horse fair; None if it cannot win."""
        return fair_odds(self.probability)

    @property
    def house_margin(self) -> float:
        """The croupier's expected gain per chip staked on this horse at the announced odds."""
        return house_margin(self.probability, self.odds)


@dataclass(frozen=True)
class RaceChances:
    """Every horse's chance of winning at one moment of a race."""

    horses: tuple[HorseChance, ...]
    #: True when computed exactly; False for a Monte Carlo estimate.
    exact: bool
    #: Simulated races behind an estimate (0 when exact).
    samples: int = 0

    def of(self, horse: Suit) -> HorseChance:
        """Return the chance of ``horse``."""
        return next(h for h in self.horses if h.horse is horse)

    def standard_error(self, horse: Suit) -> float:
        """Return the sampling error of an estimate (0 when exact)."""
        if self.exact or self.samples == 0:
            return 0.0
        p = self.of(horse).probability
        return math.sqrt(p * (1 - p) / self.samples)


def exact_chances(
    track: CourseTrack,
    left: Mapping[Suit, int],
    course_cards: Mapping[Suit, int],
    odds: Mapping[Suit, int],
) -> RaceChances:
    """Return the exact chances of a plain race from ``track`` with ``left`` cards unseen."""
    if track.winner is not None:
        exact = {s: Fraction(int(s is track.winner)) for s in HORSES}
    else:
        need = {s: track.finish - track.position(s) for s in HORSES}
        exact = win_probabilities(need, left)
    horses = tuple(
        HorseChance(s, course_cards[s], odds[s], float(exact[s]), exact[s]) for s in HORSES
    )
    return RaceChances(horses, exact=True)


def estimated_chances(
    track: CourseTrack,
    unseen: Mapping[Suit, int],
    course_cards: Mapping[Suit, int],
    odds: Mapping[Suit, int],
    rng: random.Random,
    samples: int = DEFAULT_SAMPLES,
) -> RaceChances:
    """Estimate the chances of a setback race by playing ``samples`` random endings.

    ``unseen`` counts the cards of each suit not yet turned: the deck and the face-down
    course rows together (a face-down card is as random as the next card of the deck).
    """
    if samples < 1:
        raise ValueError("an estimate needs at least one sample")
    if track.winner is not None:
        wins = {s: samples * int(s is track.winner) for s in HORSES}
    else:
        pile = [i for i, s in enumerate(HORSES) for _ in range(unseen[s])]
        counts = [0, 0, 0, 0]
        for _ in range(samples):
            rng.shuffle(pile)
            counts[finish_order_winner(track, pile)] += 1
        wins = {s: counts[i] for i, s in enumerate(HORSES)}
    horses = tuple(
        HorseChance(s, course_cards[s], odds[s], wins[s] / samples, None) for s in HORSES
    )
    return RaceChances(horses, exact=False, samples=samples)


def finish_order_winner(track: CourseTrack, order: list[int]) -> int:
    """Return the index (in HORSES) of the horse that wins if cards come in ``order``.

    ``order`` lists suit indexes; it is the same rule as Track.step, unrolled for speed.
    Raises ValueError if the cards run out first.
    """
    pos = list(track.positions)
    rows, finish = track.rows, track.finish
    revealed, pending = track.revealed, track.pending
    setback = track.setback
    first = setback is Setback.FIRST
    for index in order:
        if pending:
            if pos[index] > 0:
                pos[index] -= 1
            revealed += 1
            pending = False
        else:
            moved = pos[index] + 1
            if moved == finish:
                return index
            pos[index] = moved
        if setback is not None and revealed < rows:
            pending = (max(pos) if first else min(pos)) > revealed
    raise ValueError("the cards ran out before a horse finished")
