"""Undo never re-rolls: an electronic roll taken back comes back, even after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.devices.base import DieRolled
from companion.session.session import Session
from tests.daemon.test_table_jumpy_jack import HORSES, SHORT_BOARD, predict, start_jumpy


def sealed_table(make_table: Any, session: Session) -> Any:
    table = make_table(session, game_options={"jumpy_jack": {"board": SHORT_BOARD}})
    start_jumpy(table)
    predict(table, "red", "blue", "green")
    predict(table, "blue", "red", "white")
    assert table.view.phase in ("roll", "predict") and not table.view.waiting_for
    return table


def test_an_undone_roll_comes_back_and_the_lcd_says_so(make_table: Any) -> None:
    table = sealed_table(make_table, Session.in_memory())
    table.roll(4)
    assert "Anna: die 4" in table.lcd
    table.hold_undo()
    assert "Roll taken back: the die stays 4." in table.said
    table.roll(2)  # the die button drew a 2: the 4 taken back comes first
    assert table.view.board.die == 4
    assert "Anna: die 4" in table.lcd


def test_several_undone_rolls_come_back_in_order_then_new_values(make_table: Any) -> None:
    table = sealed_table(make_table, Session.in_memory())
    table.roll(3)
    table.press("horse1")  # Anna moves red 3
    table.roll(5)  # Ben
    assert table.view.board.die == 5
    table.hold_undo()  # Ben's roll
    assert "the die stays 5" in table.said
    table.hold_undo()  # Anna's move: a move is fixed freely, nothing is kept for it
    assert "Undone." in table.said
    table.hold_undo()  # Anna's roll
    assert "Roll taken back: the die stays 3." in table.said
    table.roll(6)
    assert table.view.board.die == 3
    table.press("horse2")  # Anna moves blue this time: moves are free
    table.roll(1)
    assert table.view.board.die == 5
    legal = table.view.board.legal_horses
    table.press(f"horse{HORSES.index(legal[-1]) + 1}")
    assert table.view.phase == "roll"
    table.roll(2)  # nothing kept any more: the die's own value
    assert table.view.board.die == 2


def test_the_kept_roll_survives_a_restart(make_table: Any, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    table = sealed_table(make_table, Session.open(path))
    table.roll(4)
    table.hold_undo()
    table.ctl.close()  # the power goes

    again = make_table(Session.open(path), game_options={"jumpy_jack": {"board": SHORT_BOARD}})
    assert again.view.phase in ("roll", "predict")
    again.roll(1)
    assert again.view.board.die == 4
    again.ctl.close()


def keyed_die_table(make_table: Any) -> Any:
    """A Jumpy Jack table on the short board, its die keyed by hand, predictions made."""
    table = make_table(
        Session.in_memory(), die="manual", game_options={"jumpy_jack": {"board": SHORT_BOARD}}
    )
    start_jumpy(table)
    predict(table, "red", "blue", "green")
    predict(table, "blue", "red", "white")
    return table


def test_a_manual_value_taken_back_is_not_kept(make_table: Any) -> None:
    table = keyed_die_table(make_table)
    table.press("horse4")  # the real die shows 4: horse button 4
    assert table.view.board.die == 4
    table.hold_undo()
    assert "Undone." in table.said and "stays" not in table.said
    table.press("horse2")  # the value was mis-keyed: 2 it is
    assert table.view.board.die == 2


def test_a_real_die_is_keyed_with_the_knob_or_the_buttons(make_table: Any) -> None:
    table = keyed_die_table(make_table)
    assert table.screen.lcd[1:3] == ("Die: turn < 1 > push", "Or horse 1-5, die: 6")
    assert table.screen.oled.lines == ("Anna", "rolls", "die 1?")
    table.turn(-2)  # round the dial: 1, 6, 5
    assert "< 5 >" in table.lcd
    table.send(DieRolled(2))  # no electronic die here: a stray roll changes nothing
    assert table.view.board.die is None
    table.press("push")
    assert table.view.board.die == 5 and table.view.phase == "move"
    table.press("horse1")  # a horse button moves a horse once the value is in
    assert table.view.turn == "Ben" and table.view.phase == "roll"
    table.press("die")  # the die button keys a 6
    assert table.view.board.die == 6
    assert [e.TYPE for e in table.ctl.session.accepted()[-3:]] == ["roll", "move", "roll"]
