"""Run short device actions later (tone sequences, animations) on a clock a test can drive."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger("companion.devices")


class Scheduler(Protocol):
    """Something that calls an action after a delay, without blocking the caller."""

    def call_later(self, delay_s: float, action: Callable[[], None]) -> None:
        """Call ``action`` once, ``delay_s`` seconds from now (from any thread)."""


class ThreadScheduler:
    """Call actions from one timer thread of its own, started on first use (the default on a
    real companion).

    Actions run one after the other in the order they fall due, so each should be short
    (device actions are, and guard their own state with a lock); an action that raises is
    logged and the next one still runs. One thread for every action, rather than a thread
    started for each, keeps an animation's or a tune's steps cheap.
    """

    def __init__(self) -> None:
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def call_later(self, delay_s: float, action: Callable[[], None]) -> None:
        """Run ``action`` on the timer thread ``delay_s`` seconds from now."""
        due = time.monotonic() + max(0.0, delay_s)
        entry = (due, next(self._order), action)
        with self._changed:
            heapq.heappush(self._queue, entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="timer", daemon=True)
                self._thread.start()
            if self._queue[0] is entry:  # the timer waits for an earlier action otherwise
                self._changed.notify()

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._queue or self._queue[0][0] > time.monotonic():
                    self._changed.wait(
                        self._queue[0][0] - time.monotonic() if self._queue else None
                    )
                _, _, action = heapq.heappop(self._queue)
            try:
                action()
            except Exception:
                log.exception("a timed device action failed")


class ManualScheduler:
    """A scheduler on a pretend clock: nothing happens until :meth:`advance` is called.

    Tests and the simulator use it; :meth:`now` doubles as an injected monotonic clock.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._order = itertools.count()
        self._queue: list[tuple[float, int, Callable[[], None]]] = []

    def now(self) -> float:
        """Return the pretend time in seconds."""
        return self._now

    def call_later(self, delay_s: float, action: Callable[[], None]) -> None:
        """Queue ``action`` for ``delay_s`` seconds after the pretend now."""
        heapq.heappush(self._queue, (self._now + max(0.0, delay_s), next(self._order), action))

    @property
    def pending(self) -> int:
        """How many actions are waiting."""
        return len(self._queue)

    def sleep(self, seconds: float) -> None:
        """Move the pretend time forward without running anything (a caller held up by a bus
        transfer); what fell due runs at the next :meth:`advance`."""
        self._now += max(0.0, seconds)

    def advance(self, seconds: float) -> int:
        """Move the clock forward, running every action that falls due in order; return the count.

        Actions queued by a running action also run if they fall due within the advance.
        """
        deadline = self._now + seconds
        ran = 0
        while self._queue and self._queue[0][0] <= deadline:
            when, _, action = heapq.heappop(self._queue)
            self._now = max(self._now, when)
            action()
            ran += 1
        self._now = max(self._now, deadline)
        return ran

    def run_all(self, limit: int = 10_000) -> int:
        """Run everything queued (and queued meanwhile), jumping the clock; return the count."""
        ran = 0
        while self._queue and ran < limit:
            self._now = max(self._now, self._queue[0][0])
            ran += self.advance(0.0)
        return ran


#: One step of a sequence: an action, then how long to wait before the next step.
Step = tuple[Callable[[], None], float]


class Steps:
    """Play timed steps (an animation, a tune) on a scheduler, one sequence at a time.

    The first step runs in the caller's thread, so its failure raises there. Later steps run
    from the scheduler under :attr:`lock`; a later failure stops the sequence and is kept for
    :meth:`raise_failure`, which the device calls at the start of its next public call.
    Starting a new sequence, or :meth:`cancel`, abandons the one playing.
    """

    def __init__(self, scheduler: Scheduler | None = None) -> None:
        self.lock = threading.RLock()
        self._scheduler = scheduler
        self._generation = 0
        self._running = False
        self._failure: BaseException | None = None

    @property
    def running(self) -> bool:
        """Whether a sequence is still playing."""
        return self._running

    def start(self, steps: list[Step]) -> None:
        """Abandon any sequence playing and play ``steps``. Raises what the first step raises."""
        with self.lock:
            self._generation += 1
            self._running = bool(steps)
            if steps:
                self._run(self._generation, steps, 0)

    def cancel(self) -> None:
        """Abandon the sequence playing (no further step runs)."""
        with self.lock:
            self._generation += 1
            self._running = False

    def raise_failure(self) -> None:
        """Raise (once) the error a scheduled step ran into, if any."""
        with self.lock:
            failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def _run(self, generation: int, steps: list[Step], index: int, due: float = -1.0) -> None:
        """Run step ``index``; the next one is due ``hold_s`` after this one was due (``due``,
        or now for the first), so a slow step does not stretch the whole sequence."""
        with self.lock:
            if generation != self._generation:
                return
            if self._scheduler is None:
                self._scheduler = ThreadScheduler()
            scheduler = self._scheduler
            clock = getattr(scheduler, "now", time.monotonic)
            if index == 0:
                due = clock()
            action, hold_s = steps[index]
            try:
                action()
            except Exception as exc:
                self._running = False
                self._generation += 1
                if index == 0:
                    raise
                self._failure = exc
                return
            if index == len(steps) - 1:
                # Still playing while the last step runs (an animation's final frame on the
                # bus), unless that step started another sequence.
                if generation == self._generation:
                    self._running = False
                return
            following = due + hold_s
            delay = max(0.0, following - clock())
        scheduler.call_later(delay, lambda: self._run(generation, steps, index + 1, following))
