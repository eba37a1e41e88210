"""The benchmarks' idle figure counts every thread's CPU time to the nanosecond, once the
process has settled."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from companion.benchmarks.daemon import _cpu_seconds, idle_cpu, settle

#: A process (alone: the test's own process may hold other tests' threads) whose second
#: thread, started at the first line it reads, burns the seconds of CPU it is given, then
#: sleeps.
_CHILD = """
import sys, threading, time
burn = float(sys.argv[1])
def work():
    print("started", flush=True)
    end = time.thread_time() + burn
    while time.thread_time() < end:
        pass
    print("burnt", flush=True)
    time.sleep(60)
sys.stdin.readline()
threading.Thread(target=work, daemon=True).start()
time.sleep(60)
"""


@contextmanager
def _burner(burn: float) -> Iterator[subprocess.Popen[str]]:
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(burn)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        yield child
    finally:
        child.kill()
        child.wait(10)
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()


def test_the_cpu_of_a_sleeping_thread_is_counted_finer_than_a_clock_tick() -> None:
    with _burner(0.004) as child:  # less than half a 10 ms clock tick
        assert child.stdin is not None and child.stdout is not None
        settle(child.pid, window_s=0.05)  # its start is over, every thread asleep
        before = _cpu_seconds(child.pid)
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline() == "started\n"
        assert child.stdout.readline() == "burnt\n"
        settle(child.pid, window_s=0.05)  # asleep again: each thread's counter up to date
        spent = _cpu_seconds(child.pid) - before
    assert 0.004 <= spent < 0.009  # the burn, a thread's start and a line read and written


def test_the_idle_watch_begins_when_the_work_left_behind_is_done() -> None:
    # Under a CPU share, work a start leaves behind (here: 0.1 s of CPU on a thread) would
    # otherwise be counted as the idle cost.
    with _burner(0.1) as child:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline() == "started\n"
        assert idle_cpu(child.pid, 0.2) < 1.0
        assert child.stdout.readline() == "burnt\n"
