"""firmware/board.py on stand-ins for the Pico's hardware: start-up, the loop, the way out."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.devices import pico_protocol as pi


class Serial:
    """USB serial as board.run sees it: bytes that arrive at given times, a poller, output."""

    def __init__(self, script: list[tuple[float, bytes]]) -> None:
        self.start = time.monotonic()
        self.script = script
        self.pending = bytearray()
        self.out = bytearray()

    def _arrived(self) -> None:
        elapsed = time.monotonic() - self.start
        while self.script and self.script[0][0] <= elapsed:
            self.pending += self.script.pop(0)[1]

    def poll(self, timeout: int) -> list[int]:
        self._arrived()
        return [1] if self.pending else []

    def read(self, count: int) -> bytes:
        data = bytes(self.pending[:count])
        del self.pending[:count]
        return data

    def write(self, data: bytes) -> None:
        self.out += data

    def replies(self) -> list[pi.PicoMessage]:
        codec = pi.Codec(side="pi")
        return [codec.decode(line) for line in bytes(self.out).split(b"\n") if line]


def lines(*messages: tuple[str, dict[str, Any]]) -> bytes:
    codec = pi.Codec(side="pi")
    return b"".join(codec.encode(i + 1, n, **f) for i, (n, f) in enumerate(messages))


def test_the_firmware_runs_until_the_pi_asks_for_the_repl(
    board: ModuleType, chip: Any, make_tag: Any
) -> None:
    machine, neopixel = sys.modules["machine"], sys.modules["neopixel"]
    machine.SPI.device = chip
    chip.tags.append(make_tag("04A1B2C3D4E5F6"))
    machine.Pin.levels[11] = 0
    serial = Serial(
        [
            (0.0, lines(("HELLO", {"protocol": "1.0"}), ("BRIGHT", {"level": 255}))),
            (0.01, lines(("FRAME", {"colours": (((255, 0, 0), 2),)}))[:-1]),
            (0.02, b"\n"),
            (0.3, b"1 REPL *" + f"{pi.crc16(b'1 REPL'):04X}".encode() + b"\n"),
        ]
    )
    board.run(serial, serial.write, serial)
    replies = serial.replies()
    assert [m.name for m in replies[:3]] == ["BOOT", "WELCOME", "ACK"]
    assert replies[1].number("leds") == 100 and replies[1].number("reader") == 1
    names = [m.name for m in replies]
    assert names.count("CARD") == 1 and names[-1] == "ACK"
    assert [m.text("name") for m in replies if m.name == "BUTTON"] == ["spare2"]
    (strip,) = neopixel.NeoPixel.instances
    assert strip.n == 100 and strip.shown[:3] == [(255, 0, 0), (255, 0, 0), (0, 0, 0)]
    assert sys.modules["micropython"].kbd_intr_calls == [-1, 3]


def test_without_a_reader_the_rest_still_works(board: ModuleType) -> None:
    serial = Serial([(0.0, lines(("HELLO", {"protocol": "1.0"}), ("REPL", {})))])
    board.run(serial, serial.write, serial)
    welcome = serial.replies()[1]
    assert welcome.name == "WELCOME" and welcome.number("reader") == 0


def test_bootsel_held_at_power_up_leaves_the_repl_alone(board: ModuleType, capsys: Any) -> None:
    rp2: Any = sys.modules["rp2"]
    rp2.BOOTSEL = True
    serial = Serial([])
    board.run(serial, serial.write, serial)
    assert "BOOTSEL" in capsys.readouterr().out
    assert serial.out == b""
    assert sys.modules["micropython"].kbd_intr_calls == []


def test_pressing_bootsel_while_running_leaves_for_the_repl(board: ModuleType, capsys: Any) -> None:
    rp2: Any = sys.modules["rp2"]
    serial = Serial([(0.0, lines(("HELLO", {"protocol": "1.0"})))])
    arrived = serial._arrived

    def press_later() -> None:
        arrived()
        if time.monotonic() - serial.start > 0.3:
            rp2.BOOTSEL = True

    serial._arrived = press_later  # type: ignore[method-assign]
    board.run(serial, serial.write, serial)
    assert [m.name for m in serial.replies()] == ["BOOT", "WELCOME"]
    assert "leaving for the REPL" in capsys.readouterr().out
    assert sys.modules["micropython"].kbd_intr_calls == [-1, 3]  # type: ignore[attr-defined]


def test_a_missing_table_is_said_on_the_serial_line(board: ModuleType, capsys: Any) -> None:
    Path("pico_messages.json").unlink()
    assert board.load_table() is None
    assert "pico_messages.json is missing" in capsys.readouterr().out


def test_the_clock_goes_on_past_the_ticks_wrap(board: ModuleType, monkeypatch: Any) -> None:
    period = 1 << 30
    ticks = iter([period - 10, period - 5, 3, 20])
    monkeypatch.setattr(time, "ticks_ms", lambda: next(ticks))
    monkeypatch.setattr(
        time, "ticks_diff", lambda a, b: (a - b + period // 2) % period - period // 2
    )
    clock = board.Clock()
    assert [clock.read(), clock.read(), clock.read()] == [5, 13, 30]


def test_main_starts_the_board(board: ModuleType, monkeypatch: Any) -> None:
    started = []
    monkeypatch.setattr(board, "run", lambda: started.append(True))
    source = (Path(str(board.__file__)).parent / "main.py").read_text()
    exec(compile(source, "main.py", "exec"), {"__name__": "__main__"})
    assert started == [True]
