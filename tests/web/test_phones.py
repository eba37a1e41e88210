"""Phones, a host page and a scoreboard in Debian's Chromium against the real daemon.

One daemon child serves the whole module: the host joins and starts a Jumpy Jack match with
the guess variant, two phones join, predict and guess, the die button rolls and the phones
move the horses (the daemon is killed mid-race and every page finds its seat again by
itself), and the match plays on to its end; three phones play a whole Course hippique game
with no card scanned; then a Jockey game: its first race with hands counted on the phones,
bets from the phones and every card tapped, the other two quickly. Before each reveal, every
byte each page received is searched for another seat's sealed input. The evening's standings
of the three games (three kinds) are worked by hand and read on the LCD and the pages.
"""

from __future__ import annotations

import contextlib
import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from companion.games.course_hippique import CourseHippiqueGame
from companion.web.hub import UNSEATED_PER_ADDRESS
from tests.web.conftest import PHONE, TV, Table

#: Where the screenshots go: docs/phones/ when COMPANION_SCREENSHOTS=1 (to refresh the
#: guide's pictures), else a temporary folder (a test run leaves the checkout as it was).
DOCS = Path(__file__).resolve().parents[2] / "docs" / "phones"
PREDICTIONS = {"Anna": ("blue", "white", "green"), "Bob": ("white", "yellow", "red")}
#: Anna's guess of Bob's prediction: white in its place, worth 1 bonus point.
GUESS = ("white", "red", "yellow")


class Phone:
    """One browser context (its own cookies) with one page, and everything it received."""

    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.responses: list[Any] = []
        self.frames: list[str] = []
        self.page.on("response", lambda response: self.responses.append(response))
        self.page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(str(payload)))

    def received(self) -> str:
        """Every response body and socket frame this phone got so far, as one text."""
        bodies = []
        for response in self.responses:
            try:
                bodies.append(response.text())
            except Exception:  # a redirect has no body to read
                continue
        return "\n".join(bodies + self.frames)


def join(
    phone: Phone, table: Table, seat: str, *, host: bool = False, code: str | None = None
) -> None:
    """Open the join page, type the code (the table's while it has no host), ask for ``seat``."""
    typed = code or table.join_code()
    phone.page.goto(table.url + ("/join?host" if host else "/join"))
    phone.page.fill("input[name=code]", typed)
    phone.page.click(f"button[value='{seat}']")
    try:
        phone.page.wait_for_selector("text=Wait for the table")
    except PlaywrightTimeoutError:
        said = phone.page.inner_text("#joined")
        raise AssertionError(f"asking for {seat} with the code {typed}: {said!r}") from None


def host_code(host: Phone) -> str:
    """The join code the host page shows."""
    return str(host.page.locator("#host b.code").text_content())  # in its folded part


def asked_about(table: Table, seat: str) -> None:
    """Wait until the table asks about a phone for ``seat`` (LCD rows or OLED)."""
    question = f"Phone for {seat}?"
    table.child.wait_until(
        lambda s: any(question in row for row in s["lcd"] + s["oled"]["lines"]), question
    )


@pytest.fixture(scope="module")
def seated(table: Table, browser: Any) -> dict[str, Phone]:
    """The host (confirmed by the panel's push), a started match, two phones, a scoreboard."""
    host = Phone(browser, PHONE)
    join(host, table, "#host", host=True)
    asked_about(table, "the host")
    table.child.send("hold push")  # the knob's long push seats the first host
    host.page.wait_for_url("**/host")
    host.page.select_option("select[name=game]", "jumpy_jack")
    host.page.fill("textarea[name=players]", "Anna\nBob")
    host.page.select_option("select[name='jumpy_jack:target']", "2")
    host.page.select_option("select[name='jumpy_jack:guess']", "true")
    host.page.click("text=Start")
    host.page.wait_for_selector("#public >> text=Jumpy Jack")
    anna, bob = Phone(browser, PHONE), Phone(browser, PHONE)
    join(anna, table, "Anna", code=host_code(host))
    host.page.click("#host >> text=Confirm")  # the host page confirms Anna
    anna.page.wait_for_url("**/play")
    join(bob, table, "Bob", code=host_code(host))
    asked_about(table, "Bob")
    table.child.send("hold push")  # the panel confirms Bob
    bob.page.wait_for_url("**/play")
    board = Phone(browser, TV)
    board.page.goto(table.url + "/scoreboard")
    return {"host": host, "Anna": anna, "Bob": bob, "board": board}


