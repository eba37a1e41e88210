"""`companion bench`: measure speed and memory; print figures, or one JSON object."""

from __future__ import annotations

import argparse
import json
import sys

from companion import benchmarks

NAME = "bench"
HELP = "measure the engines, the journal and the devices (figures, not pass/fail)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the bench options."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="short runs (less precise)")
    parser.add_argument("--only", action="append", metavar="NAME", help="run only these benchmarks")


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
    report: dict[str, dict[str, dict[str, float | str]]] = {}
    for number, module in enumerate(chosen, start=1):
        print(
            f"companion bench: {module.NAME} ({number}/{len(chosen)})…", file=sys.stderr, flush=True
        )
        figures = module.run(quick=args.quick)
        report[module.NAME] = {k: {"value": f.value, "unit": f.unit} for k, f in figures.items()}
        if not args.json:
            print(f"{module.NAME}")
            for label, figure in figures.items():
                print(f"  {label:<44} {figure.text()}")
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=True))
    return 0
