"""A model of the HD44780 LCD controller's memory, and of the PCF8574 I2C backpack in front of it.

The model executes the controller's instruction set on its display RAM (DDRAM) and character
generator RAM (CGRAM), so a test reads back what a player would see. ``Pcf8574Bus`` stands in
for an ``smbus2.SMBus``: it decodes the 4-bit stream a backpack turns into pin levels.
"""

from __future__ import annotations

import contextlib
import errno
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from companion.devices.bus import Bus, i2c_bits
from companion.devices.glyphs import GLYPHS, LETTERS

#: Bits of the PCF8574 output byte as backpacks wire them: RS, RW, E, backlight, then D4..D7.
PCF_RS = 0x01
PCF_E = 0x04
PCF_BACKLIGHT = 0x08

#: Characters of the A00 (Japanese) ROM, the usual one on backpack modules, outside plain ASCII
#: (only those the companion uses: its katakana are left out). 0xE2 is a beta, read as ß.
ROM_A00: Mapping[int, str] = {
    0x5C: "¥", 0x7E: "→", 0x7F: "←", 0xDF: "°", 0xE1: "ä", 0xE2: "ß", 0xEE: "ñ", 0xEF: "ö",
    0xF5: "ü", 0xFD: "÷",
}  # fmt: skip
#: Codes of the A02 (Western European) ROM from 0xA0 up that are not the Latin-1 character
#: of the same number (Greek and Cyrillic letters, a few symbols).
_A02_OTHER = frozenset((0xA0, 0xA8, 0xAC, 0xAD, 0xAF, 0xB0, 0xB4, 0xB5, 0xB8, 0xD8))
#: Characters of the A02 ROM outside plain ASCII: the Latin-1 letters and signs, two arrows.
ROM_A02: Mapping[int, str] = {
    0x1A: "→", 0x1B: "←",
    **{code: chr(code) for code in range(0xA0, 0x100) if code not in _A02_OTHER},
}  # fmt: skip
#: What each ROM shows at each code from 0x10 up (codes 0..15 are the custom characters).
ROMS: Mapping[str, Mapping[int, str]] = {
    "A00": {**{c: chr(c) for c in range(0x20, 0x7E)}, **ROM_A00},
    "A02": {**{c: chr(c) for c in range(0x20, 0x7F)}, **ROM_A02},
}

#: How many of its latest messages the PCF8574 model notes (more than a 20x4 screen's runs).
MESSAGES_NOTED = 64

#: What a CGRAM character that is no known glyph reads as.
UNREADABLE = "\ufffd"


#: The character each known custom picture shows (the glyphs and the accented letters).
_PICTURES: Mapping[tuple[int, ...], str] = {
    tuple(bitmap): char for char, bitmap in (*GLYPHS.items(), *LETTERS.items())
}


def row_offsets(cols: int) -> tuple[int, int, int, int]:
    """DDRAM address of the first cell of each row (0x00 0x40 0x14 0x54 on a 20x4)."""
    return (0x00, 0x40, cols, 0x40 + cols)


