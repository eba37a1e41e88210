"""Jumpy Jack board files: the shipped default, and clear errors for impossible boards."""

from __future__ import annotations

import importlib.resources

import pytest

from companion.games.errors import DataError
from companion.games.jumpy_jack import Board, Horse, Hurdle

HORSES = "".join(
    f'[[horses]]\nname = "{name}"\ncolour = "{name}"\n'
    for name in ("red", "blue", "green", "yellow", "white")
)


def board_text(
    squares: str = "squares = 30",
    hurdles: str = "stop = 7\ndouble = 13\nout = 19\nrestart = 25",
    horses: str = HORSES,
    extra: str = "",
) -> str:
    return f"{squares}\n{extra}\n[hurdles]\n{hurdles}\n{horses}"


def hurdles(stop: int = 7, double: int = 13, out: int = 19, restart: int = 25) -> str:
    return f"stop = {stop}\ndouble = {double}\nout = {out}\nrestart = {restart}"


def horses(old: str, new: str) -> str:
    return board_text(horses=HORSES.replace(old, new, 1))


def test_the_default_board_ships_in_the_package() -> None:
    resource = importlib.resources.files("companion.games").joinpath(
        "data", "jumpy_jack_board.toml"
    )
    text = resource.read_text(encoding="utf-8")
    assert Board.from_toml(text, "shipped.toml") == Board.default()
    board = Board.default()
    assert board.hurdle_at(7) is Hurdle.STOP and board.hurdle_at(13) is Hurdle.DOUBLE
    assert board.hurdle_at(19) is Hurdle.OUT and board.hurdle_at(25) is Hurdle.RESTART
    assert board.hurdle_at(8) is None
    assert not board.exact_finish
    assert board.horses[0] == Horse("red", "red") and board.horses[0].rgb == (255, 0, 0)


def test_a_table_can_rename_and_recolour_its_horses() -> None:
    herd = "".join(
        f'[[horses]]\nname = "{n}"\ncolour = "{c}"\n'
        for n, c in [("Tornado", "#102030"), ("Eclair", "black"), ("Jolly", "orange"),
                     ("Pompon", "pink"), ("Zephyr", "grey")]
    )  # fmt: skip
    board = Board.from_toml(board_text(horses=herd), "mine.toml")
    assert board.horse_names == ("Tornado", "Eclair", "Jolly", "Pompon", "Zephyr")
    assert board.horses[0].rgb == (0x10, 0x20, 0x30)


def test_the_board_survives_its_own_mapping() -> None:
    board = Board.default()
    assert Board.from_mapping(board.to_mapping()) == board


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        (board_text(squares="squares = 7"), "squares", "8 to 200 squares"),
        (board_text(hurdles=hurdles(out=30)), "hurdles.out", "off the track"),
        (board_text(hurdles=hurdles(stop=0)), "hurdles.stop", "off the track"),
        (board_text(hurdles=hurdles(double=7)), "hurdles.double", "already holds the stop"),
        (board_text(hurdles="stop = 7\ndouble = 13\nout = 19"), "hurdles.restart", "missing"),
        (board_text(hurdles=hurdles() + "\nwall = 3"), "hurdles.wall", "unknown key"),
        (board_text(extra="laps = 2"), "laps", "unknown key"),
        (board_text(squares=""), "squares", "missing"),
        (board_text(squares='squares = "thirty"'), "squares", "whole number"),
        (board_text(horses=HORSES.rsplit("[[horses]]", 1)[0]), "horses", "4 horses"),
        (horses('"blue"', '"red"'), "horses[2].name", "used twice"),
        (horses('"red"', '"two words"'), "horses[1].name", "one word"),
        (horses('colour = "white"', 'colour = "plaid"'), "horses[5].colour", "colour word"),
        (board_text(extra="[rules]\nexact_finish = 1"), "rules.exact_finish", "true or false"),
        (board_text(extra="[rules]\nbounce = true"), "rules.bounce", "unknown key"),
        ("squares = [", "not valid TOML", ""),
    ],
)  # fmt: skip
def test_an_impossible_board_is_refused_with_file_key_and_reason(
    text: str, key: str, reason: str
) -> None:
    with pytest.raises(DataError) as caught:
        Board.from_toml(text, source="my_board.toml")
    message = str(caught.value)
    assert message.startswith("my_board.toml: ")
    assert key in message and reason in message


def test_exact_finish_is_a_house_rule_of_the_board_file() -> None:
    board = Board.from_toml(board_text(extra="[rules]\nexact_finish = true"), "exact.toml")
    assert board.exact_finish
