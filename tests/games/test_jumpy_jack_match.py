"""A Jumpy Jack match at the table: turns, predictions, scoring, the match to 16, variants,
forfeits, undo, saving, and refusals that change nothing."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from companion.games.errors import DataError, Refusal, fits_display
from companion.games.jumpy_jack import (
    Board,
    JumpyJackMatch,
    JumpyPhase,
    Landing,
    MatchOptions,
)

PODIUM = ("red", "blue", "green")

EXACT_BOARD = """
squares = 30
[hurdles]
stop = 7
double = 13
out = 19
restart = 25
[rules]
exact_finish = true
""" + "".join(
    f'[[horses]]\nname = "{name}"\ncolour = "{name}"\n'
    for name in ("red", "blue", "green", "yellow", "white")
)


def refused(code: str, action: Callable[[], object], match: JumpyJackMatch) -> Refusal:
    """Check that ``action`` is refused with ``code`` and leaves the match as it was."""
    before = match.to_json()
    with pytest.raises(Refusal) as caught:
        action()
    assert caught.value.code == code, caught.value
    assert fits_display(caught.value.sentence)
    assert match.to_json() == before
    return caught.value


def predict_all(match: JumpyJackMatch, predictions: Mapping[str, Sequence[str]]) -> None:
    for player, horses in predictions.items():
        match.predict(player, horses)


def run_race(match: JumpyJackMatch, order: Sequence[str] = PODIUM) -> None:
    """Race on the default board: each horse of ``order`` in turn makes five sixes
    (6, 12, 18, 24, then over the line), so they finish in that order."""
    for horse in order:
        for _ in range(5):
            match.roll(6)
            match.move(horse)
    assert match.phase in (JumpyPhase.RACE_OVER, JumpyPhase.MATCH_OVER)


def play(
    match: JumpyJackMatch, predictions: Mapping[str, Sequence[str]], order: Sequence[str] = PODIUM
) -> None:
    predict_all(match, predictions)
    run_race(match, order)


# -- turns ---------------------------------------------------------------------------------


def test_players_roll_in_seat_order_and_a_move_passes_the_turn() -> None:
    match = JumpyJackMatch.new(["ann", "bob", "cy"])
    predict_all(match, {p: PODIUM for p in match.players})
    assert match.phase is JumpyPhase.PREDICT and match.current_player == "ann"
    refused("not_your_turn", lambda: match.roll(3, player="bob"), match)
    match.roll(3, player="ann")
    assert match.phase is JumpyPhase.MOVE and match.die == 3
    refused("not_your_turn", lambda: match.move("red", player="bob"), match)
    match.move("red", player="ann")
    assert match.current_player == "bob" and match.phase is JumpyPhase.ROLL
    match.roll(2)
    match.move("red")
    assert match.current_player == "cy"
    match.roll(1)
    match.move("blue")
    assert match.current_player == "ann"


def test_the_race_starter_rotates_round_the_table() -> None:
    match = JumpyJackMatch.new(["ann", "bob", "cy"], MatchOptions(target=100))
    starters = []
    for _ in range(4):
        starters.append(match.current_player)
        play(match, {p: ("white", "yellow", "green") for p in match.players})
        match.next_race()
    assert starters == ["ann", "bob", "cy", "ann"]


def test_the_die_must_be_rolled_before_a_move_and_serves_one_move() -> None:
    match = JumpyJackMatch.new(["ann", "bob"])
    predict_all(match, {"ann": PODIUM, "bob": PODIUM})
    refused("no_roll", lambda: match.move("red"), match)
    match.roll(4)
    refused("roll_pending", lambda: match.roll(5), match)
    match.move("red")
    refused("already_moved", lambda: match.move("blue"), match)
    refused("already_moved", lambda: match.forfeit(), match)


def test_a_die_shows_one_to_six() -> None:
    match = JumpyJackMatch.new(["ann"])
    match.predict("ann", PODIUM)
    for value in (0, 7, -1):
        refused("invalid_die", lambda v=value: match.roll(v), match)  # type: ignore[misc]
    refused("invalid_die", lambda: match.roll(True), match)
    refused("invalid_die", lambda: match.roll(3.0), match)  # type: ignore[arg-type]
    refused("invalid_die", lambda: match.roll("3"), match)  # type: ignore[arg-type]


def test_a_move_reports_its_outcome() -> None:
    match = JumpyJackMatch.new(["ann"], position="red=10")
    match.predict("ann", PODIUM)
    match.roll(3)
    assert [m.horse for m in match.legal_moves()] == ["red", "blue", "green", "yellow", "white"]
    move = match.move("red")
    assert (move.landing, move.bounce, move.effect) == (13, 16, Landing.ADVANCE)
    assert match.last_move == move and match.position.square("red") == 16


def test_an_illegal_move_is_refused_with_the_rule_broken() -> None:
    match = JumpyJackMatch.new(["ann", "bob"], position="red=10 blue=10 green=5 yellow=7 white=X5")
    predict_all(match, {"ann": PODIUM, "bob": PODIUM})
    match.roll(3)
    refused("stop_occupied", lambda: match.move("green"), match)
    refused("barrage", lambda: match.move("yellow"), match)
    refused("horse_out", lambda: match.move("white"), match)
    refused("unknown_horse", lambda: match.move("pegasus"), match)
    assert [m.horse for m in match.legal_moves()] == ["red", "blue"]
    match.move("red")
    assert match.position.square("red") == 16


# -- forfeits ------------------------------------------------------------------------------


def test_a_forfeit_is_refused_while_a_horse_can_move() -> None:
    match = JumpyJackMatch.new(["ann", "bob"])
    predict_all(match, {"ann": PODIUM, "bob": PODIUM})
    refused("no_roll", lambda: match.forfeit(), match)
    match.roll(5)
    assert not match.must_forfeit
    refused("must_move", lambda: match.forfeit(), match)


def test_a_roll_with_no_legal_move_is_forfeited_and_the_turn_passes() -> None:
    # On a board that needs an exact finish, the last horse racing may have no legal move.
    board = Board.from_toml(EXACT_BOARD, "exact.toml")
    match = JumpyJackMatch.new(
        ["ann", "bob"],
        MatchOptions(board=board),
        position="red=28 blue=F1 green=F2 yellow=X5 white=X4",
    )
    predict_all(match, {"ann": ("blue", "green", "red"), "bob": ("blue", "white", "yellow")})
    match.roll(3)
    assert match.legal_moves() == () and match.must_forfeit
    refused("overshoot", lambda: match.move("red"), match)
    refused("roll_pending", lambda: match.roll(2), match)
    match.forfeit()
    assert match.current_player == "bob" and match.die is None
    refused("no_roll", lambda: match.move("red"), match)
    match.roll(2)
    refused("must_move", lambda: match.forfeit(), match)
    assert match.move("red").place == 3
    assert match.results[0].points == {"ann": 10, "bob": 2}


# -- predictions ---------------------------------------------------------------------------


def test_the_first_roll_waits_for_every_prediction() -> None:
    match = JumpyJackMatch.new(["ann", "bob"])
    refused("prediction_missing", lambda: match.roll(4), match)
    match.predict("ann", PODIUM)
    assert match.missing_predictions() == ("bob",)
    refused("prediction_missing", lambda: match.roll(4), match)
    match.predict("bob", ("white", "red", "blue"))
    match.roll(4)
    assert match.phase is JumpyPhase.MOVE


def test_a_prediction_may_be_rewritten_until_the_first_roll() -> None:
    match = JumpyJackMatch.new(["ann", "bob"])
    match.predict("ann", PODIUM)
    match.predict("ann", ("white", "yellow", "green"))
    match.predict("bob", PODIUM)
    assert match.prediction("ann") == ("white", "yellow", "green")
    match.roll(2)
    refused("prediction_closed", lambda: match.predict("ann", PODIUM), match)


@pytest.mark.parametrize(
    "horses",
    [
        ("red", "red", "blue"),
        ("red", "blue"),
        ("red", "blue", "green", "white"),
        ("red", "blue", "pegasus"),
    ],
)
def test_a_prediction_names_three_distinct_horses(horses: tuple[str, ...]) -> None:
    match = JumpyJackMatch.new(["ann"])
    refused("prediction_invalid", lambda: match.predict("ann", horses), match)


def test_only_seated_players_predict() -> None:
    match = JumpyJackMatch.new(["ann"])
    refused("unknown_player", lambda: match.predict("zoe", PODIUM), match)


# -- scoring and the match --------------------------------------------------------------------


def test_a_race_scores_two_four_or_ten_for_one_two_or_three_right_places() -> None:
    match = JumpyJackMatch.new(["ann", "bob", "cy", "dee"])
    play(
        match,
        {
            "ann": ("red", "blue", "green"),  # all three
            "bob": ("red", "green", "blue"),  # red only
            "cy": ("blue", "red", "white"),  # none
            "dee": ("red", "blue", "white"),  # red and blue
        },
    )
    result = match.results[0]
    assert result.podium.top3 == ("red", "blue", "green")
    assert result.points == {"ann": 10, "bob": 2, "cy": 0, "dee": 4}
    assert match.scores() == {"ann": 10, "bob": 2, "cy": 0, "dee": 4}


def test_a_prediction_is_scored_against_eliminated_horses_on_the_podium() -> None:
    match = JumpyJackMatch.new(
        ["ann", "bob"], position="red=F1 blue=F2 green=X5 yellow=X4 white=15"
    )
    predict_all(match, {"ann": ("red", "blue", "white"), "bob": ("red", "white", "blue")})
    match.roll(4)
    match.move("white")  # OUT: third elimination, place 3
    assert match.results[0].podium.top3 == ("red", "blue", "white")
    assert match.results[0].points == {"ann": 10, "bob": 2}


def test_moves_stop_when_the_race_is_over() -> None:
    match = JumpyJackMatch.new(["ann", "bob"])
    play(match, {"ann": PODIUM, "bob": ("white", "yellow", "blue")})
    assert match.phase is JumpyPhase.RACE_OVER and match.current_player is None
    refused("race_over", lambda: match.roll(3), match)
    refused("race_over", lambda: match.move("yellow"), match)
    refused("race_over", lambda: match.predict("ann", PODIUM), match)
    match.next_race()
    assert match.phase is JumpyPhase.PREDICT and match.race_number == 2
    assert match.position.occupants(0) == ("red", "blue", "green", "yellow", "white")
    assert match.missing_predictions() == ("ann", "bob")
    refused("race_running", lambda: match.next_race(), match)


def test_races_follow_until_someone_has_sixteen() -> None:
    match = JumpyJackMatch.new(["ann", "bob"])
    play(match, {"ann": ("red", "blue", "green"), "bob": ("white", "yellow", "blue")})
    assert match.scores() == {"ann": 10, "bob": 0} and match.phase is JumpyPhase.RACE_OVER
    match.next_race()
    play(match, {"ann": ("red", "blue", "white"), "bob": ("white", "yellow", "blue")})
    assert match.scores() == {"ann": 14, "bob": 0} and match.phase is JumpyPhase.RACE_OVER
    assert match.winners() == ()
    match.next_race()
    play(match, {"ann": ("red", "white", "yellow"), "bob": ("white", "yellow", "blue")})
    assert match.scores() == {"ann": 16, "bob": 0}
    assert match.phase is JumpyPhase.MATCH_OVER and match.winners() == ("ann",)
    refused("match_over", lambda: match.next_race(), match)
    refused("match_over", lambda: match.roll(2), match)
    refused("match_over", lambda: match.predict("bob", PODIUM), match)


def test_the_highest_total_wins_not_the_first_past_sixteen() -> None:
    match = JumpyJackMatch.new(["ann", "bob"])
    for ann, bob in [
        (("red", "blue", "green"), ("red", "white", "yellow")),  # 10, 2
        (("red", "white", "yellow"), ("red", "blue", "green")),  # 2, 10
        (("red", "blue", "white"), ("red", "blue", "green")),  # 4, 10
    ]:
        if match.phase is JumpyPhase.RACE_OVER:
            match.next_race()
        play(match, {"ann": ann, "bob": bob})
    assert match.scores() == {"ann": 16, "bob": 22}
    assert match.winners() == ("bob",)


def test_equal_highest_totals_share_the_win() -> None:
    match = JumpyJackMatch.new(["ann", "bob", "cy"])
    same = {"ann": PODIUM, "bob": PODIUM, "cy": ("white", "yellow", "blue")}
    play(match, same)
    match.next_race()
    play(match, same)
    assert match.scores() == {"ann": 20, "bob": 20, "cy": 0}
    assert match.winners() == ("ann", "bob")


# -- teams ---------------------------------------------------------------------------------


def test_teams_add_their_members_points_and_race_to_sixteen_times_their_size() -> None:
    teams = (("ann", "cy"), ("bob", "dee"))
    match = JumpyJackMatch.new(["ann", "bob", "cy", "dee"], MatchOptions(teams=teams))
    assert match.target == 32
    nothing = ("white", "yellow", "blue")
    play(match, {"ann": PODIUM, "bob": nothing, "cy": nothing, "dee": ("red", "green", "blue")})
    match.next_race()
    play(match, {"ann": PODIUM, "bob": nothing, "cy": nothing, "dee": nothing})
    assert match.scores()["ann"] == 20  # past 16 alone: a team needs 32
    assert match.team_scores() == ((("ann", "cy"), 20), (("bob", "dee"), 2))
    assert match.phase is JumpyPhase.RACE_OVER
    match.next_race()
    play(match, {"ann": PODIUM, "bob": nothing, "cy": ("red", "blue", "white"), "dee": nothing})
    assert match.team_scores() == ((("ann", "cy"), 34), (("bob", "dee"), 2))
    assert match.phase is JumpyPhase.MATCH_OVER
    assert match.winners() == ("ann", "cy")


@pytest.mark.parametrize(
    "teams",
    [
        (("ann", "bob", "cy"), ("dee",)),
        (("ann", "bob"), ("cy",)),
        (("ann", "bob", "cy", "dee"),),
        (("ann", "zoe"), ("cy", "dee")),
    ],
)
def test_teams_are_fixed_and_of_equal_size(teams: tuple[tuple[str, ...], ...]) -> None:
    with pytest.raises(Refusal) as caught:
        JumpyJackMatch.new(["ann", "bob", "cy", "dee"], MatchOptions(teams=teams))
    assert caught.value.code == "teams_invalid"


# -- guesses -------------------------------------------------------------------------------


def test_guesses_score_a_bonus_point_a_horse_and_four_for_all_three() -> None:
    match = JumpyJackMatch.new(["ann", "bob", "cy"], MatchOptions(guess=True))
    predict_all(
        match,
        {
            "ann": ("red", "blue", "green"),
            "bob": ("blue", "red", "green"),
            "cy": ("white", "yellow", "green"),
        },
    )
    match.guess("bob", "cy", ("white", "red", "blue"))
    match.guess("bob", "ann", ("red", "blue", "green"))  # replaces the guess of cy: all three
    match.guess("cy", "ann", ("red", "green", "blue"))  # red only
    match.guess("ann", "bob", ("blue", "red", "yellow"))  # two
    run_race(match)
    result = match.results[0]
    assert result.points == {"ann": 10, "bob": 2, "cy": 2}
    assert result.bonus == {"ann": 2, "bob": 4, "cy": 1}
    assert match.scores() == {"ann": 12, "bob": 6, "cy": 3}


def test_guesses_open_once_everyone_has_predicted_and_close_at_the_first_roll() -> None:
    match = JumpyJackMatch.new(["ann", "bob"], MatchOptions(guess=True))
    match.predict("ann", PODIUM)
    refused("prediction_missing", lambda: match.guess("ann", "bob", PODIUM), match)
    match.predict("bob", PODIUM)
    refused("not_an_opponent", lambda: match.guess("ann", "ann", PODIUM), match)
    refused("unknown_player", lambda: match.guess("ann", "zoe", PODIUM), match)
    refused("guess_invalid", lambda: match.guess("ann", "bob", ("red", "red", "blue")), match)
    match.guess("ann", "bob", PODIUM)
    match.roll(1)
    refused("guess_closed", lambda: match.guess("bob", "ann", PODIUM), match)


def test_bonus_points_count_toward_the_target() -> None:
    match = JumpyJackMatch.new(["ann", "bob"], MatchOptions(guess=True))
    predict_all(match, {"ann": PODIUM, "bob": ("white", "yellow", "blue")})
    match.guess("ann", "bob", ("white", "yellow", "green"))  # 2 bonus
    run_race(match)
    match.next_race()
    predict_all(match, {"ann": ("red", "white", "yellow"), "bob": ("white", "yellow", "blue")})
    match.guess("ann", "bob", ("white", "yellow", "green"))  # 2 bonus
    run_race(match)
    assert [r.points["ann"] for r in match.results] == [10, 2]
    assert match.scores()["ann"] == 16 and match.phase is JumpyPhase.MATCH_OVER


def test_a_guess_needs_the_variant_and_an_opponent() -> None:
    plain = JumpyJackMatch.new(["ann", "bob"])
    predict_all(plain, {"ann": PODIUM, "bob": PODIUM})
    refused("guess_off", lambda: plain.guess("ann", "bob", PODIUM), plain)
    teams = MatchOptions(guess=True, teams=(("ann", "bob"), ("cy", "dee")))
    match = JumpyJackMatch.new(["ann", "bob", "cy", "dee"], teams)
    predict_all(match, {p: PODIUM for p in match.players})
    refused("not_an_opponent", lambda: match.guess("ann", "bob", PODIUM), match)
    match.guess("ann", "cy", PODIUM)


# -- saving --------------------------------------------------------------------------------


def test_a_saved_match_restores_equal_and_plays_on_the_same() -> None:
    match = JumpyJackMatch.new(["ann", "bob", "cy"], MatchOptions(guess=True, target=20))
    play(match, {"ann": PODIUM, "bob": ("blue", "red", "green"), "cy": ("white", "red", "blue")})
    match.next_race()
    predict_all(match, {p: PODIUM for p in match.players})
    match.guess("cy", "ann", PODIUM)
    match.roll(6)
    restored = JumpyJackMatch.from_json(match.to_json())
    assert restored == match
    assert restored.to_json() == match.to_json()
    for game in (match, restored):
        game.move("white")
    assert restored == match and restored.die is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[:-5],
        lambda text: text.replace('"companion.jumpy_jack/1"', '"companion.jumpy_jack/9"'),
        lambda text: text.replace('"position":"red=6', '"position":"red=13'),
        lambda text: text.replace('"turn":', '"tour":', 1),
        lambda text: text.replace('"squares":30', '"squares":3'),
        lambda text: "[]",
    ],
)
def test_a_damaged_save_is_a_data_error(damage: Callable[[str], str]) -> None:
    match = JumpyJackMatch.new(["ann", "bob"])
    predict_all(match, {"ann": PODIUM, "bob": PODIUM})
    match.roll(6)
    match.move("red")
    text = damage(match.to_json())
    assert text != match.to_json()
    with pytest.raises(DataError, match="saved game"):
        JumpyJackMatch.from_json(text)


# -- starting a match ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "code"),
    [
        ([], MatchOptions(), "players_invalid"),
        (["ann", "ann"], MatchOptions(), "players_invalid"),
        (["ann", " "], MatchOptions(), "players_invalid"),
        (["ann"], MatchOptions(guess=True), "options_invalid"),
        (["ann", "bob"], MatchOptions(target=0), "options_invalid"),
    ],
)
def test_a_match_needs_sensible_players_and_options(
    players: list[str], options: MatchOptions, code: str
) -> None:
    with pytest.raises(Refusal) as caught:
        JumpyJackMatch.new(players, options)
    assert caught.value.code == code


def test_every_refusal_fits_the_display_even_with_long_names() -> None:
    long_player = "Bartholomew the Magnificent"
    names = ("Tornadoxyz", "Eclairxyzw", "Jollyxyzwv", "Pomponxyzw", "Zephyrxyzw")
    board = Board.from_toml(
        EXACT_BOARD.replace('"red"', f'"{names[0]}"', 1)
        .replace('"blue"', f'"{names[1]}"', 1)
        .replace('"green"', f'"{names[2]}"', 1)
        .replace('"yellow"', f'"{names[3]}"', 1)
        .replace('"white"', f'"{names[4]}"', 1),
        "long.toml",
    )
    players = [long_player, "Maximiliana Ottoline"]
    position = f"{names[0]}=10 {names[1]}=16 {names[2]}=16 {names[3]}=28 {names[4]}=X5"
    match = JumpyJackMatch.new(players, MatchOptions(board=board, guess=True), position=position)
    codes = set()
    attempts: list[Callable[[], object]] = [
        lambda: match.roll(3),
        lambda: match.guess(long_player, "Nobody In Particular At All", names[:3]),
        lambda: match.predict(long_player, (names[0], names[0], names[1])),
    ]
    for attempt in attempts:
        with pytest.raises(Refusal) as caught:
            attempt()
        codes.add(caught.value.code)
    predict_all(match, {p: names[:3] for p in players})
    match.roll(3)
    later: list[Callable[[], object]] = [
        lambda: match.move(names[0]),  # bounce onto a barrage
        lambda: match.move(names[3]),  # past the line on an exact-finish board
        lambda: match.move(names[4]),
        lambda: match.move("Supercalifragilistic"),
        lambda: match.roll(2, player=players[1]),
        lambda: match.roll(2),
        lambda: match.forfeit(),
    ]
    for attempt in later:
        with pytest.raises(Refusal) as caught:
            attempt()
        codes.add(caught.value.code)
        assert fits_display(caught.value.sentence)
    assert {"double_blocked", "overshoot", "horse_out", "unknown_horse", "not_your_turn"} <= codes
