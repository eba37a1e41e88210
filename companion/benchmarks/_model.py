"""`companion bench --cpu BOARD`: the daemon's benchmarks as on a board, beside this machine's
figures: run again held to the board's CPU share in a cgroup of the bench's own (the quota
model), or, on a board whose share is too small for the kernel's quota, worked out from each
press's, tap's or start's own trace (the trace model, any kernel): the press-to-glass bench
wholly, the pages' tap and the daemon's start-up beside the quota's other figures."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from companion.benchmarks import Figure
from companion.benchmarks._board import (
    Calibration,
    ModelError,
    PiBoard,
    Quota,
    calibrate,
    quota_for,
)
from companion.benchmarks._cgroup import ENV, ROOTS, CpuCgroup, find

Report = dict[str, dict[str, Figure]]
#: The signals that stop a bench (Ctrl-C, a stop).
STOPS = {signal.SIGINT, signal.SIGTERM}


#: Below this share the kernel's smallest quota (1 ms) refills only every 10 ms or more, a
#: grain as long as the press targets: the glass bench is modelled from its traces instead.
QUOTA_SHARE_FLOOR = 0.1
#: The prefixes of the figures a benchmark gives as a board takes them, and their models.
PREFIXED = {"trace: ": "trace", "rp2040: ": "micropython-rp2040"}
#: Where ``companion bench --cpu`` tells the benchmarks the board's share (the trace model's
#: divisor); the press-to-glass bench reads the same variable.
TRACE_SHARE_ENV = "COMPANION_BENCH_TRACE_SHARE"


def trace_share() -> float | None:
    """The board's share the trace model divides by (``TRACE_SHARE_ENV``), or None."""
    try:
        share = float(os.environ.get(TRACE_SHARE_ENV, ""))
    except ValueError:
        return None
    return share if share > 0 and math.isfinite(share) else None


def process_cpu(pid: int) -> float:
    """The CPU time (s) every thread of process ``pid`` has used so far, to the nanosecond:
    the kernel's CPU clock of that process, which counts a running thread's slice up to now
    and the threads that have ended (a sum of the threads' ``schedstat`` misses those)."""
    return time.clock_gettime((~pid << 3) | 2)  # Linux: CPUCLOCK_SCHED of the process pid


