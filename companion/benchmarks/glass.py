"""Press to glass: from an input to what the players see, with every bus modelled at its speed.

The real daemon loop, table, journal and panel run on real threads against the display and
strip fakes, whose buses (``companion.devices.bus``) hold each transfer for as long as the
wire would, by sleeping on the wall clock. A figure is therefore the real time of the real
code plus the modelled time of the wires. Each press waits until everything is on the glass
before the next one, except in the "press during a transfer" run, which presses again while
a display is being written.

Each press is also traced: for each output, the CPU time the daemon's threads spent from the
press to the moment that output's transfer was handed to its wire, the waits that are no CPU
(the wires before it, the SD card's flush, wake-ups), and the transfer's own time. With
``COMPANION_BENCH_TRACE_SHARE`` set (``companion bench --cpu`` sets it to the board's share),
the figures are given again as that board would take them, each press from its own trace
(the CPU time divided by the share, the rest as it was), labelled ``trace: ...``. A horse
press on the Pi's pins is lit from the table's hand (what each legal button lights, worked
out before the press), and horse buttons wired to the Pico are modelled on MicroPython
(``_pico_press``). Every accepted input's commit waits for a modelled SD card (``_sd_card``),
where the companion flushes it: at the journal's ``commit`` when the loop held it.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.benchmarks import Figure, percentile
from companion.benchmarks._model import trace_share
from companion.benchmarks._sd_card import SdCard
from companion.daemon.flows.base import HORSE_BUTTONS
from companion.devices.base import RGB, ButtonPressed, EncoderTurned, Event
from companion.devices.bus import (
    USB_FRAME_S,
    USB_FULL_SPEED_HZ,
    Bus,
    WallClock,
    ws2812_s,
)
from companion.devices.buzzer import MemoryBuzzer
from companion.devices.config import Config, default_config
from companion.devices.hd44780 import Pcf8574Bus, rplcd_on
from companion.devices.lcd import CharacterLcd
from companion.devices.oled import Oled
from companion.devices.oled_ram import OledWire
from companion.devices.pico_protocol import Codec, runs_of
from companion.devices.strip import MemoryStrip
from companion.games.registry import KINDS, part
from companion.render.screen import Cue
from companion.session.view import PublicBoard

NAME = "glass"
#: Under `--cpu`, the whole bench runs in the CPU cgroup (its subject runs in-process).
CPU_MODEL = "process"

#: The wiring set-ups measured: name, LCD bus speed, OLED bus speed, OLED on its own bus.
SETUPS: tuple[tuple[str, int, int, bool], ...] = (
    ("100 kHz", 100_000, 100_000, False),
    ("400 kHz", 400_000, 400_000, False),
    ("LCD 100k, OLED on bus 4 at 400k", 100_000, 400_000, True),
)
#: How far a caller runs ahead of the modelled wire before it really sleeps.
SLACK_S = 0.002
#: The same for the Pico's serial line: the companion's Pico link writes a frame's line into
#: the serial port's buffer and goes on while the USB and the WS2812s carry it (3.2 ms), so
#: the strip's writer is held only once the line is this far behind.
SERIAL_SLACK_S = 0.01
#: The longest wait for the writers at a time (a bound, never reached in a healthy run).
WAIT_S = 5.0
#: How often the bench looks whether a roll animation has ended (rolls are not timed by it).
ROLL_POLL_S = 0.02
#: The pause before each input: a player never presses faster, and under ``--cpu`` the
#: board's quota, spent by the bench's own work since the last input (reading the board,
#: waking up), comes back before the press is timed (a quota period is 10-15 ms).
PACE_S = 0.03
#: The prefix of a figure the trace model gives.
TRACED = "trace: "
#: The prefix of the Pico's own figures as an RP2040 takes them (its MicroPython model).
ON_RP2040 = "rp2040: "
#: Presses of a Pico-wired button timed on MicroPython (its model of an RP2040).
PICO_PRESSES = 200


class PicoWireStrip(MemoryStrip):
    """The strip on the Pico as the wires see it: each frame is a FRAME line on the USB link
    (full speed, after the host's next 1 ms frame at worst), then the WS2812 frame and latch;
    the Pico animates moves itself. Writing the line holds its writer no longer than the
    Pico link's write does (``SERIAL_SLACK_S``)."""

    def __init__(self, count: int, wire: Bus, on_lit: Callable[[float], None]) -> None:
        super().__init__(count, 0.25)
        self.wire = wire
        self.on_lit = on_lit
        self._codec = Codec()

    def animate_move(self, frame: Any, path: Any, colour: RGB) -> None:
        """The Pico walks the light; the Pi only sends the frame (and the MOVE line)."""
        self.show(frame)

    def _write(self, leds: list[RGB]) -> None:
        line = self._codec.encode(1, "FRAME", colours=runs_of(leds))
        self.wire.transfer(8 * len(line), USB_FRAME_S + ws2812_s(self.count))
        super()._write(leds)
        self.on_lit(8 * len(line) / self.wire.hz + ws2812_s(self.count))


@dataclass(frozen=True)
class Handed:
    """One transfer handed to a wire: when (wall clock), the product's CPU time by then (all
    the daemon's threads, the bench's models and probes left out), and when each of its
    transactions ended."""

    at: float
    cpu: float
    ends: tuple[float, ...]


class TracingBus(Bus):
    """A modelled wire that notes each transfer handed to it (see ``Handed``)."""

    def trace_with(self, cpu: Callable[[], float], note: Callable[..., Any]) -> None:
        """Read the product's CPU time with ``cpu``; note through ``note`` (a probe)."""
        self.handed: list[Handed] = []
        self._cpu = cpu
        self._note = note

    def _occupy(self, durations: Sequence[float], bits: int) -> list[float]:
        at, cpu = self._note(self._snapshot)
        ends = super()._occupy(durations, bits)
        self.handed.append(Handed(at, cpu, tuple(ends)))
        return ends

    def _snapshot(self) -> tuple[float, float]:
        return time.perf_counter(), self._cpu()


class SilentNotifier:
    """A notifier that tells nobody (the loop needs one)."""

    ping_every: float | None = None

    def ready(self, status: str = "ready") -> None:
        """Nothing to tell."""

    def alive(self) -> None:
        """Nothing to tell."""

    def stopping(self) -> None:
        """Nothing to tell."""


class Meter:
    """CPU time spent, by every thread, in code of the bench's own that runs on the daemon's
    threads: the models of the wires and of the devices behind them (standing in for the
    kernel's I2C and serial drivers and the hardware), or the probes that note the marks."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self._lock = threading.Lock()
        self._inside = threading.local()

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """``function``, its thread CPU time counted (once, however deeply models nest). The
        meter's own bookkeeping falls inside what it counts: it is no more the companion's
        than what it meters is."""
        inside = self._inside

        def metered(*args: Any, **kwargs: Any) -> Any:
            began = time.thread_time()
            if getattr(inside, "active", False):
                return function(*args, **kwargs)
            inside.active = True
            try:
                return function(*args, **kwargs)
            finally:
                inside.active = False
                with self._lock:
                    self.cpu += time.thread_time() - began

        return metered


class Marks:
    """When things reached the glass, per output (wall-clock seconds, modelled wire included)."""

    def __init__(self) -> None:
        self.lcd: list[float] = []
        self.oled: list[float] = []
        self.leds: list[float] = []
        #: Beside each mark, the time its bytes need on the wire alone (bits / bus speed).
        self.lcd_floor: list[float] = []
        self.oled_floor: list[float] = []
        self.leds_floor: list[float] = []
        self.tones: list[float] = []
        #: The loop thread's CPU time after each input it handled.
        self.loop_cpu: list[float] = []
        #: When the loop's table last applied an input.
        self.applied = 0.0
        self.started = threading.Event()

    def sizes(self) -> tuple[int, int, int, int]:
        """Where each list ends now."""
        return len(self.lcd), len(self.oled), len(self.leds), len(self.tones)

    def start(self) -> None:
        """Note that a display transfer has begun (once: the probes cost the writers little)."""
        if not self.started.is_set():
            self.started.set()


class WirePcf8574(Pcf8574Bus):
    """The LCD's backpack as its wire sees it: every write takes its time on the modelled bus,
    but the controller behind it is not run (the bench never reads the LCD back; decoding
    each byte in Python would spend, under ``--cpu``, the board's quota on what the Pi's I2C
    hardware and the display do)."""

    def _stream(self, data: bytes) -> None:
        self.writes += len(data)
        if data:
            self._last = data[-1]


class ProbePort:
    """An LCD port that notes when each run written has gone over the bus: the end of its
    I2C message, as the PCF8574 model notes it (a screen's runs go in one call, so the first
    row is on the glass before the call ends). Its own work is metered by ``probes``, so that
    only the port it wraps counts as the companion's."""

    def __init__(self, inner: Any, pcf: Pcf8574Bus, hz: int, marks: Marks, probes: Meter) -> None:
        self.inner, self.pcf, self.hz, self.marks = inner, pcf, hz, marks
        self._before = probes.wrap(self._forget)
        self._after = probes.wrap(self._noted)

    def define_char(self, slot: int, bitmap: Any) -> None:
        self.inner.define_char(slot, bitmap)

    def clear(self) -> None:
        self.inner.clear()

    def write_runs(self, runs: Any) -> None:
        self._before()
        self.inner.write_runs(runs)
        self._after()

    def _forget(self) -> None:
        self.marks.start()
        self.pcf.messages.clear()

    def _noted(self) -> None:
        for end, bits in self.pcf.messages:
            self.marks.lcd_floor.append(bits / self.hz)
            self.marks.lcd.append(end)

    def close(self) -> None:
        self.inner.close()


class ProbeBuzzer(MemoryBuzzer):
    """A buzzer that notes when each tone starts."""

    def __init__(self, marks: Marks, probes: Meter) -> None:
        super().__init__()
        self.marks = marks
        self._note = probes.wrap(lambda: marks.tones.append(time.perf_counter()))

    def play(self, tone: Any) -> None:
        self._note()
        super().play(tone)


@dataclass
class GlassRig:
    """One companion wired on modelled buses, and what it marked."""

    daemon: Any
    panel: Any
    marks: Marks
    buses: list[Bus]
    oled: Oled
    pcf: Pcf8574Bus
    wire: OledWire
    strip: PicoWireStrip
    model: Meter
    probes: Meter
    handled: threading.Event
    #: Set when the loop's table has applied an input (before its screen is drawn).
    applied: threading.Event
    thread: threading.Thread
    folder: tempfile.TemporaryDirectory[str]
    #: The product's CPU time so far (every thread, the bench's models and probes left out).
    product_cpu: Callable[[], float]
    #: Each SD card flush waited for, in seconds.
    flushes: list[float]
    #: Each OLED frame: when its first byte was handed to the wire, and when it ended.
    oled_frames: list[Handed]

    def handed(self, mark: float, since: float) -> Handed | None:
        """What was handed to a wire after ``since`` and ended at ``mark``: an OLED frame
        from its first transfer, else the transfer (an output's mark is the end of one of
        its transactions)."""
        for handings in (self.oled_frames, *(getattr(bus, "handed", ()) for bus in self.buses)):
            for handed in reversed(handings):
                if handed.at < since:
                    break
                if mark in handed.ends:
                    return handed
        return None

    def quiet(self) -> None:
        """Wait until every output has finished what it was given. The writers are waited for,
        not polled: under ``--cpu`` the bench's own waiting would spend the board's CPU."""
        while True:
            self.panel.wait_idle(WAIT_S)
            ahead = max(bus.busy_until for bus in self.buses) - time.perf_counter()
            if ahead > 0:
                time.sleep(ahead)
            elif self.oled.rolling:
                time.sleep(ROLL_POLL_S)
            elif self.panel.idle():
                return

    def close(self) -> None:
        self.daemon.stop()
        self.thread.join(10)
        self.folder.cleanup()


def wired(lcd_hz: int, oled_hz: int, own_bus: bool) -> Config:
    """The default build with these bus speeds; with ``own_bus``, the OLED on bus 4."""
    base = default_config()
    assert base.lcd is not None and base.oled is not None
    return dataclasses.replace(
        base,
        lcd=dataclasses.replace(base.lcd, i2c_hz=lcd_hz),
        oled=dataclasses.replace(base.oled, i2c_hz=oled_hz, port=4 if own_bus else 1),
    )


def build(config: Config, seed: int = 0) -> GlassRig:
    """Open the journal, the table and the panel on buses modelled at the configured speeds;
    start the loop."""
    from companion.daemon.app import collect_from_now_on
    from companion.daemon.loop import Daemon
    from companion.daemon.outputs import Panel
    from companion.daemon.rig import bus_names
    from companion.daemon.table import TableController
    from companion.render.language import read_figures
    from companion.session.session import Session

    assert config.lcd is not None and config.oled is not None
    names = bus_names(config)
    clock = WallClock()
    marks = Marks()
    i2c1 = TracingBus(names["lcd"], config.lcd.i2c_hz, clock, SLACK_S)
    oled_bus = (
        i2c1
        if names["oled"] == i2c1.name
        else TracingBus(names["oled"], config.oled.i2c_hz, clock, SLACK_S)
    )
    serial = TracingBus(names["strip"], USB_FULL_SPEED_HZ, clock, SERIAL_SLACK_S)
    model, probes = Meter(), Meter()

    def product_cpu() -> float:
        return time.process_time() - model.cpu - probes.cpu

    def note(read: Callable[[], tuple[float, float]]) -> tuple[float, float]:
        return read()

    for traced in {id(b): b for b in (i2c1, oled_bus, serial)}.values():
        traced.trace_with(product_cpu, probes.wrap(note))
    serial.transfer = model.wrap(serial.transfer)  # type: ignore[method-assign]
    lcd_config = config.lcd
    pcf = WirePcf8574(lcd_config.address, lcd_config.cols, lcd_config.rows, i2c1, lcd_config.rom)
    pcf.i2c_rdwr = model.wrap(pcf.i2c_rdwr)  # type: ignore[method-assign]
    pcf.write_byte = model.wrap(pcf.write_byte)  # type: ignore[method-assign]
    with rplcd_on(pcf):
        lcd = CharacterLcd.open(address=lcd_config.address, rom=lcd_config.rom)
    lcd.port = ProbePort(lcd.port, pcf, i2c1.hz, marks, probes)
    wire = OledWire(oled_bus, config.oled.driver)
    wire.command = model.wrap(wire.command)  # type: ignore[method-assign]
    wire.data = model.wrap(wire.data)  # type: ignore[method-assign]
    send = model.wrap(wire.write_messages)
    counted = [0]

    @probes.wrap
    def sent() -> None:
        marks.oled_floor.append((wire.bits - counted[0]) / oled_bus.hz)
        counted[0] = wire.bits
        marks.oled.append(oled_bus.busy_until)

    start = probes.wrap(marks.start)

    oled_frames: list[Handed] = []
    snapshot = probes.wrap(lambda: (time.perf_counter(), product_cpu()))

    def write_messages(payloads: Sequence[bytes]) -> None:
        at, cpu = snapshot()  # the frame's first byte is handed to the wire now
        start()
        send(payloads)
        sent()
        oled_frames.append(Handed(at, cpu, (oled_bus.busy_until,)))

    wire.write_messages = write_messages  # type: ignore[method-assign]
    oled = Oled.on_wire(wire, config.oled.driver, config.oled.rotate)
    counted[0] = wire.bits  # luma's setup of the controller is not a frame

    @probes.wrap
    def lit(floor: float) -> None:
        marks.leds_floor.append(floor)
        marks.leds.append(serial.busy_until)

    strip = PicoWireStrip(60, serial, lit)
    buzzer = ProbeBuzzer(marks, probes)
    panel = Panel(lcd=lcd, oled=oled, strip=strip, buzzer=buzzer, buses=names)
    folder = tempfile.TemporaryDirectory(prefix="cmp-glass-")
    session = Session.open(Path(folder.name) / "journal.sqlite3")
    card = SdCard(seed)
    flushes: list[float] = []
    journal = session.journal
    assert journal is not None
    append, commit = journal.append, journal.commit
    owed = [False]  # an accepted input held, its flush owed at the commit

    def on_sd() -> None:
        flush = card.flush_s()
        flushes.append(flush)
        time.sleep(flush)  # the card's flush, on top of this machine's

    def append_on_sd(*args: Any, **kwargs: Any) -> Any:
        held = journal.holding
        done = append(*args, **kwargs)
        if held:
            owed[0] = True
        else:
            on_sd()
        return done

    def commit_on_sd() -> None:
        commit()
        if owed[0]:
            owed[0] = False
            on_sd()

    journal.append = append_on_sd  # type: ignore[method-assign]
    journal.commit = commit_on_sd  # type: ignore[method-assign]
    table = TableController(session, player_names=("Anna", "Ben", "Chloé"))
    daemon = Daemon(table, panel, [], SilentNotifier())
    daemon.hand = table.hand  # as `companion run` does: a legal press is lit from it
    daemon.after_ready.append(collect_from_now_on)  # as `companion run` does once ready
    # A companion reads its figures aside once it plays (`read_figures_aside`); here they are
    # read before the first press, as players take longer than that to choose a game.
    daemon.after_ready.append(lambda: read_figures(table.ctx.language))
    handled = threading.Event()

    @probes.wrap
    def after_event() -> None:
        marks.loop_cpu.append(time.thread_time())
        handled.set()

    daemon.after_event = after_event
    applied = threading.Event()

    @probes.wrap
    def note_applied() -> None:
        marks.applied = time.perf_counter()
        applied.set()

    handle = table.handle

    def handle_noted(event: Event) -> Sequence[Cue]:
        cues = handle(event)
        note_applied()
        return cues

    table.handle = handle_noted  # type: ignore[method-assign]
    thread = threading.Thread(target=daemon.run, daemon=True)
    rig = GlassRig(daemon, panel, marks, [i2c1, oled_bus, serial], oled, pcf, wire, strip, model,
              probes, handled, applied, thread, folder, product_cpu, flushes,
              oled_frames)  # fmt: skip
    thread.start()
    daemon.running.wait(10)
    rig.quiet()
    return rig


def opening(game: str) -> tuple[Event, ...]:
    """The inputs that start ``game`` (three players, options as they are): its horse button
    in the menu (its place in the registry; past the last button, the knob turned to it and
    a push), two pushes, then the game's own presses (``GLASS_OPENING`` of its benchmark
    module: the presses of each table-log entry, entry by entry)."""
    bench = importlib.import_module(part(game, "bench"))
    entries: tuple[tuple[str, ...], ...] = bench.GLASS_OPENING
    own = tuple(press for entry in entries for press in entry)
    place = KINDS.index(game)
    if place < len(HORSE_BUTTONS):
        pick: tuple[Event, ...] = (ButtonPressed(HORSE_BUTTONS[place]),)
    else:
        pick = (EncoderTurned(place), ButtonPressed("push"))
    return (*pick, *(ButtonPressed(button) for button in ("push", "push", *own)))


def script(
    game: str, rng: random.Random, board: Callable[[], PublicBoard | None] = lambda: None
) -> Iterator[tuple[str, Event]]:
    """The inputs of one table: the opening, then presses, rolls, turns and scans at random.

    The game's benchmark module gives how often an input is the game's own (``GLASS_SHARE``)
    and that input (``glass_inputs``: in Jumpy Jack a roll, then a horse the roll may move,
    read from ``board``; in the card games a card scanned).
    """
    own = importlib.import_module(part(game, "bench"))
    for event in opening(game):
        yield "menu", event
    while True:
        draw = rng.random()
        if draw < own.GLASS_SHARE:
            yield from own.glass_inputs(rng, board)
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
    #: Each press's trace, by output (see ``OutputTrace``).
    steps: dict[str, list[OutputTrace]] = field(default_factory=dict)

    def add(self, label: str, value: float) -> None:
        self.by.setdefault(label, []).append(value)

    def trace(self, label: str, step: OutputTrace | None) -> None:
        """Keep the trace of one output of a press (none when its transfer was not found)."""
        if step is not None:
            self.steps.setdefault(label, []).append(step)


def board_now(rig: GlassRig) -> PublicBoard | None:
    """The board of the game on the table now (read on the loop's thread); None if unread."""

    def read() -> PublicBoard:
        board: PublicBoard = rig.daemon.table.session.view().board
        return board

    try:
        board: PublicBoard = rig.daemon.call(read).result(5)
        return board
    except Exception:
        return None


@dataclass(frozen=True)
class OutputTrace:
    """One output of a press, traced: the product's CPU time from the press until the
    output's transfer was handed to its wire, the time that was no CPU of the product before
    then (the press's own waits: the SD card, wake-ups), and from then to the mark (the
    wire, and the transfers it queued behind)."""

    cpu: float
    waits: float
    wire: float

    def on_board(self, share: float) -> float:
        """The output's time on a board that has ``share`` of this machine's CPU."""
        return self.cpu / share + self.waits + self.wire


def traced(rig: GlassRig, mark: float, began: float, cpu: float) -> OutputTrace | None:
    """The trace of the output that reached the glass at ``mark`` for a press posted at
    ``began`` when the product had spent ``cpu``."""
    handed = rig.handed(mark, began)
    if handed is None:
        return None
    path = max(0.0, handed.cpu - cpu)
    return OutputTrace(path, max(0.0, handed.at - began - path), mark - handed.at)


def press(
    rig: GlassRig, event: Event
) -> tuple[float, tuple[int, int, int, int], float, float, float, float]:
    """Post one input and wait until it is on the glass; return when, the marks before, the
    CPU time the daemon's threads (the loop, the bus writers, animations) spent on it, how
    much of that was the bus models' and the bench's probes', and the product's CPU time
    when it was posted (where its traces start)."""
    time.sleep(PACE_S)
    before = rig.marks.sizes()
    cpu, own = time.process_time(), time.thread_time()
    model, probes = rig.model.cpu, rig.probes.cpu
    rig.handled.clear()
    product = rig.product_cpu()
    began = time.perf_counter()
    rig.daemon.post(event)
    rig.handled.wait(5)
    rig.quiet()
    spent = (time.process_time() - cpu) - (time.thread_time() - own)
    return began, before, spent, rig.model.cpu - model, rig.probes.cpu - probes, product


def measure_game(rig: GlassRig, game: str, presses: int, samples: Samples, seed: int) -> None:
    """Play ``game`` until ``presses`` horse presses or card scans; note press-to-glass times."""
    rng = random.Random(seed)
    count = 0
    for kind, event in script(game, rng, lambda: board_now(rig)):
        if count >= presses:
            return
        if kind == "roll":
            press(rig, event)
            continue
        frames = rig.oled.frames_sent
        began, before, cpu, model, probes, product = press(rig, event)
        if kind == "menu":
            continue
        count += kind in ("horse", "card")
        samples.add("cpu", cpu)
        samples.add("product cpu", cpu - model - probes)
        samples.add("probe cpu", probes)
        loop = rig.marks.loop_cpu
        if len(loop) >= 2:
            samples.add("loop cpu", loop[-1] - loop[-2])
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
        lcd_floor = marks.lcd_floor[before[0] : before[0] + len(lcd)]
        oled_floor = marks.oled_floor[before[1] : before[1] + len(oled)]
        if kind == "horse":
            if leds:
                samples.add("horse leds", leds[0] - began)
                samples.add("horse leds floor", marks.leds_floor[before[2]])
                samples.trace("horse leds", traced(rig, leds[0], began, product))
            if lcd:
                samples.add("horse lcd row", lcd[0] - began)
                samples.add("horse lcd row floor", lcd_floor[0])
                samples.add("horse lcd", lcd[-1] - began)
                samples.add("horse lcd floor", sum(lcd_floor))
                samples.trace("horse lcd row", traced(rig, lcd[0], began, product))
                samples.trace("horse lcd", traced(rig, lcd[-1], began, product))
            if oled:
                samples.add("horse oled", oled[-1] - began)
                samples.add("horse oled floor", sum(oled_floor))
                samples.trace("horse oled", traced(rig, oled[-1], began, product))
            ends = [m[-1] for m in (lcd, oled, leds) if m]
            if ends:
                samples.add("horse all", max(ends) - began)
        if kind == "card" and lcd:
            samples.add("card lcd", lcd[-1] - began)
            samples.add("card lcd floor", sum(lcd_floor))


def measure_overlap(rig: GlassRig, presses: int, samples: Samples, seed: int) -> None:
    """Press again while a display is being written; time until the second press is handled
    (journaled, its tone started)."""
    rng = random.Random(seed)
    tries = 0
    for kind, event in script(KINDS[0], rng, lambda: board_now(rig)):  # the menu's first game
        if kind == "menu" or tries >= 4 * presses:
            press(rig, event)
            if kind != "menu":
                return
            continue
        tries += 1
        time.sleep(PACE_S)
        rig.marks.started.clear()
        handled = rig.daemon.handled
        rig.daemon.post(event)
        if rig.marks.started.wait(0.3) and rig.daemon.handled <= handled + 1:
            rig.applied.clear()
            began = time.perf_counter()
            rig.daemon.post(ButtonPressed("undo"))  # a short touch of undo changes nothing
            rig.applied.wait(5)
            samples.add("overlap", rig.marks.applied - began)
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
    "cpu": "CPU per press, all the daemon's threads",
    "product cpu": "CPU per press, the daemon's threads without the bus models and probes",
    "probe cpu": "CPU per press, the bench's probes on the daemon's threads",
    "loop cpu": "CPU per press, the loop thread",
}