def tap_chips(form: Any, values: tuple[str, ...]) -> None:
    """Tap the chips of ``values`` in order in ``form`` (a locator)."""
    for value in values:
        form.locator(f"button.chip[value='{value}']").first.click()


def predict(phone: Phone, horses: tuple[str, ...]) -> None:
    """Tap the podium in order and seal it."""
    form = phone.page.locator("form[data-type=predict]")
    tap_chips(form, horses)
    form.locator("button[type=submit]").click()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The screenshots' folder (see DOCS); the guide's pictures are kept small (64 colours)."""
    if not os.environ.get("COMPANION_SCREENSHOTS"):
        yield tmp_path_factory.mktemp("shots")
        return
    yield DOCS
    for picture in DOCS.glob("*.png"):
        with Image.open(picture) as shot:
            small = shot.convert("RGB").quantize(colors=64)
        small.save(picture, optimize=True)


def predictions_from_phones_stay_sealed_until_the_reveal(
    table: Table, seated: dict[str, Phone], shots: Path
) -> None:
    anna, bob, board = seated["Anna"], seated["Bob"], seated["board"]
    predict(anna, ("red", "blue"))  # a place left free: said on Anna's phone, nothing sent
    anna.page.wait_for_selector("#note.refusal")
    anna.page.locator("form[data-type=predict] button.chip[aria-pressed=true]").evaluate_all(
        "chips => chips.forEach(function (chip) { chip.click(); })"
    )  # each tapped again: the podium is free again
    assert table.view()["waiting_for"] == ["Anna", "Bob"]
    for name, phone in (("Anna", anna), ("Bob", bob)):
        predict(phone, PREDICTIONS[name])
        phone.page.wait_for_selector(f"text=Your prediction: {' '.join(PREDICTIONS[name])}")
    board.page.wait_for_selector("text=Sealed: Anna, Bob")
    assert table.view()["waiting_for"] == []
    # Everyone has predicted: Anna may guess an opponent's prediction (Bob is her only one).
    anna.page.wait_for_selector("text=Guess an opponent's prediction")
    form = anna.page.locator("form[data-type=guess]")
    assert form.locator("fieldset:has(input[name=target]) button.chip").all_inner_texts() == ["Bob"]
    tap_chips(form, ("Bob", *GUESS))
    anna.page.click("text=Seal my guess")
    anna.page.wait_for_selector(f"text=Your guess of Bob's prediction: {' '.join(GUESS)}")
    secrets = {**{p: [" ".join(h)] for p, h in PREDICTIONS.items()}}
    secrets["Anna"].append(" ".join(GUESS))
    sealed_until_the_reveal(seated, ("Anna", "Bob", "board"), secrets)


def sealed_until_the_reveal(
    seated: dict[str, Phone], pages: tuple[str, ...], secrets: dict[str, list[str]]
) -> None:
    """No page received another seat's private part, nor any of its ``secrets``."""
    for name in pages:
        seen = seated[name].received()
        for other, words in secrets.items():
            if other != name:
                assert f"You are {other}" not in seen, f"{name}'s page received {other}'s part"
                for word in words:
                    assert word not in seen, f"{name}'s page received {other}'s {word!r}"


def the_die_rolls_the_phones_move_and_the_scoreboard_reveals(
    table: Table, seated: dict[str, Phone], shots: Path
) -> None:
    dice = iter([3, 5, 2, 6, 4, 1] * 40)
    steps = 0
    while (view := table.view())["phase"] != "race_over":
        steps += 1
        assert steps < 200, "the race never ended"
        if view["phase"] in ("predict", "roll"):
            table.child.act(f"die {next(dice)}", "the roll")
            if steps == 3:
                table.kill_and_restart()  # mid-race: every page finds its seat by itself
                anna = seated["Anna"].page
                anna.wait_for_selector(f"text=Your prediction: {' '.join(PREDICTIONS['Anna'])}")
        elif view["phase"] == "move":
            phone = seated[view["turn"]].page
            horse = view["board"]["legal_horses"][0]  # legal now, whatever the page shows yet
            phone.locator(f"#private form[data-type=move] button:text-is('Move {horse}')").click()
            table.child.wait_until(lambda s, e=view["events"]: s["view"]["events"] > e, "a move")
    board = seated["board"].page
    board.wait_for_selector("text=Race 1 revealed")
    guessed = board.locator(".reveal tr", has_text="Anna").inner_text().split("\t")
    assert guessed[3:] == [f"Bob: {' '.join(GUESS)}", "1"]  # white in its place: 1 bonus point
    assert board.locator(".chart svg polyline").count() == 2
    seated["host"].page.screenshot(path=str(shots / "host-phone.png"))
    assert (shots / "host-phone.png").stat().st_size > 0


