"""The Pi side of the Pico against a fake Pico on a pty pair: handshake, strip, cards, buttons,
unplug and replug, a restart, damaged lines, a silent Pico and a firmware of another version."""

from __future__ import annotations

import errno
import io
import queue
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.devices.base import ButtonPressed, CardScanned, DeviceStatus, Event
from companion.devices.fake_pico import FakePico, firmware_module
from companion.devices.pico import (
    PicoButtons,
    PicoCardReader,
    PicoLink,
    PicoRefused,
    PicoStrip,
    PicoUnavailable,
)
from companion.devices.pico_link import open_serial

RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 200, 0)
DARK = (0, 0, 0)


class Sink:
    """An event sink like the daemon's queue, with a wait for the next matching event."""

    def __init__(self) -> None:
        self.queue: queue.Queue[Event] = queue.Queue()
        self.seen: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.queue.put(event)

    def wait(self, match: Callable[[Event], bool], timeout: float = 5.0) -> Event:
        deadline = time.monotonic() + timeout
        while True:
            for event in self.seen:
                if match(event):
                    self.seen.remove(event)
                    return event
            try:
                self.seen.append(self.queue.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"no matching event; saw {self.seen}") from None

    def statuses(self) -> list[DeviceStatus]:
        while not self.queue.empty():
            self.seen.append(self.queue.get())
        return [e for e in self.seen if isinstance(e, DeviceStatus)]


def status(ok: bool, words: str) -> Callable[[Event], bool]:
    return lambda e: isinstance(e, DeviceStatus) and e.ok == ok and words in e.message


@pytest.fixture
def pico(tmp_path: Path) -> Iterator[FakePico]:
    fake = FakePico(tmp_path / "usb-MicroPython_Board-if00").plug()
    yield fake
    fake.close()


def make_link(path: str) -> PicoLink:
    return PicoLink(path, reply_timeout_s=0.3, handshake_timeout_s=0.6, backoff_s=(0.05, 0.3))


@pytest.fixture
def link(pico: FakePico) -> Iterator[PicoLink]:
    link = make_link(pico.path)
    yield link
    link.close()


