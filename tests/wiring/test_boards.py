"""The board files: the engines' tracks, and an LED on the strip for every place a horse can be."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.devices.config import default_config
from companion.games.course_hippique.table import COURSE_LENGTHS, HippiqueOptions
from companion.games.course_hippique.track import HORSES as HIPPIQUE_HORSES
from companion.games.jockey.race import TRACK_LENGTH
from companion.games.jumpy_jack.board import Board
from companion.games.registry import BUILT_IN, GAMES
from tests.registered import board_file

BOARDS = tuple(game.kind for game in GAMES)
#: The games the companion ships: their board files are in companion/render/boards/.
SHIPPED = tuple(game.kind for game in BUILT_IN)


def load_board(root: Path, name: str) -> dict[str, Any]:
    with board_file(name).open("rb") as handle:
        return tomllib.load(handle)


def all_leds(board: dict[str, Any]) -> list[int]:
    return [led for value in board["leds"].values() for led in value]


def test_there_is_one_board_file_per_game(root: Path) -> None:
    files = sorted(p.stem for p in (root / "companion" / "render" / "boards").glob("*.toml"))
    assert files == sorted(SHIPPED)


@pytest.mark.parametrize("name", BOARDS)
def test_every_led_is_on_the_strip_the_daemon_drives(root: Path, name: str) -> None:
    board = load_board(root, name)
    assert board["game"] == name
    strip = default_config().strip
    assert strip is not None
    assert 0 < board["strip_leds"] <= strip.count
    leds = all_leds(board)
    assert min(leds) == 0
    assert max(leds) == board["strip_leds"] - 1, "strip_leds must be the LEDs the board uses"


def test_jumpy_jack_track_is_the_engines_default_board(root: Path) -> None:
    board = load_board(root, "jumpy_jack")
    engine = Board.default()
    assert board["track"]["squares"] == engine.squares
    hurdles = board["hurdles"]
    assert (hurdles["stop"], hurdles["double"], hurdles["out"], hurdles["restart"]) == (
        engine.stop,
        engine.double,
        engine.out,
        engine.restart,
    )


def test_jumpy_jack_lights_every_square_on_its_own_led_in_race_order(root: Path) -> None:
    board = load_board(root, "jumpy_jack")
    squares = board["leds"]["squares"]
    assert len(squares) == board["track"]["squares"]
    assert squares == sorted(set(squares)), "a move forward must walk forward on the strip"
    assert not set(board["leds"]["finish"]) & set(squares)
    # The finish line sits between the last square and the start square of the ring.
    assert squares[-1] < board["leds"]["finish"][0] < board["strip_leds"]


def test_course_hippique_lanes_are_the_engines_horses(root: Path) -> None:
    board = load_board(root, "course_hippique")
    assert board["track"]["lanes"] == [suit.name.lower() for suit in HIPPIQUE_HORSES]
    assert board["track"]["rows"] == max(COURSE_LENGTHS) == HippiqueOptions().course_length


def test_course_hippique_gives_each_lane_position_its_own_led(root: Path) -> None:
    board = load_board(root, "course_hippique")
    rows = board["track"]["rows"]
    lanes = [board["leds"][lane] for lane in board["track"]["lanes"]]
    for lane in lanes:
        assert len(lane) == rows + 2  # start line, the course rows, past the finish
        steps = {b - a for a, b in itertools.pairwise(lane)}
        assert steps in ({1}, {-1}), "a lane must be one uncut run of the strip"
    leds = [led for lane in lanes for led in lane]
    assert len(leds) == len(set(leds)) == board["strip_leds"]


def test_jockey_maps_every_square_in_order_with_start_and_finish_apart(root: Path) -> None:
    board = load_board(root, "jockey")
    squares, finish = board["leds"]["squares"], board["leds"]["finish"]
    assert board["track"]["squares"] == TRACK_LENGTH
    assert len(squares) == TRACK_LENGTH + 1  # progress 0 (start) .. 80
    assert squares == sorted(squares), "a horse ahead must never light an LED behind"
    assert squares.count(squares[0]) == 1, "the start has an LED of its own"
    for led in set(squares):
        assert squares.count(led) <= 2, f"LED {led} stands for more than two squares"
    assert finish == [squares[-1] + 1]
