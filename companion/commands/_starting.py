"""The commands that start the companion (`run`, `simulate`) collect no garbage meanwhile."""

from __future__ import annotations

import argparse
import functools
import gc
from collections.abc import Callable

Run = Callable[[argparse.Namespace], int]


def collecting_once_ready(run: Run) -> Run:
    """``run`` with Python's garbage collector off until the companion it starts is ready
    (its loop then calls ``collect_from_now_on``), or until the command ends before that."""

    @functools.wraps(run)
    def held(args: argparse.Namespace) -> int:
        gc.disable()
        try:
            return run(args)
        finally:
            gc.enable()

    return held
