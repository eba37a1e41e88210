"""The table's confirmation on a pretend clock: a long push seats the phone the table named,
a push made for the table reaches the table (late by at most a hold), and nothing else seats."""

from __future__ import annotations

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.devices.base import ButtonHeld, ButtonPressed
from companion.session.session import Session
from companion.web.hub import Hub
from companion.web.joins import WAIT_S, JoinRequest, Joins
from companion.web.seats import HOST, SeatBook
from companion.web.side import HOLD_WAIT_S, TableSide, WebTable
from tests.quiet import Quiet


class Bench:
    """A table in its menu with the pages beside it, on a pretend clock."""

    def __init__(self) -> None:
        self.now = [10.0]
        self.controller = TableController(Session.in_memory(), clock=lambda: self.now[0])
        daemon = Daemon(self.controller, Panel(), [], Quiet(), clock=lambda: self.now[0])
        self.seats = SeatBook(None)
        self.joins = Joins(lambda: self.now[0])
        self.side = TableSide(daemon, self.controller, self.seats, self.joins, Hub(), "t:1")
        self.table = WebTable(self.controller)
        self.table.side = self.side

    def ask(self, seat: str) -> JoinRequest:
        request = self.joins.ask(seat)
        assert isinstance(request, JoinRequest)
        self.table.screen()  # the loop draws after every change
        return request

    def event(self, *events: ButtonPressed | ButtonHeld) -> None:
        for event in events:
            self.table.handle(event)
            self.table.screen()

    def wait(self, seconds: float) -> None:
        self.now[0] += seconds
        self.table.tick(self.now[0])
        self.table.screen()

    def lcd(self) -> str:
        return " ".join(self.table.screen().lcd)


def test_a_push_made_for_the_menu_reaches_the_menu_and_seats_nobody() -> None:
    bench = Bench()
    bench.ask(HOST)
    assert bench.table.screen().oled.lines == ("Phone for the host?", "Hold push: yes")
    bench.event(ButtonPressed("push"))
    assert "Choose a game" in bench.lcd()  # held back: it may be the start of a long push
    assert bench.table.next_deadline() == bench.now[0] + HOLD_WAIT_S
    bench.wait(HOLD_WAIT_S)
    assert "Players:" in bench.lcd()  # let go early: it was the menu's push
    assert HOST not in bench.seats.taken() and len(bench.joins.pending()) == 1


def test_a_long_push_seats_the_phone_named_and_is_no_push_of_the_menu() -> None:
    bench = Bench()
    request = bench.ask(HOST)
    bench.event(ButtonPressed("push"), ButtonHeld("push"))
    assert HOST in bench.seats.taken()
    found = bench.joins.find(request.key)
    assert found is not None and found.token is not None
    bench.wait(HOLD_WAIT_S)
    assert "Choose a game" in bench.lcd() and "Host: phone joined." in bench.lcd()


def test_a_hold_begun_before_the_table_asked_seats_nobody() -> None:
    bench = Bench()
    bench.event(ButtonPressed("push"))  # nothing asked: the menu has its push at once
    assert "Players:" in bench.lcd()
    bench.ask(HOST)  # a phone asks while the knob is still down
    bench.event(ButtonHeld("push"))
    assert HOST not in bench.seats.taken() and len(bench.joins.pending()) == 1


def test_the_host_seat_is_never_given_over_to_a_request() -> None:
    bench = Bench()
    bench.seats.issue(HOST)
    request = bench.joins.ask(HOST)  # the pages refuse it: here, as if it slipped through
    assert isinstance(request, JoinRequest)
    bench.table.screen()
    bench.event(ButtonPressed("push"), ButtonHeld("push"))
    found = bench.joins.find(request.key)
    assert found is not None and found.declined and "This table has a host." in bench.lcd()


def test_a_request_nobody_confirms_leaves_the_displays_in_time() -> None:
    bench = Bench()
    request = bench.ask(HOST)
    assert bench.table.next_deadline() == request.since + WAIT_S  # the loop wakes for it
    bench.wait(WAIT_S)
    assert "Phone for the host?" not in bench.table.screen().oled.lines
    assert bench.joins.pending() == [] and bench.table.next_deadline() is None
