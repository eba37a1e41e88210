"""A whole evening in French, entered half at the panel and half from the phones.

Three games at one real table (pages on, French): each decision the table asks for is made
in turn through the panel (buttons, knob, a scanned card, the die) and through the asking
person's phone (the pages' own routes, with that seat's cookie), with the power pulled
(SIGKILL) twice mid-race. Whichever door made it, every game ends with the scores a replay
of its journal gives, and the evening's standings show on the LCD and the pages in French.
"""

from __future__ import annotations

import itertools
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.commands.replay import replay
from companion.games.jockey import default_deck
from tests.web.conftest import Table
from tests.web.http_pads import Pad, seat_everyone

PLAYERS = ("Anna", "Benoît", "Chloé")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PACK = [rank + suit for suit in "SHDC" for rank in RANKS]
JOCKEY_IDS = [card.id for card in default_deck().cards]


@pytest.fixture(scope="module")
def french() -> Iterator[Table]:
    root = Path(tempfile.mkdtemp(prefix="cmpf-"))
    table = Table(root, language="fr")
    yield table
    table.close()
    shutil.rmtree(root, ignore_errors=True)


class Evening:
    """The table, its phones, and whose door makes the next decision."""

    def __init__(self, table: Table, pads: dict[str, Pad]) -> None:
        self.table = table
        self.pads = pads
        self.doors = itertools.cycle(("panel", "phone"))
        self.rng = random.Random(40)
        self.made = {"panel": 0, "phone": 0}
        self.cuts = 0

    def state(self) -> dict[str, Any]:
        return self.table.child.send("state")

    def door(self) -> str:
        door = next(self.doors)
        self.made[door] += 1
        return door

    def phone(self, player: str, entry: dict[str, Any]) -> None:
        status, answer = self.pads[player].enter(entry)
        assert status == 200, (player, entry, answer)

    def press(self, *buttons: str) -> None:
        for button in buttons:
            self.table.child.press(button)

    def power_cut(self, view: dict[str, Any]) -> None:
        """SIGKILL mid-game: the table comes back on the same game, the phones keep their seats."""
        self.table.kill_and_restart()
        back = self.table.child.wait_until(
            lambda s: s["view"].get("events") == view["events"], "the game back"
        )
        assert back["view"]["board"] == view["board"]
        self.cuts += 1

    def moved_on(self, events: int) -> None:
        """Wait until the table has journaled something since ``events``."""
        self.table.child.wait_until(lambda s: s["view"]["events"] > events, "an input taken")

    def new_game(self, game: str, **options: Any) -> None:
        import json

        start: dict[str, Any] = {"do": "new_game", "game": game, "players": "\n".join(PLAYERS)}
        if options:
            start[game] = {k: json.dumps(v) for k, v in options.items()}
        status, answer = self.pads["host"].call("/api/host", start)
        assert status == 200, answer
        self.table.child.wait_until(lambda s: s["view"].get("game") == game, game)

    def next_race(self, view: dict[str, Any]) -> None:
        if self.door() == "phone":
            self.phone(PLAYERS[view["race"] % 3], {"type": "next_race"})
        else:
            self.press("push")

    def replayed(self, view: dict[str, Any]) -> None:
        """The game's journal, exported by the host page, replays to the board the table shows."""
        status, answer = self.pads["host"].call(f"/host/log/{view['game_id']}")
        assert status == 200, answer
        report = replay(str(answer["html"]).splitlines())
        assert all(line["status"] == "accepted" for line in report.lines)
        again = report.session.view()
        assert again.finished and again.board.to_json() == view["board"]
        assert list(again.winners) == view["winners"]


def jumpy_jack(evening: Evening) -> dict[str, Any]:
    while not (view := evening.state()["view"])["finished"]:
        offers, events = view["offers"], view["events"]
        kinds = {o["type"] for o in offers["offers"]}
        asked = offers["waiting"][0] if offers["waiting"] else None
        horses = [h["name"] for h in view["board"]["horses"]]
        if view["phase"] == "race_over":
            evening.next_race(view)
        elif view["waiting_for"]:  # a prediction, asked of the first still to seal one
            assert asked is not None
            chosen = evening.rng.sample(range(len(horses)), 3)
            if evening.door() == "phone":
                evening.phone(asked, {"type": "predict", "horses": [horses[i] for i in chosen]})
            else:
                evening.press(*(f"horse{i + 1}" for i in chosen))
        elif "roll" in kinds:
            evening.table.child.act(f"die {evening.rng.randint(1, 6)}", "a roll")
            continue
        elif "move" in kinds:
            legal = view["board"]["legal_horses"]
            if evening.door() == "phone":
                evening.phone(str(asked), {"type": "move", "horse": legal[0]})
            else:
                evening.press(f"horse{horses.index(legal[0]) + 1}")
        else:
            evening.moved_on(events)  # the table gives up a roll no horse can use
            continue
        evening.moved_on(events)
    return view


