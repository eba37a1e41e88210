"""Joining as a hostile guest on the LAN would try it, against the real daemon.

A guest who has the join code cannot take a seat (the host's least of all) with a push the
table made for its own prompt, cannot fill the queue of requests, cannot hide the table's
prompt or die by opening the join page, and many addresses together cannot search the codes:
wrong codes share one budget, and a phone reading the table still gets in at once.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Table

#: Source addresses a guesser sends from (every 127.x.y.z reaches the daemon on 127.0.0.1).
GUESSERS = [f"127.0.{n // 250 + 1}.{n % 250 + 1}" for n in range(250)]


@pytest.fixture
def table() -> Iterator[Table]:
    root = Path(tempfile.mkdtemp(prefix="cmpj-"))
    made = Table(root)
    yield made
    made.close()
    shutil.rmtree(root, ignore_errors=True)


def call(
    table: Table,
    method: str,
    path: str,
    data: dict[str, Any] | None = None,
    *,
    cookies: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> tuple[int, dict[str, Any] | str, dict[str, str]]:
    """One request from ``source``; the status, the JSON answer (or the page), the cookies set."""
    connection = http.client.HTTPConnection("127.0.0.1", table.port, timeout=10,
                                            source_address=(source, 0))  # fmt: skip
    headers = {"Origin": table.url, "Content-Type": "application/json"}
    if cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    body = json.dumps(data).encode() if data is not None else None
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        raw = answer.read().decode()
        set_cookies = {}
        for header in answer.headers.get_all("set-cookie") or []:
            name, _eq, rest = header.partition("=")
            set_cookies[name] = rest.split(";")[0]
        kind = answer.headers.get("content-type", "")
        return answer.status, json.loads(raw) if "json" in kind else raw, set_cookies
    finally:
        connection.close()


def ask(
    table: Table, code: str, seat: str, source: str = "127.0.0.1"
) -> tuple[int, dict[str, Any], str]:
    """Ask for ``seat`` with ``code``; the status, the answer, and the request's key if filed."""
    status, answer, cookies = call(
        table, "POST", "/api/join", {"code": code, "seat": seat}, source=source
    )
    assert isinstance(answer, dict)
    return status, answer, cookies.get("join", "")


def status_of(table: Table, key: str) -> tuple[dict[str, Any], dict[str, str]]:
    """What the table made of the request ``key``."""
    _status, answer, cookies = call(table, "GET", "/api/join", cookies={"join": key})
    assert isinstance(answer, dict)
    return answer, cookies


def seated(table: Table, key: str) -> dict[str, str]:
    """Wait until the request ``key`` is confirmed; the seat's cookie."""
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:
        answer, cookies = status_of(table, key)
        if answer.get("go"):
            return cookies
        assert answer.get("waiting"), answer
        time.sleep(0.05)
    raise AssertionError("never seated")


def a_host(table: Table) -> dict[str, str]:
    """The first host: the code the table shows, the request, the knob held down."""
    call(table, "GET", "/join?host")
    status, _answer, key = ask(table, table.join_code(), "#host")
    assert status == 200
    table.child.send("hold push")
    return seated(table, key)


def host_code(table: Table, host: dict[str, str]) -> str:
    """The join code the host page shows."""
    _status, page, _cookies = call(table, "GET", "/host", cookies=host)
    found = re.search(r'class="code">(\d+)<', str(page))
    assert found is not None
    return found.group(1)


def start(table: Table, host: dict[str, str], players: str) -> None:
    status, answer, _ = call(
        table, "POST", "/api/host", {"do": "new_game", "game": "jumpy_jack", "players": players},
        cookies=host,
    )  # fmt: skip
    assert status == 200, answer
    table.child.wait_until(lambda s: s["view"]["game"] == "jumpy_jack", "the new game")


def asked_about(table: Table, seat: str) -> None:
    """Wait until the table asks about a phone for ``seat`` (LCD rows or OLED)."""
    question = f"Phone for {seat}?"
    table.child.wait_until(
        lambda s: any(question in row for row in s["lcd"] + s["oled"]["lines"]), question
    )


def screen(table: Table) -> tuple[list[str], dict[str, Any]]:
    state = table.child.send("state")
    return state["lcd"], state["oled"]


