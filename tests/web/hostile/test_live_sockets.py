"""The pages' live sockets against guests: a page whose seat is gone is sent to join again (in
Chromium too), no guest, from one address or many, takes the sockets of the seated phones
and of the host's pages, and the seatless ones are shared out among the addresses."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from companion.web.hub import FULL, PER_SEAT, REJOIN, UNSEATED, UNSEATED_PER_ADDRESS
from tests.web.conftest import PHONE
from tests.web.hostile.limited import PATIENCE_S, LimitedTable, guest, limited_table

#: Guests' devices, and sockets each opens: more than the unseated pages' share, from fewer
#: addresses than it takes, and more per address than one may hold.
GUESTS = 12
EACH = UNSEATED_PER_ADDRESS + 2


@pytest.fixture(scope="module")
def limited() -> Iterator[LimitedTable]:
    yield from limited_table()


@pytest.fixture(scope="module")
def host(limited: LimitedTable) -> dict[str, str]:
    """The cookies of the host's phone, seated once for the module."""
    return limited.seat_host()


def live(
    table: LimitedTable, page: str, cookies: dict[str, str] | None = None, source: str = ""
) -> ClientConnection:
    """A page's socket, with the page's cookies, from ``source`` (default 127.0.0.1)."""
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else None
    return connect(
        table.url.replace("http", "ws") + f"/live?page={page}",
        origin=table.url,  # type: ignore[arg-type]
        additional_headers=headers,
        proxy=None,
        open_timeout=PATIENCE_S,
        source_address=(source or "127.0.0.1", 0),
    )


def first(link: ClientConnection) -> dict[str, Any] | int:
    """The first frame a socket gets, or the code it is closed with."""
    try:
        frame: dict[str, Any] = json.loads(link.recv(timeout=PATIENCE_S))
        return frame
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed with no code"
        return closed.rcvd.code


@pytest.mark.parametrize(
    ("page", "cookies"),
    [
        ("play", None),
        ("play", {"seat": "x" * 43}),
        ("host", None),
        ("host", {"host": "x" * 43}),
    ],
)
def test_a_page_whose_seat_is_missing_or_stale_is_told_to_join_again(
    limited: LimitedTable, page: str, cookies: dict[str, str] | None
) -> None:
    with live(limited, page, cookies) as link:  # accepted, so the page can read the code
        assert first(link) == REJOIN


def still_live(link: ClientConnection) -> bool:
    """Whether the companion still keeps ``link`` open (updates it sent meanwhile are read)."""
    try:
        while True:
            link.recv(timeout=0.2)
    except TimeoutError:
        return True
    except ConnectionClosed:
        return False


def test_guests_cannot_take_the_sockets_of_the_seats(
    limited: LimitedTable, host: dict[str, str]
) -> None:
    with contextlib.ExitStack() as stack:
        kept: dict[str, list[ClientConnection]] = {}
        refused = 0
        for number in range(GUESTS * EACH):
            address = guest(number // EACH)
            try:
                link = stack.enter_context(live(limited, "board", source=address))
            except InvalidStatus:
                refused += 1
                continue
            answer = first(link)
            if answer == FULL:
                refused += 1
            else:
                assert isinstance(answer, dict) and "public" in answer, answer
                kept.setdefault(address, []).append(link)
        # The seatless sockets are shared out: never more than their share in all or from one
        # address, and every guest's device holds some (the later ones took the place of the
        # oldest of the addresses holding the most).
        live_now = Counter(
            {a: sum(still_live(link) for link in links) for a, links in kept.items()}
        )
        assert sum(live_now.values()) == UNSEATED, live_now
        assert max(live_now.values()) <= UNSEATED_PER_ADDRESS, live_now
        assert len(+live_now) == GUESTS, live_now
        assert refused >= GUESTS * (EACH - UNSEATED_PER_ADDRESS), refused  # each over its share
        # With every unseated socket taken, the host's page and its scoreboard still connect.
        host_page = stack.enter_context(live(limited, "host", host))
        answer = first(host_page)
        assert isinstance(answer, dict) and "host" in answer, answer
        boards = [stack.enter_context(live(limited, "board", host)) for _ in range(PER_SEAT - 1)]
        assert all(isinstance(first(board), dict) for board in boards)
        # One more page of the host's seat takes the place of its oldest (its page).
        newest = stack.enter_context(live(limited, "board", host))
        assert isinstance(first(newest), dict)
        assert first(host_page) == FULL


def test_a_page_whose_seat_went_stale_while_away_goes_to_join(
    limited: LimitedTable, host: dict[str, str], browser: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        cookie = {"url": limited.url, "httpOnly": True, "sameSite": "Strict"}
        context.add_cookies([{"name": "host", "value": host["host"], **cookie}])
        page = context.new_page()
        page.goto(limited.url + "/host")
        page.wait_for_selector("body[data-version]")  # its socket is live
        # While the companion is away, the seat stops being this phone's.
        context.add_cookies([{"name": "host", "value": "x" * 43, **cookie}])
        limited.kill_and_restart()
        page.wait_for_url("**/join?host", timeout=60_000)
    finally:
        context.close()
