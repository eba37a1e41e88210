"""Stand-in for MicroPython's neopixel module: strips that keep what was last written."""

from __future__ import annotations

from typing import Any, ClassVar

RGB = tuple[int, int, int]


class NeoPixel:
    """A WS2812 strip on a pin; every instance is listed in ``NeoPixel.instances``."""

    instances: ClassVar[list[NeoPixel]] = []

    def __init__(self, pin: Any, n: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin = pin
        self.n = n
        self.buf: list[RGB] = [(0, 0, 0)] * n
        self.shown: list[RGB] = list(self.buf)
        self.writes = 0
        NeoPixel.instances.append(self)

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, colour: RGB) -> None:
        self.buf[index] = colour

    def __getitem__(self, index: int) -> RGB:
        return self.buf[index]

    def fill(self, colour: RGB) -> None:
        self.buf = [colour] * self.n

    def write(self) -> None:
        self.shown = list(self.buf)
        self.writes += 1
