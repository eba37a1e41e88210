"""`companion bench --cpu BOARD`: the daemon's benchmarks run again, held to a board's CPU
share in a cgroup of the bench's own, and shown beside this machine's figures."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from companion.benchmarks import Figure
from companion.benchmarks._board import Calibration, PiBoard, Quota, calibrate, quota_for
from companion.benchmarks._cgroup import ENV, ROOTS, CpuCgroup, find

Report = dict[str, dict[str, Figure]]
#: The signals that stop a bench (Ctrl-C, a stop).
STOPS = {signal.SIGINT, signal.SIGTERM}


@dataclass(frozen=True)
class ModelRun:
    """The figures of the modelled benchmarks, and the share that modelled the board."""

    calibration: Calibration
    quota: Quota
    figures: Report


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
) -> ModelRun:
    """Calibrate the share, make the cgroup, run each benchmark in a child bench, remove the
    cgroup (raises ``ModelError`` where no cgroup can be made)."""
    controller = find(roots)
    calibration = calibrate(board)
    quota = quota_for(calibration.share)
    figures: Report = {}
    count = len(modules)
    # A stop (SIGTERM) unwinds like Ctrl-C, so the cgroup is removed either way.
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        with CpuCgroup(controller, quota) as group:
            for number, module in enumerate(modules, start=1):
                say(f"companion bench: {module.NAME} as on a {board.name} ({number}/{count})…")
                measured = run_child(module.NAME, quick, group, module.CPU_MODEL, say)
                figures[module.NAME] = as_on_board(measured, quota.share)
    finally:
        signal.signal(signal.SIGTERM, previous)
    return ModelRun(calibration, quota, figures)


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
    """Whether a figure counts CPU time (per press, or a share of a core while idle)."""
    return label.startswith("CPU per press") or ": CPU per press" in label or "idle CPU" in label


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


def table(here: dict[str, Figure], model: dict[str, Figure], board: str) -> list[str]:
    """One line per figure: this machine, the board's model, the wire floor (this machine's,
    then the model's where they differ); floors are a column, not lines of their own."""
    labels = [label for label in here if ", wire floor (" not in label]
    labels += [label for label in model if label not in here and ", wire floor (" not in label]
    width = max((len(label) for label in labels), default=0)
    lines = [f"  {'':<{width}} {'here':>10} {board:>12} {'wire floor':>16}"]
    for label in labels:
        key = floor_of(label)
        floors = [_text(f.get(key)) if key else "-" for f in (here, model)]
        floor = floors[0] if floors[1] in ("-", floors[0]) else " / ".join(floors)
        shown = f"{_text(here.get(label)):>10} {_text(model.get(label)):>12} {floor:>16}"
        lines.append(f"  {label:<{width}} {shown}".rstrip())
    return lines


def summary(run: ModelRun) -> dict[str, object]:
    """What modelled the board, for the JSON report."""
    calibration = run.calibration
    return {
        "board": calibration.board.name,
        "basis": calibration.board.basis,
        "board n-body step (us)": calibration.board.step_s * 1e6,
        "here n-body step (us)": calibration.here_step_s * 1e6,
        "share": run.quota.share,
        "quota (us)": run.quota.quota_us,
        "period (us)": run.quota.period_us,
    }