def seat_input(table: Table, phone: Phone, entry: dict[str, Any]) -> None:
    """Send one input as ``phone``'s seat (its own token, the page's route): accepted."""
    status, answer = request(
        table, "/api/input", json.dumps(entry).encode(), token=token_of(phone, "seat")
    )
    assert status == 200, answer


def the_match_plays_on_to_its_end(table: Table, seated: dict[str, Phone]) -> None:
    """The next races go quickly: the seats' inputs straight to the pages' route (with the
    phones' own tokens), the die rolled at the table (sixes: the shortest race), until a player
    reaches the target."""
    steps = 0
    while (view := table.view())["phase"] != "match_over":
        steps += 1
        assert steps < 400, "the match never ended"
        if view["phase"] == "race_over":
            seat_input(table, seated["Anna"], {"type": "next_race"})
        elif view["phase"] == "predict" and view["waiting_for"]:
            for name in view["waiting_for"]:
                seat_input(
                    table, seated[name], {"type": "predict", "horses": list(PREDICTIONS[name])}
                )
        elif view["phase"] in ("predict", "roll"):  # a roll closes the guesses
            table.child.act("die 6", "the roll")
        elif view["phase"] == "move":
            horse = view["board"]["legal_horses"][0]
            seat_input(table, seated[view["turn"]], {"type": "move", "horse": horse})
    assert view["winners"] == ["Anna"] and view["board"]["scores"] == JUMPY_SCORES


