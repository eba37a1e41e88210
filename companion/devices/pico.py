"""The Pico's devices behind the same interfaces as the other backends: ``PicoStrip`` (an
LedStrip), ``PicoCardReader`` and ``PicoButtons`` (input devices), sharing one PicoLink.

``python -m companion.devices.pico PORT`` shakes hands with a Pico and prints what it runs;
with ``--repl`` it asks the firmware to leave for the MicroPython REPL (to copy new files).
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
from collections.abc import Callable, Sequence

from companion.devices.base import (
    OFF,
    RGB,
    ButtonAnswer,
    ButtonPressed,
    CardScanned,
    EventSink,
    PressAnswers,
)
from companion.devices.pico_link import PicoLink
from companion.devices.pico_protocol import PicoMessage, Value, runs_of
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


#: Hands offered to the Pico that a press it answered may still name.
HANDS_KEPT = 4
#: The first protocol minor version that takes a hand.
HAND_SINCE = 1


class PicoStrip:
    """The LED strip on the Pico (an LedStrip): frames, brightness, moves animated by the Pico,
    and the hand: what each legal button lights, so the Pico answers its press by itself.

    ``show`` returns at once: the frame is sent by the link's thread, and sent again after the
    Pico comes back. ``step_ms`` is the time the moving light spends on each LED. Make the
    strip before the Pico's buttons: its note of a press the Pico answered comes first.
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
        self._lock = threading.Lock()
        #: The hand to offer, its number on the Pico (0: none armed), the hands a press may name.
        self._hand = PressAnswers()
        self._number = 0
        self._last_number = 0
        self._offered: dict[int, PressAnswers] = {}
        #: The last walk lit (its frame, path, colour) and when it ends (monotonic seconds).
        self._walk: tuple[tuple[RGB, ...], tuple[int, ...], RGB] | None = None
        self._walk_ends = 0.0
        #: The walk the Pico lit by itself for a press, not yet asked for by the table.
        self._answered_walk: tuple[tuple[RGB, ...], tuple[int, ...], RGB] | None = None
        self._answered = False
        link.add_restorer(self._restore)
        link.add_listener(self._on_message)
        link.acquire()

    @property
    def frame(self) -> tuple[RGB, ...]:
        """The frame last asked for."""
        return self._frame

    @property
    def answered(self) -> bool:
        """Whether the Pico lit an answer by itself that no ``offer`` has confirmed since."""
        return self._answered

    def show(self, frame: Sequence[RGB]) -> None:
        """Light every LED at once. Raises ValueError unless ``frame`` has ``count`` colours."""
        colours = self._checked(frame)
        with self._lock:
            if colours == self._frame:
                return
            commands = self._stop_walk(colours) + self.frame_commands(colours)
            self._frame = colours
        self._link.send(commands, "frame")

    def animate_move(self, frame: Sequence[RGB], path: Sequence[int], colour: RGB) -> None:
        """Show ``frame`` and have the Pico walk a ``colour`` light over the LEDs of ``path``.

        Raises ValueError for an LED index off the strip or a path over 256 steps.
        """
        colours = self._checked(frame)
        steps = tuple(path)
        for index in steps:
            if not 0 <= index < self.count:
                raise ValueError(f"LED {index} is not on a {self.count}-LED strip")
        walk = (colours, steps, (int(colour[0]), int(colour[1]), int(colour[2])))
        with self._lock:
            if walk == self._answered_walk:  # the Pico lit this very walk for the press
                self._answered_walk = None
                return
            self._frame = colours
            commands = self.frame_commands(colours)
            if steps:
                commands.append(
                    ("MOVE", {"step_ms": self.step_ms, "colour": colour, "path": steps})
                )
                self._walking(walk)
        self._link.send(commands, "frame")

    def offer(self, frame: Sequence[RGB], hand: PressAnswers) -> None:
        """Offer the Pico ``hand`` (what each legal button lights) over ``frame``, the frame
        the table shows now; when the Pico lit an answer that the table did not take, put
        ``frame`` back (its walk stopped) first. A firmware older than 1.1 is offered nothing.
        """
        colours = self._checked(frame)
        with self._lock:
            correction: list[Command] = []
            if self._answered and colours != self._frame:
                correction = self._stop_walk(colours, always=True) + self.frame_commands(colours)
                self._frame = colours
            self._answered = False
            self._answered_walk = None
            commands = self._hand_commands(hand) if hand != self._hand else []
            self._hand = hand
        if correction:
            self._link.send(correction, "frame")
        if commands:
            self._link.send(commands, "hand")

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
        with self._lock:
            self._number = 0  # a Pico that shook hands again holds no hand
            self._walk = None
            restore: Restore = [
                ("bright", [("BRIGHT", {"level": self._level})]),
                ("frame", self.frame_commands(self._frame)),
            ]
            if self._hand.answers and _takes_hands(info):
                restore.append(("hand", self._hand_commands(self._hand, info)))
        return restore

    def _hand_commands(self, hand: PressAnswers, info: PicoInfo | None = None) -> list[Command]:
        """The lines that arm ``hand`` on the Pico under a new number (or disarm it); none
        for a firmware without hands, or before the handshake (the restore offers it)."""
        info = info or self._link.info
        if info is None or not _takes_hands(info):
            return []
        if not hand.answers:
            if not self._number:
                return []
            self._number = 0
            return [("HAND", {"hand": 0})]
        self._last_number = self._last_number % self._link.table.max_seq + 1
        number = self._last_number
        commands: list[Command] = []
        for answer in hand.answers:
            commands += self._answer_commands(number, answer)
        self._offered[number] = hand
        while len(self._offered) > HANDS_KEPT:
            del self._offered[next(iter(self._offered))]
        self._number = number
        commands.append(("HAND", {"hand": number}))
        return commands

    def _answer_commands(self, number: int, answer: ButtonAnswer) -> list[Command]:
        """``ANSWER`` (and ``WALK``) for one button; none when a line would be too long or the
        answer does not fit this strip (that button then waits for the Pi)."""
        codec = self._link.codec
        colours = tuple(answer.frame)
        if len(colours) != self.count or any(not 0 <= i < self.count for i in answer.path):
            return []
        fields: dict[str, Value] = {
            "hand": number,
            "button": answer.button,
            "colours": runs_of(colours),
        }
        commands: list[Command] = [("ANSWER", fields)]
        if answer.path:
            walk: dict[str, Value] = {
                "hand": number,
                "button": answer.button,
                "step_ms": self.step_ms,
                "colour": answer.colour,
                "path": answer.path,
            }
            commands.append(("WALK", walk))
        try:
            for name, values in commands:
                codec.encode(1, name, **values)
        except ValueError:
            return []
        return commands

    def _on_message(self, message: PicoMessage) -> None:
        """The Pico answered a press by itself: note what it shows now (the link's thread)."""
        if message.name != "ANSWERED":
            return
        number = message.number("hand")
        with self._lock:
            hand = self._offered.get(number)
            answer = hand.of(message.text("name")) if hand is not None else None
            if number == self._number:
                self._number = 0  # spent: the next offer arms a new one
                self._hand = PressAnswers()
            self._answered = True
            if answer is None:
                self._frame = ()  # unknown: the next frame asked for is sent
                return
            self._frame = answer.frame
            if answer.path:
                walk = (answer.frame, answer.path, answer.colour)
                self._answered_walk = walk
                self._walking(walk)

    def _walking(self, walk: tuple[tuple[RGB, ...], tuple[int, ...], RGB]) -> None:
        """Note a walk just lit, and when it ends."""
        self._walk = walk
        self._walk_ends = time.monotonic() + len(walk[1]) * self.step_ms / 1000

    def _stop_walk(self, frame: tuple[RGB, ...], always: bool = False) -> list[Command]:
        """``STOP`` when a walk still runs that ``frame`` takes back (its horse is no longer
        where the walk leads: an undo, a refusal); ``always`` when it runs at all. A frame
        that keeps the horse there (the next roll's) lets the walk go on."""
        walk = self._walk
        if walk is None or time.monotonic() >= self._walk_ends:
            self._walk = None
            return []
        info = self._link.info
        if info is None or not _takes_hands(info):
            return []
        end = walk[1][-1]
        if not always and frame[end] == walk[0][end]:
            return []
        self._walk = None
        return [("STOP", {})]

    def _checked(self, frame: Sequence[RGB]) -> tuple[RGB, ...]:
        if len(frame) != self.count:
            raise ValueError(f"a frame has {self.count} colours, not {len(frame)}")
        colours = tuple((int(r), int(g), int(b)) for r, g, b in frame)
        for colour in colours:
            if not all(0 <= channel <= 255 for channel in colour):
                raise ValueError(f"colour {colour} has a channel outside 0..255")
        return colours


def _takes_hands(info: PicoInfo) -> bool:
    """Whether the Pico's firmware takes a hand (protocol 1.1 or later)."""
    return int(info.protocol.split(".")[1]) >= HAND_SINCE


class _PicoInput:
    """What the Pico's input devices share: a sink, the link, a listener for its messages."""

    messages: tuple[str, ...] = ()

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
        if sink is not None and message.name in self.messages:
            sink(self._event(message))

    def _event(self, message: PicoMessage) -> CardScanned | ButtonPressed:
        raise NotImplementedError


class PicoCardReader(_PicoInput):
    """The MFRC522 on the Pico (an InputDevice): emits CardScanned(uid, card, reader="pico").

    ``lookup`` turns a UID into the enrolled card's name (None if unknown); without it every
    card is None and the daemon looks it up. The Pico itself drops repeats within
    ``repeat_window_s``.
    """

    messages = ("CARD",)

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
    """The buttons wired to the Pico (an InputDevice): emits ButtonPressed(name), for a press
    the Pico answered by itself (ANSWERED) as for any other (BUTTON).

    The names are those of the firmware's config.py ("spare1".."spare4" unless renamed).
    """

    messages = ("BUTTON", "ANSWERED")

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
