"""Seat tokens beside the journal: kept across a restart, new for a new game, never stored plain."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.session import Session
from companion.web.inputs import PageRefusal, seat_entry, seat_request
from companion.web.seats import HOST, SeatBook


def test_a_seat_survives_a_restart_and_a_new_game_needs_new_tokens(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    first = session.new_game("jumpy_jack", ["Anna", "Bob"])
    book = SeatBook(path)
    book.follow(first)
    anna, host = book.issue("Anna"), book.issue(HOST)
    book.close()
    session.close()

    session = Session.open(path)  # the journal opens with the seats table beside it
    book = SeatBook(path)
    book.follow(session.game_id)
    assert book.seat_of(anna) == "Anna" and book.seat_of(host) == HOST
    assert book.seat_of(anna[:-1] + "x") is None and book.seat_of(None) is None
    second = session.new_game("jockey", ["Anna", "Bob"])
    book.follow(second)
    assert book.seat_of(anna) is None  # the old game's token opens nothing
    assert book.seat_of(host) == HOST  # the host's seat belongs to the table
    moved = book.issue("Anna")
    assert book.seat_of(moved) == "Anna"
    assert book.seat_of(book.issue("Anna")) == "Anna" and book.seat_of(moved) is None
    book.close()
    session.close()
    assert anna.encode() not in path.read_bytes()  # only a hash of a token is kept


def test_a_phone_acts_only_for_its_own_seat() -> None:
    session = Session.in_memory()
    session.new_game("jumpy_jack", ["Anna", "Bob"])
    data = {"type": "predict", "player": "Bob", "horses": ["red", "blue", "green"]}
    entry = seat_entry(seat_request("Anna", data), session)
    assert entry.player == "Anna"  # type: ignore[attr-defined]
    for hostile in ({"type": "roll", "value": 6}, {"type": "undo"}, [1], {"type": "bet"}):
        with pytest.raises(PageRefusal):
            seat_entry(seat_request("Anna", hostile), session)
