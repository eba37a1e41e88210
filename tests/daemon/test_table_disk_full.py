"""A full disk at the table: the LCD says the input was not saved, the log says it once.

The disk is "full" through SQLite's own size limit on the journal (``max_page_count``):
SQLite then fails a write exactly as on a full disk, and raising the limit is space coming
back.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.table import DISK_FULL
from companion.games.errors import fits_display
from companion.session.log import Predict
from companion.session.session import Session


def set_room(session: Session, room: bool) -> None:
    assert session.journal is not None
    db = session.journal._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {1073741823 if room else pages}")


def fill_up(session: Session, table: Any) -> None:
    """Use the room left in the journal's last page: roll until a roll is not saved."""
    set_room(session, False)
    for _ in range(500):
        table.roll(4)
        if DISK_FULL.split(":")[0] in table.said:
            return
    raise AssertionError("the journal never filled up")


def test_the_disk_full_sentence_fits_the_lcd() -> None:
    assert fits_display(DISK_FULL)


def test_a_full_disk_is_shown_logged_once_and_play_goes_on_when_space_returns(
    tmp_path: Path, make_table: Any, caplog: pytest.LogCaptureFixture
) -> None:
    session = Session.open(tmp_path / "journal.sqlite3")
    session.new_game("jumpy_jack", ("Anna", "Ben"))
    session.submit(Predict("Anna", ("red", "blue", "green")))
    session.submit(Predict("Ben", ("white", "yellow", "red")))
    table = make_table(session)
    caplog.set_level(logging.INFO, logger="companion.table")

    fill_up(session, table)
    events = session.view().events
    for _ in range(20):
        table.roll(3)
        assert table.said.endswith("Disk full: this input was not saved.")
    assert session.view().events == events  # nothing was taken in
    full = [r for r in caplog.records if "disk is full" in r.getMessage()]
    assert len(full) == 1 and full[0].levelno == logging.ERROR and full[0].exc_info is None
    assert not [r for r in caplog.records if "Something went wrong" in r.getMessage()]

    set_room(session, True)
    caplog.clear()
    table.press("undo")  # anything that writes nothing does not end the episode
    assert not caplog.records
    table.hold_undo()  # undo is journaled: it is saved again
    assert "Disk full" not in table.said
    assert session.view().events == events + 1
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "written again" in caplog.records[0].getMessage()

    caplog.clear()
    fill_up(session, table)  # a second episode is told again, once
    table.roll(3)
    assert len([r for r in caplog.records if "disk is full" in r.getMessage()]) == 1
    session.close()
