"""A club night end to end: three real daemons, a broker restarted once, the real league, and
its board in Chromium showing the three results and the standings worked out by hand."""

from __future__ import annotations

import json
import shutil
import signal
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.club.broker import LocalBroker
from companion.session.log import MoveEntry, Roll
from tests.club.conftest import CLUB, USERS, start_league, wait_for
from tests.club.games import open_table, whole_game
from tests.club.test_durability import club_config, press_the_move
from tests.e2e.conftest import Child
from tests.web.conftest import browser as browser  # the fixture: Debian's Chromium

#: The three games (Jumpy Jack to 2 points), worked out by hand from their scores:
#: table1 Anna 2, Bob 4, Chloé 0; table2 Anna 0, Bob 0, Chloé 2; table3 Anna 0, Bob 2, Chloé 0.
#: Ranks: Bob 1, 2, 1; Chloé 3, 1, 2; Anna 2, 2, 2 (equal scores share the better rank).
EXPECTED = {  # player: (games, wins, average rank)
    "Bob": ("3", "2", "1.33"),
    "Chloé": ("3", "1", "2.00"),
    "Anna": ("3", "0", "2.00"),
}


def results_of(url: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(url + "results.json", timeout=10) as answer:
        found: list[dict[str, Any]] = json.loads(answer.read())
        return found


@pytest.mark.slow(10)  # three daemons, a league and Chromium: about half a minute on a busy machine
def test_three_tables_a_broker_restart_and_the_league_board_in_chromium(
    broker: LocalBroker, tmp_path: Path, browser: Any
) -> None:
    config = tmp_path / "league.toml"
    config.write_text(
        f'[league]\nclub = "{CLUB}"\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'username = "league"\npassword = "{USERS["league"]}"\n'
        f'database = "{tmp_path / "league.sqlite3"}"\nbind = "127.0.0.1"\npage_port = 0\n'
    )
    league, url = start_league(config)
    children: list[tuple[Child, Roll, MoveEntry]] = []
    workdirs = []
    try:
        for n in (1, 2, 3):
            state_dir = tmp_path / f"state{n}"
            *before, roll, move = whole_game(seed=n)
            assert isinstance(roll, Roll) and isinstance(move, MoveEntry)
            session = open_table(state_dir / "journal.sqlite3")
            for entry in before:  # the game played up to its last roll, as if by hand
                session.submit(entry)
            session.close()
            table_config = tmp_path / f"table{n}.toml"
            table_config.write_text(club_config(broker, f"table{n}"))
            workdirs.append(Path(tempfile.mkdtemp(prefix="club-")))
            child = Child(workdirs[-1], state_dir, table_config)
            child.start()
            children.append((child, roll, move))
        (first, roll, move), *others = children
        press_the_move(first, roll, move)
        wait_for(lambda: len(results_of(url)) == 1, what="table1's result")
        broker.stop()  # the broker restarted mid-evening: table2 ends its game meanwhile
        child, roll, move = others[0]
        press_the_move(child, roll, move)
        broker.start()
        child, roll, move = others[1]
        press_the_move(child, roll, move)
        results = wait_for(lambda: len(results_of(url)) == 3 and results_of(url), what="3")
        page = browser.new_page(locale="en-GB")
        page.goto(url)
        page.wait_for_selector("table.standings")
        board = page.inner_text("body")
        rows = page.eval_on_selector_all(
            "table.standings",
            "tables => [...tables[0].rows].slice(1).map(r => [...r.cells].map(c => c.innerText))",
        )
        page.close()
    finally:
        for child, _, _ in children:
            child.terminate()
        league.send_signal(signal.SIGTERM)
        league.communicate(timeout=10)
        for folder in workdirs:
            shutil.rmtree(folder, ignore_errors=True)
    assert sorted(r["table"] for r in results) == ["table1", "table2", "table3"]
    assert len({r["id"] for r in results}) == 3
    for table in ("table1", "table2", "table3"):
        assert table in board
    assert "Results of the evening" in board and "Standings of the evening" in board
    shown = {row[1]: (row[2], row[3], row[4]) for row in rows}
    assert shown == EXPECTED
    assert rows[0][1] == "Bob"  # two wins of three: the best rating
