"""A model of the SSD1306 / SH1106 display RAM behind luma's I2C interface, on a modelled bus.

``OledWire`` stands in for ``luma.core.interface.serial.i2c``: the real luma drivers send
their commands and data to it. It executes the addressing commands on a 128x64 display RAM
(eight pages of 128 columns, one byte per column of 8 pixels, the top pixel in bit 0), so a
test reads back what the glass shows, and each command or data block occupies the ``Bus`` as
one I2C write (luma sends a whole data block in one transaction on a Pi). ``write_messages``
takes several writes in one call, as the kernel's ``I2C_RDWR`` does.
"""

from __future__ import annotations

import errno
from collections.abc import Sequence

from companion.devices.bus import Bus, i2c_bits

WIDTH, PAGES = 128, 8

#: Commands followed by arguments: how many bytes each takes after itself.
_ARGS_SSD1306 = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1,
                 0xD9: 1, 0xDA: 1, 0xDB: 1}  # fmt: skip
_ARGS_SH1106 = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
#: The SH1106 has 132 columns; 128-pixel modules show columns 2..129.
SH1106_OFFSET = 2


class OledWire:
    """A luma serial interface for one SSD1306 or SH1106 at ``address`` on ``bus``."""

    def __init__(self, bus: Bus | None, controller: str = "ssd1306", address: int = 0x3C) -> None:
        if controller not in ("ssd1306", "sh1106"):
            raise ValueError(f"unknown OLED controller {controller!r}")
        self.bus = bus
        self.controller = controller
        self.address = address
        self.unplugged = False
        self.closed = False
        self.ram = [bytearray(132) for _ in range(PAGES)]
        #: Bytes of pixel data received (what the frames cost on the wire).
        self.data_bytes = 0
        self.commands = 0
        #: Bit times this display has put on its bus.
        self.bits = 0
        self._page = self._col = 0
        self._cols = (0, WIDTH - 1)
        self._pages = (0, PAGES - 1)

    # luma's serial interface.

    def command(self, *cmd: int) -> None:
        """Execute a group of command bytes (one I2C write: control byte, then the commands)."""
        self._wire(1 + len(cmd))
        self._command(cmd)

    def data(self, data: bytes | bytearray | list[int]) -> None:
        """Write pixel bytes at the address pointer (one I2C write)."""
        self._wire(1 + len(data))
        self._data(bytes(data))

    def cleanup(self) -> None:
        """Release the bus."""
        self.closed = True

    # The writes the companion sends in one call (``oled.Messages``).

    def write_messages(self, payloads: Sequence[bytes]) -> None:
        """Run I2C writes, each its control byte (0x00 commands, 0x40 pixels) then its bytes,
        holding the caller once until the last has ended. Raises OSError when unplugged
        (nothing is sent), ValueError for another control byte."""
        if self.unplugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if any(not payload or payload[0] not in (0x00, 0x40) for payload in payloads):
            raise ValueError("an SSD1306 or SH1106 write starts with 0x00 or 0x40")
        self.bits += sum(i2c_bits(len(payload)) for payload in payloads)
        if self.bus is not None:
            self.bus.i2c_writes([len(payload) for payload in payloads])
        for payload in payloads:
            if payload[0] == 0x00:
                self._command(tuple(payload[1:]))
            else:
                self._data(bytes(payload[1:]))

    # What the glass shows.

    def pages(self) -> list[bytes]:
        """The eight pages of the visible 128 columns."""
        first = SH1106_OFFSET if self.controller == "sh1106" else 0
        return [bytes(page[first : first + WIDTH]) for page in self.ram]

    def pixel(self, x: int, y: int) -> bool:
        """Whether the pixel at (x, y) is lit."""
        return bool(self.pages()[y // 8][x] >> (y % 8) & 1)

    # Inside.

    def _wire(self, payload: int) -> None:
        if self.unplugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.bits += i2c_bits(payload)
        if self.bus is not None:
            self.bus.i2c_write(payload)

    def _command(self, cmd: tuple[int, ...]) -> None:
        self.commands += 1
        args = _ARGS_SSD1306 if self.controller == "ssd1306" else _ARGS_SH1106
        index = 0
        while index < len(cmd):
            code = cmd[index]
            taken = args.get(code, 0)
            self._execute(code, cmd[index + 1 : index + 1 + taken])
            index += 1 + taken

    def _data(self, block: bytes) -> None:
        self.data_bytes += len(block)
        while block:
            block = self._fill(block)

    def _execute(self, code: int, args: tuple[int, ...]) -> None:
        if self.controller == "ssd1306":
            if code == 0x21 and len(args) == 2:
                self._cols = (args[0] & 0x7F, args[1] & 0x7F)
                self._col = self._cols[0]
            elif code == 0x22 and len(args) == 2:
                self._pages = (args[0] & 0x07, args[1] & 0x07)
                self._page = self._pages[0]
            return
        if 0xB0 <= code <= 0xB7:
            self._page = code & 0x07
        elif code <= 0x0F:
            self._col = (self._col & 0xF0) | code
        elif code <= 0x1F:
            self._col = (self._col & 0x0F) | (code & 0x0F) << 4

    def _fill(self, block: bytes) -> bytes:
        """Store bytes from the address pointer to the end of its column range (one slice);
        return the bytes left for the next page."""
        if self.controller == "sh1106":
            # Page addressing: the column stops at the last one, which keeps the last byte.
            room = 132 - self._col
            self.ram[self._page][self._col : self._col + min(room, len(block))] = block[:room]
            if len(block) > room:
                self.ram[self._page][131] = block[-1]
            self._col = min(self._col + len(block), 131)
            return b""
        room = self._cols[1] - self._col + 1
        taken = block[:room]
        self.ram[self._page][self._col : self._col + len(taken)] = taken
        if len(taken) < room:
            self._col += len(taken)
            return b""
        self._col = self._cols[0]
        self._page = self._page + 1 if self._page < self._pages[1] else self._pages[0]
        return block[room:]
