"""The evening's ranking: place points per game (ties share the better place), added up
across games of different kinds, wins breaking a tie; the evening's games read from a real
journal, after the mark the room keeps."""

from __future__ import annotations

from pathlib import Path

from companion.session.evening import (
    Evening,
    EveningBook,
    EveningStanding,
    GameResult,
    place_points,
)
from companion.session.log import NewGame
from companion.session.session import Session
from companion.web.seats import SeatBook
from tests.chevaux import game as chevaux_game


def result(
    game_id: int, kind: str, figures: dict[str, int], winners: tuple[str, ...]
) -> GameResult:
    points = place_points(figures)
    return GameResult(
        game_id, kind, tuple(figures), winners, tuple(figures.items()), tuple(points.items())
    )


def test_places_give_points_and_players_level_share_the_better_place() -> None:
    assert place_points({"Anna": 3, "Ben": 1, "Cleo": 1}) == {"Anna": 3, "Ben": 2, "Cleo": 2}
    assert place_points({"Anna": -4, "Ben": 6, "Cleo": -2}) == {"Anna": 1, "Ben": 3, "Cleo": 2}
    assert place_points({"Anna": 0, "Ben": 0}) == {"Anna": 2, "Ben": 2}


def test_the_evening_adds_place_points_across_kinds_and_wins_break_a_tie() -> None:
    evening = Evening(
        (
            result(1, "jumpy_jack", {"Anna": 3, "Ben": 1, "Cleo": 1}, ("Anna",)),
            result(2, "course_hippique", {"Anna": -4, "Ben": 6, "Cleo": -2}, ("Ben",)),
            result(3, "jockey", {"Anna": 1900, "Ben": 700}, ("Anna",)),  # Cleo sat it out
        )
    )
    # By hand: Anna 3 + 1 + 2 = 6, Ben 2 + 3 + 1 = 6, Cleo 2 + 2 = 4; Anna won twice.
    assert evening.ranking() == (
        EveningStanding("Anna", 6, 2, 3),
        EveningStanding("Ben", 6, 1, 3),
        EveningStanding("Cleo", 4, 0, 2),
    )
    assert Evening().ranking() == ()


def test_people_level_are_in_the_order_they_first_played_this_evening() -> None:
    evening = Evening(
        (
            result(1, "jumpy_jack", {"Ben": 1, "Anna": 1}, ("Ben", "Anna")),
            result(2, "jockey", {"Cleo": 900, "Dan": 100, "Anna": 0, "Ben": 0}, ("Cleo",)),
        )
    )
    # Ben 2 + 2, Anna 2 + 2, both won once; Cleo 4 with a win, Dan 3. Ben played first.
    assert [s.person for s in evening.ranking()] == ["Ben", "Anna", "Cleo", "Dan"]


def chevaux(session: Session, picks: tuple[str, str], inputs: int = 0) -> int:
    """A one-race game of Petits chevaux for Anna and Ben (``picks``; the brown horse wins),
    its first ``inputs`` only when given; returns its id."""
    start, *entries = chevaux_game(("Anna", "Ben"), picks)
    assert isinstance(start, NewGame)
    game = session.new_game(start.game, start.players, start.options)
    for entry in entries[:inputs] if inputs else entries:
        assert session.submit(entry).accepted
    return game


def test_the_evening_is_the_finished_games_after_the_mark_the_room_keeps(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    assert session.journal is not None
    book = EveningBook()
    first = chevaux(session, ("brown", "red"))  # Anna wins
    assert session.journal.evening_since() == 0  # no room in this file yet: every game counts
    assert [g.game_id for g in book.evening(session.journal).games] == [first]
    seats = SeatBook(path)
    seats.end_evening(first)  # the host ends the evening after the first game
    seats.close()
    second = chevaux(session, ("red", "brown"))  # Ben wins
    chevaux(session, ("brown", "red"), inputs=3)  # not over: it does not count
    session.abandon()
    evening = book.evening(session.journal)
    assert [g.game_id for g in evening.games] == [second]
    # A game with no figure of its own: its winner first (2 of 2 players), the other 1.
    assert evening.games[0].points == (("Anna", 1), ("Ben", 2))
    assert evening.ranking() == (EveningStanding("Ben", 2, 1, 1), EveningStanding("Anna", 1, 0, 1))
    assert book.evening(None) == Evening()  # a table in memory has no evening
    session.close()
