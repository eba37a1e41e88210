"""The chances beside the odds: exact ones at once; a setback estimate off the loop's thread,
shown when it arrives, and dropped when the race moved on meanwhile."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.session import autoplay
from companion.session.session import Session
from companion.web.fragments import public_html
from companion.web.games.course_hippique import chances_of
from companion.web.hub import Hub, Snapshot
from companion.web.joins import Joins
from companion.web.seats import SeatBook
from companion.web.side import TableSide
from companion.web.state import RaceOdds, public_state
from tests.web.test_page_languages import Quiet

Step = Callable[[], None]


def course(options: dict[str, object]) -> Session:
    session = Session.in_memory()
    session.new_game("course_hippique", ["Anna", "Bob", "Chloé"], options)
    return session


def play_until_a_card_is_turned(session: Session, rng: random.Random) -> None:
    """Play legal inputs until the croupier has turned one more card."""
    table = session.table
    assert table is not None
    while True:
        entry = autoplay.legal_input(table, rng)
        assert entry is not None
        assert session.submit(entry).accepted
        if entry.TYPE == "turn_card":
            return


def test_an_estimate_is_computed_off_the_loop_and_shown_when_it_arrives() -> None:
    session = course({"setback": "all"})
    jobs: list[Step] = []
    arrived: list[Step] = []
    odds = RaceOdds(jobs.append, arrived.append)
    assert chances_of(public_state(session, odds)) == ()  # the pages go on without it meanwhile
    assert len(jobs) == 1 and not arrived
    jobs.pop()()  # the worker
    assert chances_of(public_state(session, odds)) == ()  # kept only in the loop's turn
    arrived.pop()()
    shown = chances_of(public_state(session, odds))
    assert shown == chances_of(public_state(session))  # the same seeded estimate, computed at once
    assert len(shown) == 4 and all(c.fraction == "" for c in shown)
    assert not jobs  # the same race: nothing computed again


def test_an_estimate_for_a_race_that_moved_on_is_dropped() -> None:
    session = course({"setback": "all"})
    jobs: list[Step] = []
    arrived: list[Step] = []
    odds = RaceOdds(jobs.append, arrived.append)
    public_state(session, odds)
    before = chances_of(public_state(session))
    play_until_a_card_is_turned(session, random.Random(7))
    public_state(session, odds)
    stale, fresh = jobs
    stale()
    assert not arrived  # the first estimate was not even computed
    fresh()
    arrived.pop()()
    now = chances_of(public_state(session, odds))
    assert now == chances_of(public_state(session)) and now != before


def test_exact_chances_are_computed_at_once() -> None:
    session = course({})
    rng = random.Random(3)
    jobs: list[Step] = []
    odds = RaceOdds(jobs.append, jobs.append)
    while not chances_of(public_state(session)):
        table = session.table
        assert table is not None
        entry = autoplay.legal_input(table, rng)
        assert entry is not None and session.submit(entry).accepted
    chances = chances_of(public_state(session, odds))
    assert chances == chances_of(public_state(session))
    assert all(c.fraction for c in chances) and not jobs


def test_the_largest_stake_reads_as_not_set_before_the_croupier_sets_it() -> None:
    board = public_html(public_state(course({})))
    assert "largest stake: —" in board and "None" not in board


def test_the_daemon_draws_the_pages_again_when_an_estimate_arrives() -> None:
    controller = TableController(Session.in_memory(), clock=lambda: 100.0, language="en")
    controller.session.new_game("course_hippique", ["Anna", "Bob", "Chloé"], {"setback": "all"})
    daemon = Daemon(controller, Panel(), [], Quiet(), clock=lambda: 100.0)
    side = TableSide(
        daemon, controller, SeatBook(None), Joins(lambda: 100.0), Hub(), "10.0.0.2:8080"
    )
    loop = threading.Thread(target=daemon.run, daemon=True)
    loop.start()
    try:
        first = daemon.call(side.drawn).result(10)
        assert isinstance(first, Snapshot) and "≈" not in first.public
        deadline = time.monotonic() + 20
        while True:  # the worker's estimate, handed to the loop, makes the next draw show it
            drawn = daemon.call(side.drawn).result(10)
            assert isinstance(drawn, Snapshot)
            if "≈" in drawn.public:
                break
            assert time.monotonic() < deadline, "the estimate never reached the pages"
            time.sleep(0.01)
        assert drawn.version > first.version and drawn.public.count("≈ ") == 4
    finally:
        daemon.stop()
        loop.join(10)
