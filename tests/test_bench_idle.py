"""The benchmarks' idle figure counts every thread's CPU time to the nanosecond."""

from __future__ import annotations

import os
import threading
import time

from companion.benchmarks.daemon import _cpu_seconds, idle_cpu


def test_the_cpu_of_a_sleeping_thread_is_counted_finer_than_a_clock_tick() -> None:
    burnt, release = threading.Event(), threading.Event()

    def burn_then_sleep() -> None:
        end = time.thread_time() + 0.004  # less than half a 10 ms clock tick
        while time.thread_time() < end:
            pass
        burnt.set()
        release.wait(30)  # alive and asleep, as an idle daemon's threads are

    time.sleep(0.05)  # a thread's counter is brought up to date when it sleeps: this one's too
    before, process_before = _cpu_seconds(os.getpid()), time.process_time()
    worker = threading.Thread(target=burn_then_sleep)
    worker.start()
    try:
        assert burnt.wait(30)
        time.sleep(0.05)  # the worker asleep, this thread too: both counters up to date
        spent = _cpu_seconds(os.getpid()) - before
        process_spent = time.process_time() - process_before
    finally:
        release.set()
        worker.join()
    assert 0.004 <= spent <= process_spent + 0.0005  # the kernel's own total for the process


def test_the_idle_watch_begins_when_the_work_left_behind_is_done() -> None:
    # Under a CPU share, work a start leaves behind (here: 0.2 s of CPU on a thread) would
    # otherwise be counted as the idle cost.
    def leftover_work() -> None:
        end = time.thread_time() + 0.2
        while time.thread_time() < end:
            pass

    worker = threading.Thread(target=leftover_work)
    worker.start()
    try:
        assert idle_cpu(os.getpid(), 0.2) < 2.0
        assert not worker.is_alive()
    finally:
        worker.join()