class HD44780:
    """The controller's state after each instruction or data byte.

    Power-on state: 8-bit interface, one-line addressing, display off, DDRAM of spaces.
    """

    def __init__(self, cols: int = 20, rows: int = 4, rom: str = "A00") -> None:
        if rom not in ROMS:
            raise ValueError(f"an HD44780 character ROM is {' or '.join(ROMS)}, not {rom!r}")
        self.cols = cols
        self.rows = rows
        self.rom = rom
        self.ddram = bytearray(b" " * 0x80)
        self.cgram = bytearray(64)
        self.address = 0
        self.in_cgram = False
        self.increment = True
        self.two_line = False
        self.eight_bit = True
        self.display_on = False
        self.shift = 0
        self._half: tuple[int, int] | None = None
        self.instructions = 0
        self.data_bytes = 0

    # The 4-bit interface.

    def latch(self, rs: int, nibble: int) -> None:
        """Take the four data lines D4..D7 on a falling E edge (D0..D3 read as 0 in 8-bit mode)."""
        if self.eight_bit:
            self._execute(rs, (nibble & 0x0F) << 4)
            return
        if self._half is None:
            self._half = (rs, nibble & 0x0F)
            return
        first_rs, high = self._half
        self._half = None
        self._execute(first_rs, (high << 4) | (nibble & 0x0F))

    def _execute(self, rs: int, byte: int) -> None:
        if rs:
            self.data(byte)
        else:
            self.instruction(byte)

    # The instruction set.

    def instruction(self, byte: int) -> None:
        """Execute one instruction byte (RS low)."""
        self.instructions += 1
        if byte & 0x80:
            self.address, self.in_cgram = byte & 0x7F, False
        elif byte & 0x40:
            self.address, self.in_cgram = byte & 0x3F, True
        elif byte & 0x20:
            self.eight_bit = bool(byte & 0x10)
            self.two_line = bool(byte & 0x08)
            self._half = None
        elif byte & 0x10:
            right = bool(byte & 0x04)
            if byte & 0x08:
                self.shift += 1 if right else -1
            else:
                self._step(right)
        elif byte & 0x08:
            self.display_on = bool(byte & 0x04)
        elif byte & 0x04:
            self.increment = bool(byte & 0x02)
        elif byte & 0x02:
            self.address, self.in_cgram, self.shift = 0, False, 0
        elif byte & 0x01:
            self.ddram[:] = b" " * len(self.ddram)
            self.address, self.in_cgram, self.shift, self.increment = 0, False, 0, True

    def data(self, byte: int) -> None:
        """Write one data byte (RS high) at the address counter, then move the counter."""
        self.data_bytes += 1
        if self.in_cgram:
            self.cgram[self.address] = byte & 0x1F
            self.address = (self.address + (1 if self.increment else -1)) & 0x3F
            return
        self.ddram[self.address] = byte & 0xFF
        self._step(self.increment)

    def _step(self, forward: bool) -> None:
        if self.in_cgram:
            self.address = (self.address + (1 if forward else -1)) & 0x3F
        elif not self.two_line:
            self.address = (self.address + (1 if forward else -1)) % 0x50
        elif forward:
            self.address = {0x27: 0x40, 0x67: 0x00}.get(self.address, self.address + 1)
        else:
            self.address = {0x40: 0x27, 0x00: 0x67}.get(self.address, self.address - 1)

    # What a player reads.

    def _cell_address(self, row: int, col: int) -> int:
        """DDRAM address shown at (row, col), display shift included."""
        if not self.two_line:
            return (row_offsets(self.cols)[row] + col - self.shift) % 0x50
        start = row_offsets(self.cols)[row]
        line_base = start & 0x40
        return line_base + (start - line_base + col - self.shift) % 40

    def codes(self) -> list[bytes]:
        """Return the character codes on each row, as the controller would display them."""
        return [
            bytes(self.ddram[self._cell_address(row, col)] for col in range(self.cols))
            for row in range(self.rows)
        ]

    def custom_char(self, code: int) -> tuple[int, ...]:
        """Return the eight CGRAM rows behind character code 0..15 (8..15 repeat 0..7)."""
        slot = code & 0x07
        return tuple(self.cgram[slot * 8 : slot * 8 + 8])

    def read_char(self, code: int) -> str:
        """Return the character a player sees for one code (custom glyphs by their picture)."""
        if code < 0x10:
            return _PICTURES.get(self.custom_char(code), UNREADABLE)
        return ROMS[self.rom].get(code, UNREADABLE)

    def lines(self) -> list[str]:
        """Return the rows of text a player reads (blank rows while the display is off)."""
        if not self.display_on:
            return [" " * self.cols for _ in range(self.rows)]
        return ["".join(self.read_char(code) for code in row) for row in self.codes()]


