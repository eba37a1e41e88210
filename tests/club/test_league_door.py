"""A league no message can break: crafted results and states are refused and the board stays
whole across restarts; stored rows that no longer draw are set aside and listed; a table
that floods or numbers its results with gaps spends its own budget, not another table's."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho

from companion.club.broker import LocalBroker
from companion.club.league import League
from companion.club.listener import Listener
from companion.club.mqtt import client_for
from companion.club.payloads import content_hash, dump
from companion.club.publisher import Publisher
from companion.devices.config.sections import ClubSection
from tests.club.conftest import CLUB, Reader, login, start_league, wait_for
from tests.club.games import open_table, play
from tests.club.test_durability import league_config, stored
from tests.club.test_league import a_result
from tests.club.test_league_page import fetch

FIXTURE = Path(__file__).parent / "fixtures" / "league-v1.sqlite3"


def raw(broker: LocalBroker, table: str) -> paho.Client:
    """A client with a table's credentials that publishes whatever it is given."""
    client = client_for(login(broker, table), f"raw-{table}")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


def forged(base: dict[str, Any], table: str, seq: int, **changes: Any) -> str:
    """``base`` as a result of ``table`` numbered ``seq``, changed, hashed again."""
    result = {**base, **changes, "id": f"{seq:032x}", "table": table, "seq": seq}
    result["hash"] = content_hash(result)
    return dump(result)


def whole(url: str) -> dict[str, tuple[int, str]]:
    """Every page of the board and its answer."""
    paths = ("", "results.json", "results.csv", "standings.json", "player/Anna", "?lang=fr")
    return {path: fetch(url + path) for path in paths}


def assert_whole(pages: dict[str, tuple[int, str]], results: int) -> None:
    for path, (status, text) in pages.items():
        assert status == 200, (path, status, text[:300])
        assert "Try again in a moment" not in text, path
    assert len(json.loads(pages["results.json"][1])) == results
    assert "table1" in pages[""][1]


def test_crafted_results_and_states_never_break_the_board_even_after_a_restart(
    broker: LocalBroker, tmp_path: Path
) -> None:
    database = tmp_path / "league.sqlite3"
    config = tmp_path / "league.toml"
    config.write_text(league_config(broker, database))
    league, url = start_league(config)
    honest, hostile = raw(broker, "table1"), raw(broker, "table2")
    base = a_result(tmp_path)
    bad_state = {"club": CLUB, "table": "table2", "game": "jumpy_jack", "phase": "race"}
    crafted = [
        ("results", forged(base, "table2", 1, ended="0001-01-01T00:00:00+00:00",
                           started="0001-01-01T00:00:00+00:00"), False),
        ("results", forged(base, "table2", 2, options={"target": float("nan")}), False),
        ("results", forged(base, "table2", 3, game_id=10**30), False),
        ("results", forged(base, "table2", 4, ended="9999-12-31T23:59:59+00:00"), False),
        ("results", forged(base, "table2", 5, options={"x": ["y" * 100] * 45}), False),
        ("state", dump({**bad_state, "leaders": 5, "race": 1}), True),
        ("state", dump({**bad_state, "leaders": [], "race": "1"}), True),
        ("state", json.dumps({**bad_state, "leaders": [], "race": float("inf")}), True),
        ("status", "online", True),  # after the states: the league reads its topic last
    ]  # fmt: skip
    try:
        for leaf, payload, retained in crafted:
            info = hostile.publish(f"companion/{CLUB}/table2/{leaf}", payload, 1, retain=retained)
            info.wait_for_publish(10)
        info = honest.publish(f"companion/{CLUB}/table1/results", forged(base, "table1", 1), 1)
        info.wait_for_publish(10)
        wait_for(lambda: len(stored(database)) == 1, what="the honest result")
        wait_for(lambda: "table2" in fetch(url)[1], what="table2 seen, online")
        assert_whole(whole(url), 1)
        league.send_signal(signal.SIGTERM)
        league.communicate(timeout=10)
        league, url = start_league(config)  # the broker gives it the retained states again
        wait_for(lambda: "table2" in fetch(url)[1], what="table2 seen again, online")
        assert_whole(whole(url), 1)
    finally:
        for client in (honest, hostile):
            client.loop_stop()
            client.disconnect()
        league.send_signal(signal.SIGTERM)
        out = league.communicate(timeout=10)[0]
    assert "Traceback" not in out, out
    assert len(stored(database)) == 1


