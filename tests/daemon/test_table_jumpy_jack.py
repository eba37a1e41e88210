"""Jumpy Jack at the table: what the players see and hear while they press, roll and undo."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.devices.base import (
    DeviceStatus,
    DieIgnored,
    DieRolled,
    Tone,
)
from companion.games.jumpy_jack.board import COLOURS, Horse
from companion.render.leds import BARRAGE, colour, dim
from companion.render.screen import Cue, StripWalk
from companion.session.log import LogEntry, Predict, Roll
from companion.session.log import MoveEntry as MoveEntry
from companion.session.session import Session

HORSES = ("red", "blue", "green", "yellow", "white")
#: A short lap (12 squares) for quick races.
SHORT_BOARD: dict[str, Any] = {
    "squares": 12,
    "hurdles": {"stop": 3, "double": 5, "out": 8, "restart": 10},
    "horses": [{"name": h, "colour": h} for h in HORSES],
}
#: A lap on which the very first roll of 5 lands every horse on DOUBLE and bounces past an
#: exact finish: no horse can move.
FORFEIT_BOARD: dict[str, Any] = {
    "squares": 8,
    "hurdles": {"stop": 2, "double": 5, "out": 3, "restart": 6},
    "horses": [{"name": h, "colour": h} for h in HORSES],
    "rules": {"exact_finish": True},
}


def tones(cues: Sequence[Cue]) -> list[Tone]:
    return [c.tone for c in cues if c.tone is not None]


def moves(cues: Sequence[Cue]) -> list[StripWalk]:
    return [c.move for c in cues if c.move is not None]


def start_jumpy(table: Any, *, target_presses: int = 0, guess: bool = False) -> None:
    """Choose Jumpy Jack in the menu with the configured players and start it."""
    assert "Choose a game" in table.lcd
    table.press("horse1")
    assert "Players: < 2 >" in table.lcd or "Players:   1 >" not in table.lcd
    table.press("push")
    table.turn(-5)  # to the first option: Target
    for _ in range(target_presses):
        table.press("push")
    if guess:
        table.turn(1)
        table.press("horse1")
    table.turn(5)  # down to "Start"
    assert ">Start" in table.lcd
    table.press("push")
    assert table.view.game == "jumpy_jack"


def predict(table: Any, *horses: str) -> None:
    for horse in horses:
        table.press(f"horse{HORSES.index(horse) + 1}")


def play_race(table: Any, rng: random.Random) -> list[Cue]:
    """Roll and move a random legal horse until the race is over; return the cues."""
    cues: list[Cue] = []
    while table.view.phase in ("roll", "predict"):
        cues += table.roll(rng.randint(1, 6))
        if table.view.phase == "move":
            legal = table.view.board.legal_horses
            assert legal, "a roll no horse can use is forfeited at once"
            cues += table.press(f"horse{HORSES.index(rng.choice(legal)) + 1}")
    return cues


def test_a_whole_match_from_the_menu_to_the_winners_and_back(make_table: Any) -> None:
    table = make_table(Session.in_memory(), game_options={"jumpy_jack": {"board": SHORT_BOARD}})
    start_jumpy(table, target_presses=3)  # 16 -> 8 -> 4 -> 2 points
    assert table.view.board.target == 2
    rng = random.Random(7)
    races = 0
    all_cues: list[Cue] = []
    while table.view.phase != "match_over":
        races += 1
        assert table.view.phase == "predict"
        assert "Anna: predict" in table.lcd
        predict(table, *rng.sample(HORSES, 3))
        assert "Ben: predict" in table.lcd
        predict(table, *rng.sample(HORSES, 3))
        assert "Anna's turn\nPress the die" in table.lcd
        all_cues += play_race(table, rng)
        if table.view.phase == "race_over":
            assert f"Race {races} over" in table.lcd
            table.press("push")
        assert races < 30
    screen = table.screen
    winners = table.view.winners
    assert winners
    assert "Match over!" in screen.lcd[0]
    assert winners[0] in screen.lcd[1]
    assert Tone.FINISH in tones(all_cues)
    # The reveal: turning the encoder shows each player's prediction of the last race.
    result = table.view.board.results[-1]
    # page 1 is the match, 2 the ranking, 3 the race, 4 Anna's prediction
    assert table.screen.lcd[0] == "Match over!      1/5"
    table.turn(3)
    assert table.screen.lcd[0] == "Anna             4/5"
    assert (
        table.screen.lcd[1] == f"+{result.points['Anna']}, total {table.view.board.scores['Anna']}"
    )
    assert table.screen.lcd[2] == " ".join(result.predictions["Anna"])
    table.press("push")
    assert "Choose a game" in table.lcd


def test_a_move_lights_the_horse_animates_its_path_and_beeps(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table)
    predict(table, "red", "blue", "green")
    predict(table, "white", "yellow", "green")
    rolling = table.press("die")
    assert rolling == [Cue(rolling=True)]
    table.send(DieRolled(4))
    assert table.screen.oled.die == 4
    assert table.screen.lcd[:2] == ("Anna: die 4", "Move any horse")
    cues = table.press("horse2")
    assert tones(cues) == [Tone.ACCEPTED]
    (move,) = moves(cues)
    assert move.colour == colour("blue")
    assert move.path == (2, 4, 6, 8)  # squares 1..4 on the default layout (LED 2 * square)
    assert table.screen.leds[8] == colour("blue")
    assert "Ben's turn" in table.screen.lcd[0]


def barrage_on_three(*more: LogEntry) -> Session:
    """Anna and Ben predicted; red then blue moved 3: a barrage on square 3; then ``more``."""
    session = Session.in_memory()
    session.new_game("jumpy_jack", ["Anna", "Ben"])
    for entry in (
        Predict("Anna", ("red", "blue", "green")),
        Predict("Ben", ("red", "blue", "green")),
        Roll(3),
        MoveEntry("red"),
        Roll(3),
        MoveEntry("blue"),
        *more,
    ):
        assert session.submit(entry).accepted
    return session


def test_the_legal_horses_are_shown_and_the_others_dimmed(make_table: Any) -> None:
    session = barrage_on_three(Roll(1), MoveEntry("green"))
    table = make_table(session)
    assert table.screen.leds[6] == BARRAGE  # red and blue share square 3
    table.roll(4)
    # Every horse behind the barrage on 3 would pass it: only red and blue can move 4.
    assert table.screen.lcd[:3] == ("Ben: die 4", "Move one of:", "1red 2blue")
    assert table.screen.leds[2] == dim(colour("green"))
    other = make_table(barrage_on_three(Roll(1), MoveEntry("green")))
    other.roll(1)  # a 1 passes no barrage: every horse can move
    assert other.screen.lcd[:2] == ("Ben: die 1", "Move any horse")
    assert other.screen.leds[2] == colour("green")


def test_an_illegal_horse_is_refused_with_its_reason_for_a_few_seconds(make_table: Any) -> None:
    session = barrage_on_three()
    table = make_table(session)
    table.roll(4)
    before = table.ctl.session.accepted()
    cues = table.press("horse3")  # green, from the start, would pass the barrage on 3
    assert tones(cues) == [Tone.REFUSED]
    assert moves(cues) == []
    assert "Barrage on square 3" in table.lcd
    assert table.ctl.session.accepted() == before
    assert table.ctl.next_deadline() is not None
    table.wait(5)
    assert "Barrage" not in table.lcd
    assert "Anna: die 4\nMove one of:" in table.lcd
    assert table.ctl.next_deadline() is None


def test_a_reader_drawing_the_table_leaves_an_old_message_for_the_loop(make_table: Any) -> None:
    """The control socket and the pages draw the table between inputs; the panel is drawn
    again only when the loop's deadline comes. A reader's drawing after the message's time
    must leave that deadline in place, or the LCD keeps the message until the next input."""
    table = make_table(barrage_on_three())
    table.roll(4)
    table.press("horse3")  # refused: "Barrage on square 3" for a few seconds
    deadline = table.ctl.next_deadline()
    assert deadline is not None
    table.now = deadline + 0.5  # the message's time has passed, the loop not yet woken
    assert "Barrage" not in "\n".join(table.ctl.screen().lcd)  # what a reader draws
    assert table.ctl.next_deadline() == deadline, "the loop would never draw the panel again"
    table.ctl.tick(table.now)
    assert table.ctl.next_deadline() is None


def test_the_die_pressed_again_while_it_rolls_says_wait(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table)
    predict(table, "red", "blue", "green")
    predict(table, "white", "yellow", "green")
    table.press("die")
    assert table.send(DieIgnored()) == []
    assert "Wait for the die" in table.lcd


def test_a_prediction_is_entered_as_stars_and_never_shown(make_table: Any) -> None:
    table = make_table(Session.in_memory(), names=("Anna", "Ben", "Chloé"))
    table.press("horse1")
    assert "Players: < 3 >" in table.lcd
    table.press("push")
    table.turn(5)
    table.press("push")
    assert table.view.players == ("Anna", "Ben", "Chloé")
    assert "1st 2nd 3rd: _ _ _" in table.lcd
    leds = table.screen.leds
    for horses in (("red", "blue", "green"), ("white", "yellow", "red"), ("green", "red", "blue")):
        for count, horse in enumerate(horses, 1):
            table.press(f"horse{HORSES.index(horse) + 1}")
            screen = table.screen
            words = set(re.findall(r"[a-z]+", " ".join([*screen.lcd, *screen.oled.lines]).lower()))
            assert not words & set(HORSES)
            assert screen.leds == leds
            if count < 3:
                entered = " ".join(["*"] * count + ["_"] * (3 - count))
                assert f"1st 2nd 3rd: {entered}" in screen.lcd
    assert "sealed ***" in table.lcd
    assert table.view.sealed == ("Anna", "Ben", "Chloé")


def test_two_predictions_of_different_horses_look_the_same(make_table: Any) -> None:
    screens = []
    for horses in (("red", "blue", "green"), ("white", "yellow", "blue")):
        table = make_table(Session.in_memory())
        start_jumpy(table)
        shots = []
        for horse in horses:
            table.press(f"horse{HORSES.index(horse) + 1}")
            shots.append(table.screen)
        screens.append(shots)
    assert screens[0] == screens[1]


def test_a_repeated_horse_is_refused_without_saying_which(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table)
    cues = table.press("horse1", "horse1", "horse2")
    assert tones(cues)[-1] == Tone.REFUSED
    assert "Anna: prediction refused: enter it again." in table.said
    assert not set(re.findall(r"[a-z]+", table.lcd.lower())) & set(HORSES)
    assert "Anna: predict" in table.lcd
    assert table.view.waiting_for == ("Anna", "Ben")


def test_guesses_follow_the_predictions_and_are_revealed_after_the_race(make_table: Any) -> None:
    table = make_table(
        Session.in_memory(),
        names=("Anna", "Ben", "Chloé"),
        game_options={"jumpy_jack": {"board": SHORT_BOARD}},
    )
    start_jumpy(table, guess=True)
    predict(table, "red", "blue", "green")
    predict(table, "white", "yellow", "green")
    predict(table, "green", "red", "blue")
    assert table.screen.lcd[1] == "Anna: guess whose?"
    assert table.screen.lcd[2] == "< Ben >"
    table.turn(1)
    assert table.screen.lcd[2] == "< Chloé >"
    table.press("push")
    assert table.screen.lcd[2] == "1st 2nd 3rd: _ _ _"
    predict(table, "green", "red", "white")
    assert "Anna: sealed ***" in table.lcd
    assert table.screen.lcd[1] == "Ben: guess whose?"
    table.turn(2)
    assert table.screen.lcd[2] == "< no guess >"
    table.press("push")
    assert table.screen.lcd[1] == "Chloé: guess whose?"
    play_race(table, random.Random(5))
    result = table.view.board.results[-1]
    guess = result.guesses["Anna"]
    assert (guess.target, guess.horses) == ("Chloé", ("green", "red", "white"))
    assert set(result.guesses) == {"Anna"}
    table.wait(5)
    table.turn(1)
    assert table.screen.lcd[3] == f"Guess Chloé: +{result.bonus['Anna']}"
    table.turn(1)
    assert table.screen.lcd[0].startswith("Ben") and table.screen.lcd[3] == "No guess"


def test_holding_undo_takes_back_a_press_then_a_move(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table)
    table.press("horse1", "horse2")
    assert "* * _" in table.lcd
    table.hold_undo()
    assert "* _ _" in table.lcd
    table.press("horse3", "horse4")
    predict(table, "white", "yellow", "green")
    table.roll(2)
    table.press("horse5")
    assert table.screen.leds[4] == colour("white")
    assert table.view.turn == "Ben"
    table.hold_undo()
    assert table.screen.leds[4] == (0, 0, 0)
    assert table.view.turn == "Anna" and table.view.board.die == 2
    assert "Undone" in table.lcd
    table.press("horse1")
    assert table.screen.leds[4] == colour("red")


def test_holding_undo_at_the_start_of_a_game_goes_back_to_the_menu(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table, target_presses=1)
    table.hold_undo()
    assert "Game cancelled" in table.lcd
    table.wait(5)
    assert ">Start" in table.lcd
    table.turn(-3)  # up past the language and the guess variant
    assert ">Target" in table.lcd and " 8" in table.lcd
    table.hold_undo()
    assert "Players:" in table.lcd
    table.hold_undo()
    assert "Choose a game" in table.lcd


def test_a_roll_no_horse_can_use_is_forfeited_and_announced(make_table: Any) -> None:
    table = make_table(Session.in_memory(), game_options={"jumpy_jack": {"board": FORFEIT_BOARD}})
    start_jumpy(table)
    predict(table, "red", "blue", "green")
    predict(table, "white", "yellow", "green")
    table.roll(5)
    assert table.view.phase == "roll"
    assert table.view.turn == "Ben"
    assert "No horse can move 5" in table.lcd
    assert table.ctl.session.accepted()[-1].TYPE == "forfeit"
    # Undo takes back the forfeit and the roll that caused it; the roll comes back, so the
    # forfeit does too: undo never buys a new roll.
    table.hold_undo()
    assert table.view.turn == "Anna" and table.view.board.die is None
    assert "Roll taken back: the die stays 5." in table.said
    table.roll(1)
    assert table.view.turn == "Ben" and "No horse can move 5" in table.lcd


def test_a_three_of_three_prediction_plays_the_jumpy_jack_tune(make_table: Any) -> None:
    rng = random.Random(3)
    first = make_table(Session.in_memory(), game_options={"jumpy_jack": {"board": SHORT_BOARD}})
    start_jumpy(first)
    predict(first, "red", "blue", "green")
    predict(first, "red", "blue", "green")
    rolls: list[tuple[int, str]] = []
    while first.view.phase != "race_over":
        value = rng.randint(1, 6)
        first.roll(value)
        if first.view.phase == "move":
            horse = rng.choice(first.view.board.legal_horses)
            first.press(f"horse{HORSES.index(horse) + 1}")
            rolls.append((value, horse))
        else:
            rolls.append((value, ""))
    podium = first.view.board.results[-1].podium
    places = [*podium.finishers, *reversed(podium.eliminated)]
    top = tuple(places[:3]) if len(places) >= 3 else tuple(first.view.board.podium)
    second = make_table(Session.in_memory(), game_options={"jumpy_jack": {"board": SHORT_BOARD}})
    start_jumpy(second)
    predict(second, *top)
    predict(second, "white", "yellow", "green")
    cues: list[Cue] = []
    for value, horse in rolls:
        cues += second.roll(value)
        if horse:
            cues += second.press(f"horse{HORSES.index(horse) + 1}")
    assert second.view.board.results[-1].points["Anna"] == 10
    assert tones(cues)[-1] == Tone.JUMPY_JACK
    assert "Jumpy Jack!" in second.lcd


def test_after_a_restart_the_match_goes_on_where_it_was(make_table: Any, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    table = make_table(Session.open(path))
    start_jumpy(table)
    predict(table, "red", "blue", "green")
    table.press("horse1")  # Ben has pressed one horse when the power goes
    picture = table.screen
    table.ctl.close()

    again = make_table(Session.open(path))
    assert again.view.waiting_for == ("Ben",)
    assert "Ben: predict" in again.lcd
    assert "_ _ _" in again.lcd  # an unsealed entry is not kept: Ben starts again
    assert again.screen.lcd[:2] == picture.lcd[:2]
    assert again.screen.lcd[3] == "Game resumed."
    again.wait(5)
    assert again.screen.lcd[3] == "Others look away"
    assert again.screen.leds == picture.leds
    predict(again, "white", "yellow", "green")
    again.roll(3)
    again.press("horse1")
    again.ctl.close()

    third = make_table(Session.open(path))
    assert third.view.turn == "Ben"
    assert third.screen.leds[6] == colour("red")
    third.ctl.close()


def test_a_lost_device_is_named_now_and_then_until_it_is_back(make_table: Any) -> None:
    table = make_table(Session.in_memory())
    table.send(DeviceStatus("LED strip", False, "LED strip not responding"))
    assert table.screen.lcd[3] == "LED strip lost"
    assert table.ctl.next_deadline() == table.now + 5
    table.turn(1)
    assert table.screen.lcd[3] == "LED strip lost"
    table.wait(5)  # the row it covers comes back...
    assert table.screen.lcd[3] == " 3 Jockey"
    table.send(DeviceStatus("LED strip", False, "LED strip not responding"))
    assert table.screen.lcd[3] == " 3 Jockey"  # (told again changes nothing)
    assert table.ctl.next_deadline() == table.now + 27
    table.wait(27)  # ...and the strip is named again every half minute
    assert table.screen.lcd[3] == "LED strip lost"
    table.wait(3)
    assert table.screen.lcd[3] == " 3 Jockey"
    table.send(DeviceStatus("LED strip", True, "LED strip is back"))
    assert "LED strip is back" in table.lcd
    table.wait(3)
    assert "LED strip" not in table.lcd
    assert table.ctl.next_deadline() is None


def test_a_stray_error_is_shown_and_never_raised(make_table: Any, monkeypatch: Any) -> None:
    table = make_table(Session.in_memory())
    start_jumpy(table)

    def broken(entry: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(table.ctl.session, "submit", broken)
    cues = table.press("horse1", "horse2", "horse3")
    assert tones(cues)[-1] == Tone.REFUSED
    assert "Something went wrong: that input was ignored." in table.said


def test_the_strip_lights_a_colour_word_as_the_board_file_defines_it() -> None:
    for word, rgb in COLOURS.items():
        assert colour(word) == Horse("x", word).rgb == rgb
        assert colour(word.upper()) == rgb
    assert colour("#102030") == (16, 32, 48)
    assert colour("tartan") == (128, 128, 128)


TEAMS = [["Anna", "Ben"], ["Chloé", "Dan"]]


def test_teams_show_their_scores_and_a_team_wins_the_match(make_table: Any) -> None:
    session = Session.in_memory()
    session.new_game(
        "jumpy_jack",
        ["Anna", "Ben", "Chloé", "Dan"],
        {"board": SHORT_BOARD, "target": 2, "teams": TEAMS},
    )
    table = make_table(session)
    for horses in (("red", "blue", "green"),) * 4:
        predict(table, *horses)
    table.wait(5)
    assert table.screen.lcd[3] == "Team 1 0 Team 2 0"
    play_race(table, random.Random(3))
    teams = table.view.board.teams
    if table.view.phase == "race_over":
        table.wait(5)
        points = table.view.board.results[-1].points
        gains = [sum(points[p] for p in team) for team in TEAMS]
        assert table.screen.lcd[2] == f"Team 1 +{gains[0]} Team 2 +{gains[1]}"
        table.turn(1)  # after the race: the teams
        assert table.screen.lcd[0].startswith(f"Team 1: {teams[0].score}")
        assert table.screen.lcd[1:] == (
            "Anna, Ben",
            f"Team 2: {teams[1].score}",
            "Chloé, Dan",
        )
    while table.view.phase != "match_over":
        table.press("push")
        for horses in (("white", "yellow", "red"),) * 4:
            predict(table, *horses)
        play_race(table, random.Random(4))
    table.wait(5)
    teams = table.view.board.teams
    best = max(t.score for t in teams)
    winners = [f"Team {n}" for n, t in enumerate(teams, 1) if t.score == best]
    said = f"Winner: {winners[0]}" if len(winners) == 1 else "Tie: Team 1, Team 2"
    assert table.screen.lcd[1] == said
    if len(winners) == 1:
        assert table.screen.oled.lines == (winners[0], "wins!")
    table.turn(1)
    assert table.screen.lcd[0].startswith("Ranking")
    assert table.screen.lcd[1] == f"1. {winners[0]} {best}"


def test_a_guess_is_never_of_a_teammate(make_table: Any) -> None:
    session = Session.in_memory()
    session.new_game(
        "jumpy_jack",
        ["Anna", "Ben", "Chloé", "Dan"],
        {"board": SHORT_BOARD, "guess": True, "teams": TEAMS},
    )
    table = make_table(session)
    for horses in (("red", "blue", "green"),) * 4:
        predict(table, *horses)
    offered = []
    for _ in range(3):
        offered.append(table.screen.lcd[2])
        table.turn(1)
    assert table.screen.lcd[1] == "Anna: guess whose?"
    assert offered == ["< Chloé >", "< Dan >", "< no guess >"]


def test_horses_pressed_for_one_prediction_never_become_the_next_players(make_table: Any) -> None:
    """Two horses pressed at the panel for Anna; Anna seals her prediction from her phone:
    the panel then asks Ben with nothing pressed, and Ben's three presses are his alone."""
    table = make_table(Session.in_memory(), ("Anna", "Ben"))
    start_jumpy(table)
    assert "Anna: predict" in table.lcd
    table.press("horse1", "horse2")
    assert "3rd: * * _" in table.lcd
    phone = Predict("Anna", ("white", "yellow", "green"))
    table.ctl.apply(lambda ctx: ctx.submit(phone)[1])  # Anna's phone, through the pages' door
    assert "Ben: predict" in table.lcd
    assert "3rd: _ _ _" in table.lcd  # nothing chosen for Ben
    table.press("horse3", "horse4", "horse5")
    assert table.view.sealed == ("Anna", "Ben")
    table.roll(6)  # the first roll scores nothing yet: the predictions stay Anna's and Ben's
    assert table.ctl.session.private_view("Ben").details.prediction == ("green", "yellow", "white")
    assert table.ctl.session.private_view("Anna").details.prediction == ("white", "yellow", "green")