def frame_with(count: int, lit: dict[int, tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    frame = [DARK] * count
    for index, colour in lit.items():
        frame[index] = colour
    return frame


def test_handshake_reports_the_firmware_and_connects(pico: FakePico, link: PicoLink) -> None:
    sink = Sink()
    buttons = PicoButtons(link)
    buttons.start(sink)
    info = link.wait_ready(5)
    assert info.firmware == firmware_module("app").FIRMWARE_VERSION
    assert (info.protocol, info.leds, info.reader) == (link.table.protocol, 100, True)
    sink.wait(status(True, "Pico connected"))
    assert link.ping() < 1.0
    buttons.close()


def test_the_strip_shows_frames_at_the_brightness_asked(pico: FakePico, link: PicoLink) -> None:
    strip = PicoStrip(link, 60, brightness=0.5)
    frame = frame_with(60, {0: RED, 7: GREEN, 59: BLUE})
    strip.show(frame)
    assert pico.wait_for(lambda: pico.frame[:60] == tuple(frame))
    assert pico.brightness == 128
    assert pico.wait_for(lambda: pico.shown[7] == (0, 128, 0))
    assert pico.shown[60:] == (DARK,) * 40
    strip.close()
    assert pico.frame == (DARK,) * 100
    assert pico.shown == (DARK,) * 100


def test_a_move_walks_a_light_over_the_path_then_leaves_the_frame(tmp_path: Path) -> None:
    # The Pico's clock is the test's: the light steps when the test moves time on, so a busy
    # machine cannot make the fake's loop wake too late for a step.
    with FakePico(tmp_path / "pico", manual_clock=True) as pico:
        link = make_link(pico.path)
        strip = PicoStrip(link, 20, brightness=1.0, step_ms=20)
        link.wait_ready(5)
        before = frame_with(20, {3: YELLOW})
        after = frame_with(20, {7: YELLOW})
        strip.show(before)
        strip.animate_move(after, [4, 5, 6, 7], BLUE)
        assert pico.wait_for(lambda: any(s[4] == BLUE for s in pico.history))
        assert pico.moving
        pico.advance(0.079)
        assert pico.moving and pico.shown[7] == BLUE, "the light left the path early"
        pico.advance(0.001)
        assert not pico.moving and pico.shown[:20] == tuple(after)
        lit = [s.index(BLUE) for s in pico.history if BLUE in s]
        assert lit == [4, 5, 6, 7]
        strip.close()
        link.close()


def test_a_frame_too_long_for_one_line_arrives_in_pieces(tmp_path: Path) -> None:
    with FakePico(tmp_path / "pico", leds=400) as pico:
        link = make_link(pico.path)
        strip = PicoStrip(link, 400, brightness=1.0)
        frame = [(i % 256, (i * 7) % 256, (i * 13) % 256) for i in range(400)]
        commands = strip.frame_commands(frame)
        assert [name for name, _ in commands][:2] == ["FRAME", "SET"]
        assert all(len(link.codec.encode(1, n, **f)) <= 1025 for n, f in commands)
        strip.show(frame)
        assert pico.wait_for(lambda: pico.frame == tuple(frame))
        strip.close()
        link.close()


def test_the_latest_frame_wins_when_frames_come_fast(pico: FakePico, link: PicoLink) -> None:
    strip = PicoStrip(link, 30)
    for step in range(200):
        strip.show(frame_with(30, {step % 30: RED}))
    assert pico.wait_for(lambda: pico.frame[:30] == tuple(frame_with(30, {199 % 30: RED})))
    assert link.stats.lines_sent < 150
    strip.close()


def test_cards_and_buttons_become_events(tmp_path: Path) -> None:
    # On the fake's manual clock the card lies 0.5 s of its time, read every 60 ms: a busy
    # machine cannot leave a gap longer than the 0.3 s window and so make a held card news.
    with FakePico(tmp_path / "pico", manual_clock=True) as pico:
        link = make_link(pico.path)
        sink = Sink()
        cards = {"04A1B2C3D4E5F6": "QS"}
        reader = PicoCardReader(link, lookup=cards.get, repeat_window_s=0.3)
        buttons = PicoButtons(link)
        reader.start(sink)
        buttons.start(sink)
        link.wait_ready(5)
        assert pico.wait_for(lambda: pico.window_ms == 300)
        pico.scan("04a1b2c3d4e5f6", hold_s=0.5)
        pico.advance(0.5)
        assert sink.wait(lambda e: isinstance(e, CardScanned)) == CardScanned(
            "04A1B2C3D4E5F6", "QS", "pico"
        )
        pico.press("spare3")
        pico.advance(0.3)
        assert sink.wait(lambda e: isinstance(e, ButtonPressed)) == ButtonPressed("spare3")
        pico.scan("DEADBEEF")
        pico.advance(0.3)
        assert sink.wait(lambda e: isinstance(e, CardScanned)) == CardScanned(
            "DEADBEEF", None, "pico"
        )
        assert not [e for e in sink.seen if isinstance(e, CardScanned)], "a held card came twice"
        reader.close()
        buttons.close()
        link.close()


def test_a_card_laid_is_read_even_when_the_firmware_comes_round_after_its_hold(
    tmp_path: Path,
) -> None:
    # The fake runs in the daemon's process: stalled past the hold (a loaded machine), it
    # once lifted a card its firmware had never read, and the player's card vanished. A hold
    # of 0 s is that stall: the card must still be read, and once.
    with FakePico(tmp_path / "pico", manual_clock=True) as pico:
        link = make_link(pico.path)
        sink = Sink()
        reader = PicoCardReader(link, repeat_window_s=0.3)
        reader.start(sink)
        link.wait_ready(5)
        assert pico.wait_for(lambda: pico.window_ms == 300)
        pico.scan("0A0B0C0D", hold_s=0.0)
        pico.advance(0.5)
        assert sink.wait(lambda e: isinstance(e, CardScanned)) == CardScanned(
            "0A0B0C0D", None, "pico"
        )
        pico.advance(0.5)
        assert not [e for e in sink.seen if isinstance(e, CardScanned)], "the card came twice"
        reader.close()
        link.close()


def test_unplug_and_replug_reconnects_and_resends_the_frame(pico: FakePico, link: PicoLink) -> None:
    sink = Sink()
    strip = PicoStrip(link, 50, brightness=0.25)
    reader = PicoCardReader(link, repeat_window_s=2.0)
    reader.start(sink)
    frame = frame_with(50, {10: RED, 20: GREEN})
    strip.show(frame)
    assert pico.wait_for(lambda: pico.frame[:50] == tuple(frame))
    sink.wait(status(True, "connected"))

    pico.unplug()
    sink.wait(status(False, "unplugged"))
    assert not link.connected
    later = frame_with(50, {11: RED, 20: GREEN})
    strip.show(later)
    pico.plug()
    sink.wait(status(True, "connected"))
    assert pico.wait_for(lambda: pico.frame[:50] == tuple(later))
    assert pico.brightness == 64
    assert pico.wait_for(lambda: pico.window_ms == 2000)
    assert link.stats.connects == 2
    pico.scan("01020304")
    assert sink.wait(lambda e: isinstance(e, CardScanned)).uid == "01020304"  # type: ignore[union-attr]
    strip.close()
    reader.close()


def frames_sent(pico: FakePico) -> int:
    """How many frames the Pico has been sent so far."""
    return b"".join(pico.received).count(b"FRAME")


def test_a_pico_that_restarts_by_itself_gets_its_frame_back(pico: FakePico, link: PicoLink) -> None:
    strip = PicoStrip(link, 10)
    frame = frame_with(10, {2: BLUE})
    strip.show(frame)
    assert pico.wait_for(lambda: pico.frame[:10] == tuple(frame))
    sent = frames_sent(pico)
    pico.reset()
    # The restarted firmware starts dark; the frame it shows again is one the link sent anew.
    # (A frame resent for a slow answer before the restart is no proof: the link must have
    # connected again, then sent the frame anew.)
    assert pico.wait_for(
        lambda: (
            link.stats.connects == 2
            and frames_sent(pico) > sent
            and pico.frame[:10] == tuple(frame)
        )
    )
    strip.close()


def test_a_firmware_of_another_major_version_is_refused(tmp_path: Path) -> None:
    with FakePico(tmp_path / "pico", protocol="2.0", firmware="2.1.0") as pico:
        sink = Sink()
        link = make_link(pico.path)
        strip = PicoStrip(link, 10)
        buttons = PicoButtons(link)
        buttons.start(sink)
        with pytest.raises(PicoRefused) as refused:
            link.wait_ready(5)
        message = str(refused.value)
        assert "2.0" in message and "1.0" in message and "2.1.0" in message
        assert "firmware/README.md" in message
        shown = sink.wait(status(False, "protocol 2.0, need 1.x: reflash"))
        assert isinstance(shown, DeviceStatus) and len(shown.message) <= 80
        strip.show(frame_with(10, {0: RED}))
        time.sleep(0.2)
        assert not any(b"FRAME" in data for data in pico.received)
        buttons.close()
        strip.close()


def test_a_firmware_of_another_minor_version_is_accepted(tmp_path: Path) -> None:
    with FakePico(tmp_path / "pico", protocol="1.7") as pico:
        link = make_link(pico.path)
        link.acquire()
        assert link.wait_ready(5).protocol == "1.7"
        link.release()


def test_a_pico_at_the_repl_is_reported_then_found_when_it_answers(
    pico: FakePico, link: PicoLink
) -> None:
    pico.answer = False
    sink = Sink()
    buttons = PicoButtons(link)
    buttons.start(sink)
    with pytest.raises(PicoUnavailable):
        link.wait_ready(0.8)
    sink.wait(status(False, "not answering"))
    assert link.stats.bad_lines > 0, "the echoed HELLO should count as a bad line"
    pico.answer = True
    link.wait_ready(5)
    sink.wait(status(True, "connected"))
    buttons.close()


def test_a_pico_that_stops_answering_is_dropped_and_taken_back(
    pico: FakePico, link: PicoLink
) -> None:
    sink = Sink()
    strip = PicoStrip(link, 10)
    buttons = PicoButtons(link)
    buttons.start(sink)
    link.wait_ready(5)
    pico.answer = False
    strip.show(frame_with(10, {5: GREEN}))
    sink.wait(status(False, "stopped answering"))
    pico.answer = True
    sink.wait(status(True, "connected"))
    assert pico.wait_for(lambda: pico.frame[5] == GREEN)
    strip.close()
    buttons.close()


def test_damaged_lines_are_sent_again(pico: FakePico, link: PicoLink) -> None:
    strip = PicoStrip(link, 10)
    link.wait_ready(5)
    assert pico.wait_for(lambda: link.stats.lines_sent >= 2)
    pico.corrupt(2)
    frame = frame_with(10, {1: RED})
    strip.show(frame)
    assert pico.wait_for(lambda: pico.frame[:10] == tuple(frame))
    assert link.stats.retries >= 2
    strip.close()


def test_noise_from_the_pico_is_counted_and_ignored(pico: FakePico, link: PicoLink) -> None:
    link.acquire()
    link.wait_ready(5)
    pico.emit(b"\x00\xff\x03noise\r\nTraceback (most recent call last):\n" + b"Z" * 3000 + b"\n")
    pico.emit(b"12 CARD 0102 *0000\n")
    assert pico.wait_for(lambda: link.stats.bad_lines >= 4)
    assert link.ping() < 1.0
    assert link.connected
    link.release()


def test_a_missing_pico_is_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "pico"
    sink = Sink()
    link = make_link(str(path))
    buttons = PicoButtons(link)
    buttons.start(sink)
    sink.wait(status(False, "not found"))
    with FakePico(path):
        assert link.wait_ready(5).leds == 100
        sink.wait(status(True, "connected"))
        buttons.close()
    assert link._thread is None, "the last device closed the link"


def test_a_card_reader_that_does_not_answer_is_reported(tmp_path: Path) -> None:
    with FakePico(tmp_path / "pico", reader=False) as pico:
        sink = Sink()
        link = make_link(pico.path)
        reader = PicoCardReader(link)
        reader.start(sink)
        sink.wait(status(False, "card reader"))
        reader.close()


def test_the_strip_refuses_what_it_cannot_show(pico: FakePico, link: PicoLink) -> None:
    strip = PicoStrip(link, 10)
    with pytest.raises(ValueError, match="10 colours"):
        strip.show([RED] * 9)
    with pytest.raises(ValueError, match="LED 10"):
        strip.animate_move([DARK] * 10, [9, 10], RED)
    with pytest.raises(ValueError, match="channel"):
        strip.show([(256, 0, 0)] * 10)
    with pytest.raises(ValueError, match="brightness"):
        strip.set_brightness(1.5)
    with pytest.raises(ValueError):
        PicoStrip(link, 0)
    strip.close()


def test_the_pico_command_prints_the_firmware_and_can_leave_for_the_repl(
    pico: FakePico, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.devices.pico import main

    assert main([pico.path]) == 0
    out = capsys.readouterr().out
    assert "protocol 1.1" in out and "100 LEDs" in out and "card reader answering" in out
    assert main([pico.path, "--repl"]) == 0
    assert pico.wait_for(lambda: not pico.answer)
    assert main([pico.path, "--timeout", "2"]) == 1
    assert "not answering" in capsys.readouterr().err


def test_the_fake_pico_runs_as_a_program(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "pico"
    child = subprocess.Popen(
        [sys.executable, "-m", "companion.devices.fake_pico", "--link", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        assert child.stdout.readline().strip() == str(path)
        sink = Sink()
        link = make_link(str(path))
        reader = PicoCardReader(link)
        reader.start(sink)
        strip = PicoStrip(link, 4, brightness=1.0)
        strip.show([RED, DARK, DARK, BLUE])
        link.wait_ready(5)
        child.stdin.write("card 0A0B0C0D\n")
        child.stdin.flush()
        assert sink.wait(lambda e: isinstance(e, CardScanned)).uid == "0A0B0C0D"  # type: ignore[union-attr]
        deadline = time.monotonic() + 5
        while True:
            child.stdin.write("frame\n")
            child.stdin.flush()
            if child.stdout.readline().startswith("FF0000 000000 000000 0000FF"):
                break
            assert time.monotonic() < deadline, "the frame never arrived"
        reader.close()
        strip.close()
        child.stdin.write("quit\n")
        child.stdin.flush()
        assert child.wait(timeout=10) == 0
    finally:
        child.kill()


def test_a_port_the_service_may_not_open_is_reported(tmp_path: Path) -> None:
    import serial

    def refuse(port: str, baudrate: int) -> Any:
        # What pyserial raises for a port of group dialout opened by a user outside it.
        raise serial.SerialException(errno.EACCES, f"could not open port {port}: denied")

    sink = Sink()
    link = PicoLink(str(tmp_path / "pico"), opener=refuse, backoff_s=(0.05, 0.1))
    buttons = PicoButtons(link)
    buttons.start(sink)
    shown = sink.wait(status(False, "dialout"))
    assert isinstance(shown, DeviceStatus) and len(shown.message) <= 80
    buttons.close()


def test_a_port_held_by_another_program_is_reported(pico: FakePico) -> None:
    import serial

    holder = serial.Serial(pico.path, exclusive=True)
    try:
        sink = Sink()
        link = make_link(pico.path)
        buttons = PicoButtons(link)
        buttons.start(sink)
        sink.wait(status(False, "in use by another program"))
        buttons.close()
    finally:
        holder.close()


def test_every_status_the_link_reports_fits_the_lcd() -> None:
    import textwrap

    import companion.devices.pico_link as module

    root = Path(module.__file__).resolve().parents[2]
    docs = (root / "docs" / "protocol.md").read_text(encoding="utf-8")
    rows = [
        line.split("|")[2].strip()
        for line in docs.splitlines()
        if line[:7] in ("| yes |", "| no | ")
    ]
    source = Path(module.__file__).read_text(encoding="utf-8")
    assert len(rows) >= 8
    for message in rows:
        lines = textwrap.wrap(message, 20)
        assert len(lines) <= 4 and all(len(line) <= 20 for line in lines), message
        pattern = message.replace("2.0", "{info.protocol}").replace("1.x", "{self.table.major}.x")
        assert pattern in source, f"{message!r} is not what the link says"


class CountingPort:
    """A real serial port that counts how often the link reads it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.reads = 0

    @property
    def in_waiting(self) -> int:
        return int(self.inner.in_waiting)

    def read(self, size: int = 1) -> bytes:
        self.reads += 1
        return bytes(self.inner.read(size))

    def write(self, data: bytes, /) -> int | None:
        written: int | None = self.inner.write(data)
        return written

    def close(self) -> None:
        self.inner.close()

    def cancel_read(self) -> None:
        self.inner.cancel_read()

    def fileno(self) -> int:
        return int(self.inner.fileno())


class PortWithoutFileno(CountingPort):
    """A port select() cannot wait on, like pyserial's loop:// or a socket:// URL."""

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno")


def counting_link(path: str, kind: type[CountingPort]) -> tuple[PicoLink, list[CountingPort]]:
    ports: list[CountingPort] = []

    def opener(port: str, baudrate: int) -> CountingPort:
        ports.append(kind(open_serial(port, baudrate)))
        return ports[-1]

    link = PicoLink(
        path, opener=opener, reply_timeout_s=0.3, handshake_timeout_s=0.6, backoff_s=(0.05, 0.3)
    )
    return link, ports


def test_an_idle_link_sleeps_until_the_pico_speaks_or_work_comes(pico: FakePico) -> None:
    link, ports = counting_link(pico.path, CountingPort)
    sink = Sink()
    buttons = PicoButtons(link)
    buttons.start(sink)
    link.wait_ready(5)
    assert link.ping() < 1.0
    time.sleep(0.1)
    before = ports[-1].reads
    time.sleep(0.5)
    assert ports[-1].reads - before <= 3, "the idle link kept reading the port"
    assert link.ping() < 0.25, "a request queued while idle waited"
    pico.press("spare2")  # (waits that should succeed are long: the machine may be busy)
    assert sink.wait(lambda e: isinstance(e, ButtonPressed), 10.0) == ButtonPressed("spare2")
    pico.unplug()
    sink.wait(status(False, "unplugged"), timeout=10.0)
    pico.plug()
    sink.wait(status(True, "connected"))
    started = time.monotonic()
    buttons.close()
    assert link._thread is None
    assert time.monotonic() - started < 1.0, "closing an idle link waited"


def test_a_port_without_a_file_descriptor_is_read_with_its_timeout(pico: FakePico) -> None:
    link, ports = counting_link(pico.path, PortWithoutFileno)
    sink = Sink()
    strip = PicoStrip(link, 10)
    buttons = PicoButtons(link)
    buttons.start(sink)
    link.wait_ready(5)
    before = ports[-1].reads
    deadline = time.monotonic() + 10  # three timed reads take 0.3 s on a quiet machine
    while ports[-1].reads - before < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ports[-1].reads - before >= 3, "the link did not fall back to timed reads"
    frame = frame_with(10, {4: BLUE})
    strip.show(frame)
    assert pico.wait_for(lambda: pico.frame[:10] == tuple(frame))
    assert link.ping() < 1.0
    pico.press("spare1")
    assert sink.wait(lambda e: isinstance(e, ButtonPressed), 10.0) == ButtonPressed("spare1")
    pico.unplug()
    sink.wait(status(False, "unplugged"), timeout=10.0)
    strip.close()
    buttons.close()


def test_an_idle_fake_pico_sleeps_but_still_reads_presses_and_cards(tmp_path: Path) -> None:
    # The press and the card lie for a time of the fake's manual clock, not of the machine's:
    # a busy machine may not run the fake's loop within 50 ms, but the press is still held.
    with FakePico(tmp_path / "pico", manual_clock=True) as pico:
        steps: list[float] = []
        step = pico._step

        def counted(data: bytes) -> None:
            steps.append(time.monotonic())
            step(data)

        pico._step = counted  # type: ignore[method-assign]
        link = make_link(pico.path)
        sink = Sink()
        buttons = PicoButtons(link)
        reader = PicoCardReader(link)
        buttons.start(sink)
        reader.start(sink)
        link.wait_ready(5)
        assert link.ping() < 1.0
        time.sleep(0.1)
        before = len(steps)
        time.sleep(0.5)
        assert len(steps) - before <= 5, "the idle fake Pico kept polling its firmware"
        pico.press("spare4", hold_s=0.05)
        pico.advance(0.05)
        assert sink.wait(lambda e: isinstance(e, ButtonPressed), 10.0) == ButtonPressed("spare4")
        pico.scan("0A0B0C0D", hold_s=0.1)
        pico.advance(0.1)
        assert sink.wait(lambda e: isinstance(e, CardScanned), 10.0).uid == "0A0B0C0D"  # type: ignore[union-attr]
        reader.close()
        buttons.close()
        link.close()


def test_a_reply_of_the_wrong_kind_is_not_taken_for_the_answer(tmp_path: Path) -> None:
    with FakePico(tmp_path / "pico", renamed={"PONG": "ACK"}) as pico:
        link = make_link(pico.path)
        link.acquire()
        link.wait_ready(5)
        with pytest.raises(PicoUnavailable, match="no reply"):
            link.ping()
        assert link.stats.wrong_replies >= 1
        assert any(b"PING" in data for data in pico.received)
        link.release()


def test_a_card_line_received_twice_is_one_scan(pico: FakePico, link: PicoLink) -> None:
    sink = Sink()
    reader = PicoCardReader(link)
    buttons = PicoButtons(link)
    reader.start(sink)
    buttons.start(sink)
    link.wait_ready(5)
    line = pico.say("CARD", "0A0B0C0D")
    assert sink.wait(lambda e: isinstance(e, CardScanned)).uid == "0A0B0C0D"  # type: ignore[union-attr]
    pico.emit(line)  # the very same line again, sequence number and all
    pico.say("BUTTON", "spare1")  # sent after the repeat, so it arrives after it
    assert sink.wait(lambda e: isinstance(e, ButtonPressed)) == ButtonPressed("spare1")
    assert not [e for e in sink.seen if isinstance(e, CardScanned)], "the repeat was a scan"
    assert link.stats.duplicates == 1
    pico.say("CARD", "0A0B0C0D")  # the same card read again: a new line, a new number
    assert sink.wait(lambda e: isinstance(e, CardScanned)).uid == "0A0B0C0D"  # type: ignore[union-attr]
    reader.close()
    buttons.close()


class JumpingClock:
    """The link's clock: the machine's, plus the time a busy Pi held the link's thread up."""

    def __init__(self) -> None:
        self.held = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.held


class HeldUpPort(CountingPort):
    """A real serial port whose write of a MOVE returns only once the Pico's answer waits on
    the port and the link's clock has passed the reply timeout: a Pi too busy to run the link."""

    def __init__(self, inner: Any, clock: JumpingClock, hold_s: float) -> None:
        super().__init__(inner)
        self.clock = clock
        self.hold_s = hold_s
        self.held_up = False

    def write(self, data: bytes, /) -> int | None:
        written = super().write(data)
        if b"MOVE" in data and not self.held_up:
            self.held_up = True
            ready, _, _ = select.select([self.fileno()], [], [], 5.0)
            assert ready, "the fake Pico did not answer the MOVE"
            self.clock.held += self.hold_s
        return written


def test_an_answer_waiting_after_a_busy_moment_is_not_taken_for_silence(tmp_path: Path) -> None:
    # The answer is on the port before the link looks at its clock: the MOVE must not be sent
    # again, or the Pico walks the horse's light a second time.
    with FakePico(tmp_path / "pico", manual_clock=True) as pico:
        clock = JumpingClock()
        ports: list[HeldUpPort] = []

        def opener(port: str, baudrate: int) -> HeldUpPort:
            ports.append(HeldUpPort(open_serial(port, baudrate), clock, hold_s=0.5))
            return ports[-1]

        link = PicoLink(
            pico.path,
            opener=opener,
            clock=clock,
            reply_timeout_s=0.3,
            handshake_timeout_s=0.6,
            backoff_s=(0.05, 0.3),
        )
        strip = PicoStrip(link, 20, brightness=1.0, step_ms=20)
        link.wait_ready(5)
        strip.show(frame_with(20, {3: YELLOW}))
        after = frame_with(20, {7: YELLOW})
        strip.animate_move(after, [4, 5, 6, 7], BLUE)
        assert link.ping() < 5.0  # answered after the MOVE's answer, so that one was read
        assert ports[-1].held_up
        assert link.stats.retries == 0, "the answered MOVE was sent again"
        moves = b"".join(pico.received).count(b"MOVE")
        assert moves == 1, f"the Pico got the MOVE {moves} times"
        pico.advance(0.08)
        assert not pico.moving and pico.shown[:20] == tuple(after)
        lit = [s.index(BLUE) for s in pico.history if BLUE in s]
        assert lit == [4, 5, 6, 7], "the light walked more than once"
        strip.close()
        link.close()


def test_a_late_answer_to_an_earlier_request_is_not_taken_for_the_next(pico: FakePico) -> None:
    link = PicoLink(pico.path, reply_timeout_s=30.0, handshake_timeout_s=0.6)
    link.acquire()
    link.wait_ready(5)
    assert link.ping() < 5.0
    pico.answer = False  # the test answers for the Pico from here on
    request = link.send([("BRIGHT", {"level": 10})])[0]
    assert pico.wait_for(lambda: any(b"BRIGHT" in data for data in pico.received))
    pico.say("ACK", request.seq - 1)  # the answer to the PING's number, coming late
    pico.say("ERR", request.seq, "unknown", "BRIGHT is not carried out by this firmware")
    with pytest.raises(PicoUnavailable, match="unknown"):
        request.wait(5)
    assert request.reply is None, "the late answer was taken for the BRIGHT's"
    link.release()
