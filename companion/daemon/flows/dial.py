"""The knob's acceleration: a fast turn steps a number by 5, 10, then 50 of its unit.

A number dialled with the knob (the Course hippique max bet and stakes, the Jockey stakes in
hundreds) moves one unit per detent when the knob is turned slowly, and for the first few
detents of any turn, so a small correction is always exact. Past them, the faster the
detents come, the bigger the step: 5, 10, then 50 units. A big step lands on a multiple of
itself (17, then 20, 25, 30...), so round numbers are quick to reach. The speed is read
from the table's injected clock: the time since the last detent turned the same way, with
no other input between.
"""

from __future__ import annotations

import math
from collections.abc import Callable

#: (seconds per detent below which, step in units), fastest first.
SPEEDS: tuple[tuple[float, int], ...] = ((0.03, 50), (0.06, 10), (0.12, 5))
#: Detents closer than this (seconds) belong to one turn.
TURN_GAP_S = 0.25
#: The first detents of a turn step by one unit, however fast they come.
SLOW_START = 4


class Knob:
    """Measure how fast the knob turns; ``size`` says how many units a turn steps by."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._last: float | None = None
        self._direction = 0
        self._run = 0

    def reset(self) -> None:
        """Forget the last turn: the next one starts slow (another input came between)."""
        self._last = None

    def size(self, steps: int) -> int:
        """Units per detent of a turn of ``steps`` detents made now: 1, 5, 10 or 50."""
        now = self._clock()
        direction = 1 if steps > 0 else -1
        gap = math.inf
        if self._last is not None and direction == self._direction:
            gap = now - self._last
        self._last, self._direction = now, direction
        self._run = self._run + abs(steps) if gap < TURN_GAP_S else abs(steps)
        if self._run <= SLOW_START:
            return 1
        per_detent = gap / max(1, abs(steps))
        return next((size for limit, size in SPEEDS if per_detent < limit), 1)

    def dial(self, value: int, steps: int, low: int, high: int, unit: int = 1) -> int:
        """Return ``value`` turned by ``steps`` detents (a fast turn in bigger steps), clamped."""
        if steps == 0:
            return max(low, min(high, value))
        step = self.size(steps) * unit
        start = value // step if steps > 0 else -(-value // step)  # the multiple behind
        turned = (start + steps) * step
        return max(low, min(high, turned))
