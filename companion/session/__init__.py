"""The table session: the input log, turn order, secrets, the view, the journal, undo, replay.

The daemon needs only ``Session`` (``Session.open(path)``, ``new_game``, ``submit``,
``undo``, ``view``, ``private_view``, ``close``), the entry types of ``companion.session.log``
and the plain-data results ``Outcome``, ``View`` and ``PrivateView``; tools and tests use
``parse_line`` and ``dumps`` (one table-log line in, out) and ``random_log`` (a random game).
"""

from companion.session.autoplay import random_log
from companion.session.journal import GameNotRebuilt, GameRecord, JournalError
from companion.session.log import Entry, LogError, dumps, parse_line
from companion.session.session import Session
from companion.session.view import Outcome, PrivateView, RefusalView, View

__all__ = [
    "Entry",
    "GameNotRebuilt",
    "GameRecord",
    "JournalError",
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
