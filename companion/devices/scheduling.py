"""Run short device actions later (tone sequences, animations) on a clock a test can drive."""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable
from typing import Protocol


class Scheduler(Protocol):
    """Something that calls an action after a delay, without blocking the caller."""

    def call_later(self, delay_s: float, action: Callable[[], None]) -> None:
        """Call ``action`` once, ``delay_s`` seconds from now (from any thread)."""


class ThreadScheduler:
    """Call actions from short-lived timer threads (the default on a real companion).

    The daemon may pass its own scheduler instead; device actions are short and guard their
    own state with a lock.
    """

    def call_later(self, delay_s: float, action: Callable[[], None]) -> None:
        """Start a daemon timer thread that runs ``action`` after ``delay_s`` seconds."""
        timer = threading.Timer(max(0.0, delay_s), action)
        timer.daemon = True
        timer.start()


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
        self._now = deadline
        return ran

    def run_all(self, limit: int = 10_000) -> int:
        """Run everything queued (and queued meanwhile), jumping the clock; return the count."""
        ran = 0
        while self._queue and ran < limit:
            self._now = max(self._now, self._queue[0][0])
            ran += self.advance(0.0)
        return ran
