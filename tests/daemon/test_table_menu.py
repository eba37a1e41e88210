"""The start menu, resuming after a restart, and the LED layouts the table lights."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.daemon.flows.base import HORSE_BUTTONS
from companion.daemon.table import TableController
from companion.devices.base import (
    ButtonHeld,
    ButtonPressed,
    DeviceStatus,
    EncoderTurned,
    Event,
    Tone,
)
from companion.games.registry import GAMES, KINDS
from companion.render import menu as menu_screens
from companion.render.layout import LaneLeds, LayoutError, Layouts, TrackLeds, load_layout
from companion.render.screen import Cue
from companion.session.log import Predict
from companion.session.session import Session

ROOT = Path(__file__).resolve().parents[2]


class Table:
    def __init__(self, session: Session, names: tuple[str, ...] = (), **kw: Any) -> None:
        self.now = 0.0
        self.ctl = TableController(session, player_names=names, clock=lambda: self.now, **kw)

    def send(self, event: Event) -> list[Cue]:
        return list(self.ctl.handle(event))

    def press(self, *buttons: str) -> list[Cue]:
        return [c for b in buttons for c in self.send(ButtonPressed(b))]

    def turn(self, steps: int) -> None:
        self.send(EncoderTurned(steps))

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.ctl.tick(self.now)

    @property
    def lcd(self) -> list[str]:
        return list(self.ctl.screen().lcd)


def test_the_menu_lists_every_game_and_the_encoder_moves_the_cursor() -> None:
    table = Table(Session.in_memory())
    first = [f"{n} {game.title}" for n, game in enumerate(GAMES[:3], 1)]
    assert table.lcd == ["Choose a game:", *(f"{' >'[n == 0]}{row}" for n, row in enumerate(first))]
    assert table.ctl.screen().oled.lines == ("Choose", "a game")
    for number, game in enumerate(GAMES, 1):
        numbered = f"{number} " if number <= len(HORSE_BUTTONS) else "  "
        assert f">{numbered}{game.title}" in table.lcd, "the cursor is on the next game"
        table.turn(1)
    assert table.lcd[1] == f">1 {GAMES[0].title}", "the cursor wraps round to the first game"
    table.turn(2)
    table.press("push")
    assert table.lcd[0] == GAMES[2 % len(GAMES)].title


def test_a_game_past_the_last_horse_button_is_listed_without_a_number() -> None:
    titles = [f"Game {n}" for n in range(1, 8)]
    lcd = menu_screens.games(titles, 6, buttons=5).lcd
    assert lcd[1:] == (" 5 Game 5", "   Game 6", ">  Game 7")


@pytest.mark.parametrize(
    ("button", "title", "low", "high"),
    [(button, g.title, g.low, g.high) for button, g in zip(HORSE_BUTTONS, GAMES, strict=False)],
)
def test_each_game_keeps_the_number_of_players_within_its_limits(
    button: str, title: str, low: int, high: int
) -> None:
    table = Table(Session.in_memory())
    table.press(button)
    assert table.lcd[0] == title
    table.turn(-20)
    assert table.lcd[1] == f"Players:   {low} >"
    table.turn(20)
    assert table.lcd[1] == f"Players: < {high}  "
    table.press("push")
    table.turn(20)
    table.press("push")
    view = table.ctl.session.view()
    assert view.game is not None and len(view.players) == high


def test_names_come_from_the_configured_list_then_player_numbers() -> None:
    table = Table(Session.in_memory(), names=("Anna", "Ben", "anna", " "))
    table.press("horse3")
    assert table.lcd[1] == "Players:   2 >"
    table.turn(1)
    assert table.lcd[2] == "Anna, Ben, Player 3"
    table.press("push")
    table.turn(9)
    table.press("push")
    assert table.ctl.session.view().players == ("Anna", "Ben", "Player 3")


def test_options_cycle_with_push_or_a_horse_button_and_reach_the_new_game() -> None:
    table = Table(Session.in_memory(), names=("Anna", "Ben", "Chloé"))
    table.press("horse2", "push")
    assert table.lcd[0] == "Course hippique"
    assert table.ctl.screen().oled.lines == ("3 players", "Push: go")
    assert table.lcd[3] == ">Start"
    table.turn(-9)
    assert table.lcd[1] == ">Chips           100"
    table.press("push")
    assert table.lcd[1] == ">Chips           200"
    table.turn(2)
    table.press("horse4")
    assert ">Course cards      6" in table.lcd
    table.turn(1)
    table.press("push", "push")
    assert ">Setback         all" in table.lcd
    table.turn(2)  # past the language, to Start
    cues = table.press("push")
    assert Tone.ACCEPTED in [c.tone for c in cues]
    table_now = table.ctl.session.table
    assert table_now is not None
    assert table_now.start.options == {
        "starting_chips": 200,
        "rounds": 1,
        "course_length": 6,
        "setback": "all",
    }


def test_an_impossible_set_up_is_refused_and_the_menu_stays() -> None:
    table = Table(Session.in_memory())
    table.press("horse1")
    table.turn(-9)
    table.press("push")  # one player
    table.turn(-2)  # the guess variant needs an opponent
    table.press("push")
    assert ">Guess variant    on" in table.lcd
    table.turn(2)
    cues = table.press("push")
    assert [c.tone for c in cues] == [Tone.REFUSED]
    assert "two players" in " ".join(table.lcd)
    assert table.ctl.session.table is None
    table.wait(5)
    assert table.lcd[3] == ">Start"


def test_holding_undo_walks_back_through_the_menu() -> None:
    table = Table(Session.in_memory())
    table.press("horse2", "push")
    table.send(ButtonHeld("undo"))
    assert table.lcd[1].startswith("Players:")
    table.send(ButtonHeld("undo"))
    assert table.lcd[2] == ">2 Course hippique"
    table.send(ButtonHeld("undo"))
    assert table.lcd[0] == "Choose a game:"
    assert table.send(ButtonPressed("undo")) == []  # a short touch does nothing


def test_a_restart_resumes_the_active_game_and_not_a_finished_one(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    session = Session.open(path)
    session.new_game("jumpy_jack", ["Anna", "Ben"])
    assert session.submit(Predict("Anna", ("red", "blue", "green"))).accepted
    session.close()
    table = Table(Session.open(path, resume=False))
    assert table.lcd[1] == "Ben: predict"
    table.ctl.close()

    session = Session.open(path)
    session.abandon()
    session.close()
    table = Table(Session.open(path))
    assert table.lcd[0] == "Choose a game:"
    table.ctl.close()


def test_the_default_layouts_are_the_board_files_of_the_default_build() -> None:
    folder = ROOT / "companion" / "render" / "boards"
    read, default = Layouts.from_folder(folder), Layouts.default()
    assert all(read.of(kind) == default.of(kind) for kind in KINDS)
    layouts = Layouts.default()
    jumpy_jack = layouts.track("jumpy_jack")
    assert jumpy_jack.led(0) == 0 and jumpy_jack.led(29) == 58
    assert jumpy_jack.led(30) == 59  # past the line: the finish LED
    assert layouts.lanes("course_hippique").led("H", 0) == 17
    assert layouts.track("jockey").path([1, 2, 3, 4]) == (1, 2)
    with pytest.raises(LayoutError, match="lanes"):
        layouts.track("course_hippique")


def test_a_bad_board_file_names_the_key() -> None:
    text = 'game = "jockey"\nstrip_leds = 10\n[leds]\nsquares = [0, 1, 12]\n'
    with pytest.raises(LayoutError, match=r"leds.squares: LED 12"):
        load_layout(text, "jockey.toml")
    with pytest.raises(LayoutError, match="game"):
        load_layout(text, "jockey.toml", "jumpy_jack")
    good = load_layout(text.replace("12", "2"), "jockey.toml")
    assert isinstance(good, TrackLeds) and good.squares == (0, 1, 2)
    assert not isinstance(good, LaneLeds)


def test_a_lost_lcd_is_told_on_the_oled_and_a_lost_reader_on_the_lcd() -> None:
    table = Table(Session.in_memory())
    table.send(DeviceStatus("LCD", False, "LCD not responding"))
    assert table.ctl.screen().oled.lines == ("LCD not responding",)
    table.send(DeviceStatus("reader", False, "card reader not responding"))
    assert table.lcd[3] == "LCD not responding"
    table.send(DeviceStatus("LCD", True, "LCD is back"))
    assert table.lcd[3] == "LCD is back"  # for a moment
    table.wait(3)
    assert table.lcd[3] == "reader lost"
    assert table.ctl.screen().oled.lines == ("Choose", "a game")


def test_a_game_that_no_longer_replays_is_named_and_the_menu_comes_up(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    session = Session.open(path)
    game = session.new_game("jumpy_jack", ["Anna", "Ben"])
    assert session.journal is not None
    session.journal.append(game, 1, '{"type": "roll", "value": 9}', "active")
    session.close()
    table = Table(Session.open(path, resume=False))
    assert f"Game {game} cannot be resumed." in " ".join(table.lcd)
    table.wait(11)
    assert table.lcd[0] == "Choose a game:"
    table.ctl.close()


def options_rows(table: Table) -> list[str]:
    """Every option row of the options step (the list scrolls three at a time)."""
    table.turn(-9)
    seen: list[str] = []
    for _ in range(6):
        for row in table.lcd[1:]:
            if row and row.strip(" >") not in [s.strip(" >") for s in seen]:
                seen.append(row)
        table.turn(1)
    return [row.strip(" >") for row in seen]


@pytest.mark.parametrize(
    ("players", "teams"),
    [
        (2, []),
        (3, []),
        (4, ["off", "2 teams of 2"]),
        (5, []),
        (6, ["off", "2 teams of 3", "3 teams of 2"]),
        (8, ["off", "2 teams of 4", "4 teams of 2"]),
    ],
)
def test_teams_are_offered_only_when_the_players_split_evenly(
    players: int, teams: list[str]
) -> None:
    table = Table(Session.in_memory())
    table.press("horse1")
    table.turn(-9)
    table.turn(players - 1)
    table.press("push")
    rows = options_rows(table)
    offered = [r for r in rows if r.startswith("Teams")]
    assert bool(offered) == bool(teams)
    if not teams:
        return
    table.turn(-9)
    table.turn(2)  # Target, Guess variant, Teams
    shown = []
    for _ in teams:
        shown.append(table.lcd[2].strip(" >").removeprefix("Teams").strip())
        table.press("push")
    assert shown == teams


def test_teams_split_the_seats_in_order_and_are_listed_on_the_oled() -> None:
    table = Table(Session.in_memory(), names=("Anna", "Ben", "Chloé", "Dan"))
    table.press("horse1", "push")
    table.turn(-9)
    table.turn(2)
    assert table.lcd[2] == ">Teams           off"
    assert table.ctl.screen().oled.lines == ("4 players", "Options")
    table.press("horse2")  # a horse button changes the option under the cursor too
    assert table.lcd[2] == ">Teams  2 teams of 2"
    assert table.ctl.screen().oled.lines == ("1: Anna, Ben", "2: Chloé, Dan")
    table.turn(2)
    table.press("push")
    game = table.ctl.session.table
    assert game is not None
    assert game.start.options == {
        "target": 16,
        "guess": False,
        "teams": [["Anna", "Ben"], ["Chloé", "Dan"]],
    }
    # a mistaken start: holding undo brings the menu back with the teams as they were
    table.send(ButtonHeld("undo"))
    assert "Game cancelled." in table.lcd
    table.wait(5)
    assert ">Start" in table.lcd
    table.turn(-2)
    assert table.lcd[2] == ">Teams  2 teams of 2"


def test_a_changed_number_of_players_turns_the_teams_off() -> None:
    table = Table(Session.in_memory())
    table.press("horse1")
    table.turn(5)  # 6 players
    table.press("push")
    table.turn(-2)
    table.press("push", "push")
    assert ">Teams  3 teams of 2" in table.lcd
    table.send(ButtonHeld("undo"))
    table.turn(-2)  # 4 players: three teams no longer split them
    table.press("push")
    table.turn(-2)
    assert ">Teams           off" in table.lcd


def test_the_language_row_changes_what_the_table_says_at_once_and_is_remembered() -> None:
    kept: list[str] = []
    table = Table(Session.in_memory(), names=("Anna", "Ben"), remember_language=kept.append)
    table.press("horse1", "push")
    assert table.lcd[2:] == [" Language    English", ">Start"]
    table.turn(-1)
    table.press("push")
    assert table.lcd[2:] == [">Langue     Français", " Départ"]
    assert table.lcd[1] == " Devinette       non"
    assert kept == ["fr"]
    table.press("horse1")  # a horse button changes it too
    assert table.lcd[2] == ">Sprache     Deutsch"
    table.turn(1)
    table.press("push")
    assert kept == ["fr", "de"]
    assert table.lcd[3] == "Jumpy Jack: los!"
    assert table.lcd[0] == "1Ro 2Bl 3Gr 4Ge 5We"  # the horse buttons, in German colours
    assert table.lcd[1] == "Anna: Tipp"
    assert table.ctl.session.table is not None
    assert table.ctl.session.table.start.players == ("Anna", "Ben")


def test_a_table_started_in_german_names_the_seats_in_german() -> None:
    table = Table(Session.in_memory(), language="de")
    table.press("horse1")
    assert table.lcd[0] == "Jumpy Jack"
    assert table.lcd[1] == "Spieler:   1 >"
    assert table.lcd[2] == "Spieler 1"
