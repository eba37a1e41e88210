"""The daemon as a table feels it: press-to-display latency, start-up time, idle cost, memory.

Each start is also traced: the CPU time of the daemon's process from its start to READY=1
(and to the pages' first answer), the time its threads waited for a core of this machine,
and the rest of that time (the disk, the sockets, the bench's own starting of it). With
``COMPANION_BENCH_TRACE_SHARE`` set (``companion bench --cpu`` sets it), the start-up is given
again as that board would take it, labelled ``trace: ...`` (the CPU time divided by the
share, the waits for a core dropped, the rest as it was).
"""

from __future__ import annotations

import dataclasses
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.benchmarks import Figure, compiled, percentile
from companion.benchmarks._model import Span, process_cpu, queued, trace_share

NAME = "daemon"
#: Under `--cpu`, the whole bench runs in the CPU cgroup: its presses run in-process, and the
#: daemon it starts is its child.
CPU_MODEL = "process"
#: On a board too small for the quota, the start-up's figures come from each start's trace.
TRACE_PART = True
#: How long an idle daemon is watched (a quick run's, a full run's): long enough to see its
#: timers (the pages' server wakes once a second) several times over.
IDLE_QUICK_S = 2.0
IDLE_S = 10.0
#: How many starts the start-up figures are the median of (a quick run's, a full run's): one
#: start here swings by a tenth either way.
STARTS_QUICK = 1
STARTS = 5


def _latencies(presses: int) -> list[float]:
    """Press buttons on mock pins in a running daemon; time each until its frames are sent."""
    from companion.daemon.app import build
    from companion.devices.base import DieRolled
    from companion.devices.config import default_config

    base = default_config()
    assert base.horse_buttons is not None and base.encoder is not None
    config = dataclasses.replace(
        base,
        horse_buttons=dataclasses.replace(base.horse_buttons, debounce_ms=0),
        encoder=dataclasses.replace(base.encoder, debounce_ms=0),
        web=dataclasses.replace(base.web, enabled=False),  # the pages have their own benchmark
    )
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        companion = build(config, simulate=True, state_dir=Path(folder))
        sim = companion.rig.simulation
        assert sim is not None and config.horse_buttons is not None
        done = threading.Event()
        companion.daemon.after_event = done.set
        thread = threading.Thread(target=companion.daemon.run, daemon=True)
        thread.start()
        companion.daemon.running.wait(10)
        pins = {f"horse{i}": p for i, p in enumerate(config.horse_buttons.pins, start=1)}
        assert config.encoder is not None
        pins["push"] = config.encoder.push
        rng = random.Random(7)

        def press(button: str) -> float:
            pin = sim.controls.factory.pin(pins[button])
            done.clear()
            began = time.perf_counter()
            pin.drive_low()
            done.wait(5)
            took = time.perf_counter() - began
            done.clear()
            pin.drive_high()  # the release is debounced too but changes nothing on screen
            return took

        # Menu: Jumpy Jack, one player, default options, a sealed prediction.
        for button in ("horse1", "push", "push", "horse1", "horse2", "horse3"):
            press(button)
        for _ in range(presses):
            done.clear()
            companion.daemon.post(DieRolled(rng.randint(1, 6)))
            done.wait(5)
            samples.append(press(f"horse{rng.randint(1, 5)}"))
            if rng.random() < 0.05:
                samples.append(press("push"))
        companion.daemon.stop()
        thread.join(10)
        companion.rig.close()
    return samples


