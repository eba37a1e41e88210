"""The table session: the input log, turn order, secrets, the view, the journal, undo, replay.

The daemon needs only ``Session`` (``Session.open(path)``, ``new_game``, ``submit``,
``undo``, ``view``, ``private_view``, ``close``), the entry types of ``companion.session.log``
and the plain-data results ``Outcome``, ``View`` and ``PrivateView``; tools and tests use
``parse_line`` and ``dumps`` (one table-log line in, out) and ``random_log`` (a random game).

``Session`` and ``random_log`` are imported on first use: they bring in the registry and
with it every engine, which a command that only reads the journal does not need.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from companion.session.journal import GameNotRebuilt, GameRecord, JournalError
from companion.session.log import LogEntry, LogError, dumps, parse_line
from companion.session.view import Outcome, PrivateView, RefusalView, View

if TYPE_CHECKING:
    from companion.session.autoplay import random_log
    from companion.session.session import Session

#: The names imported on first use, and the module of each.
_ON_FIRST_USE = {"Session": "companion.session.session", "random_log": "companion.session.autoplay"}

__all__ = [
    "GameNotRebuilt",
    "GameRecord",
    "JournalError",
    "LogEntry",
    "LogError",
    "Outcome",
    "PrivateView",
    "RefusalView",
    "Session",
    "View",
    "dumps",
    "parse_line",
    "random_log",
]


def __getattr__(name: str) -> object:
    """Import ``Session`` or ``random_log`` when first asked for (PEP 562)."""
    module = _ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
