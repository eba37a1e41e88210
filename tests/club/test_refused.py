"""A result the league refuses is never silently lost: the table keeps it with the league's
reason, the host page says it, and `companion outbox --send-again` sends it once fixed."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from companion.club.broker import LocalBroker
from companion.daemon.app import build
from companion.devices.config import load_config
from tests.club.conftest import start_league, wait_for
from tests.club.games import open_table, play
from tests.club.test_durability import club_config, league_config, stored
from tests.web.conftest import free_port
from tests.web.hostile.conftest import Served, send


def outbox(path: Path) -> list[tuple[int, str | None, str | None]]:
    db = sqlite3.connect(path)
    try:
        return list(db.execute("SELECT id, sent, refused FROM outbox ORDER BY id"))
    finally:
        db.close()


def host_page(served: Served, cookie: str) -> str:
    answer = send(served.port, "GET", "/host", headers={"Cookie": cookie})
    assert answer.status == 200, answer
    return answer.body.decode("utf-8")


def test_a_refused_result_is_kept_shown_to_the_host_and_sent_again_after_a_fix(
    broker: LocalBroker, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    journal = state / "journal.sqlite3"
    session = open_table(journal)
    for seed in (1, 2):  # two games ended while the table was off the club's network
        play(session, seed=seed)
    session.close()
    database = tmp_path / "league.sqlite3"
    league_toml = tmp_path / "league.toml"
    # The league takes one new result of a table in a row (its budget; the default is 1000).
    league_toml.write_text(
        league_config(broker, database).replace("[web]", "max_results = 1\n[web]")
    )
    league, _ = start_league(league_toml)
    port = free_port()
    table_toml = tmp_path / "companion.toml"
    table_toml.write_text(
        club_config(broker).replace("enabled = false", f'bind = "127.0.0.1"\nport = {port}')
    )
    companion = build(load_config(table_toml), simulate=True, state_dir=state)
    thread = threading.Thread(target=companion.run, kwargs={"handle_signals": False})
    thread.start()
    served = Served(tmp_path, companion, port, thread)
    try:
        wait_for(lambda: companion.web is not None and companion.web.started, what="the pages")
        cookie = served.host_cookie()
        wait_for(lambda: outbox(journal)[1][2], what="the second result refused")
        (first, second) = outbox(journal)
        assert first[1] is not None and first[2] is None  # stored
        assert second[1] is not None  # the broker has it...
        assert second[2] is not None and second[2].startswith("over_budget: ")  # ...refused
        page = wait_for(
            lambda: "refused by the league" in (text := host_page(served, cookie)) and text,
            what="the host page saying it",
        )
        assert "over_budget: " in page and "max_results" in page
        assert stored(database) == [json.loads(_payload(journal, 1))["id"]]

        league.send_signal(signal.SIGTERM)  # the organiser raises the table's budget
        league.communicate(timeout=10)
        league_toml.write_text(league_toml.read_text().replace("max_results = 1\n", ""))
        league, _ = start_league(league_toml)
        listed = subprocess.run(
            [sys.executable, "-m", "companion", "outbox", "--db", str(journal)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert listed.returncode == 0, listed.stderr
        assert (
            "2  game 2" in listed.stdout and "refused by the league: over_budget" in listed.stdout
        )
        again = subprocess.run(
            [sys.executable, "-m", "companion", "outbox", "--db", str(journal), "--send-again",
             "2"],
            capture_output=True,
            text=True,
            timeout=30,
        )  # fmt: skip
        assert again.returncode == 0 and "queued to be sent again: 2" in again.stderr, again
        wait_for(lambda: len(stored(database)) == 2, what="the result, sent again, stored")
        wait_for(lambda: "refused by the league" not in host_page(served, cookie), what="clear")
    finally:
        companion.daemon.stop()
        thread.join(15)
        league.send_signal(signal.SIGTERM)
        out = league.communicate(timeout=10)[0]
    assert "Traceback" not in out, out
    assert [row[2] for row in outbox(journal)] == [None, None]
    assert all(row[1] is not None for row in outbox(journal))


def _payload(journal: Path, row: int) -> str:
    db = sqlite3.connect(journal)
    try:
        return str(db.execute("SELECT payload FROM outbox WHERE id = ?", (row,)).fetchone()[0])
    finally:
        db.close()


def test_sending_again_a_result_that_is_not_in_the_outbox_says_so(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    session = open_table(journal)
    play(session)
    session.close()
    answer = subprocess.run(
        [sys.executable, "-m", "companion", "outbox", "--db", str(journal), "--send-again", "7"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert answer.returncode == 2 and "no result 7 in the outbox" in answer.stderr
    assert "Traceback" not in answer.stderr
    assert outbox(journal) == [(1, None, None)]
