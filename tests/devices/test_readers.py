"""Card readers as the table sees them: one scan per card, unknown tags, a port that comes back."""

from __future__ import annotations

import os
import queue
import threading
import tty
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.base import CardScanned, DeviceStatus, Event
from companion.devices.config import ReaderSection
from companion.devices.readers import (
    EvdevReader,
    FakeCardReader,
    KeyboardDecoder,
    LineDecoder,
    LineReader,
    Mfrc522Reader,
    Rdm6300Decoder,
    Rdm6300Reader,
    RepeatFilter,
    normalize_uid,
    rdm6300_frame,
    reader_from_config,
)
from companion.devices.readers.serial_port import ReaderPort

WAIT = 5.0
CARDS = {"04A23B11": "QS", "0012345678": "10H", "1A2B3C4D5E": "AS"}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Events:
    """A sink that the reader's thread fills and the test waits on."""

    def __init__(self) -> None:
        self.queue: queue.Queue[Event] = queue.Queue()

    def __call__(self, event: Event) -> None:
        self.queue.put(event)

    def next(self, timeout: float = WAIT) -> Event:
        return self.queue.get(timeout=timeout)

    def scans(self) -> list[CardScanned]:
        return [e for e in self.drain() if isinstance(e, CardScanned)]

    def drain(self) -> list[Event]:
        out = []
        while not self.queue.empty():
            out.append(self.queue.get_nowait())
        return out


# --- UIDs and repeats ---


@pytest.mark.parametrize(
    ("raw", "uid"),
    [
        ("04:a2:3b:11", "04A23B11"),
        (" 0012345678\r", "0012345678"),
        ("04-A2-3B-11", "04A23B11"),
        ("", None),
        ("UID?!", None),
        ("é1", None),
        ("F" * 41, None),
    ],
)
def test_uids_take_one_form(raw: str, uid: str | None) -> None:
    assert normalize_uid(raw) == uid


def test_a_card_held_on_the_reader_for_3_s_is_one_scan() -> None:
    clock, sink = Clock(), Events()
    reader = FakeCardReader(lookup=CARDS.get, repeat_window_s=1.5, clock=clock)
    reader.start(sink)
    for _ in range(30):  # the reader reports the card ten times a second
        reader.present("04A23B11")
        clock.now += 0.1
    assert sink.scans() == [CardScanned("04A23B11", "QS", "fake")]


def test_a_card_laid_down_again_later_is_a_new_scan() -> None:
    clock, sink = Clock(), Events()
    reader = FakeCardReader(lookup=CARDS.get, repeat_window_s=1.5, clock=clock)
    reader.start(sink)
    reader.present("04A23B11")
    clock.now += 2.0
    reader.present("04A23B11")
    assert [s.card for s in sink.scans()] == ["QS", "QS"]


def test_two_cards_swapped_quickly_are_two_scans_but_never_three() -> None:
    clock = Clock()
    repeats = RepeatFilter(1.5, clock)
    seen = []
    for uid in ("A1", "B2", "A1", "B2", "A1"):
        seen.append(repeats.fresh(uid))
        clock.now += 0.3
    assert seen == [True, True, False, False, False]


def test_an_unknown_tag_is_a_scan_with_no_card() -> None:
    sink = Events()
    reader = FakeCardReader(lookup=CARDS.get)
    reader.start(sink)
    assert reader.present("DEADBEEF") == CardScanned("DEADBEEF", None, "fake")
    assert sink.scans() == [CardScanned("DEADBEEF", None, "fake")]


def test_a_lookup_that_fails_reports_the_tag_as_unknown() -> None:
    def broken(uid: str) -> str | None:
        raise OSError("cards file vanished")

    sink = Events()
    reader = FakeCardReader(lookup=broken)
    reader.start(sink)
    reader.present("04A23B11")
    assert sink.scans() == [CardScanned("04A23B11", None, "fake")]


def test_nothing_is_reported_before_start() -> None:
    reader = FakeCardReader()
    assert reader.present("04A23B11") is None
    sink = Events()
    reader.start(sink)
    assert reader.present("04A23B11") is not None, "a read before start is no repeat"


# --- RDM6300 frames ---


def test_an_rdm6300_frame_gives_its_ten_digits() -> None:
    decoder = Rdm6300Decoder()
    frame = rdm6300_frame("1A2B3C4D5E")
    assert frame[0] == 0x02 and frame[-1] == 0x03 and len(frame) == 14
    assert decoder.feed(b"\x00noise" + frame) == ["1A2B3C4D5E"]
    assert decoder.bad == 0


