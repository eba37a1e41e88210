"""People level in the evening's standings keep their order when a new game reorders the room's
seats: on the LCD's evening page and on the pages alike (the real daemon, its pages on)."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixture_game.engine import HORSES
from tests.web.conftest import Table
from tests.web.hostile.test_joining import a_host, call

#: The fixture game, short: one race to square 8, won by whoever picked its winner.
GAME = "petits_chevaux"


@pytest.fixture
def table() -> Iterator[Table]:
    root = Path(tempfile.mkdtemp(prefix="cmpt-"))
    made = Table(root)
    yield made
    made.close()
    shutil.rmtree(root, ignore_errors=True)


def played(table: Table, host: dict[str, str], players: str, picks: list[str]) -> None:
    """Start a one-race game from the host page with ``players``; each presses their pick at
    the table (``picks``, in seat order), then the brown horse (button 1) moves 5 and 3 and
    wins. With no picks the game is only started."""
    options = {"finish": json.dumps(8), "rounds": json.dumps(1)}
    form = {"do": "new_game", "game": GAME, "players": players, GAME: options}
    status, answer, _cookies = call(table, "POST", "/api/host", form, cookies=host)
    assert status == 200, answer  # answered once the table started it
    for horse in picks:
        table.child.press(f"horse{HORSES.index(horse) + 1}")
    if picks:
        race(table)


def race(table: Table) -> None:
    """The brown horse moved 5, then 3: it wins the race."""
    for value in (5, 3):
        table.child.act(f"die {value}", "the roll")
        table.child.press("horse1")


def page_order(table: Table) -> list[str]:
    """The evening's standings on the scoreboard, names best first."""
    _status, page, _cookies = call(table, "GET", "/scoreboard")
    standings = str(page).split('<details class="evening"')[1].split("</table>")[0]
    return re.findall(r"<tr><td>([^<]+)</td>", standings)


def lcd_order(table: Table) -> list[str]:
    """The evening's page on the LCD at the end of a game (one turn of the knob), names."""
    table.child.turn(1)
    lcd = table.child.wait_until(lambda s: s["lcd"][0].startswith("Evening"), "the evening")
    table.child.turn(-1)
    return [row.split()[1] for row in lcd["lcd"][1:] if row.strip()]


def test_people_level_keep_their_order_when_a_new_game_reorders_the_seats(table: Table) -> None:
    host = a_host(table)
    played(table, host, "Anna\nBen", ["brown", "red"])  # Anna wins: Anna 2 place points, Ben 1
    played(table, host, "Anna\nBen", ["red", "brown"])  # Ben wins: 3 each, one win each
    level = ["Anna", "Ben"]  # Anna played first this evening
    assert page_order(table) == level and lcd_order(table) == level
    played(table, host, "Cleo\nBen\nAnna", [])  # the room's seats: Cleo, Ben, Anna now
    assert page_order(table) == level
    for button in ("horse1", "horse4", "horse4"):  # Cleo picks brown, Ben and Anna red
        table.child.press(button)
    race(table)  # Cleo wins; Ben and Anna share second place: 2 each
    assert page_order(table) == [*level, "Cleo"] and lcd_order(table) == [*level, "Cleo"]
