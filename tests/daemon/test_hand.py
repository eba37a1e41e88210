"""The hand: a legal horse press lights the strip at once, whatever the loop is doing.

A whole companion loop (the table controller on a journal, the panel's writer threads) drives
the strip on a fake Pico that runs the firmware's own modules; the horse buttons are wired to
the Pico, or to the Pi's pins (posted to the loop as the control panel does).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.loop import Daemon
from companion.daemon.notify import Notifier
from companion.daemon.outputs import Panel, fit_frame, fit_hand
from companion.daemon.table import TableController
from companion.devices.base import RGB, ButtonHeld, ButtonPressed, PressAnswers
from companion.devices.buzzer import MemoryBuzzer
from companion.devices.fake_pico import FakePico
from companion.devices.pico import PicoButtons, PicoLink, PicoStrip
from companion.devices.strip import MemoryStrip
from companion.session.log import MoveEntry, Predict, Roll
from companion.session.session import Session
from tests.polling import eventually

HORSES = ("horse1", "horse2", "horse3", "horse4", "horse5")
STALL_S = 0.5


@dataclass
class Table:
    """A companion at a Jumpy Jack race, Anna to move a 4."""

    daemon: Daemon
    controller: TableController
    session: Session
    panel: Panel
    thread: threading.Thread

    def leds(self) -> tuple[RGB, ...]:
        """The frame the table shows now on a 100-LED strip (asked on the loop's thread)."""
        frame: tuple[RGB, ...] = self.daemon.call(self.controller.leds).result(5)  # type: ignore[assignment]
        return tuple(fit_frame(frame, 100))

    def hand(self) -> PressAnswers:
        """What each legal button lights now on a 100-LED strip."""
        hand: PressAnswers = self.daemon.call(self.controller.hand).result(5)  # type: ignore[assignment]
        return fit_hand(hand, 100)

    def stall(self, seconds: float) -> threading.Event:
        """Hold the loop's thread for ``seconds``; the event is set once it is held."""
        held = threading.Event()

        def hold() -> None:
            held.set()
            time.sleep(seconds)

        self.daemon.call(hold)
        assert held.wait(5)
        return held

    def phase_becomes(self, phase: str, timeout: float = 5.0) -> bool:
        """Wait until the game's phase (read on the loop's thread) is ``phase``."""
        return eventually(
            lambda: self.daemon.call(lambda: self.session.view().phase).result(5) == phase,
            timeout,
        )

    def settled(self) -> None:
        """Wait until the loop has handled everything queued and the writers are idle."""
        self.daemon.call(lambda: None).result(5)
        assert self.panel.wait_idle(5)


def racing(folder: Path) -> Session:
    session = Session.open(folder / "journal.sqlite3")
    session.new_game("jumpy_jack", ("Anna", "Ben"))
    session.submit(Predict("Anna", ("red", "blue", "green")))
    session.submit(Predict("Ben", ("white", "yellow", "red")))
    assert session.submit(Roll(4, "Anna")).accepted
    return session


@contextlib.contextmanager
def started(session: Session, panel: Panel, inputs: list[Any]) -> Iterator[Table]:
    controller = TableController(session, player_names=("Anna", "Ben"))
    daemon = Daemon(controller, panel, inputs, Notifier())
    daemon.hand = controller.hand
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    assert daemon.running.wait(10)
    yield Table(daemon, controller, session, panel, thread)
    daemon.stop()
    thread.join(10)


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[FakePico]:
    with FakePico(tmp_path / "pico", buttons=HORSES) as fake:
        yield fake


@pytest.fixture
def on_pico(tmp_path: Path, pico: FakePico) -> Iterator[Table]:
    """The strip and the horse buttons on the Pico; a walk (1.2 s) outlasts a stall."""
    link = PicoLink(pico.path)
    strip = PicoStrip(link, 100, brightness=1.0, step_ms=300)
    buttons = PicoButtons(link)
    link.wait_ready(5)
    panel = Panel(strip=strip, buses={"strip": "pico"})
    with started(racing(tmp_path), panel, [buttons]) as table:
        yield table


def armed(pico: FakePico) -> bool:
    return bool(pico._firmware.hand)


def lit(pico: FakePico, frame: tuple[RGB, ...]) -> bool:
    """Whether the Pico holds ``frame`` and no walk runs over it."""
    return pico.frame == frame and not pico.moving


def test_a_legal_press_on_the_pico_lights_the_strip_while_the_loop_is_stalled(
    on_pico: Table, pico: FakePico
) -> None:
    table = on_pico
    before = table.leds()
    answer = table.hand().of("horse1")
    assert answer is not None and answer.path, "the red horse may move its 4"
    assert pico.wait_for(lambda: armed(pico))
    table.stall(STALL_S)
    stalled_until = time.monotonic() + STALL_S - 0.05
    pressed = time.monotonic()
    pico.press("horse1", hold_s=0.2)
    assert pico.wait_for(lambda: pico.frame == answer.frame, timeout=STALL_S)
    lit_at = pico._strip.written_at
    assert lit_at < stalled_until, "lit while the loop was still held"
    assert lit_at - pressed < 0.25, "lit within the debounce and a poll of the press"
    assert pico.shown[answer.path[0]] == answer.colour, "its walk has begun"
    assert table.phase_becomes("roll")
    table.settled()
    view = table.session.view()
    assert view.phase == "roll" and view.last.startswith("move")
    assert table.leds() == answer.frame != before
    received = b"".join(pico.received)
    assert b" MOVE " not in received and b" STOP" not in received, "the Pi confirmed by silence"
    assert pico.wait_for(lambda: lit(pico, answer.frame), timeout=3)


def test_a_press_the_table_no_longer_takes_is_put_back(on_pico: Table, pico: FakePico) -> None:
    table = on_pico
    answer = table.hand().of("horse1")
    assert answer is not None
    assert pico.wait_for(lambda: armed(pico))
    table.stall(STALL_S)
    # A phone moves the blue horse while the loop is held; the Pico still holds the old hand.
    table.daemon.enter(lambda: table.controller.apply(lambda ctx: _move(ctx, "blue")))
    pico.press("horse1", hold_s=0.2)
    assert pico.wait_for(lambda: pico.frame == answer.frame, timeout=STALL_S)
    assert table.phase_becomes("roll")
    assert eventually(lambda: b" STOP " in b"".join(pico.received), 5), "its walk is stopped"
    table.settled()
    assert table.session.accepted()[-1] == MoveEntry("blue", "Anna")
    assert pico.wait_for(lambda: lit(pico, table.leds()), timeout=2)
    assert table.leds() != answer.frame


def _move(ctx: Any, horse: str) -> Any:
    from companion.daemon.flows.base import Reply

    outcome = ctx.session.submit(MoveEntry(horse, "Anna"))
    assert outcome.accepted
    return Reply()


def test_an_undo_after_an_answered_press_puts_the_strip_back(
    on_pico: Table, pico: FakePico
) -> None:
    table = on_pico
    before = table.leds()
    answer = table.hand().of("horse2")
    assert answer is not None
    assert pico.wait_for(lambda: armed(pico))
    pico.press("horse2", hold_s=0.2)
    assert pico.wait_for(lambda: pico.frame == answer.frame)
    assert table.phase_becomes("roll")
    table.settled()
    table.daemon.post(ButtonHeld("undo"))
    table.settled()
    assert table.session.view().phase == "move"
    assert pico.wait_for(lambda: lit(pico, before), timeout=3)
    assert pico.wait_for(lambda: armed(pico)), "the hand of the move taken back is offered again"


def test_a_pico_that_restarts_is_offered_the_hand_again(on_pico: Table, pico: FakePico) -> None:
    table = on_pico
    answer = table.hand().of("horse3")
    assert answer is not None
    assert pico.wait_for(lambda: armed(pico))
    pico.reset()
    assert pico.wait_for(lambda: armed(pico) and pico.frame == table.leds())
    pico.press("horse3", hold_s=0.2)
    assert pico.wait_for(lambda: pico.frame == answer.frame)
    assert table.phase_becomes("roll")
    table.settled()
    assert table.session.accepted()[-1] == MoveEntry("green", "Anna")


def test_a_pico_of_protocol_1_0_gets_no_hand_and_the_pi_answers(tmp_path: Path) -> None:
    with FakePico(tmp_path / "old", buttons=HORSES, protocol="1.0") as pico:
        link = PicoLink(pico.path)
        strip = PicoStrip(link, 100, brightness=1.0)
        buttons = PicoButtons(link)
        link.wait_ready(5)
        panel = Panel(strip=strip, buses={"strip": "pico"})
        with started(racing(tmp_path), panel, [buttons]) as table:
            answer = table.hand().of("horse1")
            assert answer is not None
            table.settled()
            assert not armed(pico)
            assert not [r for r in pico.received if b"ANSWER" in r or b"HAND" in r]
            pico.press("horse1", hold_s=0.2)
            assert pico.wait_for(lambda: lit(pico, answer.frame), timeout=3)
            assert table.phase_becomes("roll")
            assert table.session.accepted()[-1] == MoveEntry("red", "Anna")


def test_a_press_on_the_pis_pins_lights_the_strip_before_the_journal_commits(
    tmp_path: Path,
) -> None:
    session = racing(tmp_path)
    strip = MemoryStrip(100, step_s=0.05)
    buzzer = MemoryBuzzer()
    panel = Panel(strip=strip, buzzer=buzzer, buses={"strip": "spi"})
    journal = session.journal
    assert journal is not None
    append = journal.append
    flushing = threading.Event()
    go_on = threading.Event()

    def slow_append(*args: Any, **kwargs: Any) -> Any:
        flushing.set()
        assert go_on.wait(5)
        return append(*args, **kwargs)

    journal.append = slow_append  # type: ignore[method-assign]
    with started(session, panel, []) as table:
        answer = table.hand().of("horse1")
        assert answer is not None
        table.settled()
        tones = len(buzzer.played)
        table.daemon.post(ButtonPressed("horse1"))
        assert flushing.wait(5)
        walking = list(answer.frame)
        walking[answer.path[0]] = answer.colour
        assert eventually(lambda: walking in strip.frames), "lit while the journal flushes"
        assert len(buzzer.played) == tones, "the buzzer waits for the durable commit"
        go_on.set()
        table.settled()
        assert len(buzzer.played) == tones + 1
        assert table.session.accepted()[-1] == MoveEntry("red", "Anna")
