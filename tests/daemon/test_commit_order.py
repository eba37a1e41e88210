"""A press reaches the glass before its journal commit, and the beep only once it is on disk.

A whole companion loop (the table controller on a journal, the panel's writer threads) plays
a Jumpy Jack race; the journal's SQLite connection holds its COMMIT (the flush to the card)
until the test lets it go, or fails it as a full disk does.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.loop import Daemon
from companion.daemon.notify import Notifier
from companion.daemon.outputs import Panel, fit_frame
from companion.daemon.table import TableController
from companion.devices.base import ButtonPressed, Tone
from companion.devices.buzzer import MemoryBuzzer
from companion.devices.lcd import CharacterLcd
from companion.devices.strip import MemoryStrip
from companion.session.log import MoveEntry, Predict, Roll
from companion.session.session import Session
from tests.polling import eventually


class HeldCommits:
    """A journal's connection whose COMMIT waits for ``go_on`` (``flushing`` is set while it
    waits), or fails as on a full disk when ``fail`` is set."""

    def __init__(self, inner: sqlite3.Connection) -> None:
        self.inner = inner
        self.flushing = threading.Event()
        self.go_on = threading.Event()
        self.fail = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.strip().upper() == "COMMIT":
            self.flushing.set()
            assert self.go_on.wait(10)
            if self.fail:
                self.fail = False
                error = sqlite3.OperationalError("database or disk is full")
                error.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
                raise error
        return self.inner.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Rig:
    """The loop, its table and its panel (LCD, strip and buzzer, each bus its own writer)."""

    def __init__(self, folder: Path) -> None:
        session = Session.open(folder / "journal.sqlite3")
        session.new_game("jumpy_jack", ("Anna", "Ben"))
        session.submit(Predict("Anna", ("red", "blue", "green")))
        session.submit(Predict("Ben", ("white", "yellow", "red")))
        assert session.submit(Roll(4, "Anna")).accepted
        journal = session.journal
        assert journal is not None
        self.db = HeldCommits(journal._db)
        journal._db = self.db  # type: ignore[assignment]
        self.session = session
        self.lcd = CharacterLcd.fake()
        self.strip = MemoryStrip(100, step_s=0.01)
        self.buzzer = MemoryBuzzer()
        self.panel = Panel(
            lcd=self.lcd,
            strip=self.strip,
            buzzer=self.buzzer,
            buses={"lcd": "i2c-1", "strip": "spi"},
        )
        self.controller = TableController(session, player_names=("Anna", "Ben"))
        self.daemon = Daemon(self.controller, self.panel, [], Notifier())
        self.daemon.hand = self.controller.hand
        self.thread = threading.Thread(target=self.daemon.run, daemon=True)

    def on_loop(self, read: Callable[[], Any]) -> Any:
        return self.daemon.call(read).result(5)

    def settled(self) -> None:
        self.on_loop(lambda: None)
        assert self.panel.wait_idle(5)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    rig = Rig(tmp_path)
    rig.thread.start()
    assert rig.daemon.running.wait(10)
    rig.settled()
    try:
        yield rig
    finally:
        rig.db.go_on.set()
        rig.daemon.stop()
        rig.thread.join(10)


def test_the_lcd_shows_a_move_before_its_commit_is_flushed_and_the_beep_waits(rig: Rig) -> None:
    before = rig.lcd.lines()
    tones = len(rig.buzzer.played)
    rig.daemon.post(ButtonPressed("horse1"))
    assert rig.db.flushing.wait(5)
    assert eventually(lambda: rig.lcd.lines() != before), "the move is on the LCD meanwhile"
    during = rig.lcd.lines()
    assert len(rig.buzzer.played) == tones, "no beep before the move is on disk"
    rig.db.go_on.set()
    rig.settled()
    assert rig.buzzer.played[tones:] == [Tone.ACCEPTED]
    assert rig.lcd.lines() == during, "what the LCD showed early was the move as taken"
    assert rig.session.accepted()[-1] == MoveEntry("red", "Anna")
    assert rig.session.journal is not None
    on_disk = sqlite3.connect(rig.session.journal.path)
    try:
        (count,) = on_disk.execute("SELECT count(*) FROM events").fetchone()
    finally:
        on_disk.close()
    assert count == len(rig.session.accepted())


def test_a_commit_that_fails_puts_the_table_back_and_beeps_the_refusal(rig: Rig) -> None:
    accepted = rig.session.accepted()
    before = rig.lcd.lines()
    frame = fit_frame(rig.on_loop(rig.controller.leds), rig.strip.count)
    tones = len(rig.buzzer.played)
    rig.db.fail = True
    rig.db.go_on.set()
    rig.daemon.post(ButtonPressed("horse1"))
    assert rig.db.flushing.wait(5)
    rig.settled()
    assert rig.session.accepted() == accepted, "the move was not taken"
    assert rig.on_loop(lambda: rig.session.view().phase) == "move"
    assert rig.buzzer.played[tones:] == [Tone.REFUSED]
    shown = rig.lcd.lines()
    assert "Disk full" in " ".join(shown), shown
    assert shown[0] == before[0], "the race is drawn as it was, the reason over its bottom rows"
    assert eventually(lambda: not rig.strip.animating and rig.strip.frames[-1] == frame), (
        "the strip is put back once the press's walk has ended"
    )
    answer = rig.on_loop(rig.controller.hand).of("horse1")
    assert answer is not None, "the same press is offered again"
    rig.daemon.post(ButtonPressed("horse1"))
    rig.settled()
    assert rig.session.accepted()[-1] == MoveEntry("red", "Anna")
    assert rig.buzzer.played[-1] == Tone.ACCEPTED
