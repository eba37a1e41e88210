"""Keep the companion running when an output device fails: report once, retry with backoff.

``Resilient`` wraps the function that opens a device. An ``OSError`` from the device (an I2C
write nobody answers, an SPI error, a serial port that vanished) is reported once as a
``DeviceStatus`` to the event sink; the device is reopened after 0.5 s, 1 s, 2 s... (at most
``max_delay_s``), on the next call or :meth:`Resilient.tick`; while it is down calls are
dropped, but the latest frame is kept and sent as soon as it is back. Nothing of the failure
reaches the caller. ``ResilientTextDisplay``, ``ResilientPixelDisplay``, ``ResilientLedStrip``
and ``ResilientBuzzer`` put that behind each output interface.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from companion.devices.base import (
    RGB,
    Buzzer,
    DeviceStatus,
    EventSink,
    LedStrip,
    PixelDisplay,
    TextDisplay,
    Tone,
)

log = logging.getLogger("companion.devices")

D = TypeVar("D")


def _close(device: object) -> None:
    """Close a device that has a ``close()`` method."""
    close = getattr(device, "close", None)
    if callable(close):
        close()


class Resilient(Generic[D]):
    """One device that may fail at any time; see the module docstring.

    Errors other than ``errors`` (a wrong frame size, a programming error) still raise. A device
    that failed is released with ``release`` (its ``close()`` by default, errors ignored) before
    it is reopened, so no bus handle leaks however long it stays unplugged.
    """

    def __init__(
        self,
        name: str,
        open_device: Callable[[], D],
        *,
        report: EventSink | None = None,
        clock: Callable[[], float] = time.monotonic,
        first_delay_s: float = 0.5,
        max_delay_s: float = 30.0,
        errors: tuple[type[BaseException], ...] = (OSError,),
        release: Callable[[D], None] = _close,
    ) -> None:
        self.name = name
        self._open_device = open_device
        self._report = report
        self._clock = clock
        self._first_delay = first_delay_s
        self._max_delay = max_delay_s
        self._errors = errors
        self._release = release
        self._device: D | None = None
        self._latest: Callable[[D], None] | None = None
        self._delay = first_delay_s
        self._next_retry = 0.0
        self._reported_down = False
        self._closed = False
        #: Held while the device is used: a writer thread may send while the loop ticks.
        self._busy = threading.RLock()
        #: How many times the device failed, and how many times it was opened.
        self.failures = 0
        self.opens = 0
        self._open()

    @property
    def up(self) -> bool:
        """Whether the device is open and working, as far as anyone knows."""
        return self._device is not None

    @property
    def device(self) -> D | None:
        """The open device, or None while it is down."""
        return self._device

    def call(
        self, action: Callable[[D], None], *, latest: Callable[[D], None] | None = None
    ) -> bool:
        """Run ``action`` on the device; return whether it ran.

        ``latest`` (often ``action`` itself) is what to send again when the device comes back.
        While the device is down, ``action`` is dropped; it is retried first if a retry is due.
        """
        with self._busy:
            return self._call(action, latest)

    def _call(self, action: Callable[[D], None], latest: Callable[[D], None] | None) -> bool:
        if self._closed:
            return False
        if latest is not None:
            self._latest = latest
        if self._device is None:
            if self._clock() < self._next_retry or not self._open():
                return False
            if latest is action:
                return True  # the reopened device has just been sent it
        device = self._device
        assert device is not None
        try:
            action(device)
        except self._errors as exc:
            self._fail(exc)
            return False
        return True

    def tick(self) -> None:
        """Reopen the device if it is down and a retry is due (call this now and then).

        Never waits: while another thread is using the device, there is nothing to reopen.
        """
        if not self._busy.acquire(blocking=False):
            return
        try:
            if not self._closed and self._device is None and self._clock() >= self._next_retry:
                self._open()
        finally:
            self._busy.release()

    def close(self, action: Callable[[D], None]) -> None:
        """Run ``action`` (the device's close) if the device is up, quietly; stop retrying."""
        device, self._device, self._closed = self._device, None, True
        if device is not None:
            try:
                action(device)
            except self._errors as exc:
                log.info("%s failed while closing: %s", self.name, exc)

    def _open(self) -> bool:
        try:
            device = self._open_device()
        except self._errors as exc:
            self._fail(exc)
            return False
        self.opens += 1
        self._device = device
        if self._latest is not None:
            try:
                self._latest(device)
            except self._errors as exc:
                self._fail(exc)
                return False
        self._delay = self._first_delay
        if self._reported_down:
            self._reported_down = False
            log.warning("%s is back", self.name)
            self._say(True, f"{self.name} is back")
        return True

    def _fail(self, exc: BaseException) -> None:
        self.failures += 1
        device, self._device = self._device, None
        if device is not None:
            try:
                self._release(device)
            except Exception as release_error:
                log.debug("releasing %s failed: %s", self.name, release_error)
        self._next_retry = self._clock() + self._delay
        self._delay = min(self._delay * 2, self._max_delay)
        if not self._reported_down:
            self._reported_down = True
            log.warning("%s failed (%s); retrying in the background", self.name, exc)
            self._say(False, f"{self.name} not responding")
        else:
            log.debug("%s still failing: %s", self.name, exc)

    def _say(self, ok: bool, message: str) -> None:
        if self._report is not None:
            self._report(DeviceStatus(self.name, ok, message))


class ResilientTextDisplay:
    """A TextDisplay (the LCD) that survives failures; ``cols``/``rows`` known even when down."""

    def __init__(self, guard: Resilient[TextDisplay], cols: int = 20, rows: int = 4) -> None:
        self.guard = guard
        self.cols = cols
        self.rows = rows

    def show(self, lines: Sequence[str], first: int | None = None) -> None:
        """Show ``lines`` now (``first``: that row before the others), or as soon as the
        display is back."""
        rows = list(lines)

        def send(display: TextDisplay) -> None:
            display.show(rows, first)

        self.guard.call(send, latest=send)

    def tick(self) -> None:
        """Retry a failed display if it is time."""
        self.guard.tick()

    def close(self) -> None:
        """Clear and release the display if it is up."""
        self.guard.close(_close)


class ResilientPixelDisplay:
    """A PixelDisplay (the OLED) that survives failures; a roll is not replayed, the face is."""

    def __init__(self, guard: Resilient[PixelDisplay], width: int = 128, height: int = 64) -> None:
        self.guard = guard
        self.width = width
        self.height = height

    def show_die(self, face: int) -> None:
        """Draw a die face now, or when the display is back."""

        def send(display: PixelDisplay) -> None:
            display.show_die(face)

        self.guard.call(send, latest=send)

    def show_text(self, lines: Sequence[str]) -> None:
        """Draw lines of text now, or when the display is back."""
        rows = list(lines)

        def send(display: PixelDisplay) -> None:
            display.show_text(rows)

        self.guard.call(send, latest=send)

    def roll(self, duration_s: float = 0.6, frame_s: float = 0.075) -> None:
        """Animate a roll if the display is up and can (dropped otherwise)."""

        def send(display: PixelDisplay) -> None:
            roll = getattr(display, "roll", None)
            if callable(roll):
                roll(duration_s, frame_s)

        self.guard.call(send)

    def tick(self) -> None:
        """Retry a failed display if it is time."""
        self.guard.tick()

    def close(self) -> None:
        """Blank and release the display if it is up."""
        self.guard.close(_close)


class ResilientLedStrip:
    """An LedStrip that survives failures; after a failed move, the final frame is re-sent."""

    def __init__(self, guard: Resilient[LedStrip], count: int) -> None:
        self.guard = guard
        self.count = count

    def show(self, frame: Sequence[RGB]) -> None:
        """Light the strip now, or when it is back."""
        colours = list(frame)

        def send(strip: LedStrip) -> None:
            strip.show(colours)

        self.guard.call(send, latest=send)

    def animate_move(self, frame: Sequence[RGB], path: Sequence[int], colour: RGB) -> None:
        """Animate a move if the strip is up; either way ``frame`` is what it comes back to."""
        colours, steps = list(frame), list(path)

        def move(strip: LedStrip) -> None:
            strip.animate_move(colours, steps, colour)

        def settle(strip: LedStrip) -> None:
            strip.show(colours)

        self.guard.call(move, latest=settle)

    def tick(self) -> None:
        """Retry a failed strip if it is time."""
        self.guard.tick()

    def close(self) -> None:
        """Turn the LEDs off and release the strip if it is up."""
        self.guard.close(_close)


class ResilientBuzzer:
    """A Buzzer that survives failures; tones asked for while it is down are not played later."""

    def __init__(self, guard: Resilient[Buzzer]) -> None:
        self.guard = guard

    def play(self, tone: Tone) -> None:
        """Play ``tone`` if the buzzer is up."""

        def send(buzzer: Buzzer) -> None:
            buzzer.play(tone)

        self.guard.call(send)

    def tick(self) -> None:
        """Retry a failed buzzer if it is time."""
        self.guard.tick()

    def close(self) -> None:
        """Silence and release the buzzer if it is up."""
        self.guard.close(_close)
