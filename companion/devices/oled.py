"""The small OLED (SSD1306 or SH1106, 128x64, I2C via luma.oled): die faces, a roll, short texts.

``Oled`` is the :class:`~companion.devices.base.PixelDisplay`. It draws with Pillow into a
1-bit image, sends it only when it differs from the frame on the glass, and works on any luma
device: a real controller (``Oled.open``, luma imported there) or luma's ``dummy`` device
(``Oled.dummy``) for tests and the simulator; on an SSD1306 or SH1106 only the changed columns
of the changed pages go over the bus, in one I2C call on a Pi (luma sets the controller up).
Text uses Pillow's built-in bitmap font (6x11 cells, Latin-1) with the suits and symbols of
:mod:`companion.devices.glyphs` drawn in.
"""

from __future__ import annotations

import errno
import functools
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from companion.devices.glyphs import GLYPHS, fold
from companion.devices.scheduling import Scheduler, Step, Steps

#: Where the pips of each face sit on a 3x3 grid: (column, row), 0 = left/top.
PIPS: Mapping[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((2, 0), (0, 2)),
    3: ((2, 0), (1, 1), (0, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}

#: A text cell of the built-in font, in pixels; glyph pictures start CELL_TOP rows down.
CELL_W, CELL_H, LINE_PITCH, CELL_TOP = 6, 11, 12, 2

#: Faces flashed during a roll, in order (no face twice in a row).
ROLL_FACES = (3, 6, 2, 5, 1, 4)

_DRIVERS = ("ssd1306", "sh1106")

#: Each byte with its bits in the opposite order.
_REVERSED = bytes(int(f"{n:08b}"[::-1], 2) for n in range(256))
#: The SH1106 has 132 columns; a 128-pixel module shows them from column 2.
_SH1106_OFFSET = 2


@functools.cache
def _font() -> Any:
    """Pillow's built-in bitmap font (no FreeType, no font file needed)."""
    load = getattr(ImageFont, "load_default_imagefont", ImageFont.load_default)
    return load()


def oled_supports(char: str) -> bool:
    """Whether the OLED draws ``char`` as it is: Latin-1 text or one of the glyph pictures."""
    return char in GLYPHS or (char.isprintable() and 0x20 <= ord(char) <= 0xFF)


def draw_die(image: Image.Image, face: int, box: tuple[int, int, int]) -> None:
    """Draw die ``face`` (1..6) in the square ``box`` = (left, top, side): outline and pips."""
    if face not in PIPS:
        raise ValueError(f"a die face is 1..6, not {face!r}")
    left, top, side = box
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (left, top, left + side - 1, top + side - 1), radius=side // 8, outline=1, width=2
    )
    radius = max(2, side // 12)
    for col, row in PIPS[face]:
        x = left + side * (col + 1) // 4
        y = top + side * (row + 1) // 4
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=1)


def die_image(face: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """Return a frame with die ``face`` centred as large as the screen allows."""
    image = Image.new("1", size)
    side = min(size) - 4
    draw_die(image, face, ((size[0] - side) // 2, (size[1] - side) // 2, side))
    return image


def roll_image(step: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """Return frame ``step`` of the roll: a smaller die tumbling (tilted) across the screen."""
    side = min(size) * 2 // 3
    canvas = Image.new("1", (min(size), min(size)))
    offset = (canvas.width - side) // 2
    draw_die(canvas, ROLL_FACES[step % len(ROLL_FACES)], (offset, offset, side))
    canvas = canvas.rotate(25 + 40 * (step % 2), resample=Image.Resampling.NEAREST)
    image = Image.new("1", size)
    span = max(0, size[0] - canvas.width)
    lanes = (0, span // 3, 2 * span // 3, span, 2 * span // 3, span // 3)
    image.paste(canvas, (lanes[step % len(lanes)], (size[1] - canvas.height) // 2))
    return image


def _draw_line(image: Image.Image, x: int, y: int, text: str) -> None:
    """Draw one line of text at (x, y), glyph pictures in their cells."""
    draw = ImageDraw.Draw(image)
    plain: list[str] = []
    column = 0

    def flush() -> None:
        if plain:
            draw.text((x + (column - len(plain)) * CELL_W, y), "".join(plain), font=_font(), fill=1)
            plain.clear()

    for char in fold(text, oled_supports):
        if char in GLYPHS:
            flush()
            for row, bits in enumerate(GLYPHS[char]):
                for bit in range(5):
                    if bits & (0x10 >> bit):
                        image.putpixel((x + column * CELL_W + bit, y + CELL_TOP + row), 1)
        else:
            plain.append(char)
        column += 1
    flush()


def text_image(lines: Sequence[str], size: tuple[int, int] = (128, 64)) -> Image.Image:
    """Return a frame with ``lines`` of text.

    Up to two short lines (10 characters on a 128x64) are drawn twice as large and centred,
    the way a message should read from across the table. Otherwise lines are drawn left-aligned
    from the top, 21 characters by 5 lines; longer lines and extra lines are cut.
    """
    width, height = size
    big_cols, big_rows = width // (2 * CELL_W), height // (2 * LINE_PITCH)
    if len(lines) <= big_rows and all(len(line) <= big_cols for line in lines):
        half = Image.new("1", (width // 2, height // 2))
        top = (half.height - len(lines) * LINE_PITCH) // 2
        for index, line in enumerate(lines):
            left = (half.width - len(line) * CELL_W) // 2
            _draw_line(half, left, top + index * LINE_PITCH, line)
        return half.resize(size, Image.Resampling.NEAREST)
    image = Image.new("1", size)
    cols, rows = width // CELL_W, (height + LINE_PITCH - CELL_H) // LINE_PITCH
    for index, line in enumerate(list(lines)[:rows]):
        _draw_line(image, 1, index * LINE_PITCH, line[:cols])
    return image


def page_bytes(image: Image.Image) -> bytes:
    """Return a 1-bit frame as the controller stores it: page after page (8 pixel rows each),
    one byte per column, the top pixel in bit 0."""
    pages = image.height // 8
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return b"".join(columns[page::pages] for page in range(pages))


def changed_spans(old: bytes | None, new: bytes, width: int) -> list[tuple[int, int, int]]:
    """Return (page, first column, last column) of each page where ``new`` differs from ``old``
    (every whole page when ``old`` is None)."""
    spans = []
    for page in range(len(new) // width):
        row = new[page * width : (page + 1) * width]
        if old is None:
            spans.append((page, 0, width - 1))
            continue
        before = old[page * width : (page + 1) * width]
        if row == before:
            continue
        # Byte c of the page is bits 8*(width-1-c).. of the big-endian number: one XOR finds
        # the first and the last differing column without a loop over the columns.
        diff = int.from_bytes(row, "big") ^ int.from_bytes(before, "big")
        first = width - (diff.bit_length() + 7) // 8
        last = width - 1 - ((diff & -diff).bit_length() - 1) // 8
        spans.append((page, first, last))
    return spans


def _i2c_cost(payload: int) -> int:
    return 11 + 9 * payload


#: The control byte that starts an I2C write to the controller: commands follow, or pixels.
COMMANDS, PIXELS = 0x00, 0x40

#: Sends I2C writes to the OLED (each its control byte, then its bytes) in one call that
#: returns once the last has ended, as Linux's ``I2C_RDWR`` does; raises OSError.
Messages = Callable[[Sequence[bytes]], None]

#: A write to the controller: its command bytes, then the pixel bytes they make room for.
Write = tuple[tuple[int, ...], bytes]


class PageWriter:
    """Send only the changed columns of the changed pages to an SSD1306 or SH1106 (128x64).

    Uses luma's device for rotation. A frame's writes go in one call to the bus when
    ``messages`` is given (at most 16, within the kernel's 42 a call), so the writer waits
    once for the wire; otherwise one luma ``command`` and ``data`` call each.
    """

    def __init__(self, device: Any, controller: str, messages: Messages | None = None) -> None:
        self.device = device
        self.controller = controller
        self.messages = messages
        #: The frame on the glass, in page bytes; None when unknown.
        self.shown: bytes | None = None

    @classmethod
    def for_device(cls, device: Any, messages: Messages | None = None) -> PageWriter | None:
        """Return a writer for a 128x64 SSD1306 or SH1106 from luma; None for other devices."""
        name = type(device).__name__
        size = (getattr(device, "_w", None), getattr(device, "_h", None))
        if name not in _DRIVERS or size != (128, 64) or not callable(getattr(device, "data", None)):
            return None
        return cls(device, name, messages)

    def pages(self, image: Image.Image) -> bytes:
        """``image`` as the controller stores it, turned as luma's device turns it."""
        return page_bytes(self.device.preprocess(image))

    def send(self, new: bytes) -> None:
        """Put a frame of page bytes (``pages``) on the glass; the frame is unknown after an
        error."""
        old, self.shown = self.shown, None
        spans = changed_spans(old, new, 128)
        writes = (_sh1106_writes if self.controller == "sh1106" else _ssd1306_writes)(new, spans)
        if self.messages is None:
            for commands, pixels in writes:
                self.device.command(*commands)
                self.device.data(pixels)
        elif writes:
            payloads = []
            for commands, pixels in writes:
                payloads += [bytes((COMMANDS, *commands)), bytes((PIXELS,)) + pixels]
            self.messages(payloads)
        self.shown = new


def _sh1106_writes(new: bytes, spans: list[tuple[int, int, int]]) -> list[Write]:
    """Page addressing: each changed page from its first changed column."""
    writes: list[Write] = []
    for page, first, last in spans:
        column = first + _SH1106_OFFSET
        commands = (0xB0 | page, column & 0x0F, 0x10 | column >> 4)
        writes.append((commands, new[page * 128 + first : page * 128 + last + 1]))
    return writes


def _ssd1306_writes(new: bytes, spans: list[tuple[int, int, int]]) -> list[Write]:
    """One window around every change, or one per page, whichever is fewer bits."""
    if not spans:
        return []
    top, bottom = spans[0][0], spans[-1][0]
    left, right = min(s[1] for s in spans), max(s[2] for s in spans)
    window = _i2c_cost(7) + _i2c_cost(1 + (bottom - top + 1) * (right - left + 1))
    per_page = sum(_i2c_cost(7) + _i2c_cost(2 + last - first) for _, first, last in spans)
    if window <= per_page:
        pixels = b"".join(new[p * 128 + left : p * 128 + right + 1] for p in range(top, bottom + 1))
        return [((0x21, left, right, 0x22, top, bottom), pixels)]
    return [
        ((0x21, first, last, 0x22, page, page), new[page * 128 + first : page * 128 + last + 1])
        for page, first, last in spans
    ]


@dataclass(frozen=True)
class ReadyFrame:
    """A frame with what sending it needs worked out: on an SSD1306 or SH1106 its page bytes,
    and bytes that tell it from another frame (those page bytes, else its pixels)."""

    image: Image.Image
    data: bytes
    pages: bytes | None


#: How many ready frames an OLED keeps (die faces, roll frames, the last texts).
READY_KEPT = 64


def _rdwr(serial: Any) -> Messages | None:
    """How to send several writes in one ``I2C_RDWR`` call through luma's I2C interface, when
    smbus2 backs it (as ``Oled.open`` makes it); None otherwise."""
    bus: Any = getattr(serial, "_bus", None)
    message = getattr(serial, "_i2c_msg_write", None)
    address = getattr(serial, "_addr", None)
    if message is None or address is None or not callable(getattr(bus, "i2c_rdwr", None)):
        return None

    def send(payloads: Sequence[bytes]) -> None:
        bus.i2c_rdwr(*[message(address, payload) for payload in payloads])

    return send


def _is_luma_error(exc: BaseException) -> bool:
    return type(exc).__module__.split(".")[0] == "luma"


class Oled:
    """The OLED on a luma device: only frames that differ from the last one are sent.

    A roll animation (``roll``) runs on a scheduler; frames asked for meanwhile wait and appear
    when it ends. Bus failures raise OSError (luma's own errors are translated); a failure
    inside the animation is raised by the next call.
    """

    def __init__(
        self, device: Any, *, scheduler: Scheduler | None = None, messages: Messages | None = None
    ) -> None:
        self.device = device
        self.width: int = device.width
        self.height: int = device.height
        #: How many frames actually went to the device.
        self.frames_sent = 0
        self._steps = Steps(scheduler)
        self._lock = self._steps.lock
        self._clock: Callable[[], float] = getattr(scheduler, "now", time.monotonic)
        self._pager = PageWriter.for_device(device, messages)
        self._sent: bytes | None = None
        self._image = Image.new("1", (self.width, self.height))
        self._steady: ReadyFrame | None = None
        #: Frames drawn and made ready before, by what they show (a die face, a text...).
        self._ready: dict[Hashable, ReadyFrame] = {}

    @classmethod
    def open(
        cls,
        driver: str = "ssd1306",
        port: int = 1,
        address: int = 0x3C,
        rotate: int = 0,
        *,
        scheduler: Scheduler | None = None,
    ) -> Oled:
        """Open an SSD1306 or SH1106 on I2C. Raises OSError when nothing answers; ValueError
        for an unknown driver."""
        if driver not in _DRIVERS:
            raise ValueError(f"unknown OLED driver {driver!r} (known: {', '.join(_DRIVERS)})")
        import luma.oled.device  # imported here: only a real OLED needs luma
        from luma.core.interface.serial import i2c

        serial = None
        try:
            serial = i2c(port=port, address=address)
            device = getattr(luma.oled.device, driver)(serial, width=128, height=64, rotate=rotate)
        except Exception as exc:
            if serial is not None:
                serial.cleanup()  # the bus was opened but the display did not answer
            if _is_luma_error(exc):
                raise OSError(errno.ENODEV, f"OLED at 0x{address:02X}: {exc}") from exc
            raise
        return cls(device, scheduler=scheduler, messages=_rdwr(serial))

    @classmethod
    def on_wire(cls, wire: Any, driver: str = "ssd1306", rotate: int = 0) -> Oled:
        """Return an OLED on luma's real driver over a modelled interface (an ``OledWire``),
        which takes a frame's writes in one call as the kernel does on a Pi."""
        import luma.oled.device

        device = getattr(luma.oled.device, driver)(wire, width=128, height=64, rotate=rotate)
        return cls(device, messages=wire.write_messages)

    @classmethod
    def dummy(
        cls, width: int = 128, height: int = 64, *, scheduler: Scheduler | None = None
    ) -> Oled:
        """Return an OLED drawn on luma's dummy device (frames kept in memory)."""
        from luma.core.device import dummy

        return cls(dummy(width=width, height=height, mode="1"), scheduler=scheduler)

    # The PixelDisplay interface.

    def show_die(self, face: int) -> None:
        """Draw die ``face`` (1..6) as pips. Raises ValueError for another number."""
        size = (self.width, self.height)
        self._show(self._known(("die", face), lambda: die_image(face, size)))

    def show_text(self, lines: Sequence[str]) -> None:
        """Draw a few short lines of text (suits, accents allowed)."""
        shown, size = tuple(lines), (self.width, self.height)
        self._show(self._known(("text", shown), lambda: text_image(shown, size)))

    def show_image(self, image: Image.Image) -> None:
        """Show a ready-made frame of the display's size (converted to 1 bit)."""
        if image.size != (self.width, self.height):
            raise ValueError(f"frame is {image.size}, the OLED is {(self.width, self.height)}")
        self._show(self._ready_frame(image.convert("1")))

    def roll(self, duration_s: float = 0.6, frame_s: float = 0.075) -> None:
        """Animate a rolling die for ``duration_s``; then show the latest frame asked for.

        A frame whose time has passed when its turn comes (a slow bus) is skipped, so the
        roll keeps its length.
        """
        size = (self.width, self.height)
        count = max(1, round(duration_s / frame_s))
        began = self._clock()
        steps: list[Step] = [
            (functools.partial(self._send_roll_frame, step, size, began + (step + 1) * frame_s),
             frame_s)
            for step in range(count)
        ]  # fmt: skip
        steps.append((self._send_steady, 0.0))
        with self._lock:
            self._raise_failure()
            self._steps.start(steps)

    def close(self) -> None:
        """Blank the display and release it."""
        with self._lock:
            self._steps.cancel()
            self._steady = None
            try:
                self._send(self._ready_frame(Image.new("1", (self.width, self.height))))
            finally:
                self.device.cleanup()

    # What was shown.

    @property
    def rolling(self) -> bool:
        """Whether a roll animation is running."""
        return self._steps.running

    @property
    def image(self) -> Image.Image:
        """A copy of the frame last sent to the display."""
        with self._lock:
            return self._image.copy()

    def frame_png(self, path: str | Path) -> None:
        """Save the frame last sent as a PNG."""
        self.image.save(path, format="PNG")

    # Inside.

    def _send_roll_frame(self, step: int, size: tuple[int, int], until: float) -> None:
        if step == 0 or self._clock() < until:
            cycle = step % len(ROLL_FACES)
            self._send(self._known(("roll", cycle), lambda: roll_image(cycle, size)))

    def _send_steady(self) -> None:
        if self._steady is not None:
            self._send(self._steady)

    def _raise_failure(self) -> None:
        try:
            self._steps.raise_failure()
        except BaseException:
            self._sent = None
            raise

    def _show(self, frame: ReadyFrame) -> None:
        """Make ``frame`` the steady picture; send it unless a roll is playing."""
        with self._lock:
            self._raise_failure()
            self._steady = frame
            if not self._steps.running:
                self._send(frame)

    def _ready_frame(self, image: Image.Image) -> ReadyFrame:
        """``image`` (1 bit, the display's size, never drawn on afterwards) made ready."""
        if self._pager is not None:
            pages = self._pager.pages(image)
            return ReadyFrame(image, pages, pages)
        return ReadyFrame(image, image.tobytes(), None)

    def _known(self, key: Hashable, draw: Callable[[], Image.Image]) -> ReadyFrame:
        """The ready frame of ``key``, drawn by ``draw`` the first time it is asked for."""
        frame = self._ready.get(key)
        if frame is None:
            frame = self._ready_frame(draw())
            if len(self._ready) >= READY_KEPT:
                self._ready.clear()
            self._ready[key] = frame
        return frame

    def _send(self, frame: ReadyFrame) -> None:
        if frame.data == self._sent:
            return
        self._sent = None
        try:
            if self._pager is not None and frame.pages is not None:
                self._pager.send(frame.pages)
            else:
                self.device.display(frame.image)
        except Exception as exc:
            if _is_luma_error(exc):
                raise OSError(errno.EIO, f"OLED: {exc}") from exc
            raise
        self._sent = frame.data
        self._image = frame.image
        self.frames_sent += 1
