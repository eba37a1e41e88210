"""Undo is the session's alone: taking back any input gives exactly the game before it.

Every engine once kept its own history and undo; the session undoes by replaying the inputs
still in force, so these are the engines' undo tests, played through the table log.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games.registry import KINDS
from companion.session.autoplay import random_log
from companion.session.log import LogEntry, NewGame, Roll, Undo
from companion.session.session import Game, Session

GAMES = KINDS


def state(session: Session) -> dict[str, Any]:
    """What the players and the operator see of the game, without the input counters."""
    view = session.view().to_json()
    for counter in ("events", "last", "last_refusal"):
        view.pop(counter)
    table = session.table
    assert table is not None
    private = {p: session.private_view(p).to_json()["details"] for p in view["players"]}
    return {"view": view, "private": private, "engine": table.binding.engine_state()}


def in_force(entries: list[LogEntry]) -> list[LogEntry]:
    kept: list[LogEntry] = []
    for entry in entries:
        if isinstance(entry, Undo):
            kept.pop()
        else:
            kept.append(entry)
    return kept


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_undo_after_any_input_gives_back_the_game_before_it(game: str, seed: int) -> None:
    entries = in_force(random_log(game, random.Random(seed), length=120, undo_rate=0))
    session = Session.in_memory()
    start = entries[0]
    assert isinstance(start, NewGame)
    session.submit(start)
    for entry in entries[1:]:
        before = state(session)
        assert session.submit(entry).accepted
        after = state(session)
        assert session.undo().accepted
        assert state(session) == before, entry
        assert session.submit(entry).accepted
        assert state(session) == after


@pytest.mark.parametrize("game", GAMES)
def test_undo_walks_back_to_the_start_and_no_further(game: str) -> None:
    entries = in_force(random_log(game, random.Random(7), length=150, undo_rate=0))
    session = Session.in_memory()
    session.submit(entries[0])
    opening = state(session)
    for entry in entries[1:]:
        assert session.submit(entry).accepted
    for _ in entries[1:]:
        assert session.undo().accepted
    assert state(session) == opening
    refused = session.undo()
    assert (refused.accepted, refused.code) == (False, "nothing_to_undo")
    assert state(session) == opening


def test_undo_of_the_card_that_settles_a_jockey_race_takes_the_payout_back() -> None:
    rng = random.Random(3)
    entries = in_force(random_log("jockey", rng, length=400, undo_rate=0))
    session = Session.in_memory()
    session.submit(entries[0])
    for entry in entries[1:]:
        before = session.view()
        assert session.submit(entry).accepted
        if session.view().phase == "race_over" and before.phase == "racing":
            assert session.view().board.balances != before.board.balances
            session.undo()
            assert session.view().board.balances == before.board.balances
            assert session.view().phase == "racing"
            return
    pytest.fail("no race was settled")


def test_undone_rolls_are_kept_in_order_live_and_after_a_restart() -> None:
    """An undone roll's value comes back before any new one (the die flow rolls it again),
    each roll accepted since uses up the first kept: the same live and once rebuilt."""
    entries = random_log("jumpy_jack", random.Random(5), length=200, undo_rate=0.3)
    session = Session.in_memory()
    session.submit(entries[0])
    expected: list[int] = []
    taken_back: list[LogEntry] = []
    most = 0
    for number, entry in enumerate(entries[1:], 1):
        assert session.submit(entry).accepted
        if isinstance(entry, Undo):
            taken = taken_back.pop()
            if isinstance(taken, Roll):
                expected.insert(0, taken.value)
        else:
            if isinstance(entry, Roll) and expected:
                expected.pop(0)
            taken_back.append(entry)
        table = session.table
        assert table is not None
        assert table.kept_rolls() == tuple(expected), number
        if number % 10 == 0 or number == len(entries) - 1:
            assert Game.from_entries(table.entries).kept_rolls() == tuple(expected), number
        most = max(most, len(expected))
    assert most >= 2