def _free_port() -> int:
    """A port nobody listens on now on this machine's loopback."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _first_answer(port: int) -> None:
    """Ask the pages for the join page as a phone would, and wait for their answer's head.

    The pages' socket listens from before READY=1; a request sent before the server is up
    waits in its queue, so this times when the pages answer, not when they can be reached.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=120) as link:
        link.sendall(f"GET /join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        head = link.recv(64)
    if not head.startswith(b"HTTP/1.1 "):
        raise OSError(f"the pages did not answer over HTTP: {head!r}")


def _child_figures(idle_s: float, starts: int) -> dict[str, Figure]:
    """Start `companion simulate --headless` as systemd would, ``starts`` times; the median
    time to READY and to the pages' first answer, and the CPU to READY; the last start's idle
    CPU and memory; with a trace share, the start-up on that board from each start's trace."""
    compiled()
    runs = [_start(None) for _ in range(starts - 1)] + [_start(idle_s)]
    idle, rss = runs[-1][2:]
    figures = start_figures([r[0] for r in runs], [r[1] for r in runs], None)
    share = trace_share()
    if share is not None:
        figures.update(start_figures([r[0] for r in runs], [r[1] for r in runs], share))
    return figures | {
        "idle CPU (one core)": Figure(idle, "%"),
        "resident memory after start-up": Figure(rss, "MB"),
    }


def start_figures(
    ready: list[Span], answered: list[Span], share: float | None
) -> dict[str, Figure]:
    """The median start to READY=1 and to the pages' first answer, and the daemon's CPU time
    to READY=1: as measured here (``share`` None), or on a board with ``share`` of this
    machine's CPU, each start from its own trace (labelled ``trace: ``)."""

    def ms(spans: list[Span], cpu_only: bool = False) -> Figure:
        if share is None:
            values = [span.cpu if cpu_only else span.wall for span in spans]
        else:
            values = [span.cpu / share if cpu_only else span.on_board(share) for span in spans]
        return Figure(percentile(values, 0.5) * 1000, "ms")

    prefix = "" if share is None else "trace: "
    return {
        f"{prefix}start-up to READY=1": ms(ready),
        f"{prefix}start-up to the pages answering": ms(answered),
        f"{prefix}CPU to READY=1, the daemon's process (median)": ms(ready, cpu_only=True),
    }


def _start(idle_s: float | None) -> tuple[Span, Span, float, float]:
    """One start on a fresh state folder: to READY=1 and to the pages' first answer, each
    its wall time and the daemon's CPU time; with ``idle_s``, the idle CPU (%) and resident
    memory (MB) then (NaN without)."""
    port = _free_port()
    idle = rss = float("nan")
    with tempfile.TemporaryDirectory(prefix="cmp-bench-") as folder:
        notify_path = Path(folder) / "notify.sock"
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(str(notify_path))
        notify.settimeout(120)  # a bound, not a figure: a modelled Pi starts slowly
        env = dict(os.environ, NOTIFY_SOCKET=str(notify_path))
        began = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "companion", "simulate", "--headless",
             "--state-dir", folder, "--web-port", str(port)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            while not notify.recv(4096).startswith(b"READY=1"):
                pass
            ready = Span(time.perf_counter() - began, process_cpu(child.pid), queued(child.pid))
            _first_answer(port)
            answered = Span(time.perf_counter() - began, process_cpu(child.pid), queued(child.pid))
            if idle_s is not None:
                idle = idle_cpu(child.pid, idle_s)
                rss = _rss_mb(child.pid)
        finally:
            child.terminate()
            child.wait(10)
            notify.close()
    return ready, answered, idle, rss


def _cpu_seconds(pid: int) -> float:
    """CPU time the threads of process ``pid`` have used so far, to the nanosecond.

    Each thread's ``schedstat`` counts its time on a CPU in nanoseconds; ``stat`` counts
    clock ticks of 10 ms, too coarse for an idle process watched for a few seconds (under a
    CPU share of 0.07, one tick more or less in 5 s is 3 points of a core). A thread that
    ends during the watch takes its time with it: the idle daemon starts none.
    """
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):  # the thread ended meanwhile
            continue
    return total / 1e9


def idle_cpu(pid: int, seconds: float) -> float:
    """The share of one core (%) process ``pid`` uses while left alone for ``seconds``, once
    what it was doing has settled."""
    settle(pid)
    before = _cpu_seconds(pid)
    time.sleep(seconds)
    return (_cpu_seconds(pid) - before) / seconds * 100


def settle(pid: int, window_s: float = 0.5, busy: float = 0.01, limit_s: float = 30.0) -> None:
    """Wait until process ``pid`` spends under ``busy`` of one core for ``window_s`` (at most
    ``limit_s``): the work a start or a tap leaves behind ends within a fixed wait here, but
    under a CPU share of 0.08 it runs twelve times longer, and would be counted as idle."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        before = _cpu_seconds(pid)
        time.sleep(window_s)
        if _cpu_seconds(pid) - before < busy * window_s:
            return


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(quick: bool) -> dict[str, Figure]:
    """Measure latency in-process, then start-up, idle and memory in a child process."""
    samples = _latencies(100 if quick else 400)
    figures = {
        "press to frames sent (median)": Figure(percentile(samples, 0.5) * 1000, "ms"),
        "press to frames sent (p99)": Figure(percentile(samples, 0.99) * 1000, "ms"),
        "presses measured": Figure(len(samples), "presses"),
    }
    figures.update(
        _child_figures(IDLE_QUICK_S, STARTS_QUICK) if quick else _child_figures(IDLE_S, STARTS)
    )
    return figures