def request(
    table: Table,
    path: str,
    body: bytes | None = None,
    *,
    token: str | None = None,
    origin: str | None = "same",
    cookie: str = "seat",
) -> tuple[int, dict[str, Any]]:
    """Send a request the way a hostile client could; return the status and the JSON answer."""
    headers = {"Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = table.url if origin == "same" else origin
    if token is not None:
        headers["Cookie"] = f"{cookie}={token}"
    sent = urllib.request.Request(table.url + path, data=body, headers=headers)
    try:
        with urllib.request.urlopen(sent, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"{}")


def token_of(phone: Phone, name: str) -> str:
    return next(c["value"] for c in phone.context.cookies() if c["name"] == name)


def a_new_game_keeps_the_room(table: Table, seated: dict[str, Phone]) -> None:
    """The host page's new game starts from the room's people; the seated phones keep their
    seats (their old token still opens them), a newcomer joins once."""
    anna = seated["Anna"]
    old = token_of(anna, "seat")
    host = seated["host"].page
    players = host.locator("textarea[name=players]")
    assert players.input_value() == "Anna\nBob"  # same players again: nothing to type
    host.select_option("select[name=game]", "course_hippique")
    players.fill("Anna\nBob\nChloé")
    host.click("text=Start")
    anna.page.wait_for_selector("#public >> text=Course hippique")  # still on /play
    assert anna.page.url.endswith("/play") and seated["Bob"].page.url.endswith("/play")
    assert token_of(anna, "seat") == old
    assert table.view()["game"] == "course_hippique"
    table.kill_and_restart()  # between the games: every page finds its seat by itself
    for name in ("Anna", "Bob", "host"):
        live_again(seated[name])
    anna.page.wait_for_selector("#private >> text=You are Anna")


def live_again(phone: Phone) -> None:
    """Wait until ``phone``'s page has its live link again (after the daemon was killed)."""
    phone.page.wait_for_selector("#link:text-is('live')")


#: The balances, by hand: race 1 Anna +900 (300 to win on blue, alone: 3 times), Bob -300 (his
#: order had brown first), Chloé -100 (red not placed); races 2 and 3 Chloé +900 each (300 to
#: win, alone on the winner), Anna and Bob -100 each (brown to win).
BALANCES = {"Anna": 1000 + 900 - 200, "Bob": 1000 - 300 - 200, "Chloé": 1000 - 100 + 1800}
#: The Jumpy Jack match's points (two to win), as the loaded dice and the same predictions
#: every race give them: Anna's guess earned her a point in race 1, her prediction two more in
#: race 2.
JUMPY_SCORES = {"Anna": 3, "Bob": 0}
#: The evening after three games of three kinds, worked by hand. Jumpy Jack, two players:
#: Anna first (2 place points), Bob 1. Course hippique: in each of the three races the
#: croupier lays a course of spades first, both others stake 3 on spades at 1 to 1 and win 3
#: each, paid by the croupier; each player keeps the book once, so everyone ends on +3 +3 -6
#: = 0 chips: the three share the win and first place (3 each). Jockey (BALANCES): Chloé
#: first (3), Anna 2, Bob 1. So Anna 2 + 3 + 2 = 7 with two wins, Chloé (who missed the first
#: game) 3 + 3 = 6 with two, Bob 1 + 3 + 1 = 5 with one.
EVENING = [
    ["player", "place points", "wins", "games"],
    ["Anna", "7", "2", "3"],
    ["Chloé", "6", "2", "2"],
    ["Bob", "5", "1", "3"],
    ["Jumpy Jack: won by Anna — points: "
     + " · ".join(f"{p} {n}" for p, n in JUMPY_SCORES.items())],
    ["Course hippique: won by Anna, Bob, Chloé — chips: Anna +0 · Bob +0 · Chloé +0"],
    ["Jockey: won by Chloé — balance: "
     + " · ".join(f"{p} {n:,}" for p, n in BALANCES.items())],
]  # fmt: skip
#: The same on the LCD, the page after the Jockey game's first (Chloé's name shortened so the
#: figures fit).
EVENING_LCD = [
    "Evening          2/7",  # the Jockey game's six end pages and the evening's
    "1. Anna 2 wins 7 pts",
    "2. Chl. 2 wins 6 pts",
    "3. Bob   1 win 5 pts",
]


def evening_table(phone: Phone, last: str = "Jockey:") -> list[list[str]]:
    """The evening's standings a page shows (opened, as a tap on it does), row by row, once
    the page has drawn the game whose line begins with ``last`` (a live update may still be on
    its way when the LCD shows the evening)."""
    phone.page.wait_for_function(
        "last => [...document.querySelectorAll('details.evening')]"
        ".some(d => d.textContent.includes(last))",
        arg=last,
    )
    shown = phone.page.locator("details.evening").evaluate(
        "d => { d.open = true; return d.innerText; }"
    )
    return [line.split("\t") for line in str(shown).splitlines()[1:] if line.strip()]


def joins_asked(seated: dict[str, Phone]) -> int:
    """How many times the players' phones asked for a seat (the host's phone left out)."""
    return sum(
        1
        for name, phone in seated.items()
        if name not in ("host", "board")
        for response in phone.responses
        if response.url.endswith("/api/join") and response.request.method == "POST"
    )


def the_next_game_with_one_player_fewer(table: Table, seated: dict[str, Phone]) -> None:
    """Chloé sits the next game out: her phone keeps its seat and shows the scoreboard; the
    host ends the evening and every phone goes back to joining."""
    host = seated["host"].page
    players = host.locator("textarea[name=players]")
    assert players.input_value() == "Anna\nBob\nChloé"
    host.select_option("select[name=game]", "jumpy_jack")
    players.fill("Anna\nBob")
    host.click("text=Start")
    chloe = seated["Chloé"].page
    chloe.wait_for_selector("text=You sit this game out: the scoreboard is below.")
    chloe.wait_for_selector("#public >> text=Jumpy Jack")
    assert chloe.url.endswith("/play") and table.view()["waiting_for"] == ["Anna", "Bob"]
    seated["Anna"].page.wait_for_selector("#private form[data-type=predict]")
    assert joins_asked(seated) == 3  # three games, three phones: one join each
    assert "The room" in host.locator("#host").inner_text()
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("text=End the evening")
    for name in ("Anna", "Bob", "Chloé"):
        seated[name].page.wait_for_url("**/join")
    assert players.input_value() == ""


def the_evening_on_the_lcd_and_the_pages(
    table: Table, seated: dict[str, Phone], shots: Path
) -> None:
    """At the end of the Jockey game the knob turns to the evening's page on the LCD; the
    host page and the scoreboard show the standings. Refreshing the guide's pictures also
    takes the evening's, in English and in French (the table's language changed at the
    panel's menu, and back)."""
    table.child.turn(1)
    lcd = table.child.wait_until(lambda s: s["lcd"][0].startswith("Evening"), "the evening")
    assert lcd["lcd"] == EVENING_LCD and lcd["oled"]["lines"] == ["Evening", "Anna"]
    # The TV shows the ranking and the evening's last two games (a TV cannot scroll)...
    assert evening_table(seated["board"]) == EVENING[:4] + EVENING[-2:]
    assert evening_table(seated["host"]) == EVENING  # ...the host page every game
    if os.environ.get("COMPANION_SCREENSHOTS"):  # the guide's pictures, in English and French
        evening_shots(seated, shots, "")
        table.child.press("push")  # the game is over: the menu
        table.child.press("horse1")  # any game: its options end with the language
        table.child.press("push")
        table.child.turn(-1)
        table.child.press("push")  # English to French
        seated["board"].page.wait_for_selector("text=La soirée")
        evening_shots(seated, shots, "-fr")
        for _ in range(2):  # French to German to English
            table.child.press("push")
        seated["board"].page.wait_for_selector("text=The evening")


def evening_shots(seated: dict[str, Phone], shots: Path, suffix: str) -> None:
    """The room and the standings on the host page and on Chloé's phone (the whole page), and
    the scoreboard between games, each page drawn again in the table's language."""
    for name, shot in (("host", "host-phone"), ("Chloé", "player-phone"), ("board", "tv")):
        page = seated[name].page
        page.reload()
        page.wait_for_selector("details.evening[open]")
        page.screenshot(path=str(shots / f"evening-{shot}{suffix}.png"), full_page=name != "board")


def seat_phones(table: Table, seated: dict[str, Phone], names: tuple[str, ...]) -> None:
    """Each phone joins its seat of the new game; the host page confirms it."""
    host = seated["host"].page
    for name in names:
        if name not in seated:
            seated[name] = Phone(seated["host"].context.browser, PHONE)
        phone = seated[name]
        join(phone, table, name, code=host_code(seated["host"]))
        host.click("#host >> text=Confirm")
        phone.page.wait_for_url("**/play")


SUIT = str.maketrans({"S": "♠", "H": "♥", "D": "♦", "C": "♣"})
#: The pack in the order the croupier taps it: suits interleaved, so the course needs no redeal.
PACK = [rank + suit for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        for suit in "CDHS"]  # fmt: skip


def a_course_hippique_game_from_phones_alone(
    table: Table, seated: dict[str, Phone], shots: Path
) -> None:
    """A whole game, one race per player: each croupier in turn taps the course and every
    card on their phone, the others bet, any phone starts the next race; no card is scanned."""
    phones = ("Anna", "Bob", "Chloé")
    seat_phones(table, seated, ("Chloé",))  # the only newcomer
    croupiers = []
    for race in (1, 2, 3):
        croupiers.append(a_course_hippique_race(table, seated, shots, phones, first=race == 1))
        if race == 1:  # inside the second game: the room and the game come back together
            table.kill_and_restart()
            for name in (*phones, "host"):
                live_again(seated[name])
            seated["Chloé"].page.wait_for_selector("#private >> text=You are Chloé")
        if race < 3:
            seated[phones[0]].page.click("#private form[data-type=next_race] button")
            table.child.wait_until(lambda s, r=race: s["view"]["race"] == r + 1, "the next race")
    assert sorted(croupiers) == sorted(phones)  # everyone kept the book once
    view = table.view()
    assert view["phase"] == "game_over" and view["finished"]
    board = seated["board"].page
    board.wait_for_selector("p.winners")
    said = board.locator("p.winners").inner_text()
    winners = view["winners"]
    assert said == ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners)


