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
    assert boot.name == "BOOT" and boot.text("protocol") == pi.load_table().protocol
    assert board.out[0] == b"\n", "a newline first ends whatever the console printed"


def test_hello_is_answered_with_the_versions_and_the_hardware(board: Board, fw: Any) -> None:
    (welcome,) = board.send("HELLO", protocol="1.0")
    assert welcome.name == "WELCOME"
    assert welcome.fields == {
        "re": board.seq,
        "firmware": fw.app.FIRMWARE_VERSION,
        "protocol": pi.load_table().protocol,
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


YELLOW, BLUE, DARK = (255, 200, 0), (0, 0, 255), (0, 0, 0)


def offer(board: Board, hand: int = 7) -> tuple[tuple[int, int, int], ...]:
    """Offer a hand: spare1 moves the yellow horse from LED 3 to LED 6 (a walk over 4..6);
    undo has no wire here; return the frame spare1 lights."""
    board.send("FRAME", colours=((DARK, 3), (YELLOW, 1), (DARK, 16)))
    lit = ((DARK, 6), (YELLOW, 1), (DARK, 13))
    assert board.send("ANSWER", hand=hand, button="spare1", colours=lit)[0].name == "ACK"
    board.send("WALK", hand=hand, button="spare1", step_ms=100, colour=YELLOW, path=(4, 5, 6))
    board.send("ANSWER", hand=hand, button="horse9", colours=((BLUE, 20),))
    (ack,) = board.send("HAND", hand=hand)
    assert ack.name == "ACK"
    return (DARK,) * 6 + (YELLOW,) + (DARK,) * 13


def press(board: Board, button: int, start: int) -> list[pi.PicoMessage]:
    """Hold ``button`` from ``start`` until it is reported; return what the Pico said."""
    said: list[pi.PicoMessage] = []
    for now in range(start, start + 200, 5):
        board.pressed = [index == button for index in range(2)]
        board.out.clear()
        board.firmware.poll(now)
        said += board.replies()
        if said:
            break
    board.pressed = [False, False]
    for later in range(now + 5, now + 100, 5):
        board.firmware.poll(later)
    return said


def test_a_legal_press_lights_its_answer_before_the_pico_says_so(board: Board) -> None:
    answer = offer(board)
    seen: list[tuple[int, int, int]] = []
    out = board.firmware.write

    def write(line: bytes) -> None:
        seen.extend(board.strip.shown)
        out(line)

    board.firmware.write = write
    writes = board.strip.writes
    (said,) = press(board, 0, 1000)
    assert (said.name, said.fields) == ("ANSWERED", {"hand": 7, "name": "spare1"})
    walk_first = tuple(YELLOW if i == 4 else c for i, c in enumerate(answer))
    assert tuple(seen) == walk_first, "the strip was lit before the press was reported"
    assert board.strip.writes == writes + 1, "one write lights the answer"
    board.firmware.poll(2000)
    assert board.strip.shown == answer, "the walk ends on the answer's frame"


def test_the_hand_is_spent_by_its_press_and_the_next_press_waits_for_the_pi(board: Board) -> None:
    offer(board)
    press(board, 0, 1000)
    board.firmware.poll(2500)
    before = board.strip.shown
    (said,) = press(board, 0, 3000)
    assert (said.name, said.text("name")) == ("BUTTON", "spare1")
    assert board.strip.shown == before


def test_a_button_without_an_answer_is_reported_for_the_pi_to_answer(board: Board) -> None:
    offer(board)
    before = board.strip.shown
    (said,) = press(board, 1, 1000)
    assert (said.name, said.text("name")) == ("BUTTON", "undo")
    assert board.strip.shown == before
    assert "horse9" not in board.firmware.answers, "a button not wired here is not kept"


@pytest.mark.parametrize(
    "drop",
    [("HAND", {"hand": 0}), ("HAND", {"hand": 8}), ("HELLO", {"protocol": "1.1"}), ("CLEAR", {})],
)
def test_a_hand_dropped_or_replaced_answers_nothing(
    board: Board, drop: tuple[str, dict[str, Any]]
) -> None:
    offer(board)
    board.send(drop[0], **drop[1])
    before = board.strip.shown
    (said,) = press(board, 0, 1000)
    assert said.name == "BUTTON"
    assert board.strip.shown == before


def test_answers_of_a_half_sent_hand_are_not_armed(board: Board) -> None:
    offer(board, hand=7)
    board.send("ANSWER", hand=8, button="spare1", colours=((BLUE, 20),))
    (said,) = press(board, 0, 1000)
    assert said.name == "BUTTON", "hand 7's answer was replaced, hand 8 is not armed yet"


def test_an_answer_is_lit_at_the_brightness_of_the_moment(board: Board) -> None:
    answer = offer(board)
    board.send("BRIGHT", level=128)
    press(board, 0, 1000)
    board.firmware.poll(2000)
    assert board.strip.shown == tuple(tuple((c * 128 + 127) // 255 for c in rgb) for rgb in answer)


def test_stop_ends_a_walk_on_the_frame_the_pi_sends(board: Board) -> None:
    offer(board)
    press(board, 0, 1000)
    assert board.firmware.track.move is not None
    (ack,) = board.send("STOP", 1100)
    assert ack.name == "ACK" and board.firmware.track.move is None
    board.send("FRAME", colours=((DARK, 3), (YELLOW, 1), (DARK, 16)))
    board.firmware.poll(1200)
    assert board.strip.shown == (DARK,) * 3 + (YELLOW,) + (DARK,) * 16
