"""The Pico's devices behind the same interfaces as the other backends: ``PicoStrip`` (an
LedStrip), ``PicoCardReader`` and ``PicoButtons`` (input devices), sharing one PicoLink.

``python -m companion.devices.pico PORT`` shakes hands with a Pico and prints what it runs;
with ``--repl`` it asks the firmware to leave for the MicroPython REPL (to copy new files).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence

from companion.devices.base import OFF, RGB, ButtonPressed, CardScanned, EventSink
from companion.devices.pico_link import PicoLink
from companion.devices.pico_protocol import PicoMessage, runs_of
from companion.devices.pico_types import (
    Command,
    LinkStats,
    PicoError,
    PicoInfo,
    PicoRefused,
    PicoUnavailable,
    Restore,
)

__all__ = [
    "LinkStats",
    "PicoButtons",
    "PicoCardReader",
    "PicoError",
    "PicoInfo",
    "PicoLink",
    "PicoRefused",
    "PicoStrip",
    "PicoUnavailable",
]

log = logging.getLogger(__name__)


class PicoStrip:
    """The LED strip on the Pico (an LedStrip): frames, brightness, moves animated by the Pico.

    ``show`` returns at once: the frame is sent by the link's thread, and sent again after the
    Pico comes back. ``step_ms`` is the time the moving light spends on each LED.
    """

    def __init__(
        self, link: PicoLink, count: int, brightness: float = 0.25, step_ms: int = 100
    ) -> None:
        if not 1 <= count <= link.table.max_leds:
            raise ValueError(f"a Pico strip has 1..{link.table.max_leds} LEDs, not {count}")
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness is 0..1, not {brightness}")
        if not 10 <= step_ms <= 5000:
            raise ValueError(f"step_ms is 10..5000, not {step_ms}")
        self.count = count
        self.step_ms = step_ms
        self._link = link
        self._level = round(brightness * 255)
        self._frame: tuple[RGB, ...] = (OFF,) * count
        self._closed = False
        link.add_restorer(self._restore)
        link.acquire()

    @property
    def frame(self) -> tuple[RGB, ...]:
        """The frame last asked for."""
        return self._frame

    def show(self, frame: Sequence[RGB]) -> None:
        """Light every LED at once. Raises ValueError unless ``frame`` has ``count`` colours."""
        colours = self._checked(frame)
        if colours == self._frame:
            return
        self._frame = colours
        self._link.send(self.frame_commands(colours), "frame")

    def animate_move(self, frame: Sequence[RGB], path: Sequence[int], colour: RGB) -> None:
        """Show ``frame`` and have the Pico walk a ``colour`` light over the LEDs of ``path``.

        Raises ValueError for an LED index off the strip or a path over 256 steps.
        """
        colours = self._checked(frame)
        steps = tuple(path)
        for index in steps:
            if not 0 <= index < self.count:
                raise ValueError(f"LED {index} is not on a {self.count}-LED strip")
        self._frame = colours
        commands = self.frame_commands(colours)
        if steps:
            commands.append(("MOVE", {"step_ms": self.step_ms, "colour": colour, "path": steps}))
        self._link.send(commands, "frame")

    def set_brightness(self, brightness: float) -> None:
        """Change the brightness (0..1). Raises ValueError outside 0..1."""
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness is 0..1, not {brightness}")
        self._level = round(brightness * 255)
        self._link.send([("BRIGHT", {"level": self._level})], "bright")

    def close(self) -> None:
        """Turn every LED off (waiting a moment for the Pico to confirm) and release the link."""
        if self._closed:
            return
        self._closed = True
        self._frame = (OFF,) * self.count
        self._link.remove_restorer(self._restore)
        if self._link.connected:
            try:
                self._link.send([("CLEAR", {})], "frame")[0].wait(1.0)
            except PicoUnavailable:
                log.info("Pico did not confirm the strip went dark")
        self._link.release()

    def frame_commands(self, frame: Sequence[RGB]) -> list[Command]:
        """Return the messages that put ``frame`` on the Pico: one FRAME, or when its line
        would be too long, a FRAME for the start and SETs for the rest."""
        runs = runs_of(frame)
        budget = self._link.table.max_line - 40
        commands: list[Command] = []
        chunk: list[tuple[RGB, int]] = []
        start = used = 0
        for run in runs:
            size = 7 if run[1] == 1 else 8 + len(str(run[1]))
            if chunk and used + size > budget:
                commands.append(self._chunk(start, chunk, first=not commands))
                start += sum(count for _, count in chunk)
                chunk, used = [], 0
            chunk.append(run)
            used += size
        commands.append(self._chunk(start, chunk, first=not commands))
        return commands

    @staticmethod
    def _chunk(start: int, runs: list[tuple[RGB, int]], first: bool) -> Command:
        if first:
            return ("FRAME", {"colours": tuple(runs)})
        return ("SET", {"start": start, "colours": tuple(runs)})

    def _restore(self, info: PicoInfo) -> Restore:
        if info.leds < self.count:
            log.warning("Pico drives %d LEDs, the strip is set to %d", info.leds, self.count)
        return [
            ("bright", [("BRIGHT", {"level": self._level})]),
            ("frame", self.frame_commands(self._frame)),
        ]

    def _checked(self, frame: Sequence[RGB]) -> tuple[RGB, ...]:
        if len(frame) != self.count:
            raise ValueError(f"a frame has {self.count} colours, not {len(frame)}")
        colours = tuple((int(r), int(g), int(b)) for r, g, b in frame)
        for colour in colours:
            if not all(0 <= channel <= 255 for channel in colour):
                raise ValueError(f"colour {colour} has a channel outside 0..255")
        return colours


class _PicoInput:
    """What the Pico's input devices share: a sink, the link, a listener for one message."""

    message = ""

    def __init__(self, link: PicoLink) -> None:
        self._link = link
        self._sink: EventSink | None = None
        link.add_listener(self._on_message)

    def start(self, sink: EventSink) -> None:
        """Deliver events (and the link's DeviceStatus) to ``sink`` from the link's thread."""
        if self._sink is not None:
            return
        self._sink = sink
        self._link.add_sink(sink)
        self._link.acquire()

    def close(self) -> None:
        """Stop delivering events and release the link."""
        sink, self._sink = self._sink, None
        if sink is not None:
            self._link.remove_sink(sink)
            self._link.release()

    def _on_message(self, message: PicoMessage) -> None:
        sink = self._sink
        if sink is not None and message.name == self.message:
            sink(self._event(message))

    def _event(self, message: PicoMessage) -> CardScanned | ButtonPressed:
        raise NotImplementedError


