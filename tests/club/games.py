"""Short real games for the club's tests: played by the engines' random legal inputs."""

from __future__ import annotations

import random
from pathlib import Path

from companion.club.payloads import result_payload
from companion.session.autoplay import legal_input
from companion.session.log import LogEntry, NewGame
from companion.session.session import Session

PLAYERS = ("Anna", "Bob", "Chloé")
#: The quickest set-ups: a Jumpy Jack match to 2 points, a one-round Course hippique.
SHORT = {
    "jumpy_jack": {"target": 2},
    "course_hippique": {"rounds": 1, "course_length": 5},
}


def open_table(path: Path) -> Session:
    """A journaled session that queues each finished game's result in its outbox."""
    session = Session.open(path)
    session.results = result_payload
    return session


def whole_game(kind: str = "jumpy_jack", seed: int = 1) -> list[LogEntry]:
    """The inputs of a whole short game, drawn in memory (the new_game line first)."""
    probe = Session.in_memory()
    probe.submit(NewGame(kind, PLAYERS, dict(SHORT[kind])))
    rng = random.Random(seed)
    while probe.table is not None and not probe.view().finished:
        entry = legal_input(probe.table, rng)
        assert entry is not None
        assert probe.submit(entry).accepted
    assert probe.table is not None
    return list(probe.table.entries)


def play(session: Session, kind: str = "jumpy_jack", seed: int = 1, *, last: bool = True) -> int:
    """Play a whole short game (all but its last input unless ``last``); return its id."""
    entries = whole_game(kind, seed)
    if not last:
        entries = entries[:-1]
    for entry in entries:
        assert session.submit(entry).accepted
    assert session.game_id is not None
    return session.game_id


def finish(session: Session, kind: str = "jumpy_jack", seed: int = 1) -> None:
    """Make the last input of the game ``play(..., last=False)`` left unfinished."""
    assert session.submit(whole_game(kind, seed)[-1]).view.finished
