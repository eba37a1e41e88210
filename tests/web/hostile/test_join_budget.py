"""The join code's budget and the queue of requests, on a pretend clock."""

from __future__ import annotations

import math

from companion.web.joins import (
    BURST,
    LONG_DIGITS,
    MAX_WAITING,
    REFILL_S,
    SHORT_DIGITS,
    WAIT_S,
    WRONG_PER_CODE,
    Joins,
    Refused,
    Verdict,
)

DAY_S = 24 * 3600


def guesses(start: int, count: int = 10_000) -> list[str]:
    """``count`` short codes in the order a guesser tries them, from the ``start``-th."""
    return [f"{n % 10_000:04d}" for n in range(start, start + count)]


def test_guessing_from_any_number_of_addresses_gets_one_short_code_every_refill() -> None:
    now = [0.0]
    joins = Joins(lambda: now[0])
    evaluated, tried = 0, 0
    for second in range(3600):  # an hour of 20 tries a second, from as many addresses
        now[0] = float(second)
        for guess in guesses(second * 20, 20):
            if guess == joins.code:
                continue  # a guesser who hit would be done: count the misses only
            tried += 1
            evaluated += joins.check(guess) is Verdict.WRONG
    assert tried > 71_000 and evaluated <= BURST + 3600 / REFILL_S + 1
    # So all 10,000 short codes take at least this long, whatever the number of addresses:
    assert (10_000 - BURST) * REFILL_S >= DAY_S
    # A new code every few misses: each guess hits one time in 10,000, so half the guessers
    # still have no hit after ln 2 × 10,000 guesses (29 hours), on average after 42 hours.
    assert math.log(2) * 10_000 * REFILL_S >= DAY_S


def test_a_phone_reading_the_table_gets_in_at_once_while_guessing_goes_on() -> None:
    now = [0.0]
    joins = Joins(lambda: now[0])
    for second in range(600):
        now[0] = float(second)
        for guess in guesses(second * 50, 50):
            if guess != joins.code:
                joins.check(guess)
        if second % 7 == 0:  # a phone types what the table shows: in, every time
            assert joins.check(joins.code) is Verdict.RIGHT
    assert len(joins.code) == LONG_DIGITS  # the budget is spent: the table shows a long code
    assert joins.check("1234") is Verdict.SPENT  # a short try is not even looked at


def test_a_new_code_after_a_few_wrong_tries_and_short_codes_again_once_quiet() -> None:
    now = [0.0]
    joins = Joins(lambda: now[0])
    first = joins.code
    wrong = [g for g in guesses(0, 10) if g != first][:WRONG_PER_CODE]
    for guess in wrong[:-1]:
        assert joins.check(guess) is Verdict.WRONG and joins.code == first
    assert joins.check(wrong[-1]) is Verdict.WRONG
    assert joins.code != first and len(joins.code) == SHORT_DIGITS
    while len(joins.code) == SHORT_DIGITS:  # spend the budget
        joins.check("0000" if joins.code != "0000" else "0001")
    long_code = joins.code
    now[0] += BURST * REFILL_S  # quiet again: the budget refills
    assert joins.check(long_code) is Verdict.RIGHT  # the code a phone read still works...
    assert len(joins.code) == SHORT_DIGITS  # ...and the next phone types four digits again


def test_one_request_a_seat_a_few_in_all_declined_together_and_dropped_in_time() -> None:
    now = [0.0]
    joins = Joins(lambda: now[0])
    anna = joins.ask("Anna")
    assert not isinstance(anna, Refused)
    assert joins.ask("Anna") is Refused.SEAT_ASKED
    for n in range(1, MAX_WAITING):
        assert not isinstance(joins.ask(f"P{n}"), Refused)
    assert joins.ask("Zoé") is Refused.TOO_MANY
    assert joins.decline_all() == MAX_WAITING
    assert joins.pending() == []
    found = joins.find(anna.key)
    assert found is not None and found.declined  # Anna's phone hears the no
    assert not isinstance(joins.ask("Zoé"), Refused)
    now[0] += WAIT_S + 1
    assert joins.pending() == [] and joins.find(anna.key) is None
