"""What the table tests share: a controller driven like the panel and the card reader drive it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from companion.daemon.table import TableController
from companion.devices.base import (
    ButtonHeld,
    ButtonPressed,
    CardScanned,
    DieRolled,
    EncoderTurned,
    Event,
)
from companion.render.screen import Cue, Screen
from companion.session.session import Session


class Table:
    """A table controller with a clock the test moves; every cue it gave is kept in ``cues``."""

    def __init__(self, session: Session, names: Sequence[str] = ("Anna", "Ben"), **kw: Any):
        self.now = 100.0
        self.ctl = TableController(session, player_names=names, clock=lambda: self.now, **kw)
        self.cues: list[Cue] = []

    def send(self, event: Event) -> list[Cue]:
        cues = list(self.ctl.handle(event))
        self.cues.extend(cues)
        return cues

    def press(self, *buttons: str) -> list[Cue]:
        return [c for b in buttons for c in self.send(ButtonPressed(b))]

    def turn(self, steps: int) -> list[Cue]:
        return self.send(EncoderTurned(steps))

    def scan(self, card: str | None, uid: str = "04A1") -> list[Cue]:
        return self.send(CardScanned(uid, card, "reader"))

    def roll(self, value: int) -> list[Cue]:
        return self.press("die") + self.send(DieRolled(value))

    def hold_undo(self) -> list[Cue]:
        return self.send(ButtonHeld("undo"))

    def wait(self, seconds: float = 5.0) -> None:
        self.now += seconds
        self.ctl.tick(self.now)

    @property
    def screen(self) -> Screen:
        return self.ctl.screen()

    @property
    def lcd(self) -> str:
        return "\n".join(self.screen.lcd)

    @property
    def said(self) -> str:
        """The LCD read as one sentence (a wrapped message joined again)."""
        return " ".join(row.strip() for row in self.screen.lcd)

    @property
    def view(self) -> Any:
        return self.ctl.session.view()


@pytest.fixture
def make_table() -> type[Table]:
    """The table driver: ``make_table(session, names=..., **controller_options)``."""
    return Table
