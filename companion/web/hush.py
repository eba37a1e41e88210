"""Logs a flood cannot fill: the same complaint of the web server at most once a second, then
how many more there were.

A guest's device can make the server fail the same way thousands of times a second (no file
left to accept a connection with, a malformed request); on a Pi the log is the SD card.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import ClientDisconnect

log = logging.getLogger("companion.web")

#: The same complaint is written at most once in this many seconds.
PERIOD_S = 1.0
#: Complaints remembered at once (the oldest is forgotten first).
KEPT = 256
#: What a failed accept() says when the process or the system has no file or memory left.
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
#: The loggers of the server uvicorn runs the pages on, and of its event loop.
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "asyncio")


class Throttle:
    """Counts complaints by key: the first of each period passes, the others are counted."""

    def __init__(self, period_s: float = PERIOD_S, clock: Callable[[], float] = time.monotonic):
        self.period_s = period_s
        self.clock = clock
        self._lock = threading.Lock()
        self._last: dict[object, float] = {}
        self._held: dict[object, int] = {}

    def admit(self, key: object) -> int | None:
        """None when ``key`` was let through less than a period ago (it is counted); else how
        many were held back since the last one let through."""
        now = self.clock()
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < self.period_s:
                self._held[key] = self._held.get(key, 0) + 1
                return None
            self._last.pop(key, None)
            self._last[key] = now
            while len(self._last) > KEPT:
                oldest = next(iter(self._last))
                del self._last[oldest]
                self._held.pop(oldest, None)
            return self._held.pop(key, 0)

    def held(self, key: object) -> int:
        """Take the count held back for ``key`` (it starts again from zero); when there was
        one, a new period begins now, so that the next complaint is counted too."""
        with self._lock:
            held = self._held.pop(key, 0)
            if held:
                self._last[key] = self.clock()
            return held


class QuietLogs(logging.Filter):
    """A logging filter: each message (by its template) at most once a period, with a count;
    a client gone before its request was read (a phone walking away) is no error at all."""

    def __init__(self, throttle: Throttle | None = None) -> None:
        super().__init__()
        self.throttle = throttle or Throttle()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], ClientDisconnect):
            return False
        held = self.throttle.admit((record.name, str(record.msg)))
        if held is None:
            return False
        if held:
            record.msg = f"{record.msg} [and {held} more like it since the last]"
        return True


class QuietLoop:
    """The web server's event-loop error handler: a failed accept() is one line a second with
    a count, no traceback; other errors go to asyncio's own handler, one a second."""

    ACCEPT = "accept"

    def __init__(self, throttle: Throttle | None = None) -> None:
        self.throttle = throttle or Throttle()
        self._flushing = False

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in OUT_OF_FILES:
            self._accept_failed(loop, error)
            return
        if self.throttle.admit(str(context.get("message"))) is not None:
            loop.default_exception_handler(context)

    def _accept_failed(self, loop: asyncio.AbstractEventLoop, error: OSError) -> None:
        held = self.throttle.admit(self.ACCEPT)
        if held is not None:
            log.warning("cannot accept a connection: %s", error.strerror or error)
            return
        if not self._flushing:  # the count is written when the period ends, even if all stop
            self._flushing = True
            loop.call_later(self.throttle.period_s, self._flush, error.strerror or str(error))

    def _flush(self, reason: str) -> None:
        self._flushing = False
        held = self.throttle.held(self.ACCEPT)
        if held:
            log.warning("cannot accept %d more connections in the last second: %s", held, reason)


def quiet_server_logs() -> None:
    """Put a throttle on the loggers of uvicorn and of asyncio (idempotent)."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietLogs) for f in logger.filters):
            logger.addFilter(QuietLogs())