def a_course_hippique_race(
    table: Table, seated: dict[str, Phone], shots: Path, phones: tuple[str, ...], *, first: bool
) -> str:
    """One race from phones alone; returns its croupier."""
    croupier = table.view()["board"]["croupier"]
    page, board = seated[croupier].page, seated["board"].page
    course = PACK[:7]
    deck = sorted(PACK[7:], key=lambda card: not card.endswith("S"))  # spades first: a short race
    for card in course:  # tapped in row order, laid as one input
        page.click(f"#private form[data-type=deal_course] button[value='{card}']")
    page.wait_for_selector(f"text=Row: {' '.join(c[:-1] + c[-1].translate(SUIT) for c in course)}")
    page.click("text=Lay these cards")
    board.wait_for_selector("td.chance")
    assert table.view()["board"]["course"] == course
    if first:  # the exact chances stand beside the odds, as the engine computes them
        game = CourseHippiqueGame.new(phones, {})
        game.deal_course(course)
        for chance in game.chances().horses:
            row = board.locator(".odds tr", has_text=chance.horse.english).inner_text().split("\t")
            assert row[2] == f"{100 * chance.probability:.1f}%", row  # English: no space before %
    steps, bets_placed = 0, False
    while (view := table.view())["phase"] not in ("race_over", "game_over"):
        steps += 1
        assert steps < 150, "the race never ended"
        bettors = [p for p in phones if p != croupier]
        if view["phase"] == "betting" and view["board"]["max_bet"] is None:
            page.fill("form[data-type=set_max_bet] input[name=amount]", "5")
            page.click("text=Set the largest stake")
        elif view["phase"] == "betting" and not bets_placed:
            for name in bettors:
                bettor = seated[name].page
                bet = bettor.locator("form[data-type=bet]")
                assert "chance" in bet.locator("button.chip[value=S]").inner_text()
                tap_chips(bet, ("S",))
                bettor.fill("form[data-type=bet] input[name=stake]", "3")
                bettor.click("text=Place my bet")
                bettor.wait_for_selector("text=Your bet: 3")
            bets_placed = True
            continue
        else:
            page.click(f"#private .picker button[value='{deck.pop(0)}']")
        table.child.wait_until(
            lambda s, e=view["events"]: s["view"]["events"] > e or "refus" in " ".join(s["lcd"]),
            "a tapped card",
        )
    assert table.view()["board"]["winner"] == "S"
    return str(croupier)


