"""A table killed after a game's end comes back on that game's end pages: the LCD and the
OLED where they were, the scoreboard with its podium and reveal; the menu a push away."""

from __future__ import annotations

import random
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.session.autoplay import random_log
from companion.session.log import MoveEntry
from companion.session.session import Session
from tests.web.conftest import Table
from tests.web.hostile.test_joining import call

#: A Jumpy Jack match (two to win) of random legal inputs whose last input is a move.
MATCH = random_log(
    "jumpy_jack", random.Random(11), length=5000, undo_rate=0, players=("Anna", "Bob"),
    options={"target": 2},
)  # fmt: skip


@pytest.fixture
def table() -> Iterator[Table]:
    """The real daemon on a journal whose match waits for its last move."""
    root = Path(tempfile.mkdtemp(prefix="cmpe-"))
    (root / "state").mkdir()
    session = Session.open(root / "state" / "journal.sqlite3")
    for entry in MATCH[:-1]:
        assert session.submit(entry).accepted
    session.close()
    made = Table(root)
    yield made
    made.close()
    shutil.rmtree(root, ignore_errors=True)


def steady(state: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The LCD's rows and the OLED's lines, the join code and address (new at every start,
    shown while the table has no host) left out."""
    lcd = [row for row in state["lcd"] if "Join code" not in row and "127.0.0.1" not in row]
    return lcd, state["oled"]["lines"]


def scoreboard(table: Table) -> str:
    """The scoreboard's public part, as a TV opening it now gets it."""
    status, page, _cookies = call(table, "GET", "/scoreboard")
    assert status == 200
    found = re.search(r'<main id="live">(.*)</main>', str(page), re.S)
    assert found is not None
    return found.group(1)


def test_a_table_killed_after_the_last_move_comes_back_on_the_end_pages(table: Table) -> None:
    last = MATCH[-1]
    assert isinstance(last, MoveEntry)
    view = table.view()
    assert view["phase"] == "move" and view["board"]["legal_horses"] == [last.horse]
    horses = [horse["name"] for horse in view["board"]["horses"]]
    table.child.act(f"press horse{horses.index(last.horse) + 1} 0.02", "the last move")
    ended = table.child.wait_until(  # the first end page, the move's news gone
        lambda s: s["lcd"][0].endswith(" 1/6") and s["lcd"][-1].strip() == "Push: menu",
        "the first end page",
    )
    shown = steady(ended)
    board = scoreboard(table)
    assert "Podium" in board and "revealed" in board and "Winner" in board

    table.kill_and_restart()  # a power cut after the game's end
    back = table.child.wait_until(lambda s: steady(s) == shown, "the same end page")
    assert back["view"]["finished"]
    assert scoreboard(table) == board  # the podium, the reveal, the evening: as they were
    table.child.press("push")  # as after any game's end: the menu is one push away
    table.child.wait_text("Choose a game:")
