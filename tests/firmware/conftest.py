"""Fixtures for the firmware's tests: its modules under CPython, MicroPython stand-ins, an
MFRC522 model on a fake SPI bus."""

from __future__ import annotations

import importlib
import json
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from companion.devices.fake_pico import FIRMWARE_DIR, firmware_module

STUBS = Path(__file__).resolve().parent / "stubs"
#: Names the firmware imports flat on the Pico; removed from sys.modules after each test.
FLAT = [
    "board", "config", "app", "buttons", "cards", "protocol", "rc522", "strip_anim",
    "machine", "neopixel", "rp2", "micropython",
]  # fmt: skip


@pytest.fixture(scope="session")
def table() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIRMWARE_DIR / "pico_messages.json").read_text())
    return data


@pytest.fixture(scope="session")
def fw() -> Any:
    """The firmware's pure modules, as attributes: fw.protocol, fw.app, fw.strip_anim..."""

    class Modules:
        def __getattr__(self, name: str) -> ModuleType:
            return firmware_module(name)

    return Modules()


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[ModuleType]:
    """firmware/board.py imported as on the Pico, over stand-ins for machine, neopixel, rp2."""
    saved = {name: sys.modules.pop(name) for name in FLAT if name in sys.modules}
    monkeypatch.syspath_prepend(str(FIRMWARE_DIR))
    monkeypatch.syspath_prepend(str(STUBS))
    monkeypatch.setattr(time, "ticks_ms", lambda: int(time.monotonic() * 1000), raising=False)
    monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
    monkeypatch.setattr(time, "sleep_ms", lambda ms: time.sleep(ms / 1000), raising=False)
    shutil.copy(FIRMWARE_DIR / "pico_messages.json", tmp_path)
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module("board")
    machine = sys.modules["machine"]
    machine.Pin.levels = {}
    machine.SPI.device = None
    importlib.import_module("neopixel").NeoPixel.instances = []
    micropython: Any = sys.modules["micropython"]
    micropython.kbd_intr_calls = []
    rp2: Any = importlib.import_module("rp2")
    rp2.BOOTSEL = False
    yield module
    for name in FLAT:
        sys.modules.pop(name, None)
    sys.modules.update(saved)


class Tag:
    """An ISO 14443-A tag: answers wake-up, anticollision, select and halt like a real one."""

    def __init__(self, uid: bytes, crc_a: Any) -> None:
        self.uid = uid
        self.crc_a = crc_a
        self.state = "idle"
        self.level = 0
        if len(uid) == 4:
            self.levels = [uid]
        elif len(uid) == 7:
            self.levels = [b"\x88" + uid[:3], uid[3:]]
        else:
            self.levels = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]

    def answer(self, data: bytes, last_bits: int) -> bytes | None:
        if last_bits == 7 and data == b"\x52" and self.state in ("idle", "halt"):
            self.state, self.level = "ready", 0
            return b"\x44\x00"
        if len(data) == 2 and data[1] == 0x20 and self.state == "ready":
            part = self.levels[self.level]
            return part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])
        if len(data) == 9 and data[1] == 0x70 and self.state == "ready":
            if self.crc_a(data[:7]) != data[7:] or data[2:6] != self.levels[self.level]:
                self.state = "idle"
                return None
            self.level += 1
            last = self.level == len(self.levels)
            sak = b"\x08" if last else b"\x04"
            if last:
                self.state = "active"
            return sak + self.crc_a(sak)
        if data[:2] == b"\x50\x00":
            self.state = "halt"
            return None
        self.state = "idle"
        return None


class Chip:
    """A register-level MFRC522 model on SPI: FIFO, command register, interrupts, a tag."""

    COMMAND, COM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL, BIT_FRAMING, VERSION = (
        0x01, 0x04, 0x06, 0x09, 0x0A, 0x0D, 0x37,
    )  # fmt: skip

    def __init__(self, version: int = 0x92) -> None:
        self.version = version
        self.registers = [0] * 64
        self.registers[self.VERSION] = version
        self.fifo: list[int] = []
        self.tags: list[Tag] = []
        self.pending = 0
        self.transceived: list[bytes] = []

    def write(self, data: bytes) -> None:
        register = (data[0] >> 1) & 0x3F
        if data[0] & 0x80:
            self.pending = register
            return
        value = data[1]
        if register == self.FIFO_DATA:
            self.fifo.append(value)
        elif register == self.FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
        elif register == self.COM_IRQ:
            if value & 0x80:
                self.registers[register] |= value & 0x7F
            else:
                self.registers[register] &= ~value & 0xFF
        elif register == self.COMMAND:
            self.registers[register] = 0 if value == 0x0F else value
        else:
            self.registers[register] = value
            if register == self.BIT_FRAMING and value & 0x80 and self.registers[1] == 0x0C:
                self._transceive(value & 0x07)

    def read(self, count: int) -> bytes:
        register = self.pending
        if register == self.FIFO_DATA:
            value = self.fifo.pop(0) if self.fifo else 0
        elif register == self.FIFO_LEVEL:
            value = len(self.fifo)
        else:
            value = self.registers[register]
        return bytes([value] * count)

    def _transceive(self, last_bits: int) -> None:
        data = bytes(self.fifo)
        self.fifo.clear()
        self.transceived.append(data)
        answers = [tag.answer(data, last_bits) for tag in self.tags]
        heard = [a for a in answers if a is not None]
        self.registers[self.ERROR] = 0
        if not heard:
            self.registers[self.COM_IRQ] |= 0x01
            return
        if len(heard) > 1 and len(set(heard)) > 1:
            self.registers[self.ERROR] |= 0x08
        self.fifo.extend(heard[0])
        self.registers[self.COM_IRQ] |= 0x30


@pytest.fixture
def chip(fw: Any) -> Chip:
    return Chip()


@pytest.fixture
def make_tag(fw: Any) -> Any:
    return lambda hex_uid: Tag(bytes.fromhex(hex_uid), fw.rc522.crc_a)