def run(quick: bool) -> dict[str, Figure]:
    """Measure each wiring set-up: scripted inputs for each game, then overlapping presses;
    a Pico-wired button on MicroPython; each figure as the board takes it when a trace share
    is given."""
    presses = 12 if quick else 40
    share = trace_share()
    figures: dict[str, Figure] = {}
    flushes: list[float] = []
    for setup, (name, lcd_hz, oled_hz, own) in enumerate(SETUPS):
        samples = Samples()
        for number, game in enumerate(KINDS):
            # The SD card's flushes differ from rig to rig (the press script does not).
            rig = build(wired(lcd_hz, oled_hz, own), seed=10 * setup + number)
            try:
                measure_game(rig, game, presses, samples, seed=number)
            finally:
                rig.close()
            flushes += rig.flushes
        rig = build(wired(lcd_hz, oled_hz, own), seed=9)
        try:
            measure_overlap(rig, presses // 3 or 1, samples, seed=9)
        finally:
            rig.close()
        for key, label in LABELS.items():
            values = samples.by.get(key, [])
            figures[f"{name}: {label} (median)"] = Figure(_ms(values, 0.5), "ms")
            figures[f"{name}: {label} (p99)"] = Figure(_ms(values, 0.99), "ms")
            floors = samples.by.get(f"{key} floor")
            if floors:
                figures[f"{name}: {label}, wire floor (median)"] = Figure(_ms(floors, 0.5), "ms")
                figures[f"{name}: {label}, wire floor (p99)"] = Figure(_ms(floors, 0.99), "ms")
        fps = samples.by.get("roll fps", [])
        figures[f"{name}: roll, OLED frames per second"] = Figure(
            statistics.median(fps) if fps else float("nan"), "fps"
        )
        length = samples.by.get("roll length", [])
        figures[f"{name}: roll, press to last frame"] = Figure(_ms(length, 0.5), "ms")
        if share is not None:
            figures.update(on_board(name, samples, share))
    figures["journal flush, SD card model (median)"] = Figure(_ms(flushes, 0.5), "ms")
    figures["journal flush, SD card model (p99)"] = Figure(_ms(flushes, 0.99), "ms")
    figures.update(pico_figures(60 if quick else PICO_PRESSES))
    return figures


def on_board(name: str, samples: Samples, share: float) -> dict[str, Figure]:
    """The set-up's press figures as a board with ``share`` of this machine's CPU takes them,
    each press from its own trace; its CPU per press divided by the share."""
    figures: dict[str, Figure] = {}
    for key, steps in samples.steps.items():
        values = [step.on_board(share) for step in steps]
        for fraction, which in ((0.5, "median"), (0.99, "p99")):
            figures[f"{TRACED}{name}: {LABELS[key]} ({which})"] = Figure(
                _ms(values, fraction), "ms"
            )
    for key in ("product cpu", "loop cpu"):
        values = [cpu / share for cpu in samples.by.get(key, [])]
        figures[f"{TRACED}{name}: {LABELS[key]} (median)"] = Figure(_ms(values, 0.5), "ms")
    return figures


def pico_figures(presses: int) -> dict[str, Figure]:
    """A horse button wired to the Pico: press to the strip lit, on MicroPython here (its
    path, and the strip's wire) and as an RP2040 takes it; none without MicroPython."""
    from companion.benchmarks import _pico_press

    if _pico_press.micropython() is None:
        return {}
    try:
        model = _pico_press.model(presses)
    except (RuntimeError, OSError, ValueError):
        return {}
    label = "Pico-wired horse press -> strip lit"
    here = [path / model.factor + model.wire for path in model.path_ms]
    figures = {
        f"{label} (median)": Figure(percentile(here, 0.5), "ms"),
        f"{label} (p99)": Figure(percentile(here, 0.99), "ms"),
        f"{label}, wire floor (median)": Figure(model.wire, "ms"),
        f"{label}, wire floor (p99)": Figure(model.wire, "ms"),
        f"{ON_RP2040}{label} (median)": Figure(percentile(list(model.lit_ms), 0.5), "ms"),
        f"{ON_RP2040}{label} (p99)": Figure(percentile(list(model.lit_ms), 0.99), "ms"),
        f"{ON_RP2040}Pico: a frame and a one-button hand offered -> armed": Figure(
            model.offer_ms, "ms"
        ),
    }
    return figures