def course_hippique(evening: Evening) -> dict[str, Any]:
    while not (view := evening.state()["view"])["finished"]:
        offers, events, board = view["offers"], view["events"], view["board"]
        kinds = {o["type"] for o in offers["offers"]}
        asked = offers["waiting"][0] if offers["waiting"] else None
        seen = {c for c in board["course"] if c} | set(board["turned"])
        if view["phase"] == "redeal":
            seen = set(board["turned"])
        unseen = [c for c in PACK if c not in seen]
        evening.rng.shuffle(unseen)
        if view["race"] == 2 and view["phase"] == "betting" and not evening.cuts:
            evening.power_cut(view)
            continue
        if view["phase"] == "race_over":
            evening.next_race(view)
        elif "deal_course" in kinds:
            missing = board["course"].count(None) if view["phase"] == "dealing" else 7
            if evening.door() == "phone":
                evening.phone(str(asked), {"type": "deal_course", "cards": unseen[:missing]})
            else:
                evening.table.child.act(f"scan {unseen[0]}", "a course card")
                continue
        elif board["max_bet"] is None:
            if evening.door() == "phone":
                evening.phone(str(asked), {"type": "set_max_bet", "amount": 7})
            else:
                evening.press("push")  # the dial's figure
        elif "bet" in kinds and asked is not None:
            door, passing = evening.door(), evening.rng.random() < 0.3
            if door == "phone":
                bet = {"type": "pass"} if passing else {"type": "bet", "horse": "H", "stake": 2}
                evening.phone(asked, bet)
            else:
                evening.press(*(("push",) if passing else ("horse2", "push")))
        else:
            assert "turn_card" in kinds, view
            if evening.door() == "phone":
                evening.phone(str(asked), {"type": "turn_card", "card": unseen[0]})
            else:
                evening.table.child.act(f"scan {unseen[0]}", "a card turned")
                continue
        evening.moved_on(events)
    return view


def jockey(evening: Evening) -> dict[str, Any]:
    while not (view := evening.state()["view"])["finished"]:
        offers, events = view["offers"], view["events"]
        kinds = {o["type"] for o in offers["offers"]}
        asked = offers["waiting"][0] if offers["waiting"] else None
        if view["race"] == 2 and view["phase"] == "racing" and evening.cuts == 1:
            evening.power_cut(view)
            continue
        if view["phase"] == "race_over":
            evening.next_race(view)
        elif "bet" in kinds and asked is not None:
            if evening.door() == "phone":
                evening.phone(asked, {"type": "bet", "kind": "win", "horse": "red", "stake": 100})
            else:
                evening.press("push", "horse1", "push")  # a win on the first horse, 100
        else:
            assert "play_card" in kinds, view
            pile = set(view["board"]["pile"])
            free = [n for n, card in enumerate(JOCKEY_IDS, 1) if card not in pile]
            number = evening.rng.choice(free)
            if evening.door() == "phone":
                kind = JOCKEY_IDS[number - 1].split("#")[0]
                evening.phone(str(asked), {"type": "play_card", "card": kind})
            else:
                evening.table.child.act(f"scan jockey:{number}", "a card played")
                continue
        evening.moved_on(events)
    return view


@pytest.mark.slow(40)
def test_an_evening_in_french_half_at_the_panel_half_from_phones(french: Table) -> None:
    pads = seat_everyone(french, "jumpy_jack", PLAYERS, target=2)
    evening = Evening(french, pads)
    french.child.wait_until(lambda s: s["view"].get("game") == "jumpy_jack", "the first game")
    evening.replayed(jumpy_jack(evening))
    evening.new_game("course_hippique")
    evening.replayed(course_hippique(evening))
    evening.new_game("jockey")
    evening.replayed(jockey(evening))
    assert min(evening.made.values()) > 20, evening.made  # both doors made many inputs
    assert evening.cuts == 2  # two power cuts on the way, mid-race
    lcd = " ".join(french.child.send("state")["lcd"])
    assert "Partie finie" in lcd or "soirée" in lcd.lower(), lcd
    board = Pad(french)
    html = str(board.call("/scoreboard")[1]["html"])
    assert "La soirée" in html and "Jockey" in html
