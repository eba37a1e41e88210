"""The SQLite journal: durable settings, several games, and files it must refuse untouched."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.session.journal import SCHEMA_VERSION, GameNotRebuilt, Journal, JournalError
from companion.session.log import NewGame, Predict, Roll, dumps
from companion.session.session import Session
from tests.units import needs


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def played_journal(path: Path) -> None:
    session = Session.open(path)
    session.new_game("jumpy_jack", ("Anna", "Bob"), {})
    for player in ("Anna", "Bob"):
        session.submit(Predict(player, ("red", "blue", "green")))
    session.submit(Roll(4))
    session.close()


def test_a_new_journal_is_durable_and_versioned(tmp_path: Path) -> None:
    path = tmp_path / "state" / "journal.sqlite3"
    journal = Journal.open(path)
    db = journal._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    journal.close()


#: A child that opens a journal, then appends, keeps a refusal and appends again; between the
#: steps it calls getppid, which marks where one ends in the trace of its system calls.
FLUSHES_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from companion.session.journal import Journal
    journal = Journal.open(sys.argv[1])
    game = journal.create_game("jumpy_jack", ("Anna", "Bob"), '{"type": "new_game"}')
    os.getppid()
    journal.append(game, 1, '{"type": "roll", "value": 3}')
    os.getppid()
    journal.record_refusal(game, '{"type": "roll", "value": 9}', "invalid_die", "No.")
    os.getppid()
    journal.append(game, 2, '{"type": "roll", "value": 5}')
    os.getppid()
    journal.close()
    """
)


@needs("strace")
def test_an_accepted_input_waits_for_the_disk_and_a_refusal_does_not(tmp_path: Path) -> None:
    trace = tmp_path / "calls.txt"
    subprocess.run(
        ["strace", "-f", "-qq", "-o", str(trace), "-e", "trace=fsync,fdatasync,getppid",
         sys.executable, "-c", FLUSHES_SCRIPT, str(tmp_path / "j.sqlite3")],
        check=True, timeout=60,
    )  # fmt: skip
    steps = [0]
    for line in trace.read_text().splitlines():
        if "getppid" in line:
            steps.append(0)
        elif "sync(" in line:
            steps[-1] += 1
    accepted, refused, accepted_after = steps[1:4]
    assert accepted >= 1 and accepted_after >= 1  # on the disk before the table answers
    assert refused == 0  # a refusal is committed without waiting for the disk
    journal = Journal.open(tmp_path / "j.sqlite3")
    assert [r.code for r in journal.refusals()] == ["invalid_die"]
    assert len(journal.events(1)) == 3
    journal.close()


def test_games_events_and_refusals_are_kept_apart(tmp_path: Path) -> None:
    times = iter(f"2024-06-0{n}T10:00:00.000+00:00" for n in range(1, 10))
    journal = Journal.open(tmp_path / "j.sqlite3", clock=lambda: next(times))
    first = journal.create_game("jumpy_jack", ("Anna", "Bob"), '{"type": "new_game"}')
    second = journal.create_game("jockey", ("Chloé", "Dan"), '{"type": "new_game"}')
    journal.append(first, 1, '{"type": "roll", "value": 3}')
    journal.record_refusal(first, '{"type": "roll", "value": 9}', "invalid_die", "No.")
    journal.append(second, 1, '{"type": "next_race"}', status="finished")
    assert journal.events(first) == ['{"type": "new_game"}', '{"type": "roll", "value": 3}']
    assert [r.code for r in journal.refusals(first)] == ["invalid_die"]
    assert journal.refusals(second) == []
    records = {g.id: g for g in journal.games()}
    assert records[first].status == "active" and records[first].events == 2
    assert records[second].status == "finished" and records[second].players == ("Chloé", "Dan")
    assert records[first].created == "2024-06-01T10:00:00.000+00:00"
    assert journal.latest_active() == first
    journal.set_status(first, "abandoned")
    assert journal.latest_active() is None
    with pytest.raises(JournalError, match="no game 7"):
        journal.events(7)
    with pytest.raises(sqlite3.IntegrityError):
        journal._db.execute("INSERT INTO events VALUES (?, 1, 'x', 'y')", (first,))
    journal.close()


def test_the_same_input_number_cannot_be_written_twice(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    game = journal.create_game("jumpy_jack", ("A", "B"), dumps(NewGame("jumpy_jack", ("A", "B"))))
    journal.append(game, 1, dumps(Roll(3)))
    with pytest.raises(JournalError, match="cannot write"):
        journal.append(game, 1, dumps(Roll(4)))
    assert journal.events(game)[1] == dumps(Roll(3))
    journal.close()


@pytest.mark.parametrize(
    "damage",
    ["garbage", "truncated", "scribbled_pages", "header_only"],
)
def test_a_corrupt_journal_is_refused_and_left_untouched(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "journal.sqlite3"
    played_journal(path)
    data = bytearray(path.read_bytes())
    if damage == "garbage":
        data = bytearray(b"this is not a database at all\n" * 200)
    elif damage == "truncated":
        data = data[:50]
    elif damage == "scribbled_pages":
        page = int.from_bytes(data[16:18], "big")
        for start in range(page, len(data), page):
            data[start : start + page] = bytes((i * 7 + 3) % 256 for i in range(page))
    else:
        data = data[:100] + bytes(4096)
    path.write_bytes(bytes(data))
    before = fingerprint(path)
    with pytest.raises(JournalError) as caught:
        Session.open(path)
    message = str(caught.value)
    assert str(path) in message and "untouched" in message
    assert fingerprint(path) == before


def test_a_journal_from_a_newer_companion_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    played_journal(path)
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    before = fingerprint(path)
    with pytest.raises(JournalError, match="newer companion") as caught:
        Session.open(path)
    assert f"version {SCHEMA_VERSION + 1}" in str(caught.value)
    assert fingerprint(path) == before


def test_another_programs_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "photos.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        connection.execute("INSERT INTO photos (name) VALUES ('cat')")
    connection.close()
    before = fingerprint(path)
    with pytest.raises(JournalError, match="not a companion journal"):
        Journal.open(path)
    assert fingerprint(path) == before


def test_a_journal_that_no_longer_replays_names_the_way_out(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    played_journal(path)
    with sqlite3.connect(path) as connection:
        connection.execute(
            "UPDATE events SET entry = ? WHERE seq = 3", ('{"type": "roll", "value": 9}',)
        )
    connection.close()
    with pytest.raises(GameNotRebuilt, match="cannot be rebuilt") as caught:
        Session.open(path)
    assert "companion export 1" in str(caught.value) and caught.value.game_id == 1
    # The daemon can still start without that game.
    without = Session.open(path, resume=False)
    assert without.game_id is None and [g.id for g in without.games()] == [1]
    without.close()
    # The file still opens for export and for abandoning that game.
    journal = Journal.open(path)
    assert len(journal.events(1)) == 4
    journal.set_status(1, "abandoned")
    journal.close()
    assert Session.open(path).game_id is None
