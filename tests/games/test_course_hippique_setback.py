"""The setback variant: a face-down course that pushes horses back as its rows are reached."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.cards import Card, Suit
from companion.games.course_hippique import CourseHippiqueGame, Setback
from companion.games.course_hippique.odds import finish_order_winner
from companion.games.course_hippique.table import CoursePhase
from companion.games.course_hippique.track import HORSES, CourseTrack
from companion.games.errors import Refusal

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def game_with(setback: str, length: int = 7) -> CourseHippiqueGame:
    return CourseHippiqueGame.new(
        ["Ann", "Bob", "Cy"], {"setback": setback, "course_length": length}
    )


def turn_all(game: CourseHippiqueGame, text: str) -> None:
    for card in text.split():
        game.turn_card(card)


def test_the_course_lies_face_down_every_horse_pays_even_money() -> None:
    game = game_with("first")
    assert game.phase is CoursePhase.BETTING
    assert game.odds() == dict.fromkeys(HORSES, 1)
    assert game.course_rows == (None,) * 7
    with pytest.raises(Refusal) as caught:
        game.deal_course_card("7H")
    assert caught.value.code == "course_face_down"
    game.set_max_bet(10)
    assert game.place_bet("Bob", H, 10).odds == 1


def test_first_a_row_is_turned_when_the_first_horse_reaches_it() -> None:
    game = game_with("first")
    game.turn_card("3H")
    assert game.positions()[H] == 1 and game.pending_row == 1
    turn = game.turn_card("5S")  # the course card of row 1: spades, already at the start
    assert (turn.row, turn.horse, turn.position) == (1, S, 0)  # never behind the start line
    assert game.course_rows[0] == Card.parse("5S") and game.pending_row is None
    game.turn_card("4H")
    assert game.pending_row == 2
    turn = game.turn_card("9H")  # row 2 is a heart: the leader steps back to row 1
    assert (turn.row, turn.position) == (2, 1)
    game.turn_card("6H")  # row 2 again, but its card has been turned already
    assert game.positions()[H] == 2 and game.pending_row is None
    game.turn_card("2S")  # a second horse on row 1: each course card turns once
    assert game.pending_row is None
    assert game.course == tuple(Card.parse(c) for c in ("5S", "9H"))


def test_all_a_row_is_turned_once_every_horse_stands_on_it() -> None:
    game = game_with("all")
    turn_all(game, "2S 3S 4S 2H 2D")
    assert game.pending_row is None
    game.turn_card("2C")
    assert game.pending_row == 1
    assert game.turn_card("3C").position == 0  # clubs step back off row 1
    turn_all(game, "3H 3D 4H 4D")
    assert game.pending_row is None  # clubs still on the start line
    game.turn_card("4C")
    assert game.pending_row is None  # all on row 1 or beyond, but row 1 is already turned
    turn_all(game, "5C")
    assert game.pending_row == 2


def test_a_horse_finishes_one_step_beyond_the_last_row_net_of_setbacks() -> None:
    game = game_with("first", length=5)
    game.set_max_bet(10)
    game.place_bet("Bob", S, 10)
    # Spades lead all the way; each row they reach is turned and is a heart.
    turn_all(game, "2S 2H 3S 3H 4S 4H 5S 5H 6S")
    assert game.positions()[S] == 5 and game.pending_row == 5
    game.turn_card("9S")  # the last row is a spade: back to row 4
    assert game.positions()[S] == 4 and game.winner is None
    game.turn_card("7S")
    assert game.winner is None
    turn = game.turn_card("8S")
    assert turn.winner is S and game.finish == 6
    assert game.balances() == {"Ann": 90, "Bob": 110, "Cy": 100}  # even money


def test_all_a_horse_may_finish_with_rows_still_face_down() -> None:
    game = game_with("all", length=5)
    turn_all(game, "2D 3D 4D 5D 6D")
    assert game.winner is None and game.course == ()
    assert game.turn_card("7D").winner is D


def test_setback_refuses_cards_already_turned_and_aces() -> None:
    game = game_with("first")
    turn_all(game, "3H 5S")
    for card, code in (("5S", "card_seen"), ("3H", "card_seen"), ("AH", "ace_in_race")):
        with pytest.raises(Refusal) as caught:
            game.turn_card(card)
        assert caught.value.code == code
    assert game.cards_left == 48 - 7 - 1


def test_setback_chances_are_a_labelled_reproducible_estimate() -> None:
    game = game_with("all")
    turn_all(game, "3H 4H 5H")
    first = game.chances(samples=2000, seed=7)
    assert not first.exact and first.samples == 2000
    assert first == game.chances(samples=2000, seed=7)
    assert sum(h.probability for h in first.horses) == pytest.approx(1)
    assert first.of(H).probability > first.of(S).probability
    assert 0 < first.standard_error(H) < 0.02
    assert all(h.exact is None for h in first.horses)


def play_track(track: CourseTrack, order: list[int]) -> int:
    for index in order:
        track = track.step(HORSES[index])
        if track.winner is not None:
            return HORSES.index(track.winner)
    raise AssertionError("no winner")


@given(
    seed=st.integers(0, 2**31),
    rows=st.sampled_from([5, 6, 7]),
    setback=st.sampled_from([None, Setback.FIRST, Setback.ALL]),
)
@settings(max_examples=200, deadline=None)
def test_the_fast_simulation_follows_the_track_rules_exactly(
    seed: int, rows: int, setback: Setback | None
) -> None:
    rng = random.Random(seed)
    pile = [i for i in range(4) for _ in range(12)]
    rng.shuffle(pile)
    track = CourseTrack(rows, setback)
    assert finish_order_winner(track, pile) == play_track(track, pile)
