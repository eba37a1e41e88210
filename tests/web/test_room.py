"""The room's edges against the real daemon, over HTTP as a phone and the host page send it.

A new person asks for a seat of their own by typing their name, before any game and in the
middle of the evening, and the host adds people by name; names alike are refused. A person
sitting a game out is a stranger to it, a player of a paused game keeps their seat, a phone
still waiting when the evening ends is told no, and the host page says whose phone a seat
would move from.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Table
from tests.web.hostile.test_joining import a_host, call, host_code, seated, start, status_of


@pytest.fixture
def table() -> Iterator[Table]:
    root = Path(tempfile.mkdtemp(prefix="cmpr-"))
    made = Table(root)
    yield made
    made.close()
    shutil.rmtree(root, ignore_errors=True)


def ask_new(table: Table, code: str, name: str) -> tuple[int, dict[str, Any], str]:
    """Ask for a new seat named ``name``; the status, the answer, the request's key if filed."""
    status, answer, cookies = call(table, "POST", "/api/join", {"code": code, "name": name})
    assert isinstance(answer, dict)
    return status, answer, cookies.get("join", "")


def ask_for(table: Table, code: str, seat: str) -> str:
    """Ask for ``seat`` (one the join page offers); the request's key."""
    status, answer, cookies = call(table, "POST", "/api/join", {"code": code, "seat": seat})
    assert status == 200, answer
    return cookies["join"]


def host(table: Table, host_cookie: dict[str, str], command: dict[str, Any]) -> tuple[int, Any]:
    status, answer, _cookies = call(table, "POST", "/api/host", command, cookies=host_cookie)
    return status, answer


def page(table: Table, path: str, cookies: dict[str, str] | None = None) -> str:
    status, shown, _cookies = call(table, "GET", path, cookies=cookies)
    assert status == 200, (path, status)
    return str(shown)


def waiting_keys(table: Table, host_cookie: dict[str, str]) -> dict[str, str]:
    """The requests the host page lists: what each says, and its key."""
    shown = page(table, "/host", host_cookie)
    found = re.findall(r'name="request" value="([^"]+)"><span>([^<]+)</span>', shown)
    return {said.replace("&#x27;", "'"): key for key, said in found}


def asked_new(table: Table, name: str) -> None:
    """Wait until the table asks about adding ``name`` (LCD rows or OLED)."""
    question = f"Add {name}?"
    table.child.wait_until(
        lambda s: any(question in row for row in s["lcd"] + s["oled"]["lines"]), question
    )


def test_a_new_person_asks_for_a_seat_before_any_game_and_the_host_adds_people(
    table: Table, browser: Any
) -> None:
    hosting = a_host(table)
    join = page(table, "/join")
    assert "No game is on yet" not in join and 'id="join-new"' in join
    code = host_code(table, hosting)
    status, answer, key = ask_new(table, code, "  Zoé ")  # trimmed
    assert (status, answer) == (200, {"ok": True, "waiting": True}), answer
    asked_new(table, "Zoé")
    table.child.send("hold push")  # the table confirms, as for a seat of a game
    zoe = seated(table, key)
    assert "You are Zoé" in page(table, "/play", zoe)
    for typed, refusal in (
        ("ZOÉ", (409, "name_taken")),  # alike Zoé: one person
        ("Zoe\u0301", (409, "name_taken")),  # the same letters, the accent typed apart
        ("   ", (400, "bad_name")),
        ("x" * 21, (400, "bad_name")),
        ("#host", (400, "bad_name")),
    ):
        status, answer, _key = ask_new(table, host_code(table, hosting), typed)
        assert (status, answer["code"]) == refusal, (typed, answer)
    assert ask_new(table, code, "ZOÉ")[1]["sentence"] == "Zoé is in the room already."
    both = {"code": code, "seat": "Zoé", "name": "Ben"}
    assert call(table, "POST", "/api/join", both)[0] == 400  # a seat or a name, not both

    assert host(table, hosting, {"do": "add_person", "name": " Ben "}) == (200, {"ok": True})
    status, answer = host(table, hosting, {"do": "add_person", "name": "ben"})
    assert (status, answer["code"], answer["sentence"]) == (
        409, "name_taken", "Ben is in the room already."
    )  # fmt: skip
    assert 'value="Ben">Ben</button>' in page(table, "/join")  # Ben's phone may ask for it

    # Chloé types her name on the join page and sends it with Enter; the host page confirms.
    phone = browser.new_context()
    try:
        join_page = phone.new_page()
        join_page.goto(table.url + "/join")
        join_page.fill("input[name=code]", host_code(table, hosting))
        join_page.fill("input[name=name]", "Chloé")
        join_page.press("input[name=name]", "Enter")
        join_page.wait_for_selector("text=Wait for the table")
        waiting = waiting_keys(table, hosting)
        assert list(waiting) == ["Chloé (new to the room)"]
        confirm = {"do": "confirm", "request": waiting["Chloé (new to the room)"]}
        assert host(table, hosting, confirm)[0] == 200
        join_page.wait_for_url("**/play")
        join_page.wait_for_selector("text=You are Chloé")
    finally:
        phone.close()
    shown = page(table, "/host", hosting)
    assert "Zoé (phone), Ben, Chloé (phone)" in shown
    assert ">Zoé\nBen\nChloé</textarea>" in shown  # the new game starts from the room


