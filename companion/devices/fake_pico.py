"""A fake Pico on a pseudo-terminal, running the firmware's own modules: a Pico without one.

Like a virtual printer, it sits on the master side of an ``os.openpty()`` pair; the Pi side
opens the slave (``FakePico.path``). It runs firmware/app.py, protocol.py, strip_anim.py,
cards.py and buttons.py (with config.py) from the source checkout, or from the copy an
installed package carries (setup.py puts them in ``companion/devices/pico_firmware/``),
records the LEDs it shows, can be given card scans and button presses, and can be unplugged
(the pty closes, as a USB unplug) and plugged back. With ``link``, a symlink at that path
follows the current pty, like /dev/serial/by-id/. With ``manual_clock``, time stands still
for the firmware until ``advance`` moves it on, so a test decides exactly when a move steps,
a button settles or a card is lifted.

Run ``python -m companion.devices.fake_pico [--link PATH]``: it prints the path to open, then
reads commands on standard input: ``card UID``, ``press NAME``, ``unplug``, ``plug``,
``frame``, ``quit``.
"""

from __future__ import annotations

import argparse
import copy
import functools
import importlib.util
import json
import os
import select
import sys
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.devices.base import RGB
from companion.devices.pico_protocol import table_text

#: The firmware's folder in a source checkout.
FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
#: The firmware's modules the fake runs: pure Python, no MicroPython module. An installed
#: package carries a copy of them in PACKAGED_FIRMWARE (setup.py reads this list).
FIRMWARE_MODULES = ("app", "buttons", "cards", "config", "protocol", "strip_anim")
PACKAGED_FIRMWARE = Path(__file__).resolve().parent / "pico_firmware"

#: The longest the fake sleeps when the firmware has nothing due (a safety net, not a need).
IDLE_POLL_S = 0.25

#: What a MicroPython Pico prints when its USB serial opens on a soft reset.
BANNER = (
    b"MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040\r\n"
    b'Type "help()" for more information.\r\n>>> '
)


def firmware_folder() -> Path:
    """Where the fake's firmware modules are: the installed package's copy, else the
    source checkout's firmware folder."""
    return PACKAGED_FIRMWARE if PACKAGED_FIRMWARE.is_dir() else FIRMWARE_DIR


@functools.cache
def firmware_module(name: str) -> ModuleType:
    """Load one of the firmware's pure modules (``protocol``, ``app``...) under CPython.

    Raises FileNotFoundError when neither the package nor a source checkout has it.
    """
    path = firmware_folder() / f"{name}.py"
    if not path.is_file():
        raise FileNotFoundError(f"the fake Pico runs the firmware's modules; {path} is missing")
    spec = importlib.util.spec_from_file_location(f"_pico_firmware_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class RecordingStrip:
    """A NeoPixel stand-in, as MicroPython's: GRB bytes in ``buf`` (``ORDER``, ``bpp``), sent
    by ``write``, which records what the LEDs then show, how often and when (``clock``, ms)."""

    ORDER = (1, 0, 2, 3)

    def __init__(
        self, count: int, history: int = 2000, clock: Callable[[], float] | None = None
    ) -> None:
        self.n = count
        self.bpp = 3
        self.buf = bytearray(3 * count)
        self.shown: tuple[RGB, ...] = ((0, 0, 0),) * count
        self.writes = 0
        self.written_at = 0.0
        self.history: deque[tuple[RGB, ...]] = deque(maxlen=history)
        self._clock = clock or time.monotonic

    @property
    def pixels(self) -> list[RGB]:
        """The colours in ``buf``, written or not."""
        order, buf = self.ORDER, self.buf
        return [
            (buf[at + order[0]], buf[at + order[1]], buf[at + order[2]])
            for at in range(0, len(buf), self.bpp)
        ]

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, colour: RGB) -> None:
        at = index * self.bpp
        for channel in range(3):
            self.buf[at + self.ORDER[channel]] = colour[channel]

    def write(self) -> None:
        self.shown = tuple(self.pixels)
        self.writes += 1
        self.written_at = self._clock()
        self.history.append(self.shown)