class PicoCardReader(_PicoInput):
    """The MFRC522 on the Pico (an InputDevice): emits CardScanned(uid, card, reader="pico").

    ``lookup`` turns a UID into the enrolled card's name (None if unknown); without it every
    card is None and the daemon looks it up. The Pico itself drops repeats within
    ``repeat_window_s``.
    """

    message = "CARD"

    def __init__(
        self,
        link: PicoLink,
        lookup: Callable[[str], str | None] | None = None,
        repeat_window_s: float = 1.5,
    ) -> None:
        if not 0.0 <= repeat_window_s <= 60.0:
            raise ValueError(f"repeat_window_s is 0..60, not {repeat_window_s}")
        super().__init__(link)
        self._lookup = lookup
        self._window_ms = round(repeat_window_s * 1000)
        link.needs_reader = True
        link.add_restorer(self._restore)

    def _restore(self, info: PicoInfo) -> Restore:
        return [("window", [("WINDOW", {"ms": self._window_ms})])]

    def _event(self, message: PicoMessage) -> CardScanned:
        uid = message.text("uid")
        card = None
        if self._lookup is not None:
            try:
                card = self._lookup(uid)
            except Exception:
                log.exception("card lookup failed for %s", uid)
        return CardScanned(uid, card, "pico")


class PicoButtons(_PicoInput):
    """The buttons wired to the Pico (an InputDevice): emits ButtonPressed(name).

    The names are those of the firmware's config.py ("spare1".."spare4" unless renamed).
    """

    message = "BUTTON"

    def _event(self, message: PicoMessage) -> ButtonPressed:
        return ButtonPressed(message.text("name"))


def main(argv: Sequence[str] | None = None) -> int:
    """Shake hands with the Pico on a port and print its firmware; maybe send it to the REPL."""
    parser = argparse.ArgumentParser(prog="python -m companion.devices.pico")
    parser.add_argument("port", help="the Pico's serial port, e.g. /dev/serial/by-id/usb-...")
    parser.add_argument("--baudrate", type=int, default=115200)
    parser.add_argument("--repl", action="store_true", help="leave the firmware for the REPL")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait (5)")
    args = parser.parse_args(argv)
    link = PicoLink(args.port, args.baudrate, backoff_s=(0.5, 0.5))
    link.acquire()
    try:
        info = link.wait_ready(args.timeout)
        print(
            f"{args.port}: firmware {info.firmware}, protocol {info.protocol}, {info.leds} LEDs, "
            f"card reader {'answering' if info.reader else 'silent'}"
        )
        if args.repl:
            link.request("REPL")
            print("The firmware has left for the REPL until the Pico is reset.")
        return 0
    except PicoError as exc:
        print(exc, file=sys.stderr)
        return 1
    finally:
        link.release()


if __name__ == "__main__":
    raise SystemExit(main())
