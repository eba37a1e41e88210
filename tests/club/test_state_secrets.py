"""The ``state`` topic never carries a sealed secret: two tables that differ only by a sealed
prediction, bet or hand publish the very same states until that secret is revealed."""

from __future__ import annotations

import random

import pytest

from companion.club.payloads import Names, state_payload
from companion.session.autoplay import legal_input
from companion.session.log import LogEntry, NewGame
from companion.session.session import Session

NAMES = Names("club", "table1")
SET_UPS = {
    "jumpy_jack": {"target": 4},
    "course_hippique": {"rounds": 1, "course_length": 5},
    "jockey": {"hands": True},
}
#: The sealed input each game's test changes: a prediction, a bet, a Jockey bet.
SECRETS = {"jumpy_jack": "predict", "course_hippique": "bet", "jockey": "bet"}


def other_secret(entries: list[LogEntry], index: int) -> LogEntry:
    """A different legal secret of the same player and kind, in place of ``entries[index]``."""
    session = Session.in_memory()
    for entry in entries[:index]:
        session.submit(entry)
    original = entries[index]
    for seed in range(500):
        assert session.table is not None
        candidate = legal_input(session.table, random.Random(seed))
        same_kind = candidate is not None and candidate.TYPE == original.TYPE
        same_player = getattr(candidate, "player", None) == getattr(original, "player", 1)
        if same_kind and same_player and candidate != original:
            assert candidate is not None
            return candidate
    raise AssertionError(f"no other secret than {original}")


def until_a_secret(kind: str) -> tuple[Session, random.Random]:
    """A game played by random legal inputs up to its first sealed input, and its dice."""
    for seed in range(50):
        session, rng = Session.in_memory(), random.Random(seed)
        session.submit(NewGame(kind, ("Anna", "Bob", "Chloé"), SET_UPS[kind]))
        while session.table is not None and not session.view().finished:
            entry = legal_input(session.table, rng)
            assert entry is not None
            session.submit(entry)
            if SECRETS[kind] == entry.TYPE:
                assert entry.SECRET
                return session, rng
    raise AssertionError(f"no game of {kind} with a sealed input")


@pytest.mark.parametrize("kind", sorted(SET_UPS))
def test_a_sealed_secret_changes_no_state_message_before_its_reveal(kind: str) -> None:
    a, rng = until_a_secret(kind)
    assert a.table is not None
    entries = list(a.table.entries)
    index = len(entries) - 1
    secret = entries[index]
    player = getattr(secret, "player", None)
    b_entries = [*entries[:index], other_secret(entries, index)]
    b = Session.in_memory()
    for entry in b_entries:
        assert b.submit(entry).accepted
    compared = 0
    # Both tables go on with the same public inputs until the secret is revealed.
    while player in a.view().sealed:
        assert player in b.view().sealed
        assert state_payload(a.view(), NAMES, "t") == state_payload(b.view(), NAMES, "t")
        compared += 1
        entry = legal_input(a.table, rng)
        assert entry is not None
        a.submit(entry)
        if not b.submit(entry).accepted:
            break
    assert compared >= 1
    # Once revealed (or once it changes what may be played), the secrets tell the two apart.
    assert state_payload(a.view(), NAMES, "t") != state_payload(b.view(), NAMES, "t")
