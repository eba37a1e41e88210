"""Nothing lost, provably: every result the broker acknowledged reaches the league, however
it was lost on the way (the first, one long ago, the last of the evening), each asked for
once; the outbox marks a result sent only on the broker's PUBACK; a table's restarts send
nothing twice; Home Assistant's race_over events wait for the broker like results."""

from __future__ import annotations

import json
import signal
import sqlite3
from pathlib import Path

from companion.club.broker import LocalBroker
from companion.club.league import League
from companion.club.listener import Listener
from companion.club.mqtt import client_for
from companion.club.publisher import Publisher
from companion.devices.config.sections import ClubSection
from companion.session.session import Session
from tests.club.conftest import CLUB, FAST, Reader, login, start_league, wait_for
from tests.club.games import open_table, play, whole_game
from tests.club.test_durability import answered, league_config, stored, unsent

RESULTS = f"companion/{CLUB}/+/results"


def finish(session: Session, publisher: Publisher, seed: int) -> None:
    """The table plays a game to its end, and its publisher is told the table's new view."""
    play(session, seed=seed)
    publisher.board(session.view())


def table(broker: LocalBroker, path: Path, name: str = "table1") -> Publisher:
    return Publisher(ClubSection(CLUB, name, login(broker, name)), path, reconnect_s=FAST)


def stop_hearing(listener: Listener) -> None:
    answered(listener, lambda: listener.client.unsubscribe(RESULTS), "no league listening")


def hear_again(listener: Listener) -> None:
    answered(listener, lambda: listener.client.subscribe(RESULTS, qos=1), "the league back")


def second_unheard(
    session: Session, publisher: Publisher, path: Path, store: League, listener: Listener
) -> None:
    """The table's first result reaches the league; its second is acknowledged by the broker
    while no league listens."""
    finish(session, publisher, 1)
    wait_for(lambda: len(store.results()) == 1, what="the first result")
    stop_hearing(listener)
    finish(session, publisher, 2)
    wait_for(lambda: unsent(path) == 0, what="the second acknowledged, for nobody")


