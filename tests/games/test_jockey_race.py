"""The Jockey race: positions with ties, every card effect with its caps, the finish."""

from __future__ import annotations

import pytest

from companion.games.errors import DataError, Refusal, fits_display
from companion.games.jockey.deck import JockeyHorse, default_deck
from companion.games.jockey.race import Blocked, CardEffect, Race

BROWN, YELLOW, BLUE, RED = JockeyHorse.BROWN, JockeyHorse.YELLOW, JockeyHorse.BLUE, JockeyHorse.RED


def play(position: str, card: str) -> tuple[Race, CardEffect]:
    """Play one card of the default deck on the race written in ``position``."""
    return Race.from_text(position).apply(default_deck().card(card))


def moved(position: str, card: str) -> tuple[JockeyHorse | None, int, int]:
    _, effect = play(position, card)
    assert effect.moved, effect.sentence()
    return effect.horse, effect.start, effect.end


def blocked(position: str, card: str) -> Blocked | None:
    race, effect = play(position, card)
    assert race == Race.from_text(position), "a card that moves nothing changes nothing"
    return effect.blocked


# -- positions -----------------------------------------------------------------------------


def places(position: str) -> list[tuple[int, int, tuple[JockeyHorse, ...]]]:
    return [(p.first, p.last, p.horses) for p in Race.from_text(position).standings()]


def test_horses_rank_by_square_highest_first() -> None:
    assert places("brown 10, yellow 30, blue 20, red 5") == [
        (1, 1, (YELLOW,)),
        (2, 2, (BLUE,)),
        (3, 3, (BROWN,)),
        (4, 4, (RED,)),
    ]


def test_horses_on_one_square_share_their_positions_and_none_is_determined() -> None:
    race = Race.from_text("brown 30, yellow 30, blue 20, red 5")
    assert places(str(race)) == [(1, 2, (BROWN, YELLOW)), (3, 3, (BLUE,)), (4, 4, (RED,))]
    assert race.holder(1) is None and race.holder(2) is None
    assert race.holder(3) is BLUE and race.holder(4) is RED


def test_at_the_start_every_position_is_shared() -> None:
    race = Race()
    assert places(str(race)) == [(1, 4, (BROWN, YELLOW, BLUE, RED))]
    assert all(race.holder(n) is None for n in range(1, 5))


def test_a_finished_horse_ranks_first_whatever_the_squares() -> None:
    race = Race.from_text("brown 60, yellow 81 1st, blue 60, red 2")
    assert places(str(race)) == [(1, 1, (YELLOW,)), (2, 3, (BROWN, BLUE)), (4, 4, (RED,))]
    assert race.holder(1) is YELLOW and race.holder(2) is None and race.holder(4) is RED


# -- colour cards ----------------------------------------------------------------------------


def test_plus_7_and_plus_10_move_their_colour() -> None:
    assert moved("brown 12, red 40", "brown+7#1") == (BROWN, 12, 19)
    assert moved("brown 12, red 40", "red+10#3") == (RED, 40, 50)


def test_the_rulebook_lead_example_a_lead_of_6_becomes_18() -> None:
    race, effect = play("red 30, blue 24, brown 10, yellow 3", "red-lead#1")
    assert (effect.horse, effect.start, effect.end) == (RED, 30, 42)
    assert race.square(RED) - race.square(BLUE) == 18


def test_a_lead_card_needs_the_horse_alone_in_the_lead() -> None:
    assert blocked("red 30, blue 30, brown 10", "red-lead#1") is Blocked.NOT_ALONE_IN_LEAD
    assert blocked("red 20, blue 30, brown 10", "red-lead#2") is Blocked.NOT_ALONE_IN_LEAD


def test_a_lead_is_measured_to_the_next_horse_even_when_others_share_second() -> None:
    assert moved("red 30, blue 26, brown 26, yellow 0", "red-lead#1") == (RED, 30, 38)


def test_chase_moves_up_to_50_when_the_leader_is_far_away() -> None:
    assert moved("yellow 5, red 79", "yellow-chase#1") == (YELLOW, 5, 55)


def test_chase_stops_5_squares_behind_the_leader() -> None:
    _, effect = play("yellow 20, red 60", "yellow-chase#1")
    assert (effect.horse, effect.start, effect.end) == (YELLOW, 20, 55)
    assert effect.forfeited == 15


def test_chase_moves_nothing_when_already_that_close_or_ahead() -> None:
    assert blocked("yellow 55, red 60", "yellow-chase#2") is Blocked.CLOSE_TO_LEADER
    assert blocked("yellow 57, red 60", "yellow-chase#2") is Blocked.CLOSE_TO_LEADER
    assert blocked("yellow 60, red 60", "yellow-chase#2") is Blocked.CLOSE_TO_LEADER
    assert blocked("yellow 70, red 60", "yellow-chase#2") is Blocked.CLOSE_TO_LEADER


def test_chase_measures_from_a_finished_leader_and_may_pass_the_finish() -> None:
    race, effect = play("red 95 1st, blue 50", "blue-chase#1")
    assert (effect.start, effect.end, effect.finished) == (50, 90, True)
    assert race.finish_order == (RED, BLUE) and race.over


# -- neutral cards ---------------------------------------------------------------------------


def test_no2_moves_the_horse_alone_in_second_place_15() -> None:
    assert moved("brown 40, yellow 30, blue 20, red 10", "no2+15#1") == (YELLOW, 30, 45)


