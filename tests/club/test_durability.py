"""Nothing lost, nothing twice: a broker killed mid-evening, a table and a league SIGKILLed."""

from __future__ import annotations

import signal
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.club.broker import LocalBroker
from companion.club.league import League
from companion.club.listener import Listener
from companion.club.publisher import Publisher
from companion.devices.config.sections import ClubSection, LeagueSection
from companion.session.log import MoveEntry, Roll
from tests.club.conftest import CLUB, FAST, USERS, login, start_league, wait_for
from tests.club.games import PLAYERS, open_table, play, whole_game
from tests.e2e.conftest import FAST_CONFIG, Child


def unsent(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT count(*) FROM outbox WHERE sent IS NULL").fetchone()[0])
    finally:
        db.close()


def test_a_broker_killed_mid_evening_loses_and_doubles_nothing(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    store, _ = league
    tables = []
    for n in (1, 2, 3):
        path = tmp_path / f"table{n}.sqlite3"
        section = ClubSection(CLUB, f"table{n}", login(broker, f"table{n}"))
        tables.append((path, open_table(path), Publisher(section, path, reconnect_s=FAST)))
    for _, _, publisher in tables:
        publisher.start()
    seed = 0
    try:
        for round_ in range(3):
            if round_ == 1:
                broker.stop(kill=True)  # the power cut of the broker's machine
            for _, session, publisher in tables:
                seed += 1
                play(session, seed=seed)
                publisher.board(session.view())
            if round_ == 1:
                assert all(unsent(path) == 1 for path, _, _ in tables)
                broker.start()
            wait_for(lambda n=3 * (round_ + 1): len(store.results()) == n, what="results")
        wait_for(lambda: all(unsent(path) == 0 for path, _, _ in tables), what="all sent")
    finally:
        for _, _, publisher in tables:
            publisher.stop()
    results = store.results()
    assert len(results) == 9 and len({r.id for r in results}) == 9
    assert sorted((r.table, r.data["game_id"]) for r in results) == [
        (f"table{n}", g) for n in (1, 2, 3) for g in (1, 2, 3)
    ]


def club_config(broker: LocalBroker, table: str = "table1") -> str:
    return FAST_CONFIG + (
        f'\n[club]\nclub = "{CLUB}"\ntable = "{table}"\nhost = "127.0.0.1"\n'
        f'port = {broker.port}\nusername = "{table}"\npassword = "{USERS[table]}"\n'
    )


def press_the_move(child: Child, roll: Roll, move: MoveEntry) -> None:
    """Roll ``roll`` with the simulator's die and press the button of ``move``'s horse."""
    child.act(f"die {roll.value}", "the roll")
    state = child.send("state")
    names = [h["name"] for h in state["view"]["board"]["horses"]]
    child.act(f"press horse{names.index(move.horse) + 1} 0.02", "the move")


def test_a_table_killed_before_the_broker_acknowledged_sends_its_result_after_its_restart(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    store, listener = league
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    entries = whole_game(seed=1)
    *before, roll, move = entries
    assert isinstance(roll, Roll) and isinstance(move, MoveEntry)
    session = open_table(state_dir / "journal.sqlite3")
    for entry in before:
        assert session.submit(entry).accepted
    session.close()
    config = tmp_path / "companion.toml"
    config.write_text(club_config(broker))
    workdir = Path(tempfile.mkdtemp(prefix="club-"))
    first = Child(workdir, state_dir, config)
    second = Child(workdir, state_dir, config)
    try:
        first.start()
        wait_for(lambda: [t.status for t in listener.live()] == ["online"], what="online")
        broker.stop()  # the café's Wi-Fi drops
        press_the_move(first, roll, move)
        first.wait_until(lambda s: s["view"].get("finished") is True, "the game's end")
        assert unsent(state_dir / "journal.sqlite3") == 1
        first.kill()  # the plug pulled before the broker ever saw the result
        broker.start()
        assert store.results() == []
        second.start()
        wait_for(lambda: len(store.results()) == 1, what="the result after the restart")
        wait_for(lambda: unsent(state_dir / "journal.sqlite3") == 0, what="marked sent")
        second.kill()
        wait_for(lambda: [t.status for t in listener.live()] == ["offline"], what="last will")
    finally:
        for child in (first, second):
            if child.process is not None and child.process.poll() is None:
                child.process.kill()
    (result,) = store.results()
    assert result.table == "table1" and [p["name"] for p in result.players()] == list(PLAYERS)
    assert listener.figures.stored == 1


def league_config(broker: LocalBroker, database: Path) -> str:
    return (
        f'[league]\nclub = "{CLUB}"\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'username = "league"\npassword = "{USERS["league"]}"\ndatabase = "{database}"\n'
        'bind = "127.0.0.1"\npage_port = 0\n[web]\nenabled = false\n'
    )


def stored(database: Path) -> list[Any]:
    if not database.exists():
        return []
    db = sqlite3.connect(database)
    try:
        return [row[0] for row in db.execute("SELECT id FROM results")]
    except sqlite3.OperationalError:
        return []
    finally:
        db.close()


def test_a_league_killed_mid_evening_gets_every_result_once(
    broker: LocalBroker, tmp_path: Path
) -> None:
    database = tmp_path / "league" / "league.sqlite3"
    config = tmp_path / "league.toml"
    config.write_text(league_config(broker, database))
    league, _ = start_league(config)
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = Publisher(ClubSection(CLUB, "table1", login(broker, "table1")), path)
    publisher.start()
    try:
        play(session, seed=1)
        publisher.board(session.view())
        wait_for(lambda: len(stored(database)) == 1, what="the first result")
        league.send_signal(signal.SIGKILL)
        league.wait(10)
        for seed in (2, 3, 4):
            play(session, seed=seed)
            publisher.board(session.view())
        wait_for(lambda: unsent(path) == 0, what="the broker has them (for the league)")
        league, _ = start_league(config)
        wait_for(lambda: len(stored(database)) == 4, what="what the broker kept for the league")
    finally:
        publisher.stop()
        league.send_signal(signal.SIGTERM)
        out = league.communicate(timeout=10)[0]
    assert league.returncode == 0, out
    assert "Traceback" not in out, out
    assert len(set(stored(database))) == 4


def test_a_broker_crash_that_lost_the_leagues_queue_is_made_good_by_the_tables(
    broker: LocalBroker, tmp_path: Path
) -> None:
    """The league away, the broker acknowledges results for it, then crashes before saving
    them: the league, told by each table's state how many results it sent, asks each for
    the one it lacks."""
    store = League.open(tmp_path / "league.sqlite3")
    section = LeagueSection(CLUB, login(broker, "league"))
    listener = Listener(section, store, reconnect_s=FAST)
    listener.start()
    wait_for(listener.connected.is_set, what="the league's first session")
    tables = []
    for n in (1, 2):
        path = tmp_path / f"table{n}.sqlite3"
        club = ClubSection(CLUB, f"table{n}", login(broker, f"table{n}"))
        tables.append((path, open_table(path), Publisher(club, path, reconnect_s=FAST)))
    for _, _, publisher in tables:
        publisher.start()
    try:
        for seed, (_, session, publisher) in enumerate(tables, start=1):
            play(session, seed=seed)
            publisher.board(session.view())
        wait_for(lambda: len(store.results()) == 2, what="the first two results")
        listener.stop()  # the league's machine goes to sleep
        for seed, (_, session, publisher) in enumerate(tables, start=3):
            play(session, seed=seed)
            publisher.board(session.view())
        wait_for(lambda: all(unsent(path) == 0 for path, _, _ in tables), what="acknowledged")
        broker.stop(kill=True)
        for saved in (broker.folder / "data").iterdir():
            saved.unlink()  # the crash came before the broker saved the league's queue
        broker.start()
        listener = Listener(section, store, reconnect_s=FAST)
        listener.start()
        wait_for(lambda: len(store.results()) == 4, what="every result, sent again")
    finally:
        listener.stop()
        for _, _, publisher in tables:
            publisher.stop()
    results = store.results()
    assert sorted((r.table, r.data["game_id"]) for r in results) == [
        ("table1", 1), ("table1", 2), ("table2", 1), ("table2", 2),
    ]  # fmt: skip
    # Each table is asked once, for the one number the league lacks: nothing else comes twice.
    assert listener.figures.stored == 2 and listener.figures.repeats == 0
    assert listener.figures.requests == 2
    store.close()


def test_a_league_started_after_the_first_games_gets_them_all(
    broker: LocalBroker, tmp_path: Path
) -> None:
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = Publisher(ClubSection(CLUB, "table1", login(broker, "table1")), path)
    publisher.start()
    store = League.open(tmp_path / "league.sqlite3")
    listener = Listener(LeagueSection(CLUB, login(broker, "league")), store, reconnect_s=FAST)
    try:
        for seed in (1, 2):
            play(session, seed=seed)
            publisher.board(session.view())
        wait_for(lambda: unsent(path) == 0, what="both results acknowledged, nobody listening")
        listener.start()  # its very first session: the broker kept nothing for it
        wait_for(lambda: len(store.results()) == 2, what="both results, sent again")
    finally:
        listener.stop()
        publisher.stop()
    assert [r.data["game_id"] for r in store.results()] == [1, 2]
    store.close()


def answered(listener: Listener, ask: Callable[[], tuple[Any, int]], what: str) -> None:
    """Send a (un)subscription with ``ask`` and wait until the broker has answered it: paho
    only queues it, and a result published meanwhile would still find the old subscriptions."""
    done: set[int] = set()

    def note(client: Any, data: Any, mid: int, codes: Any, properties: Any) -> None:
        done.add(mid)  # on paho's thread; one set operation needs no lock

    listener.client.on_subscribe = note
    listener.client.on_unsubscribe = note
    _, mid = ask()
    wait_for(lambda: mid in done, what=what)


def test_a_result_lost_on_the_way_is_asked_for_again_when_the_next_one_comes(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    """A result the broker acknowledged but never delivered (here: the league's subscription
    briefly gone, as in a broker crash between the two) leaves a gap in the table's numbers."""
    store, listener = league
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = Publisher(ClubSection(CLUB, "table1", login(broker, "table1")), path)
    publisher.start()
    results = f"companion/{CLUB}/+/results"
    try:
        play(session, seed=1)
        publisher.board(session.view())
        wait_for(lambda: len(store.results()) == 1, what="the first result")
        answered(listener, lambda: listener.client.unsubscribe(results), "no league listening")
        play(session, seed=2)
        publisher.board(session.view())
        wait_for(lambda: unsent(path) == 0, what="the second acknowledged, for nobody")
        answered(listener, lambda: listener.client.subscribe(results, qos=1), "the league back")
        play(session, seed=3)
        publisher.board(session.view())
        wait_for(lambda: len(store.results()) == 3, what="the lost one, asked for again")
    finally:
        publisher.stop()
    assert [r.data["game_id"] for r in store.results()] == [1, 2, 3]
