"""The room beside the journal: seats kept across games and restarts, never stored plain."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.session.session import Session
from companion.web.inputs import PageRefusal, seat_entry, seat_request
from companion.web.seats import HOST, SeatBook

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_seat_is_a_person_of_the_room_kept_across_games_and_restarts(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    first = session.new_game("jumpy_jack", ["Anna", "Bob"])
    book = SeatBook(path)
    book.follow(first)
    book.seat_order(["Anna", "Bob"])
    bob, anna, host = book.issue("Bob"), book.issue("Anna"), book.issue(HOST)
    assert book.people() == ("Anna", "Bob")  # the game's order, not the order of joining
    book.close()
    session.close()

    session = Session.open(path)  # the journal opens with the room beside it
    book = SeatBook(path)
    book.follow(session.game_id)
    assert book.seat_of(anna) == "Anna" and book.seat_of(host) == HOST
    assert book.seat_of(anna[:-1] + "x") is None and book.seat_of(None) is None
    second = session.new_game("jockey", ["Cleo", "Bob"])
    assert book.follow(second)
    book.seat_order(["Cleo", "Bob"])
    assert book.seat_of(anna) == "Anna" and book.seat_of(bob) == "Bob"  # no joining again
    assert book.people() == ("Cleo", "Bob", "Anna")  # Anna sits this one out, still seated
    moved = book.issue("Anna")  # a seat moves to another phone: the old one opens nothing
    assert book.seat_of(moved) == "Anna" and book.seat_of(anna) is None
    book.leave("Bob")
    assert book.seat_of(bob) is None and book.people() == ("Cleo", "Anna")
    book.end_evening(second)
    assert session.journal is not None and session.journal.evening_since() == second
    assert book.seat_of(moved) is None and book.people() == ()
    assert book.seat_of(host) == HOST  # the host's seat belongs to the table
    book.close()
    session.close()
    assert anna.encode() not in path.read_bytes()  # only a hash of a token is kept


def test_a_journal_from_before_the_room_keeps_the_seats_of_its_newest_game(
    tmp_path: Path,
) -> None:
    """The fixture was written by the version that filed seats per game (see its tokens)."""
    path = tmp_path / "journal.sqlite3"
    shutil.copyfile(FIXTURES / "journal-before-room.sqlite3", path)
    tokens = json.loads((FIXTURES / "journal-before-room.tokens.json").read_text())
    session = Session.open(path)
    book = SeatBook(path)
    book.follow(session.game_id)
    assert [g.kind for g in session.games()] == ["jumpy_jack", "course_hippique"]
    assert book.seat_of(tokens["Anna"]) == "Anna" and book.seat_of(tokens["Cleo"]) == "Cleo"
    assert book.seat_of(tokens["host"]) == HOST
    assert book.seat_of(tokens["old Anna"]) is None  # a token of an older game stays dead
    assert book.people() == ("Cleo", "Anna")  # the order they were given their seats
    book.close()
    book = SeatBook(path)  # opened again: nothing left to move, nothing moved twice
    assert book.people() == ("Cleo", "Anna") and book.seat_of(tokens["Anna"]) == "Anna"
    book.close()
    session.close()


def test_a_phone_acts_only_for_its_own_seat() -> None:
    session = Session.in_memory()
    session.new_game("jumpy_jack", ["Anna", "Bob"])
    data = {"type": "predict", "player": "Bob", "horses": ["red", "blue", "green"]}
    entry = seat_entry(seat_request("Anna", data), session)
    assert entry.player == "Anna"  # type: ignore[attr-defined]
    for hostile in ({"type": "roll", "value": 6}, {"type": "undo"}, [1], {"type": "bet"}):
        with pytest.raises(PageRefusal):
            seat_entry(seat_request("Anna", hostile), session)