def test_a_frame_split_across_reads_is_put_back_together() -> None:
    decoder = Rdm6300Decoder()
    frame = rdm6300_frame("0012345678")
    assert decoder.feed(frame[:5]) == []
    assert decoder.feed(frame[5:]) == ["0012345678"]


def test_a_corrupted_rdm6300_frame_is_dropped_and_counted() -> None:
    decoder = Rdm6300Decoder()
    good = rdm6300_frame("1A2B3C4D5E")
    wrong_sum = good[:11] + (b"0" if good[11:12] != b"0" else b"1") + good[12:]
    truncated = good[:8]
    not_hex = good[:3] + b"G" + good[4:]
    stream = wrong_sum + truncated + good + not_hex + good[:-1] + b"7" + good
    assert decoder.feed(stream) == ["1A2B3C4D5E", "1A2B3C4D5E"]
    assert decoder.bad == 4


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=5, max_size=5), st.integers(0, 13), st.integers(0, 255))
def test_one_damaged_byte_never_gives_another_card(
    tag: bytes, position: int, replacement: int
) -> None:
    uid = tag.hex().upper()
    frame = bytearray(rdm6300_frame(uid))
    frame[position] = replacement
    found = Rdm6300Decoder().feed(bytes(frame))
    assert found in ([], [uid])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_at_all_never_crash_the_decoder(noise: bytes) -> None:
    decoder = Rdm6300Decoder()
    decoder.feed(noise)
    assert decoder.feed(rdm6300_frame("1A2B3C4D5E")) == ["1A2B3C4D5E"]


# --- UID lines ---


def test_lines_end_with_lf_cr_or_crlf_and_blank_lines_are_skipped() -> None:
    decoder = LineDecoder()
    assert decoder.feed(b"04A23B11\r\n\r\n0012") == ["04A23B11"]
    assert decoder.feed(b"345678\rAB\n") == ["0012345678", "AB"]


def test_an_endless_line_is_dropped() -> None:
    decoder = LineDecoder()
    assert decoder.feed(b"A" * 500) == []
    assert decoder.feed(b"B\n04A23B11\n") == ["B", "04A23B11"]
    assert decoder.bad == 1


# --- serial readers on pyserial's loop:// ---


def loop_port(data: bytes) -> ReaderPort:
    port = serial.serial_for_url("loop://", timeout=0.05)
    port.write(data)
    return port  # type: ignore[no-any-return]


def read_all(reader: LineReader | Rdm6300Reader, sink: Events, count: int) -> list[CardScanned]:
    reader.start(sink)
    try:
        found = [sink.next() for _ in range(count)]
    finally:
        reader.close()
    assert all(isinstance(e, CardScanned) for e in found), found
    return found  # type: ignore[return-value]


def test_an_rdm6300_on_a_serial_port_reports_each_card_once() -> None:
    held = rdm6300_frame("1A2B3C4D5E") * 8
    corrupt = rdm6300_frame("0012345678")[:-3] + b"00\x03"
    data = held + corrupt + rdm6300_frame("0012345678")
    port = loop_port(data)
    reader = Rdm6300Reader("loop://", open_port=lambda url, baud: port, lookup=CARDS.get)
    sink = Events()
    found = read_all(reader, sink, 2)
    assert [(e.uid, e.card, e.reader) for e in found] == [
        ("1A2B3C4D5E", "AS", "rdm6300"),
        ("0012345678", "10H", "rdm6300"),
    ]
    assert reader.bad_reads == 1
    assert sink.drain() == []


def test_a_line_device_reports_each_uid_and_drops_junk() -> None:
    port = loop_port(b"04:a2:3b:11\r\nhello world!\r\nDEADBEEF\r\n")
    reader = LineReader("loop://", open_port=lambda url, baud: port, lookup=CARDS.get)
    found = read_all(reader, Events(), 2)
    assert [(e.uid, e.card) for e in found] == [("04A23B11", "QS"), ("DEADBEEF", None)]
    assert reader.bad_reads == 1


# --- a serial port that vanishes and comes back (pty pairs behind a stable path) ---


