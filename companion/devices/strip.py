"""The LED strip along the track: brightness, square → LED mapping, moves, and two backends.

``SpiStrip`` drives WS2812 LEDs straight from the Pi's SPI MOSI pin (``spidev``, imported only
when opened): each data bit becomes a short burst of SPI bits whose high time is a WS2812
"0" or "1". ``MemoryStrip`` keeps every frame, for tests and the simulator. The Pico backend
lives with the Pico protocol. Both here share :class:`FrameStrip`: brightness scaling, frames
sent only when they change, and a move animated square by square on a scheduler.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict, Unpack

from companion.devices.base import OFF, RGB
from companion.devices.scheduling import Scheduler, Step, Steps
from companion.games.colours import rgb_of


def check_brightness(brightness: float) -> float:
    """Return ``brightness`` as a float. Raises ValueError outside 0..1."""
    value = float(brightness)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"brightness is 0..1, not {brightness!r}")
    return value


@functools.lru_cache(maxsize=512)
def scale(colour: RGB, brightness: float) -> RGB:
    """Return ``colour`` dimmed to ``brightness`` (0..1), rounded to the nearest step.

    A channel that is lit stays at least 1, so a dim colour keeps its hue instead of going out.
    """
    r, g, b = (0 if c == 0 else max(1, min(255, math.floor(c * brightness + 0.5))) for c in colour)
    return (r, g, b) if brightness > 0 else OFF


def parse_colour(value: object) -> RGB:
    """Read a colour from configuration data: "#rrggbb", a name, or [r, g, b].

    Raises ValueError saying what was wrong.
    """
    if isinstance(value, str):
        text = value.strip()
        rgb = OFF if text.lower() == "off" else rgb_of(text)
        if rgb is not None:
            return rgb
        raise ValueError(f"unknown colour {value!r} (use #rrggbb, [r, g, b] or a name)")
    if isinstance(value, Sequence) and len(value) == 3:
        channels = list(value)
        if all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in channels):
            return (channels[0], channels[1], channels[2])
    raise ValueError(f"a colour is #rrggbb, a name or [r, g, b] with 0..255, not {value!r}")


class Animation(TypedDict, total=False):
    """How a strip animates a move (see :class:`FrameStrip`): keyword arguments of every strip."""

    scheduler: Scheduler | None
    step_s: float


class FrameStrip:
    """What every strip backend shares; subclasses only write physical colours.

    ``show`` during a move animation waits: the animation ends on the latest frame shown.
    Failures of scheduled animation steps raise from the next call.
    """

    def __init__(
        self,
        count: int,
        brightness: float = 1.0,
        *,
        scheduler: Scheduler | None = None,
        step_s: float = 0.1,
    ) -> None:
        if count < 1:
            raise ValueError(f"a strip has at least one LED, not {count}")
        self.count = count
        self.brightness = check_brightness(brightness)
        self.step_s = step_s
        self._steps = Steps(scheduler)
        self._steady: list[RGB] = [OFF] * count
        self._written: list[RGB] | None = None

    @property
    def animating(self) -> bool:
        """Whether a move animation is running."""
        return self._steps.running

    def show(self, frame: Sequence[RGB]) -> None:
        """Light every LED at once. Raises ValueError unless ``frame`` has ``count`` colours."""
        colours = self._checked(frame)
        with self._steps.lock:
            self._raise_failure()
            self._steady = colours
            if not self._steps.running:
                self._write_scaled(colours)

    def animate_move(self, frame: Sequence[RGB], path: Sequence[int], colour: RGB) -> None:
        """Show ``frame`` with a ``colour`` light walking over ``path``, one LED per step_s.

        Raises ValueError for an LED index off the strip.
        """
        colours = self._checked(frame)
        for index in path:
            if not 0 <= index < self.count:
                raise ValueError(f"LED {index} is not on a {self.count}-LED strip")
        steps: list[Step] = []
        for index in path:
            lit = list(colours)
            lit[index] = colour
            steps.append((functools.partial(self._write_scaled, lit), self.step_s))
        steps.append((self._write_steady, 0.0))
        with self._steps.lock:
            self._raise_failure()
            self._steady = colours
            self._steps.start(steps)

    def close(self) -> None:
        """Turn every LED off and release the strip."""
        with self._steps.lock:
            self._steps.cancel()
            try:
                self._write_scaled([OFF] * self.count)
            finally:
                self._release()

    def _checked(self, frame: Sequence[RGB]) -> list[RGB]:
        if len(frame) != self.count:
            raise ValueError(f"a frame has {self.count} colours, not {len(frame)}")
        return [(int(r), int(g), int(b)) for r, g, b in frame]

    def _write_steady(self) -> None:
        self._write_scaled(self._steady)

    def _write_scaled(self, colours: list[RGB]) -> None:
        physical = [scale(c, self.brightness) for c in colours]
        if physical == self._written:
            return
        self._written = None
        self._write(physical)
        self._written = physical

    def _raise_failure(self) -> None:
        try:
            self._steps.raise_failure()
        except BaseException:
            self._written = None
            raise

    def _write(self, leds: list[RGB]) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        """Release the hardware (nothing by default)."""


class MemoryStrip(FrameStrip):
    """A strip that keeps what it shows: ``leds`` now, ``frames`` every write (dimmed)."""

    def __init__(self, count: int, brightness: float = 1.0, **animation: Unpack[Animation]) -> None:
        super().__init__(count, brightness, **animation)
        self.leds: list[RGB] = [OFF] * count
        self.frames: list[list[RGB]] = []
        self.closed = False

    def _write(self, leds: list[RGB]) -> None:
        self.leds = list(leds)
        self.frames.append(list(leds))

    def _release(self) -> None:
        self.closed = True


#: WS2812 bit encodings: SPI bits per data bit → (pattern for 0, pattern for 1), MSB first.
WS2812_PATTERNS: Mapping[int, tuple[int, int]] = {3: (0b100, 0b110), 4: (0b1000, 0b1110)}

#: A WS2812 bit lasts 1.25 µs: the SPI clock is this many bits per second per SPI bit.
WS2812_BIT_RATE = 800_000

#: Low time that latches a frame; newer WS2812B parts need 280 µs, so leave a margin.
RESET_US = 300


def spi_speed_hz(bits_per_bit: int = 3) -> int:
    """The SPI clock that makes ``bits_per_bit`` SPI bits last one WS2812 bit."""
    return WS2812_BIT_RATE * bits_per_bit


def encode_ws2812(frame: Sequence[RGB], bits_per_bit: int = 3) -> bytes:
    """Return the SPI bytes that send ``frame`` to a WS2812 chain.

    Colours go out in the chain's green-red-blue order, most significant bit first; one zero
    byte leads (so the line starts low), and zero bytes after the data hold the line low for
    RESET_US so the LEDs latch. Raises ValueError for an unknown ``bits_per_bit`` or a channel
    outside 0..255.
    """
    if bits_per_bit not in WS2812_PATTERNS:
        raise ValueError(f"bits_per_bit is 3 or 4, not {bits_per_bit}")
    zero, one = WS2812_PATTERNS[bits_per_bit]
    bits = 0
    for r, g, b in frame:
        for channel in (g, r, b):
            if not 0 <= channel <= 255:
                raise ValueError(f"colour channel {channel} is not 0..255")
            for bit in range(7, -1, -1):
                bits = (bits << bits_per_bit) | (one if channel >> bit & 1 else zero)
    length = len(frame) * 3 * bits_per_bit  # bytes: 8 data bits are bits_per_bit bytes
    reset = math.ceil(RESET_US * 1e-6 * spi_speed_hz(bits_per_bit) / 8)
    return b"\x00" + (bits.to_bytes(length, "big") if length else b"") + b"\x00" * reset


class SpiStrip(FrameStrip):
    """WS2812 LEDs on the Pi's SPI0 MOSI (GPIO10), through a 3.3 V → 5 V level shifter.

    ``spi`` is anything with ``writebytes2(bytes)`` and ``close()``; ``SpiStrip.open`` makes a
    ``spidev.SpiDev`` at the right clock. Raises OSError when the SPI device is missing.
    """

    def __init__(
        self,
        count: int,
        spi: Any,
        brightness: float = 0.25,
        *,
        bits_per_bit: int = 3,
        **animation: Unpack[Animation],
    ) -> None:
        if bits_per_bit not in WS2812_PATTERNS:
            raise ValueError(f"bits_per_bit is 3 or 4, not {bits_per_bit}")
        super().__init__(count, brightness, **animation)
        self.spi = spi
        self.bits_per_bit = bits_per_bit

    @classmethod
    def open(
        cls,
        count: int,
        bus: int = 0,
        device: int = 0,
        brightness: float = 0.25,
        *,
        bits_per_bit: int = 3,
        **animation: Unpack[Animation],
    ) -> SpiStrip:
        """Open /dev/spidev<bus>.<device> for a WS2812 chain of ``count`` LEDs."""
        # Imported here: only the SPI strip needs it (no type stubs exist).
        import spidev  # type: ignore[import-not-found, unused-ignore]

        spi = spidev.SpiDev()
        spi.open(bus, device)
        spi.mode = 0
        spi.max_speed_hz = spi_speed_hz(bits_per_bit)
        return cls(count, spi, brightness, bits_per_bit=bits_per_bit, **animation)

    def _write(self, leds: list[RGB]) -> None:
        self.spi.writebytes2(encode_ws2812(leds, self.bits_per_bit))

    def _release(self) -> None:
        self.spi.close()