class FakePico:
    """A Pico speaking the protocol on a pty, with the firmware's own logic.

    ``protocol`` pretends to another protocol version (to test the refusal); ``answer=False``
    makes it behave like a Pico left at the REPL or hung (it echoes what it gets and never
    answers; the attribute can be changed at any time); ``banner`` prints MicroPython's start-up
    text before the firmware's BOOT line; ``renamed`` makes a faulty firmware that sends some
    messages under another name (``{"PONG": "ACK"}`` answers a PING with an ACK);
    ``manual_clock`` stops the firmware's clock until ``advance`` moves it on.
    """

    def __init__(
        self,
        link: str | os.PathLike[str] | None = None,
        *,
        leds: int = 100,
        buttons: Sequence[str] | None = None,
        reader: bool = True,
        protocol: str | None = None,
        firmware: str | None = None,
        answer: bool = True,
        banner: bool = True,
        renamed: Mapping[str, str] | None = None,
        manual_clock: bool = False,
    ) -> None:
        self._app = firmware_module("app")
        self._protocol = firmware_module("protocol")
        self._config = firmware_module("config")
        self.table: dict[str, Any] = json.loads(table_text())
        if protocol is not None:
            self.table = copy.deepcopy(self.table)
            self.table["protocol"] = protocol
        self.link = Path(link) if link is not None else None
        self.leds = leds
        self.buttons = list(buttons or [name for name, _pin in self._config.BUTTONS])
        self.reader = reader
        self.version = firmware or self._app.FIRMWARE_VERSION
        self.answer = answer
        self.banner = banner
        self.renamed = dict(renamed or {})
        self.received: deque[bytes] = deque(maxlen=5000)
        self._manual_ms: int | None = 0 if manual_clock else None
        self.plugs = 0
        self._lock = threading.RLock()
        self._corrupt = 0
        self._card: tuple[str, int] | None = None
        self._card_read = False
        self._presses: dict[str, int] = {}
        self._strip = RecordingStrip(leds)
        self._firmware: Any = None
        self._master = self._slave = -1
        self._slave_path = ""
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        for end in (self._wake_r, self._wake_w):
            os.set_blocking(end, False)

    # -- plugging ------------------------------------------------------------------------

    @property
    def path(self) -> str:
        """The path the Pi side opens: the stable link if there is one, else the pty."""
        return str(self.link) if self.link is not None else self._slave_path

    @property
    def plugged(self) -> bool:
        return self._thread is not None

    def plug(self) -> FakePico:
        """Power up: a new pty, a fresh firmware (dark LEDs), the banner and the BOOT line."""
        if self._thread is not None:
            return self
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self._slave_path = os.ttyname(self._slave)
        if self.link is not None:
            temporary = self.link.with_name(self.link.name + ".new")
            temporary.unlink(missing_ok=True)
            temporary.symlink_to(self._slave_path)
            temporary.replace(self.link)
        self.plugs += 1
        self._stop.clear()
        self._start_firmware()
        self._thread = threading.Thread(target=self._run, name="fake-pico", daemon=True)
        self._thread.start()
        return self

    def unplug(self) -> None:
        """Pull the cable: the pty closes (the Pi side reads an error) and the link vanishes."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stop.set()
        self._wake()
        thread.join(timeout=5)
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()
        for fd in (self._master, self._slave):
            os.close(fd)
        self._master = self._slave = -1

    def reset(self) -> None:
        """Restart the firmware without unplugging (a watchdog or soft reset): dark LEDs, BOOT."""
        self._start_firmware()

    def close(self) -> None:
        """Unplug and free everything."""
        self.unplug()
        with self._lock:
            if self._wake_r >= 0:
                os.close(self._wake_r)
                os.close(self._wake_w)
            self._wake_r = self._wake_w = -1

    def __enter__(self) -> FakePico:
        return self.plug()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the table does -------------------------------------------------------------

    def scan(self, uid: str, hold_s: float = 0.3) -> None:
        """Hold a tag with ``uid`` (hex) on the reader for ``hold_s`` seconds, and at least
        until the firmware has read it once (a real Pico's loop never stalls, this thread in a
        busy process may: a card it never saw would vanish)."""
        with self._lock:
            self._card = (uid.upper(), self._now_ms() + int(hold_s * 1000))
            self._card_read = False
        self._wake()

    def press(self, name: str, hold_s: float = 0.1) -> None:
        """Press the button ``name`` for ``hold_s`` seconds. Raises KeyError for no such button."""
        if name not in self.buttons:
            raise KeyError(f"the fake Pico has no button {name!r} (it has {self.buttons})")
        with self._lock:
            self._presses[name] = self._now_ms() + int(hold_s * 1000)
        self._wake()

    def advance(self, seconds: float) -> None:
        """Move a manual clock on by ``seconds``, running the firmware at every millisecond on
        the way (a Pico's loop runs far more often); return once it has run at the new time.

        Raises RuntimeError for a fake Pico made without ``manual_clock``.
        """
        if self._manual_ms is None:
            raise RuntimeError("advance() needs a fake Pico made with manual_clock=True")
        with self._lock:
            for _ in range(round(seconds * 1000)):
                self._manual_ms += 1
                self._step(b"")

    def emit(self, data: bytes, timeout: float = 5.0) -> None:
        """Send raw bytes to the Pi as if the Pico had written them (noise, stray prints).

        Every byte goes, waiting while the Pi side has not read the earlier ones (as a USB
        serial port holds the writer back). Raises TimeoutError after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [self._master], [], left)[1]:
                raise TimeoutError("the Pi side stopped reading the fake Pico")
            try:
                data = data[os.write(self._master, data) :]
            except BlockingIOError:
                continue

    def say(self, name: str, *values: object) -> bytes:
        """Have the firmware send one message, numbered as its next line; return that line."""
        with self._lock:
            firmware = self._firmware
            firmware.send(name, list(values))
            line: bytes = firmware.codec.encode(firmware.seq, name, list(values))
        return line

    def corrupt(self, lines: int = 1) -> None:
        """Damage one byte of each of the next ``lines`` lines from the Pi before reading them."""
        with self._lock:
            self._corrupt += lines

    # -- what it shows -------------------------------------------------------------------

    @property
    def frame(self) -> tuple[RGB, ...]:
        """The frame the firmware holds (unscaled), as the Pi last sent it."""
        track = self._firmware.track
        return tuple(_rgb(track.colour(index)) for index in range(track.count))

    @property
    def shown(self) -> tuple[RGB, ...]:
        """What the LEDs show now: scaled by brightness, with the moving light if any."""
        return self._strip.shown

    @property
    def history(self) -> list[tuple[RGB, ...]]:
        """Every frame written to the LEDs since power-up (the most recent 2000)."""
        return list(self._strip.history)

    @property
    def brightness(self) -> int:
        return int(self._firmware.track.brightness)

    @property
    def window_ms(self) -> int:
        return int(self._firmware.window.window_ms)

    @property
    def moving(self) -> bool:
        return self._firmware.track.move is not None

    def wait_for(self, condition: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Poll ``condition`` until it holds or ``timeout`` passes; return its last value."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    # -- the firmware's world ------------------------------------------------------------

    def _start_firmware(self) -> None:
        with self._lock:
            self._strip = RecordingStrip(self.leds)
            self._firmware = self._build()
            if self.banner:
                self._write(BANNER)
            if self.answer:
                self._firmware.boot()

    def _build(self) -> Any:
        config = self._config
        track = firmware_module("strip_anim").Track([self._strip], config.BRIGHTNESS)
        codec = self._protocol.Codec(self.table, "pico")
        firmware = self._app.Firmware(
            codec,
            track,
            self._write,
            window=firmware_module("cards").CardWindow(config.CARD_WINDOW_MS),
            read_uid=self._read_uid if self.reader else None,
            debouncer=firmware_module("buttons").Debouncer(self.buttons, config.DEBOUNCE_MS),
            read_buttons=self._read_buttons,
            version=self.version,
            card_poll_ms=config.CARD_POLL_MS,
        )
        if self.renamed:
            send, renamed = firmware.send, self.renamed
            firmware.send = lambda name, values: send(renamed.get(name, name), values)
        return firmware

    def _now_ms(self) -> int:
        """The firmware's clock: milliseconds of the manual clock, or of time.monotonic()."""
        if self._manual_ms is not None:
            return self._manual_ms
        return int(time.monotonic() * 1000)

    def _read_uid(self) -> str | None:
        with self._lock:
            if self._card is not None and (not self._card_read or self._now_ms() < self._card[1]):
                self._card_read = True
                return self._card[0]
            self._card = None
            return None

    def _read_buttons(self) -> list[bool]:
        now = self._now_ms()
        with self._lock:
            return [self._presses.get(name, 0) > now for name in self.buttons]

    def _write(self, data: bytes) -> None:
        try:
            os.write(self._master, data)
        except (BlockingIOError, OSError):
            pass

    def _wake(self) -> None:
        """Make the loop look again at what the firmware needs next (a press, a card, stop)."""
        with self._lock:
            if self._wake_w < 0:
                return
            try:
                os.write(self._wake_w, b"x")
            except BlockingIOError:
                pass  # wake-ups are already waiting to be read

    def _run(self) -> None:
        master = self._master
        timeout = 0.0
        while not self._stop.is_set():
            ready, _, _ = select.select([master, self._wake_r], [], [], timeout)
            if self._wake_r in ready:
                try:
                    os.read(self._wake_r, 512)
                except BlockingIOError:
                    pass
            data = b""
            if master in ready:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, OSError):
                    data = b""
            with self._lock:
                self._step(data)
                timeout = self._until_due()

    def _until_due(self) -> float:
        """Seconds until the firmware's poll has work: the next step of a move, the buttons
        while one is held or settling, the reader while a card lies on it; else IDLE_POLL_S."""
        firmware = self._firmware
        if not self.answer:
            return IDLE_POLL_S
        now = self._now_ms()
        due: list[float] = [now + IDLE_POLL_S * 1000]
        track = firmware.track
        if track.move is not None:
            _path, _rgb, step_ms, started = track.move
            due.append(started + (track.step + 1) * step_ms)
        debouncer = firmware.debouncer
        held = any(until > now for until in self._presses.values())
        if held or debouncer.raw != debouncer.stable:
            due.append(firmware.next_buttons)
        if self._card is not None:
            due.append(firmware.next_card)
        return max(0.0, (min(due) - now) / 1000)

    def _step(self, data: bytes) -> None:
        firmware = self._firmware
        if data:
            self.received.append(data)
            if self._corrupt and b"\n" in data:
                self._corrupt -= 1
                at = data.index(b"\n") // 3
                data = data[:at] + (b"#" if data[at : at + 1] != b"#" else b"%") + data[at + 1 :]
            if self.answer:
                firmware.receive(data, self._now_ms())
            else:
                self._write(data.replace(b"\n", b"\r\n"))
        if self.answer:
            firmware.poll(self._now_ms())
            if firmware.leaving:
                self.answer = False


def _rgb(value: int) -> RGB:
    return (value >> 16 & 255, value >> 8 & 255, value & 255)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a fake Pico until ``quit`` or end of input; print the path to open first."""
    parser = argparse.ArgumentParser(prog="python -m companion.devices.fake_pico")
    parser.add_argument("--link", help="a stable path (symlink) to the current pty")
    parser.add_argument("--leds", type=int, default=100)
    args = parser.parse_args(argv)
    with FakePico(args.link, leds=args.leds) as pico:
        print(pico.path, flush=True)
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            verb, rest = words[0], words[1:]
            if verb == "quit":
                break
            if verb == "card" and rest:
                pico.scan(rest[0])
            elif verb == "press" and rest:
                try:
                    pico.press(rest[0])
                except KeyError as exc:
                    print(exc.args[0], flush=True)
            elif verb == "unplug":
                pico.unplug()
            elif verb == "plug":
                pico.plug()
                print(pico.path, flush=True)
            elif verb == "frame" and pico.plugged:
                print(" ".join(f"{r:02X}{g:02X}{b:02X}" for r, g, b in pico.frame), flush=True)
            else:
                print("commands: card UID, press NAME, unplug, plug, frame, quit", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
