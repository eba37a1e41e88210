"""`companion bench`: measure speed and memory; print figures, or one JSON object."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from companion import benchmarks
from companion.benchmarks import Figure

if TYPE_CHECKING:
    from companion.benchmarks._board import Calibration
    from companion.benchmarks._model import ModelRun

NAME = "bench"
HELP = "measure the engines, the journal and the devices (figures, not pass/fail)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the bench options."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="short runs (less precise)")
    parser.add_argument("--only", action="append", metavar="NAME", help="run only these benchmarks")
    parser.add_argument(
        "--cpu",
        metavar="BOARD",
        help="also run the daemon's benchmarks held to the CPU share of BOARD"
        " (pi-zero-2w, pi-4, pi-5)",
    )
    parser.add_argument(
        "--cgroup-root",
        type=Path,
        metavar="DIR",
        help="where the cgroup cpu controller is (found by default)",
    )


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Run the chosen benchmarks and report their figures."""
    chosen = [m for m in benchmarks.modules() if not args.only or m.NAME in args.only]
    unknown = set(args.only or []) - {m.NAME for m in chosen}
    if unknown:
        names = ", ".join(m.NAME for m in benchmarks.modules())
        print(
            f"companion bench: unknown benchmark: {', '.join(sorted(unknown))} (known: {names})",
            file=sys.stderr,
        )
        return 2
    if args.cpu:
        from companion.benchmarks._board import BOARDS

        if args.cpu not in BOARDS:
            known = ", ".join(BOARDS)
            print(f"companion bench: unknown board: {args.cpu} (known: {known})", file=sys.stderr)
            return 2
    calibration = _calibrated(args.cpu) if args.cpu else None
    here: dict[str, dict[str, Figure]] = {}
    for number, module in enumerate(chosen, start=1):
        _say(f"companion bench: {module.NAME} ({number}/{len(chosen)})…")
        here[module.NAME] = module.run(quick=args.quick)
        if not args.json and not args.cpu:
            _print(module.NAME, here[module.NAME])
    model = _model(args, chosen, here, calibration)
    if args.json:
        report: dict[str, object] = {
            name: {
                label: _entry(figure, model.figures.get(name, {}).get(label) if model else None)
                for label, figure in figures.items()
            }
            for name, figures in here.items()
        }
        if model:
            from companion.benchmarks._model import keyed, summary

            report["cpu model"] = summary(model)
            report["modelled"] = keyed(model)
            if model.checks:
                report["model checks"] = {
                    name: {label: f.value for label, f in figures.items()}
                    for name, figures in model.checks.items()
                }
        print(json.dumps(report, indent=2, sort_keys=True))
    elif args.cpu:
        from companion.benchmarks._model import table

        for name, figures in here.items():
            if model and name in model.figures:
                print(name)
                print("\n".join(table(figures, model.figures[name], model.calibration.board.name)))
            else:
                _print(name, figures)
        if model:
            for name, traced in model.checks.items():
                print(f"{name}: the trace model beside the quota model ({args.cpu})")
                print("\n".join(table(model.figures[name], traced, "trace", "quota")))
            print(_model_lines(model))
    return 0


def _calibrated(board: str) -> Calibration:
    """The board's share of this machine, worked out before the benchmarks run: the glass
    bench traces each press and gives its figures as the board takes them too."""
    from companion.benchmarks._board import BOARDS, calibrate
    from companion.benchmarks._model import TRACE_SHARE_ENV

    calibration = calibrate(BOARDS[board])
    os.environ[TRACE_SHARE_ENV] = repr(calibration.share)
    return calibration


def _model(
    args: argparse.Namespace,
    chosen: list[ModuleType],
    here: dict[str, dict[str, Figure]],
    calibration: Calibration | None,
) -> ModelRun | None:
    """The modelled figures for ``--cpu`` (the traced ones taken out of ``here``); None
    (said on stderr) where there can be none."""
    if not args.cpu:
        return None
    from companion.benchmarks._board import BOARDS, ModelError
    from companion.benchmarks._cgroup import ROOTS
    from companion.benchmarks._model import modelled, run_model, split_prefixed

    traced, traced_models = split_prefixed(here)
    subjects = modelled(chosen)
    if not subjects and not traced:
        _say(f"companion bench: none of these benchmarks runs as on a {args.cpu}")
        return None
    roots = [args.cgroup_root] if args.cgroup_root else list(ROOTS)
    try:
        return run_model(
            BOARDS[args.cpu],
            subjects,
            args.quick,
            roots,
            _say,
            calibration,
            traced,
            traced_models,
        )
    except ModelError as error:
        _say(f"companion bench: no {args.cpu} model ({error}); figures of this machine only")
        return None


def _entry(figure: Figure, model: Figure | None) -> dict[str, float | str]:
    entry: dict[str, float | str] = {"value": figure.value, "unit": figure.unit}
    if model is not None:
        entry["model"] = model.value
    return entry


def _print(name: str, figures: dict[str, Figure]) -> None:
    print(name)
    for label, figure in figures.items():
        print(f"  {label:<44} {figure.text()}")


def _model_lines(model: ModelRun) -> str:
    """What modelled the board, and the step its quota throttles in (the latencies' grain);
    which benchmarks each model gave."""
    c, q = model.calibration, model.quota
    lines = (
        f"{c.board.name} model: {q.share:.3f} of one core ({q.quota_us} us every {q.period_us} us);"
        f" n-body step {c.here_step_s * 1e6:.2f} us here,"
        f" {c.board.step_s * 1e6:.2f} us on the board\n"
        f"  work under {q.quota_us / 1000:g} ms of CPU here between two refills runs at this"
        f" machine's speed; past it, it waits up to {q.period_us / 1000:.1f} ms for the next"
    )
    traced = sorted(name for name, kind in model.models.items() if kind == "trace")
    if traced:
        lines += (
            f"\n  {', '.join(traced)}: each press from its own trace (its CPU time here divided"
            f" by {c.share:.3f}, its waits and wires as they were); a Pico-wired button on"
            " MicroPython, scaled to an RP2040"
        )
    for name, labels in sorted(model.traced_figures.items()):
        lines += (
            f"\n  {name}: {'; '.join(labels)}: from each run's own trace (the daemon's CPU"
            f" time here divided by {c.share:.3f}, the rest as it was); the rest by the quota"
        )
    return lines
