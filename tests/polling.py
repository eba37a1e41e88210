"""Waiting in a test for what another thread does: poll until it holds, or give up."""

from __future__ import annotations

import time
from collections.abc import Callable


def eventually(condition: Callable[[], object], timeout: float = 2.0) -> bool:
    """Whether ``condition`` holds within ``timeout`` seconds, asked every 5 ms."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return bool(condition())
