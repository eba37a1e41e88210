"""Press to glass: from an input to what the players see, with every bus modelled at its speed.

The real daemon loop, table, journal and panel run on real threads against the display and
strip fakes, whose buses (``companion.devices.bus``) hold each transfer for as long as the
wire would, by sleeping on the wall clock. A figure is therefore the real time of the real
code plus the modelled time of the wires. Each press waits until everything is on the glass
before the next one, except in the "press during a transfer" run, which presses again while
a display is being written.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.benchmarks import Figure, percentile
from companion.devices.base import RGB, ButtonPressed, CardScanned, DieRolled, EncoderTurned, Event
from companion.devices.bus import Bus, WallClock, uart_bits, ws2812_s
from companion.devices.buzzer import MemoryBuzzer
from companion.devices.hd44780 import Pcf8574Bus, rplcd_on
from companion.devices.lcd import CharacterLcd
from companion.devices.oled import Oled
from companion.devices.oled_ram import OledWire
from companion.devices.pico_protocol import Codec, runs_of
from companion.devices.strip import MemoryStrip

NAME = "glass"

#: The wiring set-ups measured: name, LCD bus speed, OLED bus speed, OLED on its own bus.
SETUPS: tuple[tuple[str, int, int, bool], ...] = (
    ("100 kHz", 100_000, 100_000, False),
    ("400 kHz", 400_000, 400_000, False),
    ("LCD 100k + OLED own bus 400k", 100_000, 400_000, True),
)
#: How far a caller runs ahead of the modelled wire before it really sleeps.
SLACK_S = 0.002
PICO_BAUD = 115_200
PLAYING = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                            "J", "Q", "K")]  # fmt: skip
JOCKEY = [f"jockey:{n}" for n in range(1, 55)]


class PicoWireStrip(MemoryStrip):
    """The strip on the Pico as the wire sees it: each frame is a FRAME line on the serial
    link at its baud rate, then the WS2812 frame and latch; the Pico animates moves itself."""

    def __init__(self, count: int, wire: Bus, on_lit: Callable[[], None]) -> None:
        super().__init__(count, 0.25)
        self.wire = wire
        self.on_lit = on_lit
        self._codec = Codec()

    def animate_move(self, frame: Any, path: Any, colour: RGB) -> None:
        """The Pico walks the light; the Pi only sends the frame (and the MOVE line)."""
        self.show(frame)

    def _write(self, leds: list[RGB]) -> None:
        line = self._codec.encode(1, "FRAME", colours=runs_of(leds))
        self.wire.transfer(uart_bits(len(line)), ws2812_s(self.count))
        super()._write(leds)
        self.on_lit()


class Quiet:
    """A notifier that tells nobody (the loop needs one)."""

    ping_every: float | None = None

    def ready(self, status: str = "ready") -> None:
        """Nothing to tell."""

    def alive(self) -> None:
        """Nothing to tell."""

    def stopping(self) -> None:
        """Nothing to tell."""


class Marks:
    """When things reached the glass, per output (wall-clock seconds, modelled wire included)."""

    def __init__(self) -> None:
        self.lcd: list[float] = []
        self.oled: list[float] = []
        self.leds: list[float] = []
        self.tones: list[float] = []
        self.started = threading.Event()

    def sizes(self) -> tuple[int, int, int, int]:
        """Where each list ends now."""
        return len(self.lcd), len(self.oled), len(self.leds), len(self.tones)


class ProbePort:
    """An LCD port that notes when each write has gone over the bus."""

    def __init__(self, inner: Any, wire: Bus, marks: Marks) -> None:
        self.inner, self.wire, self.marks = inner, wire, marks

    def define_char(self, slot: int, bitmap: Any) -> None:
        self.inner.define_char(slot, bitmap)

    def clear(self) -> None:
        self.inner.clear()

    def write(self, row: int, col: int, codes: bytes) -> None:
        self.marks.started.set()
        self.inner.write(row, col, codes)
        self.marks.lcd.append(self.wire.done_at())

    def close(self) -> None:
        self.inner.close()


class ProbeBuzzer(MemoryBuzzer):
    """A buzzer that notes when each tone starts."""

    def __init__(self, marks: Marks) -> None:
        super().__init__()
        self.marks = marks

    def play(self, tone: Any) -> None:
        self.marks.tones.append(time.perf_counter())
        super().play(tone)


@dataclass
class Rig:
    """One companion wired on modelled buses, and what it marked."""

    daemon: Any
    panel: Any
    marks: Marks
    buses: list[Bus]
    oled: Oled
    pcf: Pcf8574Bus
    wire: OledWire
    strip: PicoWireStrip
    handled: threading.Event
    thread: threading.Thread
    folder: tempfile.TemporaryDirectory[str]

    def quiet(self) -> None:
        """Wait until every output has finished what it was given."""
        while True:
            now = time.perf_counter()
            ahead = max(bus.busy_until for bus in self.buses) - now
            idle = getattr(self.panel, "idle", None)
            if ahead <= 0 and not self.oled.rolling and (idle is None or idle()):
                return
            time.sleep(max(ahead, 0.002))

    def close(self) -> None:
        self.daemon.stop()
        self.thread.join(10)
        self.folder.cleanup()


def build(lcd_hz: int, oled_hz: int, own_bus: bool) -> Rig:
    """Open the journal, the table and the panel on modelled buses; start the loop."""
    import luma.oled.device

    from companion.daemon.loop import Daemon
    from companion.daemon.outputs import Panel
    from companion.daemon.table import TableController
    from companion.session.session import Session

    clock = WallClock()
    marks = Marks()
    i2c1 = Bus("i2c-1", lcd_hz, clock, SLACK_S)
    oled_bus = Bus("i2c-3", oled_hz, clock, SLACK_S) if own_bus else i2c1
    serial = Bus("pico", PICO_BAUD, clock, SLACK_S)
    pcf = Pcf8574Bus(0x27, 20, 4, wire=i2c1)
    with rplcd_on(pcf):
        lcd = CharacterLcd.open()
    lcd.port = ProbePort(lcd.port, i2c1, marks)
    wire = OledWire(oled_bus, "ssd1306")
    oled = Oled(luma.oled.device.ssd1306(wire, width=128, height=64))
    send = wire.data

    def data(block: Any) -> None:
        marks.started.set()
        send(block)
        marks.oled.append(oled_bus.done_at())

    wire.data = data  # type: ignore[method-assign,assignment]
    strip = PicoWireStrip(60, serial, lambda: marks.leds.append(serial.done_at()))
    buses = {"lcd": i2c1.name, "oled": oled_bus.name, "strip": serial.name}
    panel = Panel(lcd=lcd, oled=oled, strip=strip, buzzer=ProbeBuzzer(marks), buses=buses)
    folder = tempfile.TemporaryDirectory(prefix="cmp-glass-")
    session = Session.open(Path(folder.name) / "journal.sqlite3")
    table = TableController(session, player_names=("Anna", "Ben", "Chloé"))
    daemon = Daemon(table, panel, [], Quiet())
    handled = threading.Event()
    daemon.after_event = handled.set
    thread = threading.Thread(target=daemon.run, daemon=True)
    rig = Rig(daemon, panel, marks, [i2c1, oled_bus, serial], oled, pcf, wire, strip,
              handled, thread, folder)  # fmt: skip
    thread.start()
    daemon.running.wait(10)
    rig.quiet()
    return rig


#: The menu presses that start each game (three players, options as they are).
OPENINGS = {
    "jumpy_jack": ("horse1", "push", "push", "horse1", "horse2", "horse3", "horse2", "horse3",
                   "horse4", "horse3", "horse4", "horse5"),
    "course_hippique": ("horse2", "push", "push"),
    "jockey": ("horse3", "push", "push"),
}  # fmt: skip


def script(
    game: str, rng: random.Random, legal: Callable[[], list[int]] = list
) -> Iterator[tuple[str, Event]]:
    """The inputs of one table: the opening, then presses, rolls, turns and scans at random
    (in Jumpy Jack mostly a roll, then a horse the roll may move)."""
    for button in OPENINGS[game]:
        yield "menu", ButtonPressed(button)
    while True:
        draw = rng.random()
        if game == "jumpy_jack" and draw < 0.7:
            yield "die", ButtonPressed("die")
            yield "roll", DieRolled(rng.randint(1, 6))
            horses = legal() or [1, 2, 3, 4, 5]
            yield "horse", ButtonPressed(f"horse{rng.choice(horses)}")
        elif game != "jumpy_jack" and draw < 0.35:
            deck = PLAYING if game == "course_hippique" else JOCKEY
            yield "card", CardScanned(f"{rng.getrandbits(32):08X}", rng.choice(deck), "reader")
        elif draw < 0.8:
            yield "horse", ButtonPressed(f"horse{rng.randint(1, 5)}")
        elif draw < 0.9:
            yield "push", ButtonPressed("push")
        else:
            yield "turn", EncoderTurned(rng.choice((-1, 1)))


@dataclass
class Samples:
    """Latencies in seconds, by what was measured."""

    by: dict[str, list[float]] = field(default_factory=dict)

    def add(self, label: str, value: float) -> None:
        self.by.setdefault(label, []).append(value)


def legal_buttons(rig: Rig) -> list[int]:
    """The horse buttons that may move now (read on the loop's thread)."""

    def read() -> list[int]:
        board = rig.daemon.table.session.view().board
        names = [h["name"] for h in board.get("horses", [])]
        return [names.index(n) + 1 for n in board.get("legal_horses", []) if n in names]

    try:
        return list(rig.daemon.call(read).result(5))  # type: ignore[call-overload]
    except Exception:
        return []


def press(rig: Rig, event: Event) -> tuple[float, tuple[int, int, int, int], float]:
    """Post one input and wait until it is on the glass; return when, the marks before, CPU."""
    before = rig.marks.sizes()
    cpu = time.process_time()
    rig.handled.clear()
    began = time.perf_counter()
    rig.daemon.post(event)
    rig.handled.wait(5)
    cpu_used = time.process_time() - cpu
    rig.quiet()
    return began, before, cpu_used


def measure_game(rig: Rig, game: str, presses: int, samples: Samples, seed: int) -> None:
    """Play ``game`` until ``presses`` horse presses or card scans; note press-to-glass times."""
    rng = random.Random(seed)
    count = 0
    for kind, event in script(game, rng, lambda: legal_buttons(rig)):
        if count >= presses:
            return
        if kind == "roll":
            began, before, cpu = press(rig, event)
            continue
        frames = rig.oled.frames_sent
        began, before, cpu = press(rig, event)
        if kind == "menu":
            continue
        count += kind in ("horse", "card")
        samples.add("cpu", cpu)
        marks = rig.marks
        lcd, oled = marks.lcd[before[0] :], marks.oled[before[1] :]
        leds, tones = marks.leds[before[2] :], marks.tones[before[3] :]
        if kind == "die":
            if oled:  # the roll's frames, then the face: frames shown per second of the roll
                length = oled[-1] - began
                samples.add("roll fps", (rig.oled.frames_sent - frames - 1) / length)
                samples.add("roll length", length)
            continue
        if tones:
            samples.add("applied", tones[0] - began)
        if kind == "horse":
            if leds:
                samples.add("horse leds", leds[0] - began)
            if lcd:
                samples.add("horse lcd row", lcd[0] - began)
                samples.add("horse lcd", lcd[-1] - began)
            if oled:
                samples.add("horse oled", oled[-1] - began)
            ends = [m[-1] for m in (lcd, oled, leds) if m]
            if ends:
                samples.add("horse all", max(ends) - began)
        if kind == "card" and lcd:
            samples.add("card lcd", lcd[-1] - began)


def measure_overlap(rig: Rig, presses: int, samples: Samples, seed: int) -> None:
    """Press again while a display is being written; time until the second press is handled
    (journaled, its tone started)."""
    rng = random.Random(seed)
    tries = 0
    for kind, event in script("jumpy_jack", rng, lambda: legal_buttons(rig)):
        if kind == "menu" or tries >= 4 * presses:
            press(rig, event)
            if kind != "menu":
                return
            continue
        tries += 1
        rig.marks.started.clear()
        handled = rig.daemon.handled
        rig.daemon.post(event)
        if rig.marks.started.wait(0.3) and rig.daemon.handled <= handled + 1:
            began = time.perf_counter()
            rig.daemon.post(ButtonPressed("undo"))  # a short touch of undo changes nothing
            while rig.daemon.handled < handled + 2 and time.perf_counter() < began + 5:
                time.sleep(0.0002)
            samples.add("overlap", time.perf_counter() - began)
            if len(samples.by["overlap"]) >= presses:
                tries = 4 * presses
        rig.quiet()


def _ms(values: list[float], fraction: float) -> float:
    return percentile(values, fraction) * 1000 if values else float("nan")


LABELS = {
    "horse leds": "horse press -> LEDs lit",
    "horse lcd row": "horse press -> first LCD row",
    "horse lcd": "horse press -> LCD whole",
    "horse oled": "horse press -> OLED",
    "horse all": "horse press -> everything",
    "card lcd": "card scan -> LCD",
    "applied": "press -> applied (tone)",
    "overlap": "press during a transfer -> applied",
    "cpu": "CPU per press",
}


def run(quick: bool) -> dict[str, Figure]:
    """Measure each wiring set-up: three games of scripted inputs, then overlapping presses."""
    presses = 12 if quick else 40
    figures: dict[str, Figure] = {}
    for name, lcd_hz, oled_hz, own in SETUPS:
        samples = Samples()
        for number, game in enumerate(OPENINGS):
            rig = build(lcd_hz, oled_hz, own)
            try:
                measure_game(rig, game, presses, samples, seed=number)
            finally:
                rig.close()
        rig = build(lcd_hz, oled_hz, own)
        try:
            measure_overlap(rig, presses // 3 or 1, samples, seed=9)
        finally:
            rig.close()
        for key, label in LABELS.items():
            values = samples.by.get(key, [])
            figures[f"{name}: {label} (median)"] = Figure(_ms(values, 0.5), "ms")
            figures[f"{name}: {label} (p99)"] = Figure(_ms(values, 0.99), "ms")
        fps = samples.by.get("roll fps", [])
        figures[f"{name}: roll, OLED frames per second"] = Figure(
            statistics.median(fps) if fps else float("nan"), "fps"
        )
        length = samples.by.get("roll length", [])
        figures[f"{name}: roll, press to last frame"] = Figure(_ms(length, 0.5), "ms")
    return figures