def test_no2_moves_nothing_when_second_place_is_shared() -> None:
    assert blocked("brown 40, yellow 30, blue 30, red 10", "no2+15#2") is Blocked.POSITION_SHARED
    assert blocked("brown 40, yellow 40, blue 30, red 10", "no2+15#2") is Blocked.POSITION_SHARED


def test_no4_moves_the_last_horse_20_if_it_is_alone() -> None:
    assert moved("brown 40, yellow 30, blue 20, red 10", "no4+20#1") == (RED, 10, 30)
    assert blocked("brown 40, yellow 30, blue 10, red 10", "no4+20#1") is Blocked.POSITION_SHARED


def test_no3_moves_the_third_horse_up_to_18() -> None:
    assert moved("brown 60, yellow 30, blue 20, red 10", "no3+18#1") == (BLUE, 20, 38)


def test_no3_stops_one_square_ahead_of_the_leader() -> None:
    race, effect = play("brown 40, yellow 35, blue 30, red 10", "no3+18#1")
    assert (effect.horse, effect.start, effect.end, effect.forfeited) == (BLUE, 30, 41, 7)
    assert race.holder(1) is BLUE and race.square(BLUE) == race.square(BROWN) + 1


def test_no3_moves_nothing_when_third_place_is_shared() -> None:
    assert blocked("brown 40, yellow 30, blue 30, red 10", "no3+18#2") is Blocked.POSITION_SHARED


def test_positions_count_a_finished_horse_as_first() -> None:
    # yellow has finished and holds No. 1 alone, so brown, the best of the others, is No. 2.
    assert moved("yellow 83 1st, brown 70, blue 50, red 40", "no2+15#1") == (BROWN, 70, 85)


# -- finishing -------------------------------------------------------------------------------


def test_a_horse_passes_the_finish_beyond_square_80_and_keeps_its_square() -> None:
    race, effect = play("red 76, blue 10", "red+7#1")
    assert (effect.end, effect.finished) == (83, True)
    assert race.square(RED) == 83 and race.finish_order == (RED,) and not race.over


def test_landing_on_square_80_is_not_passing_the_finish() -> None:
    race, effect = play("red 70, blue 10", "red+10#1")
    assert effect.end == 80 and not effect.finished and race.finish_order == ()


def test_a_finished_horse_never_moves_again() -> None:
    assert blocked("red 83 1st, blue 10", "red+7#1") is Blocked.FINISHED
    assert blocked("red 83 1st, blue 10", "red-chase#1") is Blocked.FINISHED
    assert blocked("red 83 1st, blue 10", "red-lead#1") is Blocked.FINISHED


def test_the_race_ends_when_the_second_horse_passes_in_passing_order() -> None:
    race, _ = play("red 81 1st, blue 75, brown 70", "blue+10#1")
    assert race.over and race.finish_order == (RED, BLUE)
    assert race.square(BLUE) == 85 > 81
    with pytest.raises(Refusal) as refused:
        race.apply(default_deck().card("brown+7#1"))
    assert refused.value.code == "race_over"


def test_a_longer_track_moves_the_finish() -> None:
    _, effect = play("red 78, track 82", "red+7#1")
    assert effect.end == 85 and effect.finished
    _, effect = play("red 75, track 82", "red+7#1")
    assert effect.end == 82 and not effect.finished


# -- notation, sentences ---------------------------------------------------------------------


def test_the_text_form_round_trips() -> None:
    text = "brown 34, yellow 83 1st, blue 20, red 0, track 80"
    assert str(Race.from_text(text)) == text
    assert Race.from_data(Race.from_text(text).to_data()) == Race.from_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "brown x",
        "green 4",
        "red 90, blue 85",
        "red 90 1st, blue 85",
        "red 90 1st, blue 85 1st",
        "red -1",
        "red 4 2nd",
        "red 4 last",
    ],
)
def test_a_race_that_cannot_be_is_a_data_error(text: str) -> None:
    with pytest.raises(DataError):
        Race.from_text(text)


def test_every_effect_sentence_fits_the_lcd() -> None:
    positions = [
        "brown 30, yellow 30, blue 30, red 30",
        "brown 83 1st, yellow 80, blue 79, red 79",
        "brown 10, yellow 20, blue 30, red 40",
    ]
    for position in positions:
        for card in default_deck().cards:
            _, effect = Race.from_text(position).apply(card)
            assert fits_display(effect.sentence()), effect.sentence()
            assert CardEffect.from_data(effect.to_data()) == effect


def test_a_card_that_moves_nothing_says_why() -> None:
    _, effect = play("brown 40, yellow 30, blue 30, red 10", "no2+15#1")
    assert effect.sentence() == "No.2 +15 moved nothing: No.2 is shared."
    _, effect = play("yellow 57, red 60", "yellow-chase#2")
    assert (
        effect.sentence()
        == "yellow chase +50 moved nothing: yellow is already close to the leader."
    )
    _, effect = play("red 20, blue 30", "red-lead#1")
    assert effect.sentence() == "red lead x3 moved nothing: red does not lead alone."
    _, effect = play("red 83 1st, blue 30", "red+10#2")
    assert effect.sentence() == "red +10 moved nothing: red has finished."
    _, effect = play("red 70, blue 30", "red+10#2")
    assert effect.sentence() == "red +10: red 70 to 80."
    _, effect = play("red 71, blue 30", "red+10#2")
    assert effect.sentence() == "red +10: red 71 to 81, past the finish."
