"""The journal under faults: foreign schemas, empty files, a full disk, a read-only folder.

A full disk is made with SQLite's own size limit (``PRAGMA max_page_count``: SQLite then
answers exactly as on a full disk). A folder and file this user may not write are real: when
the tests run as root (as in CI), the child process that opens them first becomes an
unprivileged user, since permission bits do not stop root.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.session.journal import (
    SCHEMA_VERSION,
    Journal,
    JournalError,
    JournalFull,
    JournalReadOnly,
)
from companion.session.log import NewGame, Roll, dumps
from companion.session.session import Session
from tests.unprivileged import as_unprivileged_user


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def files_beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def fill_the_disk(journal: Journal) -> None:
    """Let the journal's file grow no more: every write that needs a new page is refused."""
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")


def free_space(journal: Journal) -> None:
    journal._db.execute("PRAGMA max_page_count = 1073741823")


def a_game(path: Path) -> None:
    session = Session.open(path)
    session.new_game("jumpy_jack", ("Anna", "Bob"), {})
    session.close()


# ---- a file is lost or changed ------------------------------------------------------------


def test_a_foreign_database_with_the_journal_version_and_table_names_is_left_untouched(
    tmp_path: Path,
) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (title TEXT, year INTEGER)")
        db.execute("CREATE TABLE events (what TEXT)")
        db.execute("CREATE TABLE refusals (why TEXT)")
        db.execute("INSERT INTO games VALUES ('Go', 1990)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.close()
    before, side = fingerprint(path), files_beside(path)
    with pytest.raises(JournalError, match="not a companion journal") as caught:
        Session.open(path)
    assert "untouched" in str(caught.value)
    assert fingerprint(path) == before  # not even switched to WAL mode
    assert files_beside(path) == side


def test_a_journal_with_an_extra_table_of_the_companion_opens(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    a_game(path)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE IF NOT EXISTS seats (game_id INTEGER, seat INTEGER, name TEXT)")
    db.close()
    session = Session.open(path)
    assert session.game_id == 1 and session.table is not None
    session.close()


def test_a_journal_missing_a_column_is_refused_and_named(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    a_game(path)
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE refusals DROP COLUMN sentence")
    db.close()
    before = fingerprint(path)
    with pytest.raises(JournalError, match="refusals has no column sentence"):
        Journal.open(path)
    assert fingerprint(path) == before


def test_an_empty_file_is_not_made_a_journal_when_only_reading(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    with pytest.raises(JournalError, match="empty file"):
        Journal.open(path, create=False, writable=False)
    assert path.stat().st_size == 0 and files_beside(path) == ["empty.sqlite3"]


@pytest.mark.parametrize("name", ["", "folder"])
def test_a_folder_is_no_journal(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "folder").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(JournalError, match="is a folder, not a journal file"):
        Journal.open(Path(name))
    assert files_beside(tmp_path / "x") == ["folder"]


def test_a_journal_under_a_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    with pytest.raises(JournalError, match="Not a directory"):
        Journal.open(tmp_path / "plain" / "journal.sqlite3")


# ---- what a journal holds -----------------------------------------------------------------


@pytest.mark.parametrize("game_id", [2**63, 2**63 - 1, 2**100, -1])
def test_a_game_id_beyond_sqlite_integers_is_no_game(tmp_path: Path, game_id: int) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    with pytest.raises(JournalError, match=f"no game {game_id}"):
        journal.events(game_id)
    with pytest.raises(JournalError, match=f"no game {game_id}"):
        journal.set_status(game_id, "abandoned")
    journal.close()


@pytest.mark.parametrize("players", ["not json", "[[[", '{"a": 1}', "[1, 2]", "null"])
def test_a_players_column_that_is_not_a_list_of_names_reads_as_unreadable(
    tmp_path: Path, players: str
) -> None:
    path = tmp_path / "journal.sqlite3"
    a_game(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET players = ?", (players,))
    db.close()
    session = Session.open(path)  # the game is rebuilt from its own first entry
    assert session.table is not None and session.table.start.players == ("Anna", "Bob")
    assert [g.players for g in session.games()] == [()]
    session.close()


# ---- a full disk ----------------------------------------------------------------------------


def test_an_input_on_a_full_disk_says_so_and_changes_nothing(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    game = journal.create_game("jumpy_jack", ("A", "B"), dumps(NewGame("jumpy_jack", ("A", "B"))))
    fill_the_disk(journal)
    big = dumps(Roll(3)) + " " * 20_000
    with pytest.raises(JournalFull, match="disk is full") as caught:
        journal.append(game, 1, big)
    assert "rollback" not in str(caught.value).lower()
    assert journal.full and not journal._db.in_transaction
    assert journal.events(game) == [dumps(NewGame("jumpy_jack", ("A", "B")))]
    free_space(journal)
    journal.append(game, 1, big)
    assert not journal.full and len(journal.events(game)) == 2
    journal.close()


def test_a_new_game_on_a_full_disk_raises_the_journals_error_and_no_game_starts(
    tmp_path: Path,
) -> None:
    session = Session.open(tmp_path / "j.sqlite3")
    assert session.journal is not None
    fill_the_disk(session.journal)
    started = 0
    with pytest.raises(JournalFull, match="disk is full"):
        while started < 1000:  # until the room left in the file's last page is used
            session.new_game("jumpy_jack", ("Anna", "Bob"))
            started += 1
    games_before = len(session.games())
    assert games_before == started and session.game_id == games_before
    with pytest.raises(JournalFull):
        session.new_game("jumpy_jack", ("Anna", "Bob"))
    assert len(session.games()) == games_before and session.game_id == games_before
    free_space(session.journal)
    assert session.new_game("jumpy_jack", ("Anna", "Bob")) == games_before + 1
    session.close()


# ---- a folder and a file this user may not write -------------------------------------------


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder an unprivileged user can reach (pytest's own tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-ro-"))
    folder.chmod(0o755)
    yield folder
    folder.chmod(0o755)
    for child in folder.iterdir():
        child.chmod(0o644)
    shutil.rmtree(folder)


def test_a_journal_in_a_read_only_folder_is_read_and_never_written(shared_folder: Path) -> None:
    path = shared_folder / "journal.sqlite3"
    a_game(path)
    path.chmod(0o444)
    shared_folder.chmod(0o555)
    before = fingerprint(path)

    def look() -> object:
        journal = Journal.open(path, create=False, writable=False)
        seen = [journal.read_only, [g.players for g in journal.games()], journal.events(1)]
        try:
            journal.set_status(1, "abandoned")
        except JournalReadOnly as error:
            seen.append(str(error))
        journal.close()
        return seen

    read_only, players, events, refused = as_unprivileged_user(look)  # type: ignore[misc]
    assert read_only is True and players == [["Anna", "Bob"]] and len(events) == 1
    assert "read-only" in refused
    assert fingerprint(path) == before and files_beside(path) == ["journal.sqlite3"]


def test_the_companion_refuses_to_start_on_a_read_only_journal(shared_folder: Path) -> None:
    path = shared_folder / "journal.sqlite3"
    a_game(path)
    path.chmod(0o644)  # shared on purpose: the companion makes its journals 0600
    shared_folder.chmod(0o555)
    outcome = as_unprivileged_user(lambda: Session.open(path).game_id)
    assert isinstance(outcome, dict) and outcome["raised"] == "JournalReadOnly"
    assert "read-only" in outcome["message"] and "damaged" not in outcome["message"]


def test_an_unreadable_journal_is_named_with_the_reason(shared_folder: Path) -> None:
    path = shared_folder / "journal.sqlite3"
    a_game(path)
    path.chmod(0o000)
    outcome = as_unprivileged_user(lambda: Journal.open(path, create=False, writable=False).path)
    assert isinstance(outcome, dict) and outcome["raised"] == "JournalError"
    assert "Permission denied" in outcome["message"]


def command_output(argv: list[str]) -> tuple[int, str, str]:
    """Run a companion command in this process; return its status, output and errors."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def test_games_and_export_read_a_journal_this_user_may_not_write(shared_folder: Path) -> None:
    path = shared_folder / "journal.sqlite3"
    a_game(path)
    db = str(path)
    # Every module the commands load is loaded here, where the library can be read by root.
    for argv in (["games", "--db", db], ["export", "1", "--db", db]):
        assert command_output(argv)[0] == 0
    path.chmod(0o644)  # shared on purpose: the companion makes its journals 0600
    shared_folder.chmod(0o555)
    before = fingerprint(path)
    results = as_unprivileged_user(
        lambda: [
            command_output(["games", "--db", db]),
            command_output(["export", "1", "--db", db]),
            command_output(["games", "--abandon", "1", "--db", db]),
        ]
    )
    (listed, out, err), (exported, dump, _), (abandoned, _, refused) = results  # type: ignore[misc]
    assert listed == 0 and "Anna, Bob" in out and not err
    assert exported == 0 and '"players": ["Anna", "Bob"]' in dump
    assert abandoned == 2 and "read-only" in refused and "damaged" not in refused
    assert fingerprint(path) == before and files_beside(path) == ["journal.sqlite3"]


def test_bytes_that_are_not_utf8_in_a_damaged_journal_are_read_or_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    a_game(path)
    data = bytearray(path.read_bytes())
    for start in range(len(data)):  # a name in a row: read, with U+FFFD in its place
        if data[start : start + 4] == b"Anna":
            data[start + 1] = 0xFF
    path.write_bytes(bytes(data))
    journal = Journal.open(path, create=False, writable=False)
    assert [g.players for g in journal.games()] == [("A\ufffdna", "Bob")]
    journal.close()
    schema = data.index(b"CREATE TABLE games")  # the schema itself: the file is refused
    data[schema + 14] = 0x80
    path.write_bytes(bytes(data))
    before = fingerprint(path)
    with pytest.raises(JournalError, match="is damaged"):
        Journal.open(path, create=False, writable=False)
    assert fingerprint(path) == before
