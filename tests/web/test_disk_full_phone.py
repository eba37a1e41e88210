"""A full disk says so on the phone, as on the LCD: the input was not saved.

The disk is "full" through SQLite's own size limit on the journal (``max_page_count``), as in
tests/daemon/test_table_disk_full.py: SQLite then fails a write exactly as on a full disk.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from companion.daemon.flows.base import Context, Reply
from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.render.text import ROWS
from companion.session.log import NewGame
from companion.session.session import Session
from companion.web.hub import Hub
from companion.web.inputs import seat_request
from companion.web.joins import Joins
from companion.web.seats import SeatBook
from companion.web.side import Answer, TableSide
from tests.quiet import Quiet

#: What the phone heard when the loop gave no answer (a full disk did that before).
IGNORED = Answer(False, "failed", "That input was ignored.")


def set_room(session: Session, room: bool) -> None:
    assert session.journal is not None
    db = session.journal._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {1073741823 if room else pages}")


def predict(controller: TableController, side: TableSide, horses: list[str]) -> Answer:
    """Anna's phone seals a prediction, through the path of /api/input."""
    fields = seat_request("Anna", {"type": "predict", "horses": horses})
    answer: list[Answer] = []
    game_id = controller.session.game_id
    controller.apply(lambda ctx: side.seat_change(ctx, "Anna", game_id, fields, answer))
    return answer[0] if answer else IGNORED  # as seat_input answers when the loop said nothing


@pytest.mark.parametrize(
    ("language", "phone", "lcd"),
    [
        ("en", "The table's disk is full: this input was not saved.", "Disk full"),
        (
            "fr",
            "Le disque de la table est plein\u202f: ce coup n’est pas enregistré.",
            "Disque plein",
        ),
        ("de", "Der Speicher des Tischs ist voll: diese Eingabe ist nicht gesichert.", "Speicher"),
    ],
)
def test_a_full_disk_is_told_to_the_phone_and_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, language: str, phone: str, lcd: str
) -> None:
    session = Session.open(tmp_path / "journal.sqlite3")
    controller = TableController(session, clock=lambda: 100.0, language=language)
    start = NewGame("jumpy_jack", ("Anna", "Ben"), {})
    controller.apply(lambda ctx: ctx.submit(start)[1])
    daemon = Daemon(controller, Panel(), [], Quiet(), clock=lambda: 100.0)
    seats = SeatBook(None)
    side = TableSide(daemon, controller, seats, Joins(lambda: 100.0), Hub(), "10.0.0.2:8080")
    seats.follow(session.game_id)
    seats.issue("Anna")
    caplog.set_level(logging.INFO)
    assert predict(controller, side, ["red", "blue", "green"]).ok

    set_room(session, False)
    orders = [["red", "blue", "green"], ["blue", "red", "green"]]
    answers = [predict(controller, side, orders[n % 2]) for n in range(200)]
    full = [a for a in answers if not a.ok]
    assert full, "the journal never filled up"
    events = session.view().events
    answer = predict(controller, side, ["green", "red", "blue"])
    assert answer == Answer(False, "disk_full", phone)  # what the route answers, with a 409
    assert session.view().events == events  # nothing was taken in
    assert lcd in " ".join(controller.screen().lcd[:ROWS])
    said = [r for r in caplog.records if "disk is full" in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is None  # logged once, with no traceback
    assert not [r for r in caplog.records if r.exc_info is not None]

    set_room(session, True)
    assert predict(controller, side, ["green", "red", "blue"]).ok  # space again: saved again
    assert session.view().events == events + 1
    session.close()
    seats.close()


def test_a_phone_hears_of_a_full_disk_through_the_running_loop(tmp_path: Path) -> None:
    """The loop lets a press reach the displays before its commit; a phone's input is not
    held so: its page hears back only once the input is on disk, or that it is not."""
    session = Session.open(tmp_path / "journal.sqlite3")
    controller = TableController(session, clock=lambda: 100.0)
    start = NewGame("jumpy_jack", ("Anna", "Ben"), {})
    controller.apply(lambda ctx: ctx.submit(start)[1])
    daemon = Daemon(controller, Panel(), [], Quiet())
    seats = SeatBook(None)
    side = TableSide(daemon, controller, seats, Joins(lambda: 100.0), Hub(), "10.0.0.2:8080")
    seats.follow(session.game_id)
    seats.issue("Anna")
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    assert daemon.running.wait(5)

    def predict_on_the_loop(horses: list[str]) -> Answer:
        fields = seat_request("Anna", {"type": "predict", "horses": horses})
        answer: list[Answer] = []
        game_id = controller.session.game_id

        def change(ctx: Context) -> Reply:
            return side.seat_change(ctx, "Anna", game_id, fields, answer)

        daemon.enter(lambda: controller.apply(change)).result(5)
        return answer[0] if answer else IGNORED

    try:
        assert predict_on_the_loop(["red", "blue", "green"]).ok
        daemon.call(lambda: set_room(session, False)).result(5)
        orders = [["blue", "red", "green"], ["red", "blue", "green"]]
        answers = [predict_on_the_loop(orders[n % 2]) for n in range(200)]
        told = [a for a in answers if not a.ok]
        assert told and told[0].code == "disk_full", "a phone was told Done for an unsaved input"
        assert all(a.ok for a in answers[: answers.index(told[0])])
    finally:
        daemon.stop()
        thread.join(5)