def test_a_league_file_with_rows_that_no_longer_draw_opens_with_them_set_aside(
    broker: LocalBroker, tmp_path: Path
) -> None:
    """A league file of version 1 holding a result dated year 1 and one with NaN among its
    options (stored before the door was strict): both are set aside and listed."""
    database = tmp_path / "league.sqlite3"
    shutil.copy(FIXTURE, database)
    config = tmp_path / "league.toml"
    config.write_text(league_config(broker, database))
    league, url = start_league(config)
    try:
        pages = whole(url)
    finally:
        league.send_signal(signal.SIGTERM)
        out = league.communicate(timeout=10)[0]
    for path, (status, text) in pages.items():
        assert status == 200 and "Try again in a moment" not in text, (path, text[:300])
    assert len(json.loads(pages["results.json"][1])) == 1
    board = pages[""][1]
    assert "Results set aside" in board and "Résultats mis de côté" in pages["?lang=fr"][1]
    assert board.count("<tr>", board.index("Results set aside")) == 3  # a header, two rows
    assert "not strict JSON" in board and "from 2000" in board
    assert "Traceback" not in out, out
    db = sqlite3.connect(database)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert db.execute("SELECT count(*) FROM quarantine").fetchone()[0] == 2
    # The row SQLite cannot read as JSON keeps no number: its table is asked for it again,
    # sends it, and is told why the league refuses it.
    assert sorted(r[0] for r in db.execute("SELECT seq FROM numbers")) == [1, 2]
    db.close()


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_a_flooding_table_keeps_no_other_waiting_and_costs_the_league_little(
    broker: LocalBroker, tmp_path: Path
) -> None:
    """Table2 floods the broker with the largest results the league takes and with garbage;
    table1's result is stored within two seconds all the same, the league stays small, and
    its log says each cause of the flood once."""
    database = tmp_path / "league.sqlite3"
    config = tmp_path / "league.toml"
    config.write_text(league_config(broker, database))
    league, _ = start_league(config)
    lines: list[str] = []
    assert league.stdout is not None
    reading = threading.Thread(target=lambda: lines.extend(league.stdout or ()), daemon=True)
    reading.start()
    base = a_result(tmp_path)
    # Options of some 3 KiB (the most the league takes), and of 24 KiB (what a broker takes).
    options = [{"board_name": "x" * 190, "teams": [["y" * 190] * n] * 2} for n in (8, 60)]
    hostile = raw(broker, "table2")
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = Publisher(ClubSection(CLUB, "table1", login(broker, "table1")), path)
    publisher.start()
    flooding = threading.Event()
    sent = [0]

    def flood() -> None:
        seq = 0
        while not flooding.is_set():
            seq += 1
            kind = seq % 3
            payload = (
                forged(base, "table2", seq, game_id=seq, options=options[kind])
                if kind < 2
                else b"\xff" * 4000
            )
            hostile.publish(f"companion/{CLUB}/table2/results", payload, 0)
            sent[0] = seq

    flooder = threading.Thread(target=flood)
    flooder.start()
    try:
        wait_for(lambda: sent[0] > 2000, what="the flood under way")
        play(session, seed=1)
        publisher.board(session.view())
        wait_for(lambda: publisher.figures.results_sent == 1, what="the broker has the result")
        acknowledged = time.monotonic()
        wait_for(lambda: len(stored(database)) >= 1 and _has_table1(database), what="stored")
        delay = time.monotonic() - acknowledged
        memory = peak_mb(league.pid)
        while sent[0] < 20_000 and flooder.is_alive():
            time.sleep(0.05)  # lets the flood go on to its end; no condition to wait for
    finally:
        flooding.set()
        flooder.join(10)
        publisher.stop()
        hostile.loop_stop()
        hostile.disconnect()
        league.send_signal(signal.SIGTERM)
        league.wait(10)
        reading.join(10)
    assert delay <= 2.0, f"table1's result waited {delay:.1f} s behind the flood"
    assert memory <= 80, f"the league took {memory:.0f} MB"
    assert database.stat().st_size <= 16 * 1024 * 1024
    warned = [line for line in lines if "table2" in line and line.startswith("WARNING")]
    assert len(warned) <= 4, "".join(warned[:10])


def _has_table1(database: Path) -> bool:
    db = sqlite3.connect(database)
    try:
        return bool(db.execute("SELECT count(*) FROM results WHERE tbl = 'table1'").fetchone()[0])
    except sqlite3.OperationalError:
        return False
    finally:
        db.close()


def test_a_table_numbering_its_results_with_gaps_is_asked_once_and_no_other_is(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    store, listener = league
    requests = Reader(broker, f"companion/{CLUB}/league/#")
    hostile = raw(broker, "table2")
    base = a_result(tmp_path)
    try:
        for seq in range(2, 202, 2):  # 100 results, every other number missing
            payload = forged(base, "table2", seq, game_id=seq)
            hostile.publish(f"companion/{CLUB}/table2/results", payload, 1).wait_for_publish(10)
        wait_for(lambda: len(store.results()) == 100, what="the hundred results")
        wait_for(lambda: listener.figures.requests >= 1, what="the table asked")
        asked = json.loads(
            wait_for(lambda: requests.on(f"companion/{CLUB}/league/resend/table2"))[0]
        )
    finally:
        hostile.loop_stop()
        hostile.disconnect()
        requests.close()
    assert listener.figures.requests == 1
    assert asked["seqs"][:3] == [[1, 1], [3, 3], [5, 5]] and len(asked["seqs"]) == 16
    assert {t for t, _, _ in requests.messages} == {f"companion/{CLUB}/league/resend/table2"}


def test_a_result_with_one_player_twice_is_told_to_its_table_with_the_reason(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    """ "Anna" and "anna", "Strauß" and "Strauss" are one person to the league: such a
    result is refused, and its table is told which and why."""
    store, _ = league
    told = Reader(broker, f"companion/{CLUB}/league/refused/table2")
    hostile = raw(broker, "table2")
    base = a_result(tmp_path)
    players = [
        {**base["players"][0], "name": "Strauß"},
        {**base["players"][1], "name": "Strauss"},
        base["players"][2],
    ]
    winners = [p["name"] for p in players if p["rank"] == 1]
    try:
        payload = forged(base, "table2", 1, players=players, winners=winners)
        hostile.publish(f"companion/{CLUB}/table2/results", payload, 1).wait_for_publish(10)
        message = json.loads(
            wait_for(lambda: told.on(f"companion/{CLUB}/league/refused/table2"))[0]
        )
    finally:
        hostile.loop_stop()
        hostile.disconnect()
        told.close()
    assert store.results() == []
    (refusal,) = message["refused"]
    assert refusal["seq"] == 1 and refusal["id"] == f"{1:032x}"
    assert refusal["code"] == "bad_schema" and refusal["reason"] == "a player appears twice"