@dataclass
class Pty:
    master: int
    slave: int

    @classmethod
    def open(cls) -> Pty:
        master, slave = os.openpty()
        tty.setraw(slave)
        return cls(master, slave)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def usb_port(tmp_path: Path) -> Iterator[tuple[Path, list[Pty]]]:
    """A stable device path (like /dev/serial/by-id/...) pointing at a pty's far end."""
    link = tmp_path / "usb-reader"
    ptys = [Pty.open()]
    link.symlink_to(os.ttyname(ptys[0].slave))
    yield link, ptys
    for pty in ptys:
        pty.close()


def test_a_vanished_port_is_reported_once_and_reopened(
    usb_port: tuple[Path, list[Pty]],
) -> None:
    link, ptys = usb_port
    sink = Events()
    reader = LineReader(str(link), lookup=CARDS.get, backoff_s=0.02, max_backoff_s=0.05)
    reader.start(sink)
    try:
        assert reader.connected.wait(WAIT)
        os.write(ptys[0].master, b"04A23B11\n")
        assert sink.next() == CardScanned("04A23B11", "QS", "lines")
        # Unplug: the far end closes and the path leads nowhere for a while.
        ptys[0].close()
        link.unlink()
        assert sink.next() == DeviceStatus("lines", False, "Card reader lost")
        failures = reader.failures
        while reader.failures < failures + 5:  # it keeps trying, quietly
            threading.Event().wait(0.02)
        assert sink.drain() == []
        # Plug back in.
        ptys.append(Pty.open())
        link.symlink_to(os.ttyname(ptys[1].slave))
        assert sink.next() == DeviceStatus("lines", True, "Card reader back")
        assert reader.connected.wait(WAIT)
        os.write(ptys[1].master, b"0012345678\n")
        assert sink.next() == CardScanned("0012345678", "10H", "lines")
    finally:
        reader.close()


def test_a_port_missing_at_start_up_is_reported_then_picked_up(tmp_path: Path) -> None:
    link = tmp_path / "not-yet"
    sink = Events()
    reader = LineReader(str(link), backoff_s=0.02, max_backoff_s=0.05)
    reader.start(sink)
    pty = Pty.open()
    try:
        assert sink.next() == DeviceStatus("lines", False, "Card reader missing")
        link.symlink_to(os.ttyname(pty.slave))
        assert sink.next() == DeviceStatus("lines", True, "Card reader back")
    finally:
        reader.close()
        pty.close()


def test_closing_a_reader_stops_its_thread_quickly(usb_port: tuple[Path, list[Pty]]) -> None:
    link, _ = usb_port
    reader = LineReader(str(link))
    reader.start(Events())
    assert reader.connected.wait(WAIT)
    reader.close()
    assert not any(t.name == "companion-lines" for t in threading.enumerate())


# --- USB keyboard readers through (fake) evdev ---


@dataclass(frozen=True)
class KeyPress:
    """An event shaped like evdev's InputEvent."""

    type: int
    code: int
    value: int


DIGIT_CODES = {"1": 2, "2": 3, "3": 4, "4": 5, "5": 6, "6": 7, "7": 8, "8": 9, "9": 10, "0": 11}
LETTER_CODES = {"A": 30, "B": 48, "C": 46, "D": 32, "E": 18, "F": 33}
ENTER, LEFT_SHIFT = 28, 42


def typed(text: str) -> list[KeyPress]:
    """The events a keyboard reader sends for ``text`` then Enter (downs, ups, syncs)."""
    events = []
    for char in text:
        code = DIGIT_CODES.get(char) or LETTER_CODES[char]
        if char.isalpha():
            events.append(KeyPress(1, LEFT_SHIFT, 1))
        events += [KeyPress(1, code, 1), KeyPress(0, 0, 0), KeyPress(1, code, 0)]
        if char.isalpha():
            events.append(KeyPress(1, LEFT_SHIFT, 0))
    return [*events, KeyPress(4, 4, 458792), KeyPress(1, ENTER, 1), KeyPress(1, ENTER, 0)]


def test_key_events_up_to_enter_make_one_uid() -> None:
    decoder = KeyboardDecoder()
    found = [decoder.feed(e) for e in typed("0012345678") + typed("04A23B11")]
    assert [uid for uid in found if uid] == ["0012345678", "04A23B11"]


def test_keypad_digits_and_held_keys() -> None:
    decoder = KeyboardDecoder()
    events = [KeyPress(1, 79, 1), KeyPress(1, 79, 2), KeyPress(1, 82, 1), KeyPress(1, 96, 1)]
    assert [decoder.feed(e) for e in events] == [None, None, None, "10"]