def queued(pid: int) -> float:
    """The time (s) the threads of process ``pid`` have waited so far for a core of this
    machine taken by other work (each thread's run-queue delay in its ``schedstat``; a thread
    that has ended takes its own with it)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):  # the thread ended meanwhile
            continue
    return total / 1e9


@dataclass(frozen=True)
class Span:
    """A span the daemon was traced over (a tap to its tenth scoreboard, a start to READY):
    its wall time here, the CPU time the daemon's threads spent in it, and the time they
    waited in it for a core of this machine (``queued``: other people's work here, or its
    own threads more than the cores). The rest of the wall time was no CPU of the daemon's
    (the phones and scoreboards, which are other machines on a table; the sockets, the disk,
    threads waking up): it does not scale."""

    wall: float
    cpu: float
    queued: float = 0.0

    @property
    def waits(self) -> float:
        """The span's time that was neither CPU of the daemon's nor a wait for a core here:
        on the board the daemon's threads take turns on one interpreter (the CPU divided by
        the share), so a wait for a core of this machine is no time there (none where two of
        its threads ran or waited at once and that time is more than the wall time)."""
        return max(0.0, self.wall - self.cpu - self.queued)

    def on_board(self, share: float) -> float:
        """The span on a board that has ``share`` of this machine's CPU: the daemon's CPU
        time divided by the share, one thread after the other (one Python process runs one
        thread at a time, the GIL), then the waits as they were."""
        return self.cpu / share + self.waits


@dataclass(frozen=True)
class ModelRun:
    """The figures of the modelled benchmarks, the share that modelled the board, which model
    gave each benchmark's figures (``models``: "quota", "trace"), the figures of another model
    beside them (``checks``: the trace model where the quota one gave the figures), the
    models of single figures (``figure_models``: the Pico's own), and the figures of a
    benchmark the quota ran that its traces gave instead (``traced_figures``: the pages' tap,
    the daemon's start-up)."""

    calibration: Calibration
    quota: Quota
    figures: Report
    models: dict[str, str] = field(default_factory=dict)
    checks: Report = field(default_factory=dict)
    figure_models: dict[str, dict[str, str]] = field(default_factory=dict)
    traced_figures: dict[str, tuple[str, ...]] = field(default_factory=dict)


def split_prefixed(here: Report) -> tuple[Report, dict[str, dict[str, str]]]:
    """Take the figures a benchmark gave as a board takes them out of ``here``: return them
    (their prefix dropped) and, for each, the model that gave it."""
    taken: Report = {}
    models: dict[str, dict[str, str]] = {}
    for name, figures in here.items():
        for label in list(figures):
            for prefix, model in PREFIXED.items():
                if label.startswith(prefix):
                    bare = label.removeprefix(prefix)
                    taken.setdefault(name, {})[bare] = figures.pop(label)
                    models.setdefault(name, {})[bare] = model
    return taken, models


def traced_in_part(modules: Sequence[ModuleType]) -> set[str]:
    """The benchmarks the trace model gives only some figures of (``TRACE_PART = True``: the
    pages' tap, the daemon's start-up), the quota model the others (idle CPU, memory)."""
    return {m.NAME for m in modules if getattr(m, "TRACE_PART", False)}


def modelled(modules: Sequence[ModuleType]) -> list[ModuleType]:
    """The benchmarks that run under a CPU model (those that say what goes in the cgroup:
    ``CPU_MODEL = "process"``, the whole bench; ``"daemon"``, only the daemon it starts)."""
    return [m for m in modules if getattr(m, "CPU_MODEL", None) in ("process", "daemon")]


def run_model(
    board: PiBoard,
    modules: Sequence[ModuleType],
    quick: bool,
    roots: Sequence[Path] = ROOTS,
    say: Callable[[str], None] = lambda line: None,
    calibration: Calibration | None = None,
    traced: Report | None = None,
    traced_models: dict[str, dict[str, str]] | None = None,
) -> ModelRun:
    """Calibrate the share (unless given), make the cgroup, run each benchmark in a child
    bench, remove the cgroup. A benchmark whose figures were traced (``traced``: its
    ``trace: `` figures from this machine's run) is modelled from its traces on a board whose
    share is under ``QUOTA_SHARE_FLOOR``, and its traced figures stand beside the quota run's
    otherwise (a check of one model against the other); one traced in part (``TRACE_PART``)
    still runs under the quota there, and its traced figures take the place of the quota's.
    Raises ``ModelError`` where no cgroup can be made and nothing was traced."""
    calibration = calibration or calibrate(board)
    quota = quota_for(calibration.share)
    traced = traced or {}
    figures: Report = {}
    models: dict[str, str] = {}
    checks: Report = {}
    overlaid: Report = {}
    by_trace = calibration.share < QUOTA_SHARE_FLOOR
    in_part = traced_in_part(modules)
    for name, its in traced.items():
        traced_only = {
            label: figure
            for label, figure in its.items()
            if (traced_models or {}).get(name, {}).get(label, "trace") == "trace"
        }
        if name in in_part:
            (overlaid if by_trace else checks)[name] = traced_only
        elif by_trace or name not in {m.NAME for m in modules}:
            figures[name] = dict(its)
            models[name] = "trace"
        else:
            checks[name] = traced_only
    quoted = [m for m in modules if m.NAME not in models]
    if quoted:
        try:
            controller = find(roots)
        except ModelError as error:
            if not figures and not overlaid:
                raise
            say(f"companion bench: no quota model ({error}); the traced figures only")
            quoted = []
    count = len(quoted)
    # A stop (SIGTERM) unwinds like Ctrl-C, so the cgroup is removed either way.
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        if quoted:
            with CpuCgroup(controller, quota) as group:
                for number, module in enumerate(quoted, start=1):
                    say(f"companion bench: {module.NAME} as on a {board.name} ({number}/{count})…")
                    measured = run_child(module.NAME, quick, group, module.CPU_MODEL, say)
                    measured = {
                        label: figure
                        for label, figure in measured.items()
                        if not label.startswith(tuple(PREFIXED))
                    }
                    figures[module.NAME] = {
                        **figures.get(module.NAME, {}),
                        **as_on_board(measured, quota.share),
                    }
                    models[module.NAME] = "quota"
    finally:
        signal.signal(signal.SIGTERM, previous)
    for name, its in overlaid.items():
        figures[name] = {**figures.get(name, {}), **its}
        models.setdefault(name, "trace")  # no quota run: its traced figures only
    for name, kinds in (traced_models or {}).items():
        for label, kind in kinds.items():
            if kind != "trace" and name in models:
                figures.setdefault(name, {})[label] = traced[name][label]
    return ModelRun(
        calibration,
        quota,
        figures,
        models,
        checks,
        figure_models=dict(traced_models or {}),
        traced_figures={name: tuple(its) for name, its in overlaid.items()},
    )


def _stopped(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def run_child(
    name: str, quick: bool, group: CpuCgroup, subject: str, say: Callable[[str], None]
) -> dict[str, Figure]:
    """``companion bench --only NAME --json`` in a child: the child in the cgroup, or (with
    ``subject`` "daemon") only the daemon the child starts. Its figures; none if it failed."""
    command = [sys.executable, "-m", "companion", "bench", "--only", name, "--json"]
    env = dict(os.environ)
    env.pop(ENV, None)
    if subject == "daemon":
        env[ENV] = str(group.path)

    def prepare() -> None:  # in the child, before it runs the bench
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        if subject == "process":
            group.preexec()

    # A stop that came while the child was being forked would be lost in the fork's own
    # handlers: it waits until the child exists and can be stopped with the bench.
    unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        child = subprocess.Popen(
            command + (["--quick"] if quick else []),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
            preexec_fn=prepare,
        )
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        raise
    with child:
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
            out, err = child.communicate()
        except BaseException:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            raise
    if child.returncode != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        say(f"companion bench: {name} failed under the model ({last})")
        return {}
    report = json.loads(out)[name]
    return {label: Figure(f["value"], f["unit"]) for label, f in report.items()}


def is_cpu_time(label: str) -> bool:
    """Whether a figure counts CPU time (per press or tap, to READY, or a share of a core while
    idle)."""
    return label.startswith(("CPU per press", "CPU per tap", "CPU to ")) or any(
        word in label for word in (": CPU per press", "idle CPU")
    )


def as_on_board(figures: dict[str, Figure], share: float) -> dict[str, Figure]:
    """The modelled run's figures as the board would count them: its CPU time is this
    machine's, so a CPU-time figure is divided by the share (a board's second of work is a
    ``share`` of a second here); latencies, memory and rates stand as measured."""
    return {
        label: Figure(f.value / share, f.unit) if is_cpu_time(label) else f
        for label, f in figures.items()
    }


def floor_of(label: str) -> str | None:
    """The label of the wire floor that goes with ``label``, if it could have one."""
    for suffix in (" (median)", " (p99)"):
        if label.endswith(suffix) and ", wire floor" not in label:
            return f"{label.removesuffix(suffix)}, wire floor{suffix}"
    return None


def _text(figure: Figure | None) -> str:
    if figure is None or math.isnan(figure.value):
        return "-"
    return figure.text()


def table(
    here: dict[str, Figure], model: dict[str, Figure], board: str, first: str = "here"
) -> list[str]:
    """One line per figure: this machine (``first`` names the column), the board's model, the
    wire floor (this machine's, then the model's where they differ); floors are a column, not
    lines of their own."""
    labels = [label for label in here if ", wire floor (" not in label]
    labels += [label for label in model if label not in here and ", wire floor (" not in label]
    width = max((len(label) for label in labels), default=0)
    lines = [f"  {'':<{width}} {first:>10} {board:>12} {'wire floor':>16}"]
    for label in labels:
        key = floor_of(label)
        floors = [_text(f.get(key)) if key else "-" for f in (here, model)]
        floor = floors[0] if floors[1] in ("-", floors[0]) else " / ".join(floors)
        shown = f"{_text(here.get(label)):>10} {_text(model.get(label)):>12} {floor:>16}"
        lines.append(f"  {label:<{width}} {shown}".rstrip())
    return lines


def summary(run: ModelRun) -> dict[str, object]:
    """What modelled the board, for the JSON report: the calibration, the quota, and the
    model that gave each benchmark's figures."""
    calibration = run.calibration
    return {
        "board": calibration.board.name,
        "basis": calibration.board.basis,
        "board n-body step (us)": calibration.board.step_s * 1e6,
        "here n-body step (us)": calibration.here_step_s * 1e6,
        "share": calibration.share,
        "quota share": run.quota.share,
        "quota (us)": run.quota.quota_us,
        "period (us)": run.quota.period_us,
        "models": dict(run.models),
        "traced figures": {name: list(labels) for name, labels in run.traced_figures.items()},
    }


def model_of(run: ModelRun, name: str, label: str) -> str:
    """The model that gave the figure ``label`` of benchmark ``name``."""
    if label in run.traced_figures.get(name, ()):
        return "trace"
    own = run.figure_models.get(name, {}).get(label)
    if own is not None and own != "trace":
        return own
    return run.models.get(name, "quota")


#: The stable keys of the figures the targets name: benchmark, label, key (after the board).
KEYS: tuple[tuple[str, str, str], ...] = (
    ("glass", "Pico-wired horse press -> strip lit (p99)", "glass.press_to_leds_pico.p99"),
    ("glass", "Pico-wired horse press -> strip lit (median)", "glass.press_to_leds_pico.median"),
    ("glass", "100 kHz: horse press -> LEDs lit (p99)", "glass.press_to_leds.p99"),
    ("glass", "100 kHz: horse press -> LEDs lit (median)", "glass.press_to_leds.median"),
    ("glass", "100 kHz: horse press -> first LCD row (p99)", "glass.press_to_lcd_row.p99"),
    ("glass", "100 kHz: horse press -> first LCD row (median)", "glass.press_to_lcd_row.median"),
    ("glass", "LCD 100k, OLED on bus 4 at 400k: horse press -> OLED (p99)",
     "glass.press_to_oled.p99"),
    ("glass", "LCD 100k, OLED on bus 4 at 400k: horse press -> OLED (median)",
     "glass.press_to_oled.median"),
    ("glass", "100 kHz: CPU per press, the daemon's threads without the bus models and probes"
     " (median)", "glass.cpu_per_press.median"),
    ("web", "tap to 10 scoreboards (p99)", "web.tap_to_scoreboards.p99"),
    ("web", "tap to 10 scoreboards (median)", "web.tap_to_scoreboards.median"),
    ("web", "idle CPU, 10 pages open (one core)", "web.idle_cpu"),
    ("daemon", "start-up to READY=1", "daemon.start_to_ready"),
)  # fmt: skip


def slug(label: str) -> str:
    """A key made of a label: lower case, each run of other characters one underscore."""
    return "_".join("".join(c if c.isalnum() else " " for c in label.lower()).split())


def keyed(run: ModelRun) -> dict[str, dict[str, object]]:
    """Every modelled figure under a key that stays (``<board>.<benchmark>.<figure>``): the
    targets' figures under the names of ``KEYS``, the others under their label's slug; each
    with its value, unit, the model that gave it and the label it is printed under."""
    board = run.calibration.board.name
    named = {(name, label): key for name, label, key in KEYS}
    out: dict[str, dict[str, object]] = {}
    for name, figures in run.figures.items():
        for label, figure in figures.items():
            key = named.get((name, label), f"{name}.{slug(label)}")
            out[f"{board}.{key}"] = {
                "value": figure.value,
                "unit": figure.unit,
                "model": model_of(run, name, label),
                "label": label,
            }
    return out
