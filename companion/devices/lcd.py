"""The character LCD (HD44780 16x2 or 20x4): a framebuffer that sends only the cells that changed.

``CharacterLcd`` is the :class:`~companion.devices.base.TextDisplay`. It maps text to the codes
of the controller's character ROM (A00 or A02), puts the suits, a few symbols and the accented
letters the ROM lacks in its eight custom characters, chosen per screen, and writes through an
``LcdPort``: ``RplcdPort`` (a PCF8574 backpack via RPLCD, imported only when opened) or
``FakeHD44780`` (a model of the controller's memory, for tests and the simulator).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import xor
from typing import Any, Protocol

from companion.devices.glyphs import ALIASES, GLYPHS, LETTERS, SPELLED, fold_char, spell
from companion.devices.hd44780 import (
    HD44780,
    PCF_BACKLIGHT,
    PCF_E,
    PCF_RS,
    ROMS,
    UNREADABLE,
    row_offsets,
)

#: How many custom characters an HD44780 holds (CGRAM slots 0..7).
SLOT_COUNT = 8

#: The ROM a hobbyist's 20x4 module with a PCF8574 backpack usually carries.
DEFAULT_ROM = "A00"

#: Gaps of unchanged cells this short are re-sent rather than paying for a new address.
MERGE_GAP = 1

#: A run of changed cells in a row's XOR with the old one: a changed cell, then each changed
#: cell after at most MERGE_GAP unchanged (zero) ones.
_RUN = re.compile(rb"[^\x00](?:\x00{0,%d}[^\x00])*" % MERGE_GAP)

#: The most messages Linux's I2C_RDWR takes in one call (I2C_RDWR_IOCTL_MAX_MSGS).
I2C_RDWR_MAX_MESSAGES = 42

#: How many screens' codes a display remembers (a game shows far fewer distinct ones).
FRAMES_KEPT = 256

#: One cell of text before the screen's custom characters are chosen: a ROM code, or a
#: character that needs a custom slot (a glyph, or an accented letter the ROM lacks).
Token = int | str


@functools.cache
def rom_codes(rom: str) -> Mapping[str, int]:
    """The code of each character ``rom`` shows (the first code when two show the same)."""
    codes: dict[str, int] = {}
    for code, char in sorted(ROMS[rom].items()):
        codes.setdefault(char, code)
    return codes


@functools.cache
def fallback(char: str, rom: str) -> int:
    """The ROM code ``char`` folds to when it gets no custom slot ("é" -> "e", else "?")."""
    codes = rom_codes(rom)
    return codes[fold_char(char, codes.__contains__)]


@functools.lru_cache(maxsize=1024)
def tokens(line: str, rom: str) -> tuple[Token, ...]:
    """One token per character of ``line``: the ROM's code when it has the character (or one
    that means the same), else the glyph or accented letter a custom slot would show, else the
    code of the folded character."""
    codes = rom_codes(rom)
    out: list[Token] = []
    for char in line:
        alias = ALIASES.get(char, char)
        if char in codes or alias in codes:
            out.append(codes[char] if char in codes else codes[alias])
        elif alias in GLYPHS:
            out.append(alias)
        elif char in LETTERS:
            out.append(char)
        else:
            out.append(fallback(char, rom))
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _row(line: str, rom: str) -> tuple[tuple[Token, ...], bytes | None, tuple[str, ...]]:
    """A row's tokens, its codes when it needs no custom character, and the custom characters
    it needs in reading order."""
    cells = tokens(line, rom)
    custom = tuple(dict.fromkeys(cell for cell in cells if isinstance(cell, str)))
    plain = None if custom else bytes(cell for cell in cells if isinstance(cell, int))
    return cells, plain, custom


class LcdPort(Protocol):
    """The few things the framebuffer asks of a controller."""

    def define_char(self, slot: int, bitmap: Sequence[int]) -> None:
        """Store a 5x8 picture in custom-character slot 0..7."""

    def clear(self) -> None:
        """Blank every cell."""

    def write_runs(self, runs: Sequence[Run]) -> None:
        """Write each run's codes from its (row, col) rightwards, within the row, in order
        (in as few bus transfers as the port can)."""

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
        if codes == before:
            continue
        changed = bytes(map(xor, codes, before))  # a zero byte where the cell is unchanged
        for run in _RUN.finditer(changed):
            runs.append(Run(row, run.start(), codes[run.start() : run.end()]))
    return runs


class CharacterLcd:
    """The 20x4 (or 16x2) LCD: rows of text, suits and accents included, only changed cells sent.

    The eight custom characters are chosen per screen: the glyphs on it first, then the
    accented letters the ROM lacks, in reading order, while slots remain (the others fold to
    their bare letter). A character keeps its slot while it stays on the glass, and a slot
    whose picture changes is never on the glass meanwhile.
    """

    def __init__(
        self, port: LcdPort, cols: int = 20, rows: int = 4, rom: str = DEFAULT_ROM
    ) -> None:
        if cols < 1 or rows not in (1, 2, 4):
            raise ValueError(f"an HD44780 display has 1, 2 or 4 rows, got {cols}x{rows}")
        if rom not in ROMS:
            raise ValueError(f"an HD44780 character ROM is {' or '.join(ROMS)}, not {rom!r}")
        self.port = port
        self.cols = cols
        self.rows = rows
        self.rom = rom
        #: Cumulative counts: cells written, cursor moves (each costs one controller byte) and
        #: custom characters defined.
        self.cells_sent = 0
        self.moves_sent = 0
        self.slots_defined = 0
        #: What each custom slot holds on the controller (None: nothing known).
        self._slots: list[str | None] = [None] * SLOT_COUNT
        self._shown: list[bytes] | None = None
        #: Frames worked out before, by their rows and the slots they were worked out with
        #: (only those that needed no new slot: they depend on nothing else).
        self._frames: dict[tuple[tuple[str, ...], tuple[str | None, ...]], list[bytes]] = {}
        #: Rows parsed before, each with every letter a slot could show kept (the LCD writer
        #: may send a screen's answering row alone first: that frame repeats the rows shown).
        self._parsed: dict[str, tuple[tuple[Token, ...], bytes | None, tuple[str, ...]]] = {}
        # The glyphs the ROM lacks are loaded from the start; letters take slots as needed.
        for slot, char in enumerate(g for g in GLYPHS if g not in rom_codes(rom)):
            port.define_char(slot, _picture(char))
            self._slots[slot] = char
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
        rom: str = DEFAULT_ROM,
    ) -> CharacterLcd:
        """Open an LCD on an I2C backpack. Raises OSError when nothing answers at ``address``."""
        return cls(RplcdPort(expander, port, address, cols, rows, rom), cols, rows, rom)

    @classmethod
    def fake(cls, cols: int = 20, rows: int = 4, rom: str = DEFAULT_ROM) -> CharacterLcd:
        """Return an LCD drawn on a :class:`FakeHD44780` (read it back with ``lines()``)."""
        return cls(FakeHD44780(cols, rows, rom), cols, rows, rom)

    def frame(self, lines: Sequence[str]) -> tuple[list[bytes], list[str | None]]:
        """Return the codes of each row for ``lines`` (cut or padded to the size) and the
        custom slots they need, keeping the characters already in a slot where they are."""
        rows = (*list(lines)[: self.rows], *[""] * max(0, self.rows - len(lines)))
        key = (rows, tuple(self._slots))
        known = self._frames.get(key)
        if known is not None:
            return list(known), list(self._slots)
        parsed = [self._parsed_row(line) for line in rows]
        glyphs: dict[str, None] = {}
        letters: dict[str, None] = {}
        for *_, custom in parsed:
            for char in custom:
                (glyphs if char in GLYPHS else letters)[char] = None
        chosen = [*glyphs, *letters][:SLOT_COUNT]
        if any(char in SPELLED for char in letters if char not in chosen):
            # "ä" left without a slot is spelled "ae", not folded to "a".
            codes_of = rom_codes(self.rom)
            parsed = self._parse(rows, lambda c: c in codes_of or c in chosen)
        slots = list(self._slots)
        missing = [char for char in chosen if char not in slots]
        if missing:
            wanted = set(chosen)
            on_glass = {code for row in self._shown or () for code in row if code < SLOT_COUNT}
            # Slots to reuse: empty ones first, then those not on the glass (the last glyphs,
            # the rarest, before the suits), then the others.
            free = sorted(
                (n for n in range(SLOT_COUNT) if slots[n] not in wanted),
                key=lambda n: (slots[n] is not None, n in on_glass, -n),
            )
            for char in missing:
                slots[free.pop(0)] = char
        where = {char: n for n, char in enumerate(slots) if char in chosen}
        codes = [
            plain
            if plain is not None
            else bytes(
                cell if isinstance(cell, int) else where.get(cell, fallback(cell, self.rom))
                for cell in cells
            )
            for cells, plain, _ in parsed
        ]
        if not missing:
            if len(self._frames) >= FRAMES_KEPT:
                self._frames.clear()
            self._frames[key] = codes
        return list(codes), slots

    def _parsed_row(self, line: str) -> tuple[tuple[Token, ...], bytes | None, tuple[str, ...]]:
        """``line`` parsed with every letter that has a picture for a slot kept as it is."""
        known = self._parsed.get(line)
        if known is None:
            codes_of = rom_codes(self.rom)
            known = self._parse([line], lambda c: c in codes_of or c in LETTERS)[0]
            if len(self._parsed) >= FRAMES_KEPT:
                self._parsed.clear()
            self._parsed[line] = known
        return known

    def _parse(
        self, rows: Sequence[str], shown: Callable[[str], bool]
    ) -> list[tuple[tuple[Token, ...], bytes | None, tuple[str, ...]]]:
        """Parse ``rows`` with the letters ``shown`` refuses spelled out, cut to the width."""
        return [_row(spell(line, shown)[: self.cols].ljust(self.cols), self.rom) for line in rows]

    def show(self, lines: Sequence[str], first: int | None = None) -> None:
        """Show up to ``rows`` lines; only the cells that differ from the screen are sent, in
        one call of the port (``first``: that row's cells before the others'), or two with the
        new pictures between when a custom character on the glass changes.

        Raises OSError when the bus fails; the screen is then treated as unknown and the next
        call redraws everything.
        """
        target, slots = self.frame(lines)
        old = self._shown
        redefined = {n for n in range(SLOT_COUNT) if slots[n] != self._slots[n]}
        try:
            if old is None:
                self.port.clear()
            elif redefined and any(code in redefined for row in old for code in row):
                # A slot about to change is on the glass: blank its cells first.
                middle = [bytes(32 if c in redefined else c for c in row) for row in target]
                self._write(old, middle, first)
                old = self._shown = middle
            for n in sorted(redefined):
                char = slots[n]
                if char is not None:
                    self._slots[n] = None  # unknown should this write fail
                    self.port.define_char(n, _picture(char))
                    self._slots[n] = char
                    self.slots_defined += 1
            self._write(old, target, first)
        except BaseException:
            self._shown = None
            self._slots = [None] * SLOT_COUNT
            raise
        self._shown = target

    def _write(self, old: Sequence[bytes] | None, new: Sequence[bytes], first: int | None) -> None:
        runs = changed_runs(old, new)
        if not runs:
            return
        if first is not None:
            runs.sort(key=lambda run: run.row != first)  # stable: the rows keep their order
        self.port.write_runs(runs)
        self.cells_sent += sum(len(run.codes) for run in runs)
        self.moves_sent += len(runs)

    def lines(self) -> list[str]:
        """Return the rows as this display believes they are shown (suits as ♠♥♦♣)."""
        shown = self._shown or [b" " * self.cols for _ in range(self.rows)]
        rom = ROMS[self.rom]
        return [
            "".join(
                (self._slots[c] or UNREADABLE) if c < SLOT_COUNT else rom.get(c, UNREADABLE)
                for c in row
            )
            for row in shown
        ]

    def close(self) -> None:
        """Clear the display and release it."""
        self._shown = None
        self.port.close()


def _picture(char: str) -> tuple[int, ...]:
    """The 5x8 picture of a glyph or an accented letter."""
    return tuple(GLYPHS[char] if char in GLYPHS else LETTERS[char])


class FakeHD44780:
    """An ``LcdPort`` that executes each write on a model of the controller's memory.

    ``lines()`` reads the model's DDRAM through its CGRAM pictures: what a player would see.
    ``controller.instructions`` and ``controller.data_bytes`` count the bytes sent.
    """

    def __init__(self, cols: int = 20, rows: int = 4, rom: str = DEFAULT_ROM) -> None:
        self.controller = HD44780(cols, rows, rom)
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

    def write_runs(self, runs: Sequence[Run]) -> None:
        """For each run, set the DDRAM address of its (row, col), then send each code."""
        offsets = row_offsets(self.controller.cols)
        for run in runs:
            self.controller.instruction(0x80 | (offsets[run.row] + run.col))
            for code in run.codes:
                self.controller.data(code)

    def close(self) -> None:
        """Clear the screen and mark the port closed."""
        self.controller.instruction(0x01)
        self.closed = True

    def lines(self) -> list[str]:
        """Return the rows a player reads off the modelled display."""
        return self.controller.lines()


def _expander_bytes(rs: int, byte: int, light: int) -> bytes:
    """The six expander writes of one controller byte: two nibbles of (data, E high, E low)."""
    out = bytearray()
    for nibble in (byte >> 4, byte & 0x0F):
        level = nibble << 4 | rs | light
        out += bytes((level, level | PCF_E, level))
    return bytes(out)


@functools.cache
def _instruction_bytes(instruction: int, light: int) -> bytes:
    """The six expander writes of an instruction byte (each worked out once)."""
    return _expander_bytes(0, instruction, light)


#: The expander writes of every data byte, with the backlight on and off (computed once).
_DATA_STREAMS = {
    light: tuple(_expander_bytes(PCF_RS, code, light) for code in range(256))
    for light in (PCF_BACKLIGHT, 0)
}


def pcf8574_stream(instruction: int, codes: bytes, *, backlight: bool = True) -> bytes:
    """The bytes a PCF8574 backpack turns into ``instruction`` then ``codes`` as data.

    Each byte goes as two nibbles (high first) on D4..D7, each set with E low, raised with E
    high and latched as E falls: three expander writes per nibble, as RPLCD does.
    """
    light = PCF_BACKLIGHT if backlight else 0
    table = _DATA_STREAMS[light]
    return _instruction_bytes(instruction, light) + b"".join([table[code] for code in codes])


class RplcdPort:
    """An ``LcdPort`` on RPLCD's ``CharLCD`` (PCF8574, MCP23008 or MCP23017 backpack)."""

    def __init__(
        self,
        expander: str = "PCF8574",
        port: int = 1,
        address: int = 0x27,
        cols: int = 20,
        rows: int = 4,
        rom: str = DEFAULT_ROM,
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
                charmap=rom,
                auto_linebreaks=False,
            )
        except BaseException:
            bus = getattr(lcd, "bus", None)
            if bus is not None:
                bus.close()
            raise
        self.lcd = lcd
        self.expander = expander
        #: smbus2's message maker when a run can go in one transaction (a PCF8574), else None.
        self._message: Any = None
        if expander == "PCF8574" and hasattr(lcd.bus, "i2c_rdwr"):
            from smbus2 import i2c_msg  # imported here: only a real LCD needs smbus2

            self._message = i2c_msg.write

    def define_char(self, slot: int, bitmap: Sequence[int]) -> None:
        """Store a custom character (on a PCF8574 in one I2C transaction, as a run)."""
        if self._message is None:
            self.lcd.create_char(slot, tuple(bitmap))
        else:
            self.lcd.bus.i2c_rdwr(self._stream(0x40 | (slot & 0x07) << 3, bytes(bitmap)))

    def clear(self) -> None:
        """Clear the display."""
        self.lcd.clear()

    def write_runs(self, runs: Sequence[Run]) -> None:
        """Move the cursor and write raw codes, for each run (RPLCD's own text codec is
        bypassed).

        On a PCF8574 the runs of one row are one I2C message, one transaction on the bus: for
        each run its cursor move then its characters (``pcf8574_stream``), back to back. The
        expander takes each byte in turn, and at any bus speed a byte lasts longer than the
        controller needs, so RPLCD's pauses and per-byte transactions are not needed. The
        rows' messages go in one ``i2c_rdwr`` call (42 at most a call, as the kernel takes),
        so the caller waits once for the whole screen, the first row on the glass first.
        """
        if self._message is None:
            for run in runs:
                self.lcd.cursor_pos = (run.row, run.col)
                for code in run.codes:
                    self.lcd.write(code)
            return
        offsets = row_offsets(self.lcd.lcd.cols)
        light = bool(self.lcd._backlight)
        messages = [
            self._message(
                self.lcd._address,
                b"".join(
                    pcf8574_stream(0x80 | (offsets[row] + run.col), run.codes, backlight=light)
                    for run in row_runs
                ),
            )
            for row, row_runs in itertools.groupby(runs, key=lambda run: run.row)
        ]
        for start in range(0, len(messages), I2C_RDWR_MAX_MESSAGES):
            self.lcd.bus.i2c_rdwr(*messages[start : start + I2C_RDWR_MAX_MESSAGES])

    def _stream(self, instruction: int, data: bytes) -> Any:
        """The I2C message of ``instruction`` then ``data`` through the PCF8574."""
        stream = pcf8574_stream(instruction, data, backlight=bool(self.lcd._backlight))
        return self._message(self.lcd._address, stream)

    def close(self) -> None:
        """Clear the display and close the I2C bus."""
        try:
            self.lcd.close(clear=True)
        finally:
            self.lcd.bus.close()