#: What each Jockey player counts in their hand (kind: cards), their bet, and their cards in
#: the order they play them: blue +10, its lead tripled twice over, two chases of brown.
HANDS = {
    "Anna": {"blue+10": 1, "brown-chase": 1, "brown+7": 4, "yellow+7": 4, "no2+15": 2},
    "Bob": {"blue-lead": 1, "brown-chase": 1, "red+7": 4, "blue+7": 4, "no2+15": 2},
    "Chloé": {"blue-lead": 1, "yellow+10": 3, "red+10": 3, "no4+20": 3, "no3+18": 2},
}
BETS = {
    "Anna": ({"kind": "win", "horse": "blue"}, "300", "win blue 300"),
    "Bob": (
        {"kind": "order", "horse": "brown", "horse2": "blue"},
        "200",
        "order brown 200, blue 100",
    ),
    "Chloé": ({"kind": "place", "horse": "red"}, "100", "place red 100"),
}
PLAYS = [("Anna", "blue+10"), ("Bob", "blue-lead"), ("Chloé", "blue-lead"),
         ("Anna", "brown-chase"), ("Bob", "brown-chase")]  # fmt: skip


def a_jockey_race_with_hands_counted_on_the_phones(
    table: Table, seated: dict[str, Phone], shots: Path
) -> None:
    """Hands tracked: each player counts their cards and bets on their phone, then taps each
    card on their turn; nobody else's hand or bet reaches their page before the settlement."""
    host = seated["host"].page
    host.select_option("select[name=game]", "jockey")
    host.fill("textarea[name=players]", "Anna\nBob\nChloé")
    host.select_option("select[name='jockey:hands']", "true")
    host.click("text=Start")
    phones = ("Anna", "Bob", "Chloé")
    for name in phones:  # a new game: every phone keeps its seat
        seated[name].page.wait_for_selector("#private form[data-type=hand]")
    assert table.view()["waiting_for"] == list(phones)
    hands: dict[str, str] = {}
    for name in phones:
        page = seated[name].page
        hand = page.locator("form[data-type=hand]")
        for kind, count in HANDS[name].items():
            if count == 1:  # stepped with +, the others typed
                hand.locator(f"label:has(input[name='cards:{kind}']) button.up").click()
            else:
                hand.locator(f"input[name='cards:{kind}']").fill(str(count))
        fields, stake, words = BETS[name]
        bet = page.locator("form[data-type=bet]")
        tap_chips(bet, tuple(fields.values()))  # the kind, then the horses in order
        bet.locator("input[name=stake]").fill(stake)
        page.click("text=Place my bet")
        page.wait_for_selector(f"text=Your bet: {words}")
        for kind, count in HANDS[name].items():  # the redraw kept the cards counted so far
            assert hand.locator(f"input[name='cards:{kind}']").input_value() == str(count)
        if name == "Anna":
            page.evaluate("document.querySelector('#private h3').scrollIntoView()")
            page.screenshot(path=str(shots / "jockey-hand-phone.png"))
        page.click("text=These are my cards")
        hands[name] = page.locator("#private .hand").inner_text()
        assert hands[name].startswith("Your hand (12): ")
    assert table.view()["waiting_for"] == []
    secrets = {name: [BETS[name][2], hands[name]] for name in phones}
    secrets["Chloé"].append("No.4 +20 ×3")  # a kind only Chloé holds
    sealed_until_the_reveal(seated, ("Anna", "Bob", "Chloé", "board"), secrets)
    board = seated["board"].page
    for number, (name, kind) in enumerate(PLAYS):
        page = seated[name].page
        if number == 0:
            page.wait_for_selector("#private form[data-type=play_card]")
            page.screenshot(path=str(shots / "jockey-phone.png"))
        page.click(f"#private form[data-type=play_card] button[value='{kind}']")
        table.child.wait_until(lambda s, n=number: len(s["view"]["board"]["pile"]) > n, "a card")
    board.wait_for_selector("text=Race 1 settled")
    assert table.view()["board"]["finish_order"][:2] == ["blue", "brown"]
    for name in phones:
        row = board.locator(".reveal tr", has_text=name).inner_text().split("\t")
        assert row[1] == BETS[name][2]
    anna = seated["Anna"].page
    anna.wait_for_selector("text=Your hand (10)")  # two cards played from twelve


