"""The character LCD (HD44780 16x2 or 20x4): a framebuffer that sends only the cells that changed.

``CharacterLcd`` is the :class:`~companion.devices.base.TextDisplay`. It folds text to what the
controller's ROM can show, maps the suits and a few symbols to its eight custom characters, and
writes through an ``LcdPort``: ``RplcdPort`` (a PCF8574 backpack via RPLCD, imported only when
opened) or ``FakeHD44780`` (a model of the controller's memory, for tests and the simulator).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.devices.glyphs import GLYPHS, fold
from companion.devices.hd44780 import HD44780, PCF_BACKLIGHT, PCF_E, PCF_RS, row_offsets

#: Custom characters in CGRAM slot order: slot n shows SLOTS[n].
SLOTS: tuple[str, ...] = tuple(GLYPHS)

#: Printable ASCII that reads the same on the A00 and A02 ROMs (no backslash, no tilde).
_ROM_SAFE = frozenset(chr(code) for code in range(0x20, 0x7E)) - {"\\"}

#: Gaps of unchanged cells this short are re-sent rather than paying for a new address.
MERGE_GAP = 1


def lcd_supports(char: str) -> bool:
    """Whether the LCD can show ``char`` as it is (ROM ASCII or one of the custom glyphs)."""
    return char in _ROM_SAFE or char in GLYPHS


def encode(text: str) -> bytes:
    """Return the character codes for ``text``: one code per character, custom glyphs 0..7."""
    codes = bytearray()
    for char in fold(text, lcd_supports):
        codes.append(SLOTS.index(char) if char in GLYPHS else ord(char))
    return bytes(codes)


class LcdPort(Protocol):
    """The few things the framebuffer asks of a controller."""

    def define_char(self, slot: int, bitmap: Sequence[int]) -> None:
        """Store a 5x8 picture in custom-character slot 0..7."""

    def clear(self) -> None:
        """Blank every cell."""

    def write(self, row: int, col: int, codes: bytes) -> None:
        """Write character codes from (row, col) rightwards, within the row."""

    def close(self) -> None:
        """Blank the display and release the bus."""


@dataclass(frozen=True)
class Run:
    """Cells to write in one go: a row, a first column and the codes."""

    row: int
    col: int
    codes: bytes


def changed_runs(old: Sequence[bytes] | None, new: Sequence[bytes]) -> list[Run]:
    """Return the writes that turn ``old`` rows into ``new`` ones (everything if ``old`` is None).

    Changed cells separated by at most MERGE_GAP unchanged cells are sent as one run, since
    moving the cursor costs as much as re-sending a cell. Without ``old`` (a cleared screen),
    blank cells are not sent.
    """
    runs: list[Run] = []
    for row, codes in enumerate(new):
        before = old[row] if old is not None else b" " * len(codes)
        changed = [col for col in range(len(codes)) if codes[col] != before[col]]
        start = previous = None
        for col in changed:
            if start is not None and previous is not None and col - previous - 1 <= MERGE_GAP:
                previous = col
                continue
            if start is not None and previous is not None:
                runs.append(Run(row, start, codes[start : previous + 1]))
            start = previous = col
        if start is not None and previous is not None:
            runs.append(Run(row, start, codes[start : previous + 1]))
    return runs


class CharacterLcd:
    """The 20x4 (or 16x2) LCD: rows of text, suits included, only changed cells sent."""

    def __init__(self, port: LcdPort, cols: int = 20, rows: int = 4) -> None:
        if cols < 1 or rows not in (1, 2, 4):
            raise ValueError(f"an HD44780 display has 1, 2 or 4 rows, got {cols}x{rows}")
        self.port = port
        self.cols = cols
        self.rows = rows
        #: Cumulative counts: cells written and cursor moves (each costs one controller byte).
        self.cells_sent = 0
        self.moves_sent = 0
        self._shown: list[bytes] | None = None
        for slot, char in enumerate(SLOTS):
            port.define_char(slot, GLYPHS[char])
        port.clear()
        self._shown = [b" " * cols for _ in range(rows)]

    @classmethod
    def open(
        cls,
        expander: str = "PCF8574",
        port: int = 1,
        address: int = 0x27,
        cols: int = 20,
        rows: int = 4,
    ) -> CharacterLcd:
        """Open an LCD on an I2C backpack. Raises OSError when nothing answers at ``address``."""
        return cls(RplcdPort(expander, port, address, cols, rows), cols, rows)

    @classmethod
    def fake(cls, cols: int = 20, rows: int = 4) -> CharacterLcd:
        """Return an LCD drawn on a :class:`FakeHD44780` (read it back with ``lines()``)."""
        return cls(FakeHD44780(cols, rows), cols, rows)

    def frame(self, lines: Sequence[str]) -> list[bytes]:
        """Return the character codes of each row for ``lines`` (cut or padded to the size)."""
        rows = [*list(lines)[: self.rows], *[""] * max(0, self.rows - len(lines))]
        return [encode(line[: self.cols].ljust(self.cols)) for line in rows]

    def show(self, lines: Sequence[str]) -> None:
        """Show up to ``rows`` lines; only the cells that differ from the screen are sent.

        Raises OSError when the bus fails; the screen is then treated as unknown and the next
        call redraws everything.
        """
        target = self.frame(lines)
        old = self._shown
        try:
            if old is None:
                self.port.clear()
            for run in changed_runs(old, target):
                self.port.write(run.row, run.col, run.codes)
                self.cells_sent += len(run.codes)
                self.moves_sent += 1
        except BaseException:
            self._shown = None
            raise
        self._shown = target

    def lines(self) -> list[str]:
        """Return the rows as this display believes they are shown (suits as ♠♥♦♣)."""
        shown = self._shown or [b" " * self.cols for _ in range(self.rows)]
        return ["".join(SLOTS[c] if c < len(SLOTS) else chr(c) for c in row) for row in shown]

    def close(self) -> None:
        """Clear the display and release it."""
        self._shown = None
        self.port.close()


class FakeHD44780:
    """An ``LcdPort`` that executes each write on a model of the controller's memory.

    ``lines()`` reads the model's DDRAM through its CGRAM pictures: what a player would see.
    ``controller.instructions`` and ``controller.data_bytes`` count the bytes sent.
    """

    def __init__(self, cols: int = 20, rows: int = 4) -> None:
        self.controller = HD44780(cols, rows)
        self.closed = False
        self.controller.instruction(0x28)  # 4-bit interface, two-line addressing
        self.controller.instruction(0x0C)  # display on, no cursor
        self.controller.instruction(0x06)  # move right after each character
        self.controller.instruction(0x01)

    def define_char(self, slot: int, bitmap: Sequence[int]) -> None:
        """Write a picture into CGRAM slot ``slot``."""
        self.controller.instruction(0x40 | (slot & 0x07) << 3)
        for row in bitmap:
            self.controller.data(row)
        self.controller.instruction(0x80)

    def clear(self) -> None:
        """Send the clear instruction."""
        self.controller.instruction(0x01)

    def write(self, row: int, col: int, codes: bytes) -> None:
        """Set the DDRAM address of (row, col), then send each code."""
        offsets = (0x00, 0x40, self.controller.cols, 0x40 + self.controller.cols)
        self.controller.instruction(0x80 | (offsets[row] + col))
        for code in codes:
            self.controller.data(code)

    def close(self) -> None:
        """Clear the screen and mark the port closed."""
        self.controller.instruction(0x01)
        self.closed = True

    def lines(self) -> list[str]:
        """Return the rows a player reads off the modelled display."""
        return self.controller.lines()


def pcf8574_stream(instruction: int, codes: bytes, *, backlight: bool = True) -> bytes:
    """The bytes a PCF8574 backpack turns into ``instruction`` then ``codes`` as data.

    Each byte goes as two nibbles (high first) on D4..D7, each set with E low, raised with E
    high and latched as E falls: three expander writes per nibble, as RPLCD does.
    """
    light = PCF_BACKLIGHT if backlight else 0
    out = bytearray()
    for rs, byte in ((0, instruction), *((PCF_RS, code) for code in codes)):
        for nibble in (byte >> 4, byte & 0x0F):
            level = nibble << 4 | rs | light
            out += bytes((level, level | PCF_E, level))
    return bytes(out)


class RplcdPort:
    """An ``LcdPort`` on RPLCD's ``CharLCD`` (PCF8574, MCP23008 or MCP23017 backpack)."""

    def __init__(
        self,
        expander: str = "PCF8574",
        port: int = 1,
        address: int = 0x27,
        cols: int = 20,
        rows: int = 4,
    ) -> None:
        from RPLCD.i2c import CharLCD  # imported here: only a real LCD needs RPLCD

        params: dict[str, Any] | None = {"gpio_bank": "A"} if expander == "MCP23017" else None
        # Built in two steps to keep hold of the bus RPLCD opens, should the display not answer.
        lcd: Any = CharLCD.__new__(CharLCD)
        try:
            lcd.__init__(
                expander,
                address,
                expander_params=params,
                port=port,
                cols=cols,
                rows=rows,
                charmap="A00",
                auto_linebreaks=False,
            )
        except BaseException:
            bus = getattr(lcd, "bus", None)
            if bus is not None:
                bus.close()
            raise
        self.lcd = lcd
        self.expander = expander

    def define_char(self, slot: int, bitmap: Sequence[int]) -> None:
        """Store a custom character through RPLCD."""
        self.lcd.create_char(slot, tuple(bitmap))

    def clear(self) -> None:
        """Clear the display."""
        self.lcd.clear()

    def write(self, row: int, col: int, codes: bytes) -> None:
        """Move the cursor and write raw codes (RPLCD's own text codec is bypassed).

        On a PCF8574 the whole run goes in one I2C transaction (``pcf8574_stream``): the
        expander takes each byte in turn, and at any bus speed a byte lasts longer than the
        controller needs, so RPLCD's pauses and per-byte transactions are not needed.
        """
        if self.expander == "PCF8574" and hasattr(self.lcd.bus, "i2c_rdwr"):
            from smbus2 import i2c_msg  # imported here: only a real LCD needs smbus2

            address = 0x80 | (row_offsets(self.lcd.lcd.cols)[row] + col)
            stream = pcf8574_stream(address, codes, backlight=bool(self.lcd._backlight))
            self.lcd.bus.i2c_rdwr(i2c_msg.write(self.lcd._address, stream))
            return
        self.lcd.cursor_pos = (row, col)
        for code in codes:
            self.lcd.write(code)

    def close(self) -> None:
        """Clear the display and close the I2C bus."""
        try:
            self.lcd.close(clear=True)
        finally:
            self.lcd.bus.close()
