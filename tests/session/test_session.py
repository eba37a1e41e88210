"""The session at a Jumpy Jack table: journal, restart, undo, turns, refusals, secrets."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from companion.session.log import (
    Forfeit,
    MoveEntry,
    NewGame,
    NextRace,
    Predict,
    Roll,
    TurnCard,
    Undo,
    dumps,
)
from companion.session.session import Game, Session
from companion.session.view import View
from companion.web.seats import SeatBook

HORSES = ("red", "blue", "green", "yellow", "white")


def start(session: Session, players: tuple[str, ...] = ("Anna", "Bob")) -> int:
    return session.new_game("jumpy_jack", players, {})


def predict_all(session: Session) -> None:
    for player in session.view().players:
        assert session.submit(Predict(player, ("red", "blue", "green"))).accepted


def play_race(session: Session, rng: random.Random) -> None:
    """Roll and move (first legal horse) until the race is over."""
    while session.view().phase in ("roll", "move", "predict"):
        view = session.view()
        if view.waiting_for:
            predict_all(session)
        elif view.phase in ("predict", "roll"):
            assert session.submit(Roll(rng.randint(1, 6))).accepted
        else:
            legal = view.board.legal_horses
            assert session.submit(MoveEntry(legal[0]) if legal else Forfeit()).accepted


def steady(view: View) -> dict[str, object]:
    """The view without the refusal banner (which is not part of the game's state)."""
    data = view.to_json()
    data.pop("last_refusal")
    return data


def test_an_accepted_input_is_in_the_journal_when_submit_returns(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    game = start(session)
    predict_all(session)
    outcome = session.submit(Roll(4, "Anna"))
    assert outcome.accepted and outcome.view.board.die == 4
    # Another connection sees the row at once: it was committed before submit returned.
    with sqlite3.connect(db) as other:
        rows = [r[0] for r in other.execute("SELECT entry FROM events ORDER BY seq")]
    assert rows[-1] == dumps(Roll(4, "Anna"))
    assert len(rows) == 4
    assert session.game_id == game
    session.close()


def test_a_restart_mid_race_resumes_the_same_game(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    start(session)
    predict_all(session)
    session.submit(Roll(3))
    session.submit(MoveEntry("red"))
    session.submit(Roll(5))
    before = steady(session.view())
    private = session.private_view("Anna")
    session.close()

    again = Session.open(db)
    assert steady(again.view()) == before
    assert again.view().phase == "move" and again.view().board.die == 5
    assert again.private_view("Anna") == private
    assert again.submit(MoveEntry("blue")).accepted
    again.close()


def test_an_undo_is_journaled_so_a_restart_keeps_it_undone(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    start(session)
    predict_all(session)
    session.submit(Roll(6))
    after_roll = steady(session.view())
    session.submit(MoveEntry("green"))
    assert session.undo().accepted
    assert {**steady(session.view()), "events": 0, "last": ""} == {
        **after_roll,
        "events": 0,
        "last": "",
    }
    session.close()
    again = Session.open(db)
    assert again.view().board.die == 6
    assert again.view().board.last_move is None
    assert again.view().last == "undo"
    again.close()


def test_undo_steps_back_one_input_at_a_time_across_a_race_boundary() -> None:
    session = Session.in_memory()
    start(session)
    play_race(session, random.Random(7))
    over = steady(session.view())
    assert over["phase"] == "race_over" and over["board"]["results"]
    assert session.submit(NextRace()).accepted
    assert session.view().race == 2 and session.view().phase == "predict"
    session.submit(Predict("Anna", ("white", "yellow", "red")))

    assert session.undo().accepted  # Anna's race-2 prediction
    assert session.undo().accepted  # next_race
    assert session.view().race == 1 and session.view().phase == "race_over"
    assert session.view().board.to_json() == over["board"]
    assert session.undo().accepted  # the move that ended race 1
    view = session.view()
    assert view.race == 1 and view.phase in ("roll", "move")
    assert view.board.results == ()
    assert view.board.scores == {"Anna": 0, "Bob": 0}


def test_undo_everything_then_nothing_left_to_undo() -> None:
    session = Session.in_memory()
    start(session)
    predict_all(session)
    session.submit(Roll(2))
    for _ in range(3):
        assert session.undo().accepted
    refused = session.undo()
    assert not refused.accepted and refused.code == "nothing_to_undo"
    assert session.view().waiting_for == ("Anna", "Bob")


def test_a_refused_input_changes_nothing_and_is_kept_apart_for_diagnosis(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    game = start(session)
    before = steady(session.view())
    outcome = session.submit(Roll(3))  # nobody has predicted yet
    assert not outcome.accepted and outcome.code == "prediction_missing"
    assert steady(session.view()) == before
    assert session.view().last_refusal is not None
    assert session.view().last_refusal.code == "prediction_missing"
    assert session.journal is not None
    assert len(session.journal.events(game)) == 1
    [kept] = session.journal.refusals(game)
    assert kept.code == "prediction_missing" and kept.entry == dumps(Roll(3))
    session.close()


def test_the_input_accepted_after_refusals_shows_the_game_as_it_now_stands() -> None:
    session = Session.in_memory()
    start(session)
    predict_all(session)
    assert not session.submit(Roll(3, "Bob")).accepted  # Anna's turn
    assert not session.submit(MoveEntry("red")).accepted  # nothing rolled yet
    assert session.view().last_refusal is not None
    assert session.submit(Roll(3, "Anna")).accepted
    view = session.view()
    assert view.last_refusal is None
    assert (view.phase, view.board.die, view.last) == ("move", 3, "roll value=3 player=Anna")
    table = session.table
    assert table is not None
    assert view == Game.from_entries(table.entries).view(session.game_id)


def test_turn_order_and_game_vocabulary_are_enforced() -> None:
    session = Session.in_memory()
    start(session)
    predict_all(session)
    wrong = session.submit(Roll(3, "Bob"))
    assert (wrong.code, wrong.sentence) == ("not_your_turn", "It is Anna's turn.")
    stranger = session.submit(Roll(3, "Zoé"))
    assert stranger.code == "unknown_player"
    card = session.submit(TurnCard("7H"))
    assert card.code == "wrong_game"
    assert session.submit(Roll(3, "Anna")).accepted
    assert session.submit(MoveEntry("red", "Anna")).accepted
    assert session.view().turn == "Bob"


def test_no_game_and_bad_set_ups_are_refused() -> None:
    session = Session.in_memory()
    assert session.submit(Roll(3)).code == "no_game"
    assert session.submit(Undo()).code == "no_game"
    assert session.submit(NewGame("chess", ("A", "B"))).code == "unknown_game"
    assert session.submit(NewGame("jumpy_jack", ("A", "A"))).code == "duplicate_player"
    assert session.submit(NewGame("jumpy_jack", ("A", "B"), {"speed": 3})).code == "bad_option"
    assert session.view().game is None


def test_predictions_stay_out_of_the_public_view_until_the_race_is_scored() -> None:
    """Two tables that differ only in what the players predicted look the same to all."""
    rng_a, rng_b = random.Random(3), random.Random(3)
    tables = [Session.in_memory(), Session.in_memory()]
    for session in tables:
        start(session, ("Anna", "Bob", "Chloé"))
    secret_a = [("red", "blue", "green"), ("white", "yellow", "red"), ("green", "red", "white")]
    secret_b = [("white", "green", "yellow"), ("blue", "red", "green"), ("yellow", "white", "red")]
    for player, mine, theirs in zip(("Anna", "Bob", "Chloé"), secret_a, secret_b, strict=True):
        tables[0].submit(Predict(player, mine))
        tables[1].submit(Predict(player, theirs))
        assert tables[0].view() == tables[1].view()
        assert tables[0].view().sealed == tables[1].view().sealed
    assert tables[0].view().sealed == ("Anna", "Bob", "Chloé")
    assert tables[0].private_view("Bob").details.prediction == ("white", "yellow", "red")
    # Same rolls, same moves: the public views agree until the race is scored.
    while tables[0].view().phase in ("predict", "roll", "move"):
        view = tables[0].view()
        if view.phase in ("predict", "roll"):
            entry = Roll(rng_a.randint(1, 6))
            assert rng_b.randint(1, 6) == entry.value
        else:
            legal = view.board.legal_horses
            entry = MoveEntry(legal[-1]) if legal else Forfeit()
        for session in tables:
            assert session.submit(entry).accepted
        if tables[0].view().phase in ("roll", "move"):
            assert tables[0].view() == tables[1].view()
            assert tables[0].view().board.results == ()
    # Scored: now each table shows its own predictions.
    revealed = tables[0].view().board.results[0].predictions
    assert revealed["Bob"] == ("white", "yellow", "red")
    assert tables[0].view().sealed == ()


def test_a_refused_sealed_input_shows_no_reason_to_the_table() -> None:
    session = Session.in_memory()
    start(session)
    outcome = session.submit(Predict("Anna", ("red", "red", "blue")))
    assert not outcome.accepted and outcome.code == "prediction_invalid"
    public = session.view().last_refusal
    assert public is not None
    assert public.code == "sealed_input_refused"
    assert public.sentence == "Anna: prediction refused: enter it again."
    private = session.private_view("Anna").last_refusal
    assert private is not None and private.code == "prediction_invalid"
    assert session.private_view("Bob").last_refusal is None


def test_several_games_in_one_journal(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    first = start(session)
    predict_all(session)
    second = session.new_game("jumpy_jack", ("Chloé", "Dan"), {"target": 4})
    assert second != first
    session.submit(Predict("Chloé", ("red", "blue", "green")))
    session.close()

    again = Session.open(db)
    assert again.game_id == second  # the game touched last
    assert again.view().players == ("Chloé", "Dan")
    again.resume(first)
    assert again.view().players == ("Anna", "Bob") and again.view().waiting_for == ()
    again.abandon(second)
    statuses = {g.id: g.status for g in again.games()}
    assert statuses == {first: "active", second: "abandoned"}
    again.close()
    assert Session.open(db).game_id == first


def test_a_journal_opens_on_the_game_the_table_showed_last(tmp_path: Path) -> None:
    """A game just finished is opened again (the table comes back on its end pages), unless
    a game was resumed, abandoned or the evening ended after it."""
    db = tmp_path / "journal.sqlite3"
    ticks = (f"2024-06-01T10:{n // 60:02d}:{n % 60:02d}.000+00:00" for n in range(3600))
    session = Session.open(db, clock=lambda: next(ticks))
    paused = session.new_game("jumpy_jack", ("Anna", "Bob"), {})
    predict_all(session)
    ended = session.new_game("jumpy_jack", ("Chloé", "Dan"), {"target": 1})
    rng = random.Random(11)
    while not session.view().finished:
        play_race(session, rng)
        if session.view().phase == "race_over":
            session.submit(NextRace())
    session.close()

    session = Session.open(db, clock=lambda: next(ticks))
    assert session.game_id == ended and session.view().finished  # not the paused game
    session.resume(paused, touch=True)  # the host resumes the paused game: it is shown now
    session.close()
    session = Session.open(db, clock=lambda: next(ticks))
    assert session.game_id == paused
    session.abandon(paused)
    session.resume(ended, touch=True)
    session.close()
    session = Session.open(db, clock=lambda: next(ticks))
    assert session.game_id == ended
    abandoned = session.new_game("jumpy_jack", ("Anna", "Bob"), {})
    session.abandon(abandoned)  # the table went back to its menu: it opens there
    session.close()
    session = Session.open(db, clock=lambda: next(ticks))
    assert session.game_id is None
    session.resume(ended, touch=True)
    session.close()
    seats = SeatBook(db)  # the host ends the evening (the room keeps the mark in this file)
    seats.end_evening(abandoned)
    seats.close()
    assert Session.open(db).game_id is None  # the evening ended after it: the menu


def test_a_finished_game_is_marked_finished(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    session.new_game("jumpy_jack", ("Anna", "Bob"), {"target": 1})
    rng = random.Random(11)
    while not session.view().finished:
        play_race(session, rng)
        if session.view().phase == "race_over":
            session.submit(NextRace())
    assert session.view().winners
    assert [g.status for g in session.games()] == ["finished"]
    session.undo()
    assert [g.status for g in session.games()] == ["active"]
    session.close()


def test_rebuilding_from_entries_equals_the_live_game() -> None:
    session = Session.in_memory()
    start(session)
    play_race(session, random.Random(5))
    session.submit(NextRace())
    session.undo()
    rebuilt = Game.from_entries(session.accepted())
    assert rebuilt.view(1) == session.view()
    assert rebuilt.binding.engine_state() == session.table.binding.engine_state()


def test_a_bad_log_start_is_refused() -> None:
    with pytest.raises(Exception, match="new game"):
        Game.from_entries([Roll(3)])