class Pcf8574Bus:
    """A fake ``smbus2.SMBus`` with an HD44780 behind a PCF8574 backpack at ``address``.

    ``write_byte`` (what RPLCD uses for this expander) and ``i2c_rdwr`` write messages are
    decoded: bit 0 is RS, bit 2 is E,
    bit 3 the backlight, bits 4..7 the data nibble, latched when E falls. Set ``unplugged`` to
    make every write fail as a missing I2C device does (``OSError`` with ``EREMOTEIO``).
    With a ``wire``, a ``write_byte`` occupies that modelled I2C bus as a one-byte write does,
    and an ``i2c_rdwr`` call one transaction per message, its caller held once for them all.
    """

    def __init__(
        self,
        address: int = 0x27,
        cols: int = 20,
        rows: int = 4,
        wire: Bus | None = None,
        rom: str = "A00",
    ) -> None:
        self.address = address
        self.wire = wire
        self.lcd = HD44780(cols, rows, rom)
        self.unplugged = False
        self.writes = 0
        self.closed = False
        #: With a ``wire``: when each of the latest messages ended on it, and its bit times.
        self.messages: deque[tuple[float, int]] = deque(maxlen=MESSAGES_NOTED)
        self._last = 0x00

    @property
    def backlight(self) -> bool:
        """Whether the backlight pin is high."""
        return bool(self._last & PCF_BACKLIGHT)

    def write_byte(self, address: int, value: int, force: bool | None = None) -> None:
        """Set the expander's eight output pins; a falling E latches the nibble held before."""
        if self.unplugged or address != self.address:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if self.wire is not None:
            self.wire.i2c_write(1)
        self._set(value)

    def _set(self, value: int) -> None:
        """One byte on the expander's pins: a falling E latches the nibble held before."""
        self.writes += 1
        if self._last & PCF_E and not value & PCF_E:
            self.lcd.latch(self._last & PCF_RS, self._last >> 4)
        self._last = value & 0xFF

    def _stream(self, data: bytes) -> None:
        """``_set`` for each byte of ``data`` in turn, in one pass: only the falling E edges
        reach the controller."""
        previous = self._last
        latch = self.lcd.latch
        for value in data:
            if previous & PCF_E and not value & PCF_E:
                latch(previous & PCF_RS, previous >> 4)
            previous = value
        self.writes += len(data)
        self._last = previous

    def i2c_rdwr(self, *messages: Any) -> None:
        """Run write messages (``smbus2.i2c_msg.write``): each byte sets the pins in turn.

        As the kernel does, the messages go one after the other in one call that holds its
        caller until the last has ended; those before one that fails are sent.
        """
        sent: list[bytes] = []
        for message in messages:
            if self.unplugged or message.addr != self.address:
                break
            sent.append(bytes(message))
        if self.wire is not None and sent:
            ends = self.wire.i2c_writes([len(data) for data in sent])
            self.messages.extend(zip(ends, (i2c_bits(len(data)) for data in sent), strict=True))
        for data in sent:
            self._stream(data)
        if len(sent) < len(messages):
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def close(self) -> None:
        """Release the bus (the display keeps what it shows)."""
        self.closed = True


@contextlib.contextmanager
def rplcd_on(bus: Pcf8574Bus, slept: list[float] | None = None) -> Iterator[Pcf8574Bus]:
    """Make RPLCD open ``bus`` instead of a real I2C bus, and skip (but count) its sleeps.

    Each sleep RPLCD asks for is appended to ``slept`` in seconds, and held on the bus's
    ``wire`` when it has one (the controller's execution times). For the simulator and the
    benchmarks; tests patch the same three names themselves.
    """
    import RPLCD.common  # imported here: only this stand-in needs RPLCD
    import RPLCD.i2c

    saved = (RPLCD.i2c.SMBus, RPLCD.common.usleep, RPLCD.common.msleep)
    record = slept if slept is not None else []

    def pause(seconds: float) -> None:
        record.append(seconds)
        if bus.wire is not None:
            bus.wire.hold(seconds)

    RPLCD.i2c.SMBus = lambda port: bus
    RPLCD.common.usleep = lambda us: pause(us / 1e6)
    RPLCD.common.msleep = lambda ms: pause(ms / 1e3)
    try:
        yield bus
    finally:
        RPLCD.i2c.SMBus, RPLCD.common.usleep, RPLCD.common.msleep = saved
