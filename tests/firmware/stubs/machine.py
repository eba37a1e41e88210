"""Stand-in for MicroPython's machine module: pins and an SPI bus that tests can drive."""

from __future__ import annotations

from typing import Any, ClassVar


class Pin:
    """A GPIO pin. Input levels live in ``Pin.levels`` (pin number -> 0/1) for tests to set."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    levels: ClassVar[dict[int, int]] = {}

    def __init__(self, id: int, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        self.id = id
        self.mode = mode
        self.pull = pull
        if value is not None:
            Pin.levels[id] = value

    def value(self, level: int | None = None) -> int | None:
        if level is None:
            return Pin.levels.get(self.id, 1 if self.pull == Pin.PULL_UP else 0)
        Pin.levels[self.id] = int(level)
        return None

    __call__ = value


class SPI:
    """An SPI bus; ``SPI.device`` (an object with write(bytes) and read(n)) answers it."""

    device: Any = None

    def __init__(self, id: int, **settings: Any) -> None:
        self.id = id
        self.settings = settings

    def write(self, data: bytes) -> None:
        if SPI.device is not None:
            SPI.device.write(data)

    def read(self, count: int, write: int = 0) -> bytes:
        if SPI.device is not None:
            return bytes(SPI.device.read(count))
        return bytes(count)


def reset() -> None:
    raise SystemExit("machine.reset()")
