"""Carry SIGTERM and SIGINT to the loop from a thread of their own, never from a handler.

A Python signal handler runs in the main thread between two bytecodes: there it may find the
loop holding its queue's lock (a put would wait for ever), or be put off while the loop
sleeps in that queue (the stop waits for the next wake-up). Here the C-level handler writes
the signal's number to a pipe (``signal.set_wakeup_fd``) and a relay thread, woken at once,
makes the stop request like any other thread.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any


def _noted(number: int, frame: FrameType | None) -> None:
    """The Python-level handler: nothing to do, the relay thread acts on the signal."""


class SignalRelay:
    """Call ``act(number)`` from the relay thread for each of ``numbers`` received.

    Build it on the main thread (signals are set there only); ``close`` puts the previous
    handlers back.
    """

    def __init__(self, numbers: Sequence[int], act: Callable[[int], None]) -> None:
        self._numbers = frozenset(numbers)
        self._act = act
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._previous_fd = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        self._previous: dict[int, Any] = {n: signal.signal(n, _noted) for n in self._numbers}
        self._thread = threading.Thread(target=self._relay, name="signals", daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        while True:
            try:
                received = os.read(self._read, 64)
            except OSError:
                return
            if not received:
                return
            for number in received:
                if number in self._numbers:
                    self._act(number)

    def close(self) -> None:
        """Restore the previous handlers and end the relay thread."""
        signal.set_wakeup_fd(self._previous_fd)
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        os.close(self._write)  # the relay reads the end of the pipe and returns
        self._thread.join(timeout=5)
        os.close(self._read)