#: Races 2 and 3 of the Jockey game, quickly (the deck is shuffled and hands dealt again each
#: race; the starter moves on one seat): the starter plays the winner's +10, the next two
#: triple its lead twice (to 90), the next two chase the second horse home (50, then 85).
LATER_RACES = [
    {  # race 2, Bob first: red wins, yellow second
        "hands": {
            "Bob": {"red+10": 1, "yellow-chase": 1, "brown+7": 4, "blue+7": 4, "no2+15": 2},
            "Chloé": {"red-lead": 1, "yellow-chase": 1, "yellow+7": 4, "red+7": 4, "no2+15": 2},
            "Anna": {"red-lead": 1, "brown+10": 3, "blue+10": 3, "yellow+10": 3, "no4+20": 2},
        },
        "bets": {"Anna": ("brown", 100), "Bob": ("brown", 100), "Chloé": ("red", 300)},
        "plays": [
            ("Bob", "red+10"),
            ("Chloé", "red-lead"),
            ("Anna", "red-lead"),
            ("Bob", "yellow-chase"),
            ("Chloé", "yellow-chase"),
        ],
    },
    {  # race 3, Chloé first: yellow wins, red second
        "hands": {
            "Chloé": {"yellow+10": 1, "red-chase": 1, "brown+7": 4, "blue+7": 4, "no2+15": 2},
            "Anna": {"yellow-lead": 1, "red-chase": 1, "yellow+7": 4, "red+7": 4, "no2+15": 2},
            "Bob": {"yellow-lead": 1, "brown+10": 3, "blue+10": 3, "red+10": 3, "no4+20": 2},
        },
        "bets": {"Anna": ("brown", 100), "Bob": ("brown", 100), "Chloé": ("yellow", 300)},
        "plays": [
            ("Chloé", "yellow+10"),
            ("Anna", "yellow-lead"),
            ("Bob", "yellow-lead"),
            ("Chloé", "red-chase"),
            ("Anna", "red-chase"),
        ],
    },
]


