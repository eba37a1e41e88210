"""The journal holds sealed inputs and the phones' token hashes: it and its side files are
its owner's alone (0600), the simulator's included, whatever the umask."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.session.session import Session
from companion.web.seats import SeatBook
from tests.web.conftest import Table

SIDE_FILES = ("", "-wal", "-shm")


def modes(journal: Path) -> dict[str, int]:
    """The permission bits of the journal and of each side file beside it."""
    return {
        suffix or "journal": stat.S_IMODE(journal.with_name(journal.name + suffix).stat().st_mode)
        for suffix in SIDE_FILES
        if journal.with_name(journal.name + suffix).exists()
    }


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The umask of most desktops (files 0644 unless made otherwise)."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def test_a_new_journal_and_its_side_files_are_the_owners_alone(
    tmp_path: Path, open_umask: None
) -> None:
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    session.new_game("jumpy_jack", ("Anna", "Bob"), {})
    seats = SeatBook(path)
    seats.issue("#host")
    found = modes(path)
    assert set(found) == {"journal", "-wal", "-shm"}  # all three exist while it is open
    assert found == dict.fromkeys(found, 0o600)
    seats.close()
    session.close()


def test_an_older_journal_others_could_read_is_narrowed_when_opened(
    tmp_path: Path, open_umask: None
) -> None:
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    session.new_game("jumpy_jack", ("Anna", "Bob"), {})
    session.close()
    path.chmod(0o644)  # as an earlier version left it
    session = Session.open(path)
    found = modes(path)
    assert found == dict.fromkeys(found, 0o600) and "journal" in found
    session.close()


def test_the_simulators_journal_is_the_owners_alone(table: Table) -> None:
    journal = table.root / "state" / "journal.sqlite3"
    table.child.send("state")  # the daemon is up: its journal is open
    found = modes(journal)
    assert "journal" in found and "-wal" in found, found
    assert found == dict.fromkeys(found, 0o600), found
