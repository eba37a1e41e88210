"""The panel's start menu and the room: it offers the room's people, in seat order, and its
last row, below Start, ends the evening with two pushes (in every language, on 20 columns)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.devices.base import ButtonPressed, EncoderTurned
from companion.render.text import COLS
from companion.session.session import Session
from companion.web.hub import Hub
from companion.web.joins import Joins
from companion.web.seats import HOST, SeatBook
from companion.web.side import TableSide
from tests.web.test_page_languages import Quiet

#: "End evening" and its second push's question, as each language shows them.
WORDS = {"en": ("End evening", "sure?"), "fr": ("Finir soirée", "sûr?"),
         "de": ("Abend beenden", "echt?")}  # fmt: skip


def menu_beside_a_room(journal: Path, language: str) -> tuple[TableController, TableSide]:
    """A table in its start menu, the pages on, Ben and Anna seated in the room."""
    controller = TableController(Session.open(journal), clock=lambda: 0.0, language=language)
    daemon = Daemon(controller, Panel(), [], Quiet(), clock=lambda: 0.0)
    side = TableSide(daemon, controller, SeatBook(None), Joins(lambda: 0.0), Hub(), "h:1")
    for seat in ("Ben", "Anna", HOST):
        side.seats.issue(seat)
    side.refresh()
    return controller, side


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_menu_starts_from_the_room_and_ends_the_evening_on_a_second_push(
    tmp_path: Path, language: str
) -> None:
    controller, side = menu_beside_a_room(tmp_path / "journal.sqlite3", language)
    ben = side.seats.issue("Ben")
    end, sure = WORDS[language]
    controller.handle(ButtonPressed("horse1"))  # Jumpy Jack: the room's two people
    assert "2" in controller.screen().lcd[1]
    controller.handle(ButtonPressed("push"))  # to the options, the cursor on Start
    controller.handle(EncoderTurned(1))  # the last row, below Start
    lcd = controller.screen().lcd
    assert all(len(row) <= COLS for row in lcd)
    assert any(row.startswith(">" + end) for row in lcd), lcd
    controller.handle(ButtonPressed("push"))  # a first push only asks
    assert any(row.startswith(">" + end) and row.endswith(sure) for row in controller.screen().lcd)
    assert side.seats.people() == ("Ben", "Anna")
    controller.handle(EncoderTurned(-1))  # moving away forgets the first push
    controller.handle(EncoderTurned(1))
    controller.handle(ButtonPressed("push"))
    assert side.seats.people() == ("Ben", "Anna")
    controller.handle(ButtonPressed("push"))  # the second push ends the evening
    side.refresh()
    assert side.seats.people() == () and side.seats.seat_of(ben) is None
    assert HOST in side.seats.taken()  # the host's seat stays with the table
    lcd = controller.screen().lcd
    assert not any(row.startswith((">" + end, " " + end)) for row in lcd)  # no room: no row
    controller.session.close()


def test_the_menu_names_the_players_after_the_room(tmp_path: Path) -> None:
    controller, _side = menu_beside_a_room(tmp_path / "journal.sqlite3", "en")
    controller.handle(ButtonPressed("horse2"))  # Course hippique: three at least
    controller.handle(ButtonPressed("push"))
    controller.handle(ButtonPressed("push"))  # Start
    table = controller.session.table
    assert table is not None and table.start.players[:2] == ("Ben", "Anna")
    controller.session.close()
