"""Jumpy Jack race rules, one scenario per rule of the table rules, from race notation.

Default board: 30 squares, STOP 7, DOUBLE 13, OUT 19, RESTART 25; horses red, blue, green,
yellow, white. A horse left out of a position stands on the start square.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games.errors import DataError, Refusal
from companion.games.jumpy_jack import (
    Board,
    HorseState,
    Landing,
    Position,
)

#: A short board whose DOUBLE bounce can reach every hurdle and the line:
#: bounce from DOUBLE (10) by 1 -> RESTART (11), 2 -> STOP (12), 3 -> OUT (13), 6 -> line (16).
CHAIN_BOARD = """
squares = 16
[hurdles]
double = 10
restart = 11
stop = 12
out = 13
[[horses]]
name = "red"
colour = "red"
[[horses]]
name = "blue"
colour = "blue"
[[horses]]
name = "green"
colour = "green"
[[horses]]
name = "yellow"
colour = "yellow"
[[horses]]
name = "white"
colour = "white"
"""


def at(text: str, board: Board | None = None) -> Position:
    return Position.from_text(text, board)


def refusal(position: Position, horse: str, die: int) -> str:
    with pytest.raises(Refusal) as caught:
        position.check(horse, die)
    return caught.value.code


def movers(position: Position, die: int) -> set[str]:
    return {m.horse for m in position.legal_moves(die)}


# -- the board and the start square -------------------------------------------------------


def test_the_default_board_is_the_one_the_rules_give() -> None:
    board = Board.default()
    assert (board.squares, board.stop, board.double, board.out, board.restart) == (
        30,
        7,
        13,
        19,
        25,
    )
    assert board.horse_names == ("red", "blue", "green", "yellow", "white")


def test_every_horse_starts_on_the_start_square_and_any_may_leave_it() -> None:
    start = Position.start(Board.default())
    assert start.occupants(0) == ("red", "blue", "green", "yellow", "white")
    for die in range(1, 7):
        assert movers(start, die) == {"red", "blue", "green", "yellow", "white"}


def test_the_start_square_never_forms_a_barrage() -> None:
    position = at("red=0 blue=0 green=0 yellow=5")
    assert position.blocked_squares() == ()
    assert position.check("red", 3).landing == 3


def test_a_horse_advances_exactly_the_die_value() -> None:
    move = at("red=2").check("red", 4)
    assert (move.origin, move.landing, move.square, move.effect) == (2, 6, 6, Landing.ADVANCE)
    assert at("red=2").play("red", 4).square("red") == 6


# -- finished and eliminated horses --------------------------------------------------------


def test_a_finished_horse_cannot_be_chosen() -> None:
    position = at("red=F1 blue=4")
    assert refusal(position, "red", 3) == "horse_finished"
    assert "red" not in movers(position, 3)


def test_an_eliminated_horse_cannot_be_chosen() -> None:
    position = at("red=X5 blue=4")
    assert refusal(position, "red", 3) == "horse_out"
    assert "red" not in movers(position, 3)


def test_an_unknown_horse_is_refused() -> None:
    assert refusal(at(""), "pegasus", 3) == "unknown_horse"


# -- barrages --------------------------------------------------------------------------------


def test_no_horse_may_land_on_a_barrage() -> None:
    position = at("red=10 blue=10 green=8")
    assert refusal(position, "green", 2) == "barrage"


def test_no_horse_may_pass_a_barrage() -> None:
    position = at("red=10 blue=10 green=8")
    for die in (3, 4, 5, 6):
        assert refusal(position, "green", die) == "barrage"
    assert position.check("green", 1).landing == 9


def test_landing_beside_a_lone_horse_forms_a_barrage() -> None:
    position = at("red=10 green=8 yellow=5")
    move = position.check("green", 2)
    assert move.barrage
    after = position.after(move)
    assert after.occupants(10) == ("red", "green")
    assert after.blocked_squares() == (10,)
    assert refusal(after, "yellow", 6) == "barrage"


def test_a_horse_of_a_barrage_may_leave_and_the_barrage_dissolves() -> None:
    position = at("red=10 blue=10 green=8")
    after = position.play("red", 2)
    assert after.blocked_squares() == ()
    assert after.check("green", 4).landing == 12


def test_never_more_than_two_horses_on_a_square() -> None:
    with pytest.raises(DataError):
        at("red=10 blue=10 green=10")


# -- STOP --------------------------------------------------------------------------------


def test_an_empty_stop_is_an_ordinary_landing_square() -> None:
    move = at("red=5").check("red", 2)
    assert (move.square, move.effect) == (7, Landing.STOP)


def test_a_horse_on_stop_blocks_landing_there() -> None:
    assert refusal(at("yellow=7 red=5"), "red", 2) == "stop_occupied"


def test_a_horse_on_stop_blocks_passing_it() -> None:
    position = at("yellow=7 red=5")
    for die in (3, 4, 5, 6):
        assert refusal(position, "red", die) == "stop_occupied"
    assert position.check("red", 1).landing == 6


def test_the_horse_on_stop_may_leave_it() -> None:
    after = at("yellow=7 red=5").play("yellow", 3)
    assert after.check("red", 5).landing == 10


def test_stop_never_holds_two_horses() -> None:
    with pytest.raises(DataError):
        at("red=7 blue=7")


# -- DOUBLE -------------------------------------------------------------------------------


def test_landing_on_double_bounces_by_the_same_number() -> None:
    move = at("red=10").check("red", 3)
    assert (move.landing, move.bounce, move.square, move.effect) == (13, 16, 16, Landing.ADVANCE)
    assert at("red=10").play("red", 3).square("red") == 16


def test_a_horse_never_rests_on_double() -> None:
    with pytest.raises(DataError):
        at("red=13")


def test_passing_over_double_does_not_bounce() -> None:
    move = at("red=11").check("red", 3)
    assert (move.landing, move.bounce, move.square) == (14, None, 14)


def test_a_bounce_onto_a_barrage_makes_the_move_illegal() -> None:
    position = at("red=10 blue=16 green=16")
    assert refusal(position, "red", 3) == "double_blocked"
    assert "red" not in movers(position, 3)


def test_a_bounce_over_a_barrage_makes_the_move_illegal() -> None:
    assert refusal(at("red=10 blue=15 green=15"), "red", 3) == "double_blocked"


def test_a_bounce_beside_a_lone_horse_forms_a_barrage() -> None:
    move = at("red=10 blue=16").check("red", 3)
    assert move.bounce == 16 and move.barrage


def test_a_bounce_onto_out_eliminates_the_horse() -> None:
    position = at("red=7")  # on STOP; 6 takes it to DOUBLE (13), the bounce to OUT (19)
    move = position.check("red", 6)
    assert (move.landing, move.bounce, move.effect, move.place) == (13, 19, Landing.OUT, 5)
    assert position.after(move).state("red") is HorseState.OUT


def test_a_bounce_onto_restart_sends_the_horse_to_the_start() -> None:
    board = Board.from_toml(CHAIN_BOARD, "chain.toml")
    move = at("red=9", board).check("red", 1)
    assert (move.landing, move.bounce, move.effect, move.square) == (10, 11, Landing.RESTART, 0)


def test_a_bounce_onto_an_empty_stop_is_held_there() -> None:
    board = Board.from_toml(CHAIN_BOARD, "chain.toml")
    move = at("red=8", board).check("red", 2)
    assert (move.bounce, move.effect, move.square) == (12, Landing.STOP, 12)


def test_a_bounce_onto_an_occupied_stop_is_a_blocked_bounce() -> None:
    board = Board.from_toml(CHAIN_BOARD, "chain.toml")
    assert refusal(at("red=8 blue=12", board), "red", 2) == "double_blocked"


def test_a_bounce_onto_out_on_a_short_board() -> None:
    board = Board.from_toml(CHAIN_BOARD, "chain.toml")
    move = at("red=7", board).check("red", 3)
    assert (move.bounce, move.effect) == (13, Landing.OUT)


def test_a_bounce_across_the_line_finishes_the_horse() -> None:
    board = Board.from_toml(CHAIN_BOARD, "chain.toml")
    position = at("red=4 blue=F1", board)
    move = position.check("red", 6)
    assert (move.landing, move.bounce, move.effect, move.place) == (10, 16, Landing.FINISH, 2)
    assert position.after(move).podium.at(2) == "red"


def test_squares_crossed_by_a_bounce_have_no_effect() -> None:
    # The bounce from 10 by 5 crosses RESTART (11), an empty STOP (12) and OUT (13).
    board = Board.from_toml(CHAIN_BOARD, "chain.toml")
    move = at("red=5", board).check("red", 5)
    assert (move.bounce, move.effect, move.square) == (15, Landing.ADVANCE, 15)


# -- OUT and RESTART ------------------------------------------------------------------------


def test_landing_on_out_eliminates_at_once() -> None:
    position = at("red=15")
    move = position.check("red", 4)
    assert (move.effect, move.square, move.place) == (Landing.OUT, None, 5)
    after = position.after(move)
    assert after.state("red") is HorseState.OUT and after.podium.at(5) == "red"
    assert after.occupants(19) == ()


def test_landing_on_restart_goes_back_to_the_start() -> None:
    position = at("red=22 blue=0")
    move = position.check("red", 3)
    assert (move.effect, move.square) == (Landing.RESTART, 0)
    after = position.after(move)
    assert after.square("red") == 0 and after.state("red") is HorseState.RACING
    assert after.check("red", 2).landing == 2  # it may be moved again on the next roll


def test_passing_over_out_and_restart_has_no_effect() -> None:
    assert at("red=17").play("red", 4).square("red") == 21
    assert at("red=23").play("red", 4).square("red") == 27


# -- the line and the podium --------------------------------------------------------------


def test_reaching_the_line_finishes_the_horse() -> None:
    move = at("red=27").check("red", 3)
    assert (move.final, move.effect, move.place) == (30, Landing.FINISH, 1)


def test_overshooting_the_line_is_allowed() -> None:
    move = at("red=28").check("red", 6)
    assert (move.final, move.finish) == (34, True)


def test_passing_a_barrage_on_the_way_to_the_line_is_not() -> None:
    assert refusal(at("red=24 blue=28 green=28"), "red", 6) == "barrage"


def test_finishers_take_places_one_two_three_in_crossing_order() -> None:
    position = at("red=28 blue=27 green=26 yellow=3")
    position = position.play("blue", 4).play("red", 2).play("green", 5)
    assert position.podium.top3 == ("blue", "red", "green")
    assert position.over


def test_eliminations_take_places_from_five_down_and_may_reach_place_one() -> None:
    position = at("red=X5 blue=X4 green=X3 yellow=15 white=16")
    assert not position.over
    position = position.play("yellow", 4)
    assert position.podium.at(2) == "yellow" and not position.over
    position = position.play("white", 3)
    assert position.podium.places == ("white", "yellow", "green", "blue", "red")
    assert position.over


def test_the_race_ends_when_places_one_to_three_are_filled_by_finishers() -> None:
    position = at("red=F1 blue=F2 green=27 yellow=3 white=0")
    assert not position.over
    after = position.play("green", 3)
    assert after.over
    assert after.racing() == ("yellow", "white")


def test_an_elimination_can_complete_the_podium() -> None:
    position = at("red=F1 blue=F2 green=X5 yellow=X4 white=15").play("white", 4)
    assert position.podium.top3 == ("red", "blue", "white")
    assert position.over


def test_the_race_goes_on_while_place_three_is_free() -> None:
    position = at("red=F1 blue=F2 green=X5 yellow=X4 white=3")
    assert not position.over and position.racing() == ("white",)


# -- the first obstacle along the path is the reason ---------------------------------------


def test_the_first_obstacle_on_the_path_is_reported() -> None:
    # STOP (7) comes before the barrage on 10.
    assert refusal(at("yellow=7 red=10 blue=10 green=5"), "green", 6) == "stop_occupied"
    # The barrage on 6 comes before the occupied STOP.
    assert refusal(at("red=6 blue=6 yellow=7 green=4"), "green", 4) == "barrage"


def test_a_barrage_before_double_is_reported_before_a_blocked_bounce() -> None:
    position = at("red=11 blue=11 green=9 yellow=15 white=15")
    assert refusal(position, "green", 4) == "barrage"


def test_anything_blocking_the_bounce_is_a_blocked_bounce() -> None:
    assert refusal(at("red=10 yellow=15 white=15"), "red", 3) == "double_blocked"


# -- notation ------------------------------------------------------------------------------


def test_the_notation_round_trips_a_position() -> None:
    text = "red=12 blue=F1 green=0 yellow=12 white=X5"
    position = at(text)
    assert position.to_text() == text
    assert at(position.to_text()) == position
    assert position.podium.places == ("blue", None, None, None, "white")


@pytest.mark.parametrize(
    "text",
    [
        "red=12 red=13",
        "pegasus=3",
        "red=30",
        "red=-1",
        "red=F2",
        "red=X4",
        "red=F1 blue=F1",
        "red=19",
        "red=25",
        "red",
        "red=Q1",
    ],
)
def test_the_notation_refuses_impossible_positions(text: str) -> None:
    with pytest.raises(DataError, match=r"^(notation|position): "):
        at(text)


def test_every_reason_code_the_engine_gives_is_explained_on_the_rules_page() -> None:
    root = Path(__file__).resolve().parents[2]
    source = "".join(
        path.read_text(encoding="utf-8")
        for path in sorted((root / "companion" / "games" / "jumpy_jack").glob("*.py"))
    )
    codes = set(re.findall(r'Refusal\(\s*"(\w+)"', source))
    codes |= set(re.findall(r'check_horses\(.*board, "(\w+)"', source))  # predictions, guesses
    codes.add("nothing_to_undo")  # the session's: it undoes for every game
    page = (root / "docs" / "rules" / "jumpy-jack.md").read_text(encoding="utf-8")
    explained = set(re.findall(r"^\| `(\w+)` \|", page, flags=re.MULTILINE))
    assert len(codes) > 20
    assert codes == explained