def test_a_push_for_the_table_never_seats_a_phone_and_only_the_table_gives_the_host_seat(
    table: Table,
) -> None:
    call(table, "GET", "/join?host")
    code = table.join_code()
    status, _answer, key = ask(table, code, "#host", source="127.0.0.9")
    assert status == 200
    lcd, _oled = screen(table)
    assert lcd[0].strip() == "Choose a game:"
    table.child.press("push")  # the table's own prompt: pick the game under the cursor
    table.child.wait_text("Players:")  # the push went to the menu...
    answer, _cookies = status_of(table, key)
    assert answer == {"ok": True, "waiting": True}  # ...and seated nobody
    asked_about(table, "the host")
    table.child.send("hold push")  # the deliberate act, naming the seat: now it is given
    host = seated(table, key)
    assert "host" in host
    code = host_code(table, host)
    status, answer, _key = ask(table, code, "#host", source="127.0.0.10")
    assert (status, answer["code"]) == (409, "host_taken")  # never by a request
    _status, page, _ = call(table, "GET", "/host", cookies=host)
    assert 'id="host"' in str(page)  # the real host's page is still the host's
    # The table hands the seat over (the old phone is lost): the menu's "New host phone" shows
    # the code again, and the knob held down seats the new phone.
    table.child.press("push")  # to the options
    table.child.turn(-2)
    table.child.wait_text(">New host phone")
    table.child.press("push")
    table.child.wait_text("Host seat open")
    status, _answer, key = ask(table, table.join_code(), "#host", source="127.0.0.11")
    assert status == 200
    _status, page, _ = call(table, "GET", "/host", cookies=host)
    shown = re.search(r'name="request" value="([^"]+)"', str(page))
    assert shown is not None
    status, answer, _ = call(
        table, "POST", "/api/host", {"do": "confirm", "request": shown.group(1)}, cookies=host
    )
    assert (status, answer["code"]) == (409, "table_only")  # not from a page, even the host's
    asked_about(table, "the host")
    table.child.send("hold push")
    assert "host" in seated(table, key)
    status, _page, _ = call(table, "GET", "/host", cookies=host)
    assert status == 303  # the old phone is no host any more


def test_requests_wait_one_a_seat_a_few_in_all_and_the_host_declines_them_at_once(
    table: Table,
) -> None:
    host = a_host(table)
    start(table, host, "Anna\nBob\nChloé\nDan\nEve\nFay")
    code = host_code(table, host)
    answers = [
        ask(table, code, seat, source=f"127.0.3.{n + 1}")
        for n, seat in enumerate(["Anna", "Bob", "Chloé", "Dan", "Eve", "Fay"] * 3 + ["Anna"] * 2)
    ]
    filed = [key for status, _answer, key in answers if status == 200]
    assert len(filed) == 4  # one request a seat, four at most
    assert {a["code"] for s, a, _ in answers if s != 200} == {"seat_asked", "too_many"}
    status, answer, _ = ask(table, host_code(table, host), "Fay")
    assert (status, answer["code"]) == (429, "too_many")
    status, answer, _ = call(table, "POST", "/api/host", {"do": "decline_all"}, cookies=host)
    assert status == 200, answer
    assert all(status_of(table, key)[0]["code"] == "declined" for key in filed)
    status, _answer, _key = ask(table, host_code(table, host), "Anna")
    assert status == 200  # Anna's own phone is asked about now
    asked_about(table, "Anna")


def test_the_join_page_and_a_waiting_phone_never_cover_the_prompt_or_the_die(
    table: Table,
) -> None:
    host = a_host(table)
    start(table, host, "Anna")
    for horse in ("horse1", "horse2", "horse3"):  # Anna seals her prediction at the panel
        table.child.press(horse)
    table.child.act("die 4", "a roll")
    before = screen(table)
    assert before[1]["die"] == 4 and all(row.strip() for row in before[0])
    for _ in range(3):
        status, _page, _ = call(table, "GET", "/join")
        assert status == 200
    assert screen(table) == before  # a bare GET shows nothing
    status, _answer, key = ask(table, host_code(table, host), "Anna")
    assert status == 200
    assert screen(table) == before  # no room: the table asks once it leaves some
    table.child.send("hold push")
    assert status_of(table, key)[0] == {"ok": True, "waiting": True}  # not asked, not given


def test_many_addresses_share_one_budget_and_a_phone_reading_the_table_still_gets_in(
    table: Table,
) -> None:
    host = a_host(table)
    start(table, host, "Anna\nBob")
    code = host_code(table, host)
    wrong = [f"{(int(code) + 1 + n) % 10_000:04d}" for n in range(len(GUESSERS))]
    answers = [ask(table, guess, "Bob", source=source)[1]["code"]
               for guess, source in zip(wrong, GUESSERS, strict=True)]  # fmt: skip
    evaluated = answers.count("wrong_code")
    assert evaluated <= 10, f"{evaluated} wrong codes looked at from {len(GUESSERS)} addresses"
    assert set(answers) <= {"wrong_code", "long_code"}
    code = host_code(table, host)  # the table shows a long code now
    _status, page, _ = call(table, "GET", "/join")
    longest = re.search(r'name="code"[^>]* maxlength="(\d+)"', str(page))
    assert longest is not None and len(code) == int(longest.group(1)) > 4
    status, _answer, key = ask(table, code, "Anna", source="127.0.9.9")
    assert status == 200 and key  # the right code, at once
