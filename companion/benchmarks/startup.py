"""How long the `companion` program takes to start, and how much memory it holds then."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from companion.benchmarks import Figure, compiled

NAME = "startup"
#: Under `--cpu`, the whole bench runs in the CPU cgroup, and with it the interpreters it starts.
CPU_MODEL = "process"

#: The probe prints its own peak resident memory in KiB. Linux keeps ``ru_maxrss`` across
#: exec, so it would report this benchmark's own (larger) process: ``VmHWM`` counts only the
#: probe's pages; ``ru_maxrss`` is the fallback where there is no /proc.
_PROBE = """
import resource, companion.cli
companion.cli.build_parser()
try:
    with open("/proc/self/status", encoding="ascii") as status:
        print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
except (OSError, StopIteration):
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


#: What a command named first costs before it runs: `companion run --help` (the command the
#: service starts) loads its own module only.
_ONE_COMMAND = """
import companion.cli
try:
    companion.cli.main(["run", "--help"])
except SystemExit:
    pass
"""


def run(quick: bool) -> dict[str, Figure]:
    """Start a fresh interpreter that loads the command line, several times: the whole
    parser (what `companion --help` builds), and one command's."""
    compiled()
    times, one = [], []
    rss_kib = 0
    for _ in range(3 if quick else 10):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", _PROBE], check=True, capture_output=True, text=True
        )
        times.append(time.perf_counter() - start)
        rss_kib = int(out.stdout.strip())
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", _ONE_COMMAND], check=True, capture_output=True)
        one.append(time.perf_counter() - start)
    return {
        "command line start (median)": Figure(statistics.median(times) * 1000, "ms"),
        "command line start, one command (median)": Figure(statistics.median(one) * 1000, "ms"),
        "command line peak resident memory": Figure(rss_kib / 1024, "MB"),
    }
