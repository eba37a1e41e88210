"""WebSocket floods from several loopback addresses against the real daemon: upgrades never read
and never closed, sockets refused for want of room, seatless sockets held to keep the TV out.
Fresh pages, the seated phones' inputs and the TV's updates go on."""

from __future__ import annotations

import base64
import contextlib
import os
import re
import select
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.web.hub import UNSEATED, UNSEATED_PER_ADDRESS
from tests.web.conftest import TV
from tests.web.hostile.limited import PATIENCE_S, LimitedTable, limited_table
from tests.web.hostile.test_joining import ask, call, host_code, seated, start
from tests.web.hostile.test_live_sockets import first, live

#: The flooding guests' addresses (loopback only: every 127.x.y.z reaches the daemon).
FLOODERS = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
#: Upgrades a second from each flooding address (the issue's flood: 1,400 a second in all).
RATE = 350
#: Upgrades each flooding address sends at most (a bound, so the test stays a few seconds).
EACH = 1400
#: Fresh scoreboards and seated inputs asked for during a flood.
TRIES = 12


@pytest.fixture(scope="module")
def limited() -> Iterator[LimitedTable]:
    yield from limited_table()


@dataclass
class Seats:
    """The host's phone and Anna's, seated at a game of Jumpy Jack."""

    host: dict[str, str]
    anna: dict[str, str]


@pytest.fixture(scope="module")
def seats(limited: LimitedTable) -> Seats:
    host = limited.seat_host()
    start(limited, host, "Anna\nBob")
    status, _answer, key = ask(limited, host_code(limited, host), "Anna", source="127.0.0.20")
    assert status == 200
    _status, page, _cookies = call(limited, "GET", "/host", cookies=host)
    shown = re.search(r'name="request" value="([^"]+)"', str(page))
    assert shown is not None
    confirm = {"do": "confirm", "request": shown.group(1)}
    answered = call(limited, "POST", "/api/host", confirm, cookies=host)
    assert answered[0] == 200, answered
    return Seats(host, seated(limited, key))


def upgrade(table: LimitedTable, page: str = "board") -> bytes:
    """A WebSocket handshake for the live socket, as a browser page of the table sends it."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET /live?page={page} HTTP/1.1\r\nHost: 127.0.0.1:{table.port}\r\n"
        f"Origin: {table.url}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


@dataclass
class Flood:
    """Threads that open upgraded sockets from ``addresses``, never read them, never close them
    (until the flood is over), up to ``each`` from every address."""

    table: LimitedTable
    addresses: tuple[str, ...]
    each: int = EACH
    sockets: list[socket.socket] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def __enter__(self) -> Flood:
        for address in self.addresses:
            thread = threading.Thread(target=self._run, args=(address,), daemon=True)
            thread.start()
            self.threads.append(thread)
        return self

    def _run(self, address: str) -> None:
        request = upgrade(self.table)
        began = time.monotonic()
        for number in range(self.each):
            if self.stop.wait(max(0.0, began + number / RATE - time.monotonic())):
                return
            made = socket.socket()
            made.settimeout(1.0)
            try:
                made.bind((address, 0))
                made.connect(("127.0.0.1", self.table.port))
                made.sendall(request)
            except OSError:
                made.close()
                continue
            self.sockets.append(made)

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(30)
        for made in self.sockets:
            made.close()


def scoreboard_answered(table: LimitedTable) -> bool:
    try:
        return table.get("/scoreboard")[0] == 200
    except OSError:
        return False


def input_taken(table: LimitedTable, cookies: dict[str, str], horses: list[str]) -> bool:
    try:
        answer = table.post("/api/input", {"type": "predict", "horses": horses}, dict(cookies))
    except OSError:
        return False
    return answer.get("ok") is True


def test_a_flood_of_upgrades_never_read_leaves_fresh_pages_and_seated_inputs_working(
    limited: LimitedTable, seats: Seats
) -> None:
    orders = (["red", "blue", "green"], ["blue", "green", "red"])
    pages = inputs = 0
    with Flood(limited, FLOODERS):
        time.sleep(1.0)  # the flood is under way before the first try
        for n in range(TRIES):
            pages += scoreboard_answered(limited)
            inputs += input_taken(limited, seats.anna, orders[n % 2])
            time.sleep(0.25)  # a seat's inputs are limited to five a second
    assert (pages, inputs) == (TRIES, TRIES), (
        f"scoreboards {pages}/{TRIES}, inputs {inputs}/{TRIES}"
    )


@contextlib.contextmanager
def raw_upgrade(table: LimitedTable, address: str) -> Iterator[socket.socket]:
    """A socket from ``address`` that asks for the live socket and never answers anything."""
    made = socket.socket()
    made.settimeout(PATIENCE_S)
    made.bind((address, 0))
    made.connect(("127.0.0.1", table.port))
    made.sendall(upgrade(table))
    try:
        yield made
    finally:
        made.close()


def closed_by_server(made: socket.socket, within: float) -> bool:
    """Whether the server closes ``made`` within ``within`` seconds (what it sent is read)."""
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([made], [], [], left)
        if readable:
            try:
                if made.recv(65536) == b"":
                    return True
            except OSError:
                return True
    return False


def test_a_socket_refused_for_want_of_room_is_closed_at_once(limited: LimitedTable) -> None:
    address = "127.0.0.30"
    with contextlib.ExitStack() as stack:
        for _ in range(UNSEATED_PER_ADDRESS):  # the address's share of seatless sockets
            link = stack.enter_context(live(limited, "board", source=address))
            assert isinstance(first(link), dict)
        refused = [stack.enter_context(raw_upgrade(limited, address)) for _ in range(20)]
        began = time.monotonic()
        still_open = [made for made in refused if not closed_by_server(made, 1.0)]
        assert not still_open, (
            f"{len(still_open)} of {len(refused)} refused sockets still open "
            f"{time.monotonic() - began:.1f} s after the refusal (never answered by the guest)"
        )


def test_seatless_sockets_from_a_few_addresses_do_not_lock_the_tv_out(
    limited: LimitedTable,
) -> None:
    addresses = [f"127.0.1.{n}" for n in range(UNSEATED // UNSEATED_PER_ADDRESS)]
    with contextlib.ExitStack() as stack:
        for address in addresses:
            for _ in range(UNSEATED_PER_ADDRESS):
                link = stack.enter_context(live(limited, "board", source=address))
                assert isinstance(first(link), dict)
        tv = stack.enter_context(live(limited, "board"))
        answer = first(tv)
        assert isinstance(answer, dict) and "public" in answer, answer


def test_the_tv_follows_the_table_with_every_seatless_socket_taken(
    limited: LimitedTable, seats: Seats, browser: Any
) -> None:
    addresses = [f"127.0.2.{n}" for n in range(1, UNSEATED + 1)]  # one socket each
    with contextlib.ExitStack() as stack:
        for address in addresses:
            link = stack.enter_context(live(limited, "board", source=address))
            assert isinstance(first(link), dict)
        context = browser.new_context(viewport=TV)
        stack.callback(context.close)
        page = context.new_page()
        page.goto(limited.url + "/scoreboard")
        page.wait_for_selector("body[data-version]", timeout=PATIENCE_S * 1000)
        before = int(page.get_attribute("body", "data-version") or 0)
        start(limited, seats.host, "Anna\nBob")  # a new game: the public part changes
        page.wait_for_function(
            "before => Number(document.body.getAttribute('data-version')) > before",
            arg=before,
            timeout=PATIENCE_S * 1000,
        )
