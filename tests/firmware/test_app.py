"""The firmware's behaviour as the Pi sees it: every line answered once, LEDs, cards, buttons."""

from __future__ import annotations

from typing import Any

import pytest

from companion.devices import pico_protocol as pi
from companion.devices.fake_pico import RecordingStrip


class Board:
    """The firmware with recording hardware, and the Pi's codec to talk to it."""

    def __init__(self, fw: Any, table: dict[str, Any], reader: bool = True) -> None:
        self.out: list[bytes] = []
        self.strip = RecordingStrip(20)
        self.uid: str | None = None
        self.pressed = [False, False]
        self.repl_calls = 0
        self.firmware = fw.app.Firmware(
            fw.protocol.Codec(table, "pico"),
            fw.strip_anim.Track([self.strip], 255),
            self.out.append,
            window=fw.cards.CardWindow(1000),
            read_uid=(lambda: self.uid) if reader else None,
            debouncer=fw.buttons.Debouncer(["spare1", "undo"], 30),
            read_buttons=lambda: self.pressed,
            on_repl=self.on_repl,
        )
        self.pi = pi.Codec(side="pi")
        self.seq = 0

    def on_repl(self) -> None:
        self.repl_calls += 1

    def send(self, name: str, now: int = 0, /, **fields: Any) -> list[pi.PicoMessage]:
        self.seq += 1
        return self.feed(self.pi.encode(self.seq, name, **fields), now)

    def feed(self, data: bytes, now: int = 0) -> list[pi.PicoMessage]:
        self.out.clear()
        self.firmware.receive(data, now)
        return self.replies()

    def replies(self) -> list[pi.PicoMessage]:
        lines = b"".join(self.out).split(b"\n")
        return [self.pi.decode(line) for line in lines if line]


@pytest.fixture
def board(fw: Any, table: dict[str, Any]) -> Board:
    return Board(fw, table)


def test_boot_announces_the_firmware(board: Board) -> None:
    board.firmware.boot()
    (boot,) = board.replies()
    assert boot.name == "BOOT" and boot.text("protocol") == "1.0"
    assert board.out[0] == b"\n", "a newline first ends whatever the console printed"


def test_hello_is_answered_with_the_versions_and_the_hardware(board: Board, fw: Any) -> None:
    (welcome,) = board.send("HELLO", protocol="1.0")
    assert welcome.name == "WELCOME"
    assert welcome.fields == {
        "re": board.seq,
        "firmware": fw.app.FIRMWARE_VERSION,
        "protocol": "1.0",
        "leds": 20,
        "reader": 1,
    }


def test_a_pico_without_a_reader_says_so(fw: Any, table: dict[str, Any]) -> None:
    board = Board(fw, table, reader=False)
    (welcome,) = board.send("HELLO", protocol="1.0")
    assert welcome.number("reader") == 0


def test_led_requests_are_carried_out_and_acknowledged(board: Board) -> None:
    red, blue = (255, 0, 0), (0, 0, 255)
    assert [m.name for m in board.send("FRAME", colours=((red, 3),))] == ["ACK"]
    assert board.strip.shown[:4] == (red, red, red, (0, 0, 0))
    board.send("SET", start=2, colours=((blue, 2),))
    assert board.strip.shown[:5] == (red, red, blue, blue, (0, 0, 0))
    (ack,) = board.send("BRIGHT", level=128)
    assert ack.number("re") == board.seq
    assert board.strip.shown[0] == (128, 0, 0)
    board.send("MOVE", 0, step_ms=100, colour=blue, path=(10, 11))
    assert board.strip.shown[10] == (0, 0, 128)
    board.firmware.poll(150)
    assert board.strip.shown[10:12] == ((0, 0, 0), (0, 0, 128))
    board.send("CLEAR")
    assert board.strip.shown == ((0, 0, 0),) * 20


def test_ping_window_and_repl(board: Board) -> None:
    (pong,) = board.send("PING")
    assert pong.name == "PONG" and pong.number("re") == board.seq
    board.send("WINDOW", ms=250)
    assert board.firmware.window.window_ms == 250
    (ack,) = board.send("REPL")
    assert ack.name == "ACK"
    assert board.firmware.leaving and board.repl_calls == 1


def test_every_bad_line_gets_one_error_and_the_next_line_works(board: Board) -> None:
    replies = board.feed(b"hello\n1 PING *0000\n\x03\x04\n" + b"Z" * 2000 + b"\n")
    assert [(m.name, m.text("code")) for m in replies] == [
        ("ERR", "framing"),
        ("ERR", "checksum"),
        ("ERR", "framing"),
        ("ERR", "too_long"),
    ]
    assert all(m.number("re") == 0 for m in replies)
    (reply,) = board.send("BRIGHT", level=10)
    assert reply.name == "ACK"


def test_an_error_names_the_request_once_its_checksum_holds(board: Board) -> None:
    body = b"42 BRIGHT 300"
    line = body + f" *{pi.crc16(body):04X}\n".encode()
    (err,) = board.feed(line)
    assert (err.number("re"), err.text("code")) == (42, "args")
    assert "300" in err.text("text")


def test_blank_lines_are_ignored(board: Board) -> None:
    assert board.feed(b"\n\r\n\n") == []


def test_a_line_split_across_reads_is_put_together(board: Board) -> None:
    line = board.pi.encode(7, "PING")
    assert board.feed(line[:5]) == []
    (pong,) = board.feed(line[5:])
    assert pong.number("re") == 7


def test_a_failure_inside_a_request_is_an_internal_error(board: Board) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("strip on fire")

    board.firmware.track.paint = broken
    (err,) = board.send("FRAME", colours=(((1, 2, 3), 1),))
    assert err.text("code") == "internal" and "strip on fire" in err.text("text")
    (pong,) = board.send("PING")
    assert pong.name == "PONG"


def test_cards_are_reported_once_per_presentation(board: Board) -> None:
    board.uid = "04A1B2C3"
    events = []
    for now in range(0, 3000, 10):
        board.out.clear()
        board.firmware.poll(now)
        events += [(now, m.text("uid")) for m in board.replies()]
        if now == 500:
            board.uid = None
        if now == 2000:
            board.uid = "04A1B2C3"
    assert events == [(0, "04A1B2C3"), (2040, "04A1B2C3")]


def test_a_failing_reader_reads_as_no_card(board: Board) -> None:
    def broken() -> str:
        raise OSError("SPI")

    board.firmware.read_uid = broken
    board.firmware.poll(0)
    assert board.out == []


def test_button_presses_are_reported(board: Board) -> None:
    events = []
    for now in range(0, 200, 5):
        board.pressed = [False, 20 <= now < 120]
        board.out.clear()
        board.firmware.poll(now)
        events += [m.text("name") for m in board.replies()]
    assert events == ["undo"]


def test_sequence_numbers_wrap_after_9999(board: Board) -> None:
    board.firmware.seq = 9998
    board.send("PING")
    board.send("PING")
    assert [m.seq for m in board.replies()] == [1]
