"""A hostile guest at the real daemon (a child process): a seated phone probing another
player's Jockey hand through refusals learns nothing, and the host page gives a game's log
only once that game is over."""

from __future__ import annotations

import json
import random
import re
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.app import JOURNAL_NAME
from companion.games.jockey.deck import default_deck
from companion.session.autoplay import random_log
from companion.session.session import Session
from tests.web.conftest import Table

#: The two seats of the finished game, which the panel's menu then offers first (the room's
#: people) to the game it starts: Anna probes, Ben holds.
ANNA, BEN = "Player 1", "Player 2"
#: The hand Ben counts on his phone (15 cards: two players, a full hand each).
BENS_HAND = {"red+7": 4, "blue+10": 3, "no3+18": 3, "brown+10": 3, "yellow+7": 2}


class Phone:
    """A client with its own cookies, sending what a page (or a hostile script) sends."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def call(self, path: str, data: object = None) -> tuple[int, Any, str]:
        """GET (or POST ``data`` as JSON); return the status, the JSON answer or the text."""
        body = None if data is None else json.dumps(data).encode()
        headers = {"Content-Type": "application/json", "Origin": self.table.url}
        sent = urllib.request.Request(self.table.url + path, data=body, headers=headers)
        try:
            with self.opener.open(sent, timeout=10) as answer:
                status, raw = answer.status, answer.read().decode()
        except urllib.error.HTTPError as refused:
            status, raw = refused.code, refused.read().decode()
        try:
            return status, json.loads(raw), raw
        except ValueError:
            return status, None, raw

    def join(self, seat: str, code: str) -> None:
        """Ask for ``seat`` with ``code``; the table confirms it with a long push."""
        self.call("/join?host" if seat == "#host" else "/join")
        status, answer, _ = self.call("/api/join", {"code": code, "seat": seat})
        assert status == 200, answer
        question = f"Phone for {'the host' if seat == '#host' else seat}?"
        self.table.child.wait_until(
            lambda s: any(question in row for row in s["lcd"] + s["oled"]["lines"]), question
        )
        self.table.child.send("hold push")
        deadline = time.monotonic() + 10
        while (answer := self.call("/api/join")[1]).get("waiting") and time.monotonic() < deadline:
            time.sleep(0.05)  # the knob is held down for a second first
        assert answer.get("waiting") is False, answer

    def host_code(self) -> str:
        """The join code the host page shows."""
        found = re.search(r'<b class="code">(\d+)</b>', self.call("/host")[2])
        assert found is not None
        return found.group(1)


@dataclass
class Seated:
    """The table and its host's phone (seated at the menu, before the game began)."""

    table: Table
    host: Phone


@pytest.fixture(scope="module")
def seated() -> Iterator[Seated]:
    """A daemon whose journal holds a finished game (game 1) and a host seated at the menu;
    a Jockey game with hands counted on the phones is then started at the panel, Anna's and
    Ben's phones seated with the code of the host page."""
    root = Path(tempfile.mkdtemp(prefix="cmph-"))
    (root / "state").mkdir()
    session = Session.open(root / "state" / JOURNAL_NAME)
    for entry in random_log("jumpy_jack", random.Random(7), length=100_000, undo_rate=0.0,
                            players=(ANNA, BEN), options={"target": 2}):  # fmt: skip
        session.submit(entry)
    assert session.view().finished
    session.close()
    made = Table(root)
    child = made.child
    child.wait_text("Push: menu")  # the table opens on the finished game's end pages
    child.press("push")  # the menu
    host = Phone(made)
    host.join("#host", made.join_code())  # the code the table shows while it has no host
    child.press("horse3")
    child.press("push")  # Jockey, 2 players
    child.turn(-3)  # up past Language and New host phone to Hands
    child.wait_text("Hands")
    child.press("push")  # hands: scanned (or counted on the phones)
    child.turn(3)
    child.press("push")  # Start
    child.wait_until(lambda s: s["view"].get("game") == "jockey", "the Jockey game")
    yield Seated(made, host)
    made.close()
    shutil.rmtree(root, ignore_errors=True)


def test_probing_another_hand_through_refusals_learns_nothing(seated: Seated) -> None:
    table = seated.table
    anna, ben = Phone(table), Phone(table)
    anna.join(ANNA, seated.host.host_code())
    ben.join(BEN, seated.host.host_code())
    status, answer, _ = ben.call("/api/input", {"type": "hand", "cards": BENS_HAND})
    assert (status, answer) == (200, {"ok": True})
    events = table.view()["events"]

    # Anna is owed cards too. For each kind of card, she asks for every copy of it beside a
    # card that does not exist: if the refusal named the copies Ben holds, she would learn
    # which kinds are in his hand, one request a kind (and all of it in about 40).
    copies: dict[str, int] = {}
    for card in default_deck().cards:
        kind = card.id.split("#")[0]
        copies[kind] = copies.get(kind, 0) + 1
    answers = {}
    for kind, count in copies.items():
        probe = {"type": "hand", "cards": {kind: count, "zzz": 1}}
        status, answer, _ = anna.call("/api/input", probe)
        answers[kind] = (status, answer["code"], answer["sentence"])
    learned = {kind for kind, said in answers.items() if said[1] != "unknown_card"}
    assert learned == set(), f"the refusals gave away Ben's {sorted(learned)}"
    assert set(answers.values()) == {(409, "unknown_card", answers["red+7"][2])}
    assert table.view()["events"] == events  # and nothing was taken in

    # Counting her own hand, Anna is told only what she could know: the deck has 4 red +7.
    time.sleep(1.0)  # her twenty probes spent her seat's burst: five inputs a second return
    status, answer, _ = anna.call("/api/input", {"type": "hand", "cards": {"red+7": 5}})
    assert (status, answer["code"]) == (409, "too_many_copies")
    hers = {"red+7": 4, "no2+15": 4, "blue+10": 3, "red+10": 3, "yellow+7": 1}
    status, answer, _ = anna.call("/api/input", {"type": "hand", "cards": hers})
    assert (status, answer) == (200, {"ok": True})  # the same kinds as Ben's: copies are hers


def test_the_log_of_a_game_is_given_only_once_it_is_over(seated: Seated) -> None:
    table, host = seated.table, seated.host
    current = 2  # the Jockey game, after the finished game 1
    status, answer, _ = host.call(f"/host/log/{current}")
    assert status == 403 and answer["code"] == "log_sealed"
    assert answer["sentence"] == "A game's log opens once the game is over."
    status, _, page = host.call("/host")
    assert status == 200 and f'href="/host/log/{current}"' not in page
    assert 'href="/host/log/1"' in page  # the finished game's log is offered...
    status, _, log = host.call("/host/log/1")
    lines = [json.loads(line) for line in log.splitlines()]
    assert status == 200 and lines[0]["type"] == "new_game" and len(lines) > 10  # ...and given
    assert host.call("/host/log/99")[0] == 404  # no such game
    assert Phone(table).call(f"/host/log/{current}")[0] == 401  # and never to a stranger
