"""A table publishes to a real Mosquitto: status, state, and each finished game exactly once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.club.broker import LocalBroker
from companion.club.payloads import content_hash
from companion.club.publisher import Publisher
from companion.devices.config.sections import ClubSection
from tests.club.conftest import CLUB, FAST, Reader, login, wait_for
from tests.club.games import open_table, play, whole_game


def section(broker: LocalBroker, table: str = "table1") -> ClubSection:
    return ClubSection(CLUB, table, login(broker, table))


def unsent(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT count(*) FROM outbox WHERE sent IS NULL").fetchone()[0])
    finally:
        db.close()


def topic(leaf: str, table: str = "table1") -> str:
    return f"companion/{CLUB}/{table}/{leaf}"


def test_a_finished_game_is_published_once_and_marked_sent(
    broker: LocalBroker, tmp_path: Path
) -> None:
    reader = Reader(broker, f"companion/{CLUB}/#")
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    publisher = Publisher(section(broker), path, reconnect_s=FAST)
    publisher.start()
    try:
        wait_for(lambda: reader.on(topic("status")) == [b"online"], what="online")
        game_id = play(session)
        publisher.board(session.view())
        results = wait_for(lambda: reader.json_on(topic("results")), what="the result")
        wait_for(lambda: unsent(path) == 0, what="the result marked sent")
        assert len(results) == 1
        result = results[0]
        assert result["club"] == CLUB and result["table"] == "table1"
        assert result["game_id"] == game_id and result["hash"] == content_hash(result)
        assert [p["name"] for p in result["players"]] == ["Anna", "Bob", "Chloé"]
        state = wait_for(lambda: reader.json_on(topic("state")), what="the state")[-1]
        assert state["finished"] is True and state["winners"] == result["winners"]
    finally:
        publisher.stop()
        reader.close()
    assert reader.on(topic("status"))[-1] == b"offline"
    assert len(reader.on(topic("results"))) == 1


def test_results_finished_while_the_broker_is_down_go_out_in_order_when_it_is_back(
    broker: LocalBroker, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    publisher = Publisher(section(broker), path, reconnect_s=FAST)
    publisher.start()
    reader = Reader(broker, topic("results"), persistent=True)
    try:
        wait_for(lambda: publisher.figures.connects == 1, what="a connection")
        broker.stop()
        ids = [play(session, seed=seed) for seed in (1, 2, 3)]
        publisher.board(session.view())
        assert unsent(path) == 3
        broker.start()
        wait_for(lambda: unsent(path) == 0, what="every result acknowledged")
        results = wait_for(
            lambda: len(reader.on(topic("results"))) == 3 and reader.json_on(topic("results"))
        )
    finally:
        publisher.stop()
        reader.close()
    assert [r["game_id"] for r in results] == ids == sorted(ids)


def test_a_result_left_unsent_at_a_stop_goes_out_after_the_next_start(
    broker: LocalBroker, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite3"
    broker.stop()
    session = open_table(path)
    publisher = Publisher(section(broker), path, reconnect_s=FAST)
    publisher.start()
    first = play(session, seed=1)
    publisher.board(session.view())
    publisher.stop()
    session.close()
    assert unsent(path) == 1
    broker.start()
    reader = Reader(broker, topic("results"))
    session = open_table(path)
    publisher = Publisher(section(broker), path, reconnect_s=FAST)
    publisher.start()
    try:
        second = play(session, seed=2)
        publisher.board(session.view())
        results = wait_for(
            lambda: len(reader.on(topic("results"))) >= 2 and reader.json_on(topic("results"))
        )
        wait_for(lambda: unsent(path) == 0)
    finally:
        publisher.stop()
        reader.close()
    assert [r["game_id"] for r in results] == [first, second]


def test_the_state_is_retained_and_at_most_a_few_a_second(
    broker: LocalBroker, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    publisher = Publisher(section(broker), path, reconnect_s=FAST)
    publisher.start()
    try:
        wait_for(lambda: publisher.figures.connects == 1)
        views = []
        for entry in whole_game()[:-1]:
            session.submit(entry)
            views.append(session.view())
            publisher.board(session.view())
        wait_for(lambda: publisher.figures.states_sent >= 1)
        # The newest view is what stays: a reader that comes later gets it, retained.
        late = Reader(broker, topic("state"))
        expected = session.view().events
        state = wait_for(
            lambda: [s for s in late.json_on(topic("state")) if s["events"] == expected],
            what="the newest state, retained",
        )
        late.close()
    finally:
        publisher.stop()
    assert state[0]["game"] == "jumpy_jack" and state[0]["table"] == "table1"
    assert publisher.figures.states_sent < len(views) / 2  # far fewer than the changes


def test_a_table_may_publish_only_its_own_topics(broker: LocalBroker, tmp_path: Path) -> None:
    """The broker's ACL: table2's credentials cannot publish as table1."""
    reader = Reader(broker, f"companion/{CLUB}/#")
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    impostor = ClubSection(CLUB, "table1", login(broker, "table2"))
    publisher = Publisher(impostor, path, reconnect_s=FAST)
    publisher.start()
    try:
        wait_for(lambda: publisher.figures.connects == 1)
        play(session)
        publisher.board(session.view())
        wait_for(lambda: publisher.figures.results_handed >= 1)  # the result tried, refused
    finally:
        publisher.stop()  # before table2's own phone connects: one client id, one session
    # The same credentials on their own topics do get through (the broker is not just shut).
    honest = Publisher(section(broker, "table2"), tmp_path / "other.sqlite3", reconnect_s=FAST)
    open_table(tmp_path / "other.sqlite3").close()
    honest.start()
    try:
        wait_for(lambda: reader.on(topic("status", "table2")) == [b"online"])
    finally:
        honest.stop()
        reader.close()
    assert reader.on(topic("results")) == [] and reader.on(topic("status")) == []
    assert unsent(path) == 1  # refused by the broker: still waiting in the outbox
