"""Benchmarks reported by `companion bench`: one module per subject, found automatically.

A benchmark module defines ``NAME`` (a short word) and ``run(quick: bool) -> dict`` that
returns figures as ``{"label": Figure(value, unit)}``. Benchmarks measure; they never fail.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType


@dataclass(frozen=True)
class Figure:
    """One measured figure: a value and its unit (`races/s`, `ms`, `bytes`...)."""

    value: float
    unit: str

    def text(self) -> str:
        """Render the figure for a terminal, with sensible precision."""
        v = self.value
        shown = f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"
        return f"{shown} {self.unit}"


def compiled() -> None:
    """Compile the companion's modules to bytecode, as an installed companion has them, so a
    start-up measured next does not compile them (an environment may forbid writing bytecode:
    ``PYTHONDONTWRITEBYTECODE``); the firmware's modules too, which the simulated Pico runs.
    Where a folder cannot be written, nothing changes."""
    import compileall

    from companion.devices.fake_pico import firmware_folder

    compileall.compile_dir(Path(__file__).parent.parent, quiet=1)
    if firmware_folder().is_dir():
        compileall.compile_dir(firmware_folder(), quiet=1)


def modules() -> list[ModuleType]:
    """Return every benchmark module (and the benchmark of each game added from outside the
    package, see ``companion/games/registry.py``), sorted by name."""
    from companion.games.registry import HOMES, part  # only now: it imports every engine

    found = [importlib.import_module(part(kind, "bench")) for kind in HOMES]
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            found.append(importlib.import_module(f"{__name__}.{info.name}"))
    return sorted(found, key=lambda m: str(m.NAME))


def rate(action: Callable[[], object], min_seconds: float) -> float:
    """Call ``action`` repeatedly for at least ``min_seconds``; return calls per second."""
    count = 0
    start = time.perf_counter()
    deadline = start + min_seconds
    now = start
    while now < deadline or count == 0:
        action()
        count += 1
        now = time.perf_counter()
    return count / (now - start)


def percentile(samples: list[float], fraction: float) -> float:
    """Return the ``fraction`` percentile (0..1) of ``samples`` by nearest rank."""
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]