def the_jockey_game_plays_on_to_its_end(table: Table, seated: dict[str, Phone]) -> None:
    """Races 2 and 3 from the seats' own tokens on the pages' route: hands, bets, cards."""
    for race in LATER_RACES:
        seat_input(table, seated["Anna"], {"type": "next_race"})
        for name, counted in race["hands"].items():
            seat_input(table, seated[name], {"type": "hand", "cards": counted, "kept": []})
        for name, (horse, stake) in race["bets"].items():
            bet = {"type": "bet", "kind": "win", "horse": horse, "stake": stake}
            seat_input(table, seated[name], bet)
        for name, card in race["plays"]:
            seat_input(table, seated[name], {"type": "play_card", "card": card})
    view = table.view()
    assert view["phase"] == "game_over" and view["winners"] == ["Chloé"]
    assert view["board"]["balances"] == BALANCES


def hostile_requests_are_refused_and_change_nothing(table: Table, seated: dict[str, Phone]) -> None:
    anna = token_of(seated["Anna"], "seat")
    before = table.view()
    move = json.dumps({"type": "next_race"}).encode()
    assert request(table, "/api/input", move)[0] == 401  # no token
    assert request(table, "/api/input", move, token="x" * 43)[0] == 401  # a wrong token
    assert request(table, "/api/input", move, token=anna, origin="http://evil.test")[0] == 403
    assert request(table, "/api/input", move, token=anna, origin=None)[0] == 403
    assert request(table, "/api/input", b"{not json", token=anna)[1]["code"] == "malformed"
    assert request(table, "/api/input", b"[1, 2]", token=anna)[1]["code"] == "malformed"
    roll = json.dumps({"type": "roll", "value": 6}).encode()
    assert request(table, "/api/input", roll, token=anna)[1]["code"] == "not_from_a_phone"
    huge = json.dumps({"type": "predict", "horses": ["red"] * 5000}).encode()
    assert request(table, "/api/input", huge, token=anna)[0] == 413
    confirm = json.dumps({"do": "new_game", "game": "jockey", "players": "X\nY"}).encode()
    assert request(table, "/api/host", confirm, token=anna)[0] == 401  # a seat is no host
    guess = json.dumps({"code": "abcd", "seat": "Anna"}).encode()
    codes = [request(table, "/api/join", guess)[1]["code"] for _ in range(8)]
    assert codes[0] == "wrong_code" and codes[-1] == "too_many"  # guessing the code is slowed
    with pytest.raises(InvalidStatus):  # a cross-origin socket is refused at the handshake
        connect(table.url.replace("http", "ws") + "/live?page=board", origin="http://evil.test")
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(
                connect(
                    table.url.replace("http", "ws") + "/live?page=board",
                    origin=table.url,
                    source_address=("127.0.0.2", 0),  # a guest's device, as many as it may open
                )
            )
            for _ in range(UNSEATED_PER_ADDRESS)
        ]
        frames = [json.loads(s.recv(timeout=10)) for s in sockets]
        assert all("Jockey" in f["public"] for f in frames)
    after = table.view()
    assert after["events"] == before["events"] and after["board"] == before["board"]


@pytest.mark.slow(45)
def test_an_evening_at_the_table_from_phones(
    table: Table, seated: dict[str, Phone], shots: Path
) -> None:
    """One daemon and one browser through a whole evening, step by step, in one test.

    No test of another module can run between two steps and tear the shared daemon down.
    """
    predictions_from_phones_stay_sealed_until_the_reveal(table, seated, shots)
    the_die_rolls_the_phones_move_and_the_scoreboard_reveals(table, seated, shots)
    the_match_plays_on_to_its_end(table, seated)
    a_new_game_keeps_the_room(table, seated)
    a_course_hippique_game_from_phones_alone(table, seated, shots)
    a_jockey_race_with_hands_counted_on_the_phones(table, seated, shots)
    the_jockey_game_plays_on_to_its_end(table, seated)
    hostile_requests_are_refused_and_change_nothing(table, seated)
    the_evening_on_the_lcd_and_the_pages(table, seated, shots)
    the_next_game_with_one_player_fewer(table, seated)