def test_mid_evening_a_late_joiner_gets_a_new_seat_and_sits_out_as_a_stranger(
    table: Table,
) -> None:
    hosting = a_host(table)
    start(table, hosting, "Anna\nBob")
    code = host_code(table, hosting)
    join = page(table, "/join")
    assert 'value="Anna">' in join and 'id="join-new"' in join  # a new seat, not only these
    status, _answer, key = ask_new(table, code, "Dan")
    assert status == 200
    asked_new(table, "Dan")
    table.child.send("hold push")
    dan = seated(table, key)
    assert "You sit this game out" in page(table, "/play", dan)
    before = table.view()
    assert before["phase"] == "predict"
    status, answer, _ = call(table, "POST", "/api/input", {"type": "next_race"}, cookies=dan)
    assert (status, answer.get("code")) == (409, "unknown_player"), answer
    status, answer, _ = call(
        table, "POST", "/api/input", {"type": "predict", "horses": ["red", "blue", "white"]},
        cookies=dan,
    )  # fmt: skip
    assert (status, answer.get("code")) == (409, "unknown_player"), answer
    assert table.view()["events"] == before["events"]

    # Anna plays the first game; Bob and Dan start another: Anna's game is paused, not over.
    key = ask_for(table, code, "Anna")
    table.child.wait_until(
        lambda s: any("Phone for Anna?" in r for r in s["lcd"] + s["oled"]["lines"]), "Anna"
    )
    table.child.send("hold push")
    anna = seated(table, key)
    start(table, hosting, "Bob\nDan")
    mine = page(table, "/play", anna)
    assert "A paused game still needs you" in mine and 'data-leave="1"' not in mine
    status, answer, _ = call(table, "POST", "/api/leave", {}, cookies=anna)
    assert (status, answer.get("code")) == (409, "in_game"), answer
    paused = re.search(r'data-do="resume"[^>]*><input type="hidden" name="game" value="(\d+)"',
                       page(table, "/host", hosting))  # fmt: skip
    assert paused is not None
    assert host(table, hosting, {"do": "abandon", "game": int(paused.group(1))})[0] == 200
    status, answer, _ = call(table, "POST", "/api/leave", {}, cookies=anna)
    assert status == 200, answer  # the game is abandoned: nothing needs Anna's phone now


def test_the_host_sees_whose_phone_a_seat_moves_from_and_the_evening_declines_the_waiting(
    table: Table,
) -> None:
    hosting = a_host(table)
    start(table, hosting, "Anna\nBob")
    code = host_code(table, hosting)
    key = ask_for(table, code, "Anna")
    waiting = waiting_keys(table, hosting)
    assert list(waiting) == ["Anna"]  # no phone holds Anna's seat yet: her name, as before
    assert host(table, hosting, {"do": "confirm", "request": waiting["Anna"]})[0] == 200
    seated(table, key)
    # Another phone asks for Anna's seat: the host page says her phone holds it now.
    moving = ask_for(table, code, "Anna")
    assert list(waiting_keys(table, hosting)) == ["Anna's seat is on another phone: move it?"]
    status, _answer, newcomer = ask_new(table, code, "Eve")
    assert status == 200
    assert host(table, hosting, {"do": "end_evening"})[0] == 200
    for key in (moving, newcomer):  # told no, as the documentation says, then forgotten
        answer, _cookies = status_of(table, key)
        assert answer["code"] == "declined", answer
        assert status_of(table, key)[0]["code"] == "no_request"