def test_a_tables_first_result_lost_on_the_way_is_asked_for(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    store, listener = league
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = table(broker, path)
    publisher.start()
    try:
        wait_for(lambda: publisher.figures.connects == 1, what="the table connected")
        stop_hearing(listener)
        finish(session, publisher, 1)
        wait_for(lambda: unsent(path) == 0, what="the first acknowledged, for nobody")
        hear_again(listener)
        finish(session, publisher, 2)
        wait_for(lambda: len(store.results()) == 2, what="the first, asked for")
    finally:
        publisher.stop()
    assert [r.data["game_id"] for r in store.results()] == [1, 2]
    assert listener.figures.requests == 1


def test_a_result_lost_long_before_the_last_one_is_asked_for_by_its_number(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    """Real games last longer than ten minutes: a result acknowledged an hour before the
    next one is asked for all the same."""
    store, listener = league
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = table(broker, path)
    publisher.start()
    try:
        second_unheard(session, publisher, path, store, listener)
        db = sqlite3.connect(path)
        db.execute("UPDATE outbox SET sent = '2025-11-14T20:00:00.000+00:00' WHERE id = 2")
        db.commit()
        db.close()
        hear_again(listener)
        finish(session, publisher, 3)
        wait_for(lambda: len(store.results()) == 3, what="the lost one, asked for by number")
    finally:
        publisher.stop()
    assert [r.data["game_id"] for r in store.results()] == [1, 2, 3]


def test_the_last_result_of_the_evening_lost_on_the_way_is_asked_for(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    """No later result will come to show the gap: the table's state says how many of its
    results the broker acknowledged."""
    store, listener = league
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = table(broker, path)
    publisher.start()
    try:
        second_unheard(session, publisher, path, store, listener)
        hear_again(listener)
        wait_for(lambda: len(store.results()) == 2, what="the last result, asked for")
    finally:
        publisher.stop()
    assert [r.data["game_id"] for r in store.results()] == [1, 2]


def test_the_outbox_marks_a_result_sent_only_on_the_brokers_acknowledgement(
    broker: LocalBroker, tmp_path: Path
) -> None:
    """The broker frozen, the table hands it a result: not sent until PUBACK. The broker then
    dies without ever reading it and the table restarts: the result goes out again, once."""
    reader = Reader(broker, RESULTS, persistent=True)
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = table(broker, path)
    publisher.start()
    try:
        wait_for(lambda: publisher.figures.connects == 1, what="the table connected")
        assert broker.process is not None
        broker.process.send_signal(signal.SIGSTOP)
        try:
            finish(session, publisher, 1)
            wait_for(lambda: publisher.figures.results_handed == 1, what="the result handed")
            assert unsent(path) == 1, "marked sent without the broker's acknowledgement"
        finally:
            broker.stop(kill=True)  # frozen still: it never reads what the table wrote to it
    finally:
        publisher.stop()
        session.close()
    assert unsent(path) == 1
    reader.close()
    broker.start()
    reader = Reader(broker, RESULTS, persistent=True)
    again = table(broker, path)
    again.start()
    try:
        wait_for(lambda: unsent(path) == 0, what="the result sent after the restart")
        wait_for(lambda: len(reader.on(RESULTS.replace("+", "table1"))) == 1, what="the result")
    finally:
        again.stop()
        reader.close()
    assert len(reader.on(RESULTS.replace("+", "table1"))) == 1


def sent_before(path: Path, games: int) -> None:
    """A journal with ``games`` results, sent on another evening (before this league)."""
    session = open_table(path)
    for seed in range(1, games + 1):
        play(session, seed=seed)
    session.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE outbox SET sent = '2025-11-14T21:00:00.000+00:00'")
    db.commit()
    db.close()


def test_a_new_league_asks_once_and_a_table_restarted_twice_sends_nothing_again(
    broker: LocalBroker, tmp_path: Path
) -> None:
    """A new league asks a table for its three results; once they are in, the request is
    cleared, so the table's restarts send nothing more."""
    path = tmp_path / "table1.sqlite3"
    sent_before(path, 3)
    resend = f"companion/{CLUB}/league/resend/table1"
    results = Reader(broker, f"companion/{CLUB}/table1/results")
    requests = Reader(broker, resend)
    database = tmp_path / "league.sqlite3"
    (tmp_path / "league.toml").write_text(league_config(broker, database))
    league, _ = start_league(tmp_path / "league.toml")
    view = open_table(path).view()  # what the table shows as it starts
    try:
        publisher = table(broker, path)
        publisher.start()
        publisher.board(view)
        wait_for(lambda: len(stored(database)) == 3, what="the three results, asked for")
        wait_for(lambda: requests.on(resend)[-1:] == [b""], what="the request cleared")
        publisher.stop()
        for _ in range(2):
            publisher = table(broker, path)
            publisher.start()
            publisher.board(view)
            wait_for(lambda p=publisher: p.figures.states_sent == 1, what="the table back")
            publisher.stop()
    finally:
        league.send_signal(signal.SIGTERM)
        out = league.communicate(timeout=10)[0]
    assert len(requests.on(resend)) == 2, out  # one request, then cleared
    assert len(results.on(f"companion/{CLUB}/table1/results")) == 3
    assert publisher.figures.requests == 0
    results.close()
    requests.close()


def test_each_request_is_answered_once_even_when_the_broker_delivers_it_again(
    broker: LocalBroker, tmp_path: Path
) -> None:
    path = tmp_path / "table1.sqlite3"
    sent_before(path, 3)
    results = Reader(broker, f"companion/{CLUB}/table1/results")
    publisher = table(broker, path)
    publisher.start()
    league = client_for(login(broker, "league"), "league")
    league.connect("127.0.0.1", broker.port)
    league.loop_start()
    try:
        wait_for(lambda: publisher.figures.connects == 1, what="the table connected")
        request = json.dumps({"id": "a" * 32, "at": "2025-11-14T22:00:00Z", "seqs": [[2, 3]]})
        info = league.publish(f"companion/{CLUB}/league/resend/table1", request, 1, retain=True)
        info.wait_for_publish(10)
        wait_for(lambda: publisher.figures.answered == 1, what="the request answered")
        league.loop_stop()
        league.disconnect()
        broker.restart()  # the table connects again: the retained request comes again
        wait_for(lambda: publisher.figures.requests == 2, what="the request delivered again")
        wait_for(lambda: len(results.on(f"companion/{CLUB}/table1/results")) >= 2)
    finally:
        publisher.stop()
        results.close()
    assert publisher.figures.answered == 1
    assert [json.loads(p)["seq"] for p in results.on(f"companion/{CLUB}/table1/results")] == [
        2, 3,
    ]  # fmt: skip


def test_a_race_scored_while_the_broker_is_away_reaches_home_assistant_later(
    broker: LocalBroker, tmp_path: Path
) -> None:
    events = Reader(broker, f"companion/{CLUB}/table1/event", persistent=True)
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    section = ClubSection(CLUB, "table1", login(broker, "table1"), home_assistant=True)
    publisher = Publisher(section, path, reconnect_s=FAST)
    publisher.start()
    try:
        wait_for(lambda: publisher.figures.connects == 1, what="the table connected")
        broker.stop()
        for entry in whole_game():
            session.submit(entry)
            publisher.board(session.view())
        races = len(session.view().board.to_json()["results"])
        broker.start()
        fired = events.at_least(f"companion/{CLUB}/table1/event", races)
    finally:
        publisher.stop()
        events.close()
    assert races >= 1 and [e["race"] for e in fired] == list(range(1, races + 1))
    assert all(e["event_type"] == "race_over" and e["at"] for e in fired)
