"""Tables and a league on a real Mosquitto: every result stored once, bad messages refused."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest

from companion.club.broker import LocalBroker
from companion.club.league import League, Scope
from companion.club.listener import Listener
from companion.club.mqtt import client_for
from companion.club.payloads import content_hash, dump
from companion.club.publisher import Publisher
from companion.devices.config.sections import ClubSection
from tests.club.conftest import CLUB, FAST, login, wait_for
from tests.club.games import open_table, play


def publisher_for(broker: LocalBroker, tmp_path: Path, table: str) -> tuple[Any, Publisher]:
    path = tmp_path / f"{table}.sqlite3"
    session = open_table(path)
    section = ClubSection(CLUB, table, login(broker, table))
    return session, Publisher(section, path, reconnect_s=FAST)


def test_three_tables_results_reach_the_standings_once(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    store, listener = league
    tables = [publisher_for(broker, tmp_path, f"table{n}") for n in (1, 2, 3)]
    for _, publisher in tables:
        publisher.start()
    try:
        for seed, (session, publisher) in enumerate(tables, start=1):
            play(session, seed=seed)
            publisher.board(session.view())
        wait_for(lambda: len(store.results()) == 3, what="three results stored")
        wait_for(lambda: {t.name for t in listener.live()} == {"table1", "table2", "table3"})
        wait_for(lambda: all(t.status == "online" for t in listener.live()))
    finally:
        for _, publisher in tables:
            publisher.stop()
    assert sorted(r.table for r in store.results()) == ["table1", "table2", "table3"]
    standings = store.standings()
    assert {s.name for s in standings} == {"Anna", "Bob", "Chloé"}
    assert all(s.games == 3 for s in standings)
    winners = [w for r in store.results() for w in r.data["winners"]]
    assert sum(s.wins for s in standings) == len(winners)
    assert store.standings(Scope(kind="jumpy_jack")) == standings
    wait_for(lambda: all(t.status == "offline" for t in listener.live()), what="offline")


def sender(broker: LocalBroker, table: str) -> paho.Client:
    client = client_for(login(broker, table), f"raw-{table}")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


def send(client: paho.Client, table: str, payload: bytes | str) -> None:
    info = client.publish(f"companion/{CLUB}/{table}/results", payload, qos=1)
    info.wait_for_publish(10)


def a_result(tmp_path: Path, table: str = "table2") -> dict[str, Any]:
    session = open_table(tmp_path / "raw.sqlite3")
    play(session)
    assert session.journal is not None
    payload = session.journal._db.execute("SELECT payload FROM outbox").fetchone()[0]
    session.close()
    result: dict[str, Any] = json.loads(payload)
    result.update(club=CLUB, table=table, seq=1)
    return result


def test_bad_messages_are_refused_with_one_line_each_and_change_nothing(
    broker: LocalBroker,
    tmp_path: Path,
    league: tuple[League, Listener],
    caplog: pytest.LogCaptureFixture,
) -> None:
    store, listener = league
    client = sender(broker, "table2")
    good = a_result(tmp_path)
    send(client, "table2", dump(good))
    wait_for(lambda: len(store.results()) == 1, what="the good result")
    before = (store.path.read_bytes(), [r.data for r in store.results()])
    caplog.set_level(logging.WARNING, "companion.league")
    caplog.clear()
    forged = {**good, "players": [{**p, "rank": 1} for p in good["players"]]}
    rehashed_for_other_table = {**good, "id": "f" * 32, "table": "table1"}
    rehashed_for_other_table["hash"] = content_hash(rehashed_for_other_table)
    changed_replay = {**good, "winners": [good["players"][0]["name"]]}
    changed_replay["hash"] = content_hash(changed_replay)
    if changed_replay["hash"] == good["hash"]:
        changed_replay["ended"] = "2030-01-01T00:00:00.000+00:00"
        changed_replay["hash"] = content_hash(changed_replay)
    bad = {
        "not_json": b"\xff not json",
        "bad_schema": dump({**good, "players": "everyone"}),
        "too_large": dump({**good, "padding": "x" * 20_000}),
        "bad_hash": dump(forged),
        "wrong_table": dump(rehashed_for_other_table),
        "replay_changed": dump(changed_replay),
    }
    for payload in bad.values():
        send(client, "table2", payload)
    send(client, "table2", dump(good))  # a plain repeat: harmless, not even a warning
    wait_for(lambda: listener.figures.refused == len(bad), what="every bad message refused")
    wait_for(lambda: listener.figures.repeats == 1, what="the repeat seen")
    client.loop_stop()
    client.disconnect()
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.league"]
    assert len(lines) == len(bad)
    for code, line in zip(bad, lines, strict=True):
        assert f": {code}: " in line, line
    assert (store.path.read_bytes(), [r.data for r in store.results()]) == before
    assert len(League.open(store.path).results()) == 1


def test_the_league_keeps_the_later_result_of_a_game_ended_twice(tmp_path: Path) -> None:
    store = League.open(tmp_path / "league.sqlite3")
    first = a_result(tmp_path)
    second = {**first, "id": "e" * 32, "ended": "2099-01-01T00:00:00.000+00:00"}
    second["hash"] = content_hash(second)
    assert store.add(first) == "stored"
    assert store.add(second) == "replaced"
    assert store.add(first) == "stale"  # a late copy of the earlier ending changes nothing
    assert [r.id for r in store.results()] == [second["id"]]
    store.close()
    assert [r.id for r in League.open(tmp_path / "league.sqlite3").results()] == [second["id"]]
