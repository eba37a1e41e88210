"""The Pico link: bytes on the wire for frames and moves, encoding speed, round trips to a
fake Pico on a pty (which runs the firmware's own modules), and the CPU an idle link uses."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.benchmarks import Figure, rate
from companion.devices.base import OFF, RGB
from companion.devices.fake_pico import FakePico
from companion.devices.pico import PicoLink, PicoStrip
from companion.devices.pico_protocol import Codec, runs_of
from companion.devices.pico_types import Command
from companion.games.colours import COLOURS

NAME = "pico"
LEDS = 100
#: Five horses lit on the track, in the colours of the one colour table.
HORSES: list[RGB] = [COLOURS[word] for word in ("red", "blue", "green", "yellow", "purple")]


def rainbow(count: int) -> list[RGB]:
    """A frame where every LED differs from its neighbours: the worst case for run lengths."""
    return [((i * 37) % 256, (i * 91 + 50) % 256, (i * 13 + 200) % 256) for i in range(count)]


def race(count: int, squares: list[int]) -> list[RGB]:
    """A dark track with one lit LED per horse."""
    frame = [OFF] * count
    for horse, square in enumerate(squares):
        frame[square] = HORSES[horse]
    return frame


def wire_bytes(commands: list[Command]) -> int:
    """Bytes of the lines that carry ``commands`` (sequence numbers of four digits)."""
    codec = Codec()
    return sum(len(codec.encode(1000, name, **fields)) for name, fields in commands)


def frame_commands(frame: list[RGB]) -> list[Command]:
    return [("FRAME", {"colours": runs_of(frame)})]


def run(quick: bool) -> dict[str, Figure]:
    """Measure the protocol's sizes, the Pi codec's speed and the link to a fake Pico."""
    worst, typical = rainbow(LEDS), race(LEDS, [12, 30, 31, 55, 70])
    moved = race(LEDS, [18, 30, 31, 55, 70])
    path = list(range(13, 19))
    move: list[Command] = [("MOVE", {"step_ms": 100, "colour": HORSES[0], "path": tuple(path)})]
    streamed = [race(LEDS, [s, 30, 31, 55, 70]) for s in path]
    codec = Codec()
    figures = {
        "100-LED frame, every LED different": Figure(wire_bytes(frame_commands(worst)), "bytes"),
        "100-LED frame, five horses on a dark track": Figure(
            wire_bytes(frame_commands(typical)), "bytes"
        ),
        "one-horse move of 6 squares (FRAME + MOVE)": Figure(
            wire_bytes(frame_commands(moved) + move), "bytes"
        ),
        "same move sent as 6 frames instead": Figure(
            sum(wire_bytes(frame_commands(f)) for f in streamed), "bytes"
        ),
        "frames encoded, 100 LEDs all different": Figure(
            rate(lambda: codec.encode(1, "FRAME", colours=runs_of(worst)), 0.2 if quick else 1.0),
            "frames/s",
        ),
        "frames encoded, five horses": Figure(
            rate(lambda: codec.encode(1, "FRAME", colours=runs_of(typical)), 0.2 if quick else 1.0),
            "frames/s",
        ),
    }
    figures.update(_round_trips(quick, worst))
    figures.update(_idle(1.0 if quick else 4.0))
    return figures


def _round_trips(quick: bool, worst: list[RGB]) -> dict[str, Figure]:
    with tempfile.TemporaryDirectory() as folder:
        try:
            pico = FakePico(Path(folder) / "pico").plug()
        except FileNotFoundError:
            return {}
        link = PicoLink(pico.path)
        strip = PicoStrip(link, LEDS, brightness=1.0)
        link.wait_ready(5)
        pings = [link.ping() for _ in range(20 if quick else 200)]
        count = 20 if quick else 100
        frames = [[*worst[i % LEDS :], *worst[: i % LEDS]] for i in range(count)]
        start = time.perf_counter()
        for frame in frames:
            request = link.send(strip.frame_commands(frame), None)[-1]
            request.wait(5)
        elapsed = time.perf_counter() - start
        strip.close()
        pico.close()
    return {
        "PING round trip to the fake Pico (median)": Figure(statistics.median(pings) * 1000, "ms"),
        "acknowledged 100-LED frames, fake Pico": Figure(count / elapsed, "frames/s"),
    }


#: A process that holds a connected link and nothing else, until its standard input closes.
_HOLD_LINK = """
import sys
from companion.devices.pico_link import PicoLink
link = PicoLink(sys.argv[1])
link.acquire()
link.wait_ready(5)
print("ready", flush=True)
sys.stdin.read()
link.release()
"""


def _idle(idle_s: float) -> dict[str, Figure]:
    """Watch a connected, idle link in one process and the fake Pico in another."""
    with tempfile.TemporaryDirectory(prefix="cmp-pico-") as folder:
        path = str(Path(folder) / "link")
        children: list[subprocess.Popen[str]] = []
        try:
            for argv in (
                ["-m", "companion.devices.fake_pico", "--link", path],
                ["-c", _HOLD_LINK, path],
            ):
                child = subprocess.Popen(
                    [sys.executable, *argv],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
                children.append(child)
                assert child.stdout is not None
                if not child.stdout.readline():
                    return {}
            time.sleep(0.3)  # let the handshake's aftermath settle before watching
            before = [_cpu_seconds(child.pid) for child in children]
            time.sleep(idle_s)
            used = [_cpu_seconds(c.pid) - b for c, b in zip(children, before, strict=True)]
        finally:
            for child in children:
                child.kill()
                child.wait(10)
                for stream in (child.stdin, child.stdout):
                    if stream is not None:
                        stream.close()
    fake, link = (seconds / idle_s * 100 for seconds in used)
    return {
        "link idle CPU (one core)": Figure(link, "%"),
        "fake Pico idle CPU (one core, simulator only)": Figure(fake, "%"),
    }


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