class FakeKeyboard:
    """A grabbed keyboard device: the test types into it or unplugs it."""

    def __init__(self) -> None:
        self.pending: queue.Queue[KeyPress | None] = queue.Queue()
        self.closed = False

    def type(self, text: str) -> None:
        for event in typed(text):
            self.pending.put(event)

    def unplug(self) -> None:
        self.pending.put(None)

    def read(self, timeout_s: float) -> Sequence[KeyPress]:
        try:
            event = self.pending.get(timeout=timeout_s)
        except queue.Empty:
            return []
        if event is None:
            raise OSError(19, "No such device")
        return [event]

    def close(self) -> None:
        self.closed = True


class FakeInputDevices:
    """Stands in for /dev/input: a keyboard is there or not."""

    def __init__(self) -> None:
        self.keyboard: FakeKeyboard | None = FakeKeyboard()
        self.opened: list[str] = []

    def open(self, path: str) -> FakeKeyboard:
        self.opened.append(path)
        if self.keyboard is None or self.keyboard.closed:
            raise FileNotFoundError(2, "No such file or directory", path)
        return self.keyboard


def test_a_usb_keyboard_reader_reports_scans_and_survives_an_unplug() -> None:
    devices = FakeInputDevices()
    sink = Events()
    path = "/dev/input/by-id/usb-reader-event-kbd"
    reader = EvdevReader(
        path, open_device=devices.open, lookup=CARDS.get, backoff_s=0.02, max_backoff_s=0.05
    )
    reader.start(sink)
    try:
        assert reader.connected.wait(WAIT)
        first = devices.keyboard
        assert first is not None
        first.type("0012345678")
        first.type("0012345678")  # the same card, read again at once
        first.type("DEADBEEF")
        assert sink.next() == CardScanned("0012345678", "10H", "evdev")
        assert sink.next() == CardScanned("DEADBEEF", None, "evdev")
        first.unplug()
        assert sink.next() == DeviceStatus("evdev", False, "Card reader lost")
        assert first.closed
        devices.keyboard = FakeKeyboard()
        assert sink.next() == DeviceStatus("evdev", True, "Card reader back")
        devices.keyboard.type("04A23B11")
        assert sink.next() == CardScanned("04A23B11", "QS", "evdev")
        assert set(devices.opened) == {path}
    finally:
        reader.close()


def test_without_evdev_installed_the_reader_reports_itself_missing() -> None:
    sink = Events()
    reader = EvdevReader("/dev/input/event0", backoff_s=0.02)
    reader.start(sink)
    try:
        assert sink.next() == DeviceStatus("evdev", False, "Card reader missing")
    finally:
        reader.close()


# --- MFRC522 (the optional extra, through a fake) ---


class FakeRc522:
    """An MFRC522 with a card in its field for some polls."""

    def __init__(self, field: list[int | None]) -> None:
        self.field = field
        self.closed = False

    def read_id_no_block(self) -> int | None:
        return self.field.pop(0) if self.field else None

    def close(self) -> None:
        self.closed = True


def test_an_mfrc522_reports_a_card_in_its_field_once() -> None:
    chip = FakeRc522([None, 0x04A23B11, 0x04A23B11, None, 0x04A23B11, 0x1A2B3C4D5E])
    sink = Events()
    reader = Mfrc522Reader(open_device=lambda: chip, lookup=CARDS.get, poll_s=0.001)
    reader.start(sink)
    try:
        assert sink.next() == CardScanned("4A23B11", None, "mfrc522")
        assert sink.next() == CardScanned("1A2B3C4D5E", "AS", "mfrc522")
    finally:
        reader.close()
    assert chip.closed


# --- from the configuration ---


def test_the_configuration_picks_the_reader() -> None:
    window = 2.5
    made = {
        kind: reader_from_config(
            ReaderSection(kind=kind, device="/dev/x", repeat_window_s=window), lookup=CARDS.get
        )
        for kind in ("evdev", "rdm6300", "lines", "mfrc522", "pico")
    }
    assert isinstance(made["evdev"], EvdevReader) and made["evdev"].device == "/dev/x"
    assert isinstance(made["rdm6300"], Rdm6300Reader) and made["rdm6300"].baudrate == 9600
    assert isinstance(made["lines"], LineReader) and made["lines"].baudrate == 115200
    assert isinstance(made["mfrc522"], Mfrc522Reader)
    assert made["pico"] is None
    assert made["lines"].lookup == CARDS.get
    assert all(r.repeat_window_s == window for r in made.values() if r is not None)
