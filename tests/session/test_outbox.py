"""The journal's outbox: a finished game's result is written with the input that ended it."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.club.payloads import content_hash
from companion.session.journal import SCHEMA_VERSION, Journal
from companion.session.session import Session
from tests.club.games import finish, open_table, play

FIXTURE = Path(__file__).parent / "fixtures" / "journal-v1.sqlite3"


def outbox(path: Path) -> list[tuple[int, str, str | None]]:
    db = sqlite3.connect(path)
    try:
        return list(db.execute("SELECT game_id, payload, sent FROM outbox ORDER BY id"))
    finally:
        db.close()


def test_a_journal_of_version_1_opens_upgraded_with_its_games(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    shutil.copy(FIXTURE, path)
    session = Session.open(path)
    session.results = None
    games = session.games()
    assert [(g.id, g.kind, g.status) for g in games] == [
        (1, "jumpy_jack", "finished"),
        (2, "course_hippique", "active"),
    ]
    assert session.game_id == 2 and session.table is not None  # the active game is back
    assert session.journal is not None and len(session.journal.events(1)) == 1132
    session.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    assert outbox(path) == []  # games finished before the upgrade are not invented results


def test_the_result_is_queued_with_the_input_that_ended_the_game(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    game_id = play(session, last=False)
    assert outbox(path) == []  # one input before the end: nothing yet
    session.close()
    session = open_table(path)  # after a restart, the game goes on where it was
    assert session.game_id == game_id
    finish(session)
    rows = outbox(path)
    assert len(rows) == 1 and rows[0][0] == game_id and rows[0][2] is None
    result = json.loads(rows[0][1])
    journal = Journal.open(path)
    record = journal.game(game_id)
    assert result["started"] == record.created and result["ended"] == record.updated
    assert result["game_id"] == game_id and result["game"] == "jumpy_jack"
    assert [p["name"] for p in result["players"]] == ["Anna", "Bob", "Chloé"]
    assert result["hash"] == content_hash(result)
    assert set(result["winners"]) == {p["name"] for p in result["players"] if p["rank"] == 1}
    journal.close()


def test_a_failed_write_of_the_last_input_leaves_no_result(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    play(session, last=False)

    def broken(*args: object) -> str:
        raise OSError("disk gone")

    session.results = broken
    table = session.table
    assert table is not None
    events = len(table.entries)
    with pytest.raises(OSError):
        finish(session)
    assert outbox(path) == []
    journal = Journal.open(path)
    assert journal.game(session.game_id or 0).events == events  # the input is not on disk
    journal.close()


def test_a_table_without_a_club_writes_no_outbox(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    play(session)
    assert outbox(path) == []


def test_a_game_taken_back_after_its_end_and_ended_again_queues_a_later_result(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    game_id = play(session)
    assert session.undo().accepted and not session.view().finished
    finish(session)
    rows = outbox(path)
    assert [row[0] for row in rows] == [game_id, game_id]
    first, second = (json.loads(row[1]) for row in rows)
    assert first["id"] != second["id"] and first["started"] == second["started"]
    assert second["ended"] >= first["ended"]


FIXTURE_V2 = Path(__file__).parent / "fixtures" / "journal-v2.sqlite3"


def test_a_journal_of_version_2_opens_upgraded_with_its_outbox(tmp_path: Path) -> None:
    """Version 3 keeps the league's refusals in the outbox: a journal of version 2 gets the
    column, and its results keep what they were (one sent, one waiting)."""
    path = tmp_path / "journal.sqlite3"
    shutil.copy(FIXTURE_V2, path)
    session = open_table(path)
    games = session.games()
    assert [(g.id, g.kind, g.status, g.refused) for g in games] == [
        (1, "jumpy_jack", "finished", ""),
        (2, "course_hippique", "finished", ""),
        (3, "jumpy_jack", "active", ""),
    ]
    assert session.game_id == 3 and session.table is not None
    finish(session, seed=3)  # the game in progress ends: its result joins the outbox
    session.close()
    journal = Journal.open(path)
    records = [(r.id, r.game_id, r.sent, r.refused) for r in journal.outbox()]
    assert records == [
        (1, 1, "2025-11-14T21:03:00.000+00:00", ""),
        (2, 2, None, ""),
        (3, 3, None, ""),
    ]
    journal.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
