"""What one table may cost the league: messages, bytes, the league's time, new results,
requests, and log lines.

Each table has its own buckets (a bucket holds up to its burst and fills again at its rate),
so a table that floods the broker spends its own budget and never another table's. The
league reads one message at a time: the time it spends on a table's messages is counted
too, so a table sending what takes long to read or to store (large results, each written to
disk) cannot keep another table's result waiting for more than a moment. What is over
budget is dropped before it is read. The log says each cause of each table once a minute at
most, with how many more came meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

#: Messages of any kind a table may send: a burst, then this many a second (a table sends
#: its state at most four times a second).
MESSAGES_BURST, MESSAGES_PER_S = 400.0, 20.0
#: Bytes a table may send: a burst, then this many a second (a state is a few KiB).
BYTES_BURST, BYTES_PER_S = 2.0 * 1024 * 1024, 96.0 * 1024
#: The league's time a table's messages may take (seconds): a burst, then a tenth of it (a
#: result stored on an SD card takes some 20 ms).
TIME_BURST, TIME_PER_S = 0.5, 0.1
#: New results a table may add by default: a burst (a whole season sent again at once), then
#: one a minute.
RESULTS_BURST, RESULTS_PER_S = 1000.0, 1 / 60
#: Requests to send results again the league may make of one table: a burst, then one a
#: minute.
REQUESTS_BURST, REQUESTS_PER_S = 10.0, 1 / 60
#: How often one cause of one table is logged at most (seconds).
LOG_EVERY_S = 60.0
#: A table over its budget is not even looked at for this long (seconds): its messages are
#: dropped at the cost of reading their topic, so a flood costs the league no more than the
#: flooder.
MUTED_S = 0.5


@dataclass
class Bucket:
    """Up to ``burst`` at once, filling again at ``rate`` a second."""

    burst: float
    rate: float
    level: float = -1.0
    at: float = 0.0

    def take(self, amount: float, now: float) -> bool:
        """Spend ``amount`` if the bucket holds it; say whether it did."""
        if self.level < 0:
            self.level, self.at = self.burst, now
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if amount > self.level:
            return False
        self.level -= amount
        return True

    def spend(self, amount: float, now: float) -> None:
        """Spend ``amount`` whatever the bucket holds (it may go below empty)."""
        self.take(0, now)
        self.level -= amount


@dataclass
class TableBudget:
    """One table's buckets."""

    messages: Bucket
    bytes: Bucket
    time: Bucket
    results: Bucket
    requests: Bucket
    muted_until: float = 0.0


@dataclass
class Budgets:
    """Every table's budget, made on its first message; safe to share between threads."""

    results_burst: float = RESULTS_BURST
    clock: Callable[[], float] = time.monotonic
    _tables: dict[str, TableBudget] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _of(self, table: str) -> TableBudget:
        budget = self._tables.get(table)
        if budget is None:
            budget = TableBudget(
                Bucket(MESSAGES_BURST, MESSAGES_PER_S),
                Bucket(BYTES_BURST, BYTES_PER_S),
                Bucket(TIME_BURST, TIME_PER_S),
                Bucket(self.results_burst, RESULTS_PER_S),
                Bucket(REQUESTS_BURST, REQUESTS_PER_S),
            )
            self._tables[table] = budget
        return budget

    def message(self, table: str, size: int) -> bool:
        """Whether a message of ``size`` bytes from ``table`` is within its budget (spent); a
        table found over it is muted for ``MUTED_S``."""
        with self._lock:
            budget, now = self._of(table), self.clock()
            within = (
                budget.time.take(0, now)
                and budget.time.level > 0
                and budget.messages.take(1, now)
                and budget.bytes.take(size, now)
            )
            if not within:
                budget.muted_until = now + MUTED_S
            return within

    def muted(self, table: str) -> bool:
        """Whether ``table`` was found over its budget a moment ago (its messages are dropped
        unread until then)."""
        budget = self._tables.get(table)
        return budget is not None and self.clock() < budget.muted_until

    def took(self, table: str, seconds: float) -> None:
        """Count the league's time a message of ``table`` took."""
        with self._lock:
            self._of(table).time.spend(seconds, self.clock())

    def result(self, table: str) -> bool:
        """Whether ``table`` may add one more result now (spent if so)."""
        with self._lock:
            return self._of(table).results.take(1, self.clock())

    def request(self, table: str) -> bool:
        """Whether the league may ask ``table`` once more now (spent if so)."""
        with self._lock:
            return self._of(table).requests.take(1, self.clock())


@dataclass
class QuietLog:
    """Log one line per (table, cause) a minute at most; the next says how many were not."""

    log: logging.Logger
    every: float = LOG_EVERY_S
    clock: Callable[[], float] = time.monotonic
    _seen: dict[tuple[str, str], tuple[float, int]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def warn(self, table: str, cause: str, line: str) -> bool:
        """Log ``line`` unless this table's cause was logged less than ``every`` ago; say
        whether it was logged."""
        now = self.clock()
        with self._lock:
            last, quiet = self._seen.get((table, cause), (-self.every, 0))
            if now - last < self.every:
                self._seen[(table, cause)] = (last, quiet + 1)
                return False
            self._seen[(table, cause)] = (now, 0)
        more = f" ({quiet} more like it since the last such line)" if quiet else ""
        self.log.warning("%s%s", line, more)
        return True
