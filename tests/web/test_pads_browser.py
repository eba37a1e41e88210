"""The pads in Debian's Chromium, one walk through a Jumpy Jack prediction and a Jockey race
on a table served in this process: horses tapped in order (a place freed by a second tap),
every target at least 44 px, one refusal shown once below its form, the sealed choice shown,
the host's undo saying what it took back, every page's phase and turn agreeing with the
player whose turn it is, a buzz on that turn, the screen kept awake, the manifest and its
icons served; a pad's notices ("Done.", "Your turn") gone once the step they answer is past.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.session import autoplay
from companion.session.log import BetEntry, LogEntry, NextRace
from tests.web.conftest import PHONE
from tests.web.hostile.conftest import Served, served  # noqa: F401 (the table's fixture)

#: What a page script sees instead of the browser's wake lock and vibrator: each call noted.
STUBS = """
window.wakes = []; window.released = 0; window.buzzes = [];
Object.defineProperty(navigator, "wakeLock", {value: {request: function (kind) {
  window.wakes.push(kind);
  return Promise.resolve({release: function () { window.released++; return Promise.resolve(); },
                          addEventListener: function () {}});
}}});
navigator.vibrate = function (pattern) { window.buzzes.push(pattern); return true; };
"""
#: What a finger taps on a pad.
TARGETS = (
    "#private button, #private select, #private textarea, "
    "#private input:not([type=hidden]):not([type=checkbox]), "
    "#private label:has(input[type=checkbox]), #host button, #host select"
)


class Pads:
    """The pages of one table: each phone its own browser context."""

    def __init__(self, table: Served, browser: Any) -> None:
        self.served = table
        self.browser = browser
        self.host_cookie = table.host_cookie()
        self.pages: dict[str, Any] = {}

    def context(self, *cookies: str) -> Any:
        """A phone: a browser context with ``cookies`` and the stubs."""
        context = self.browser.new_context(viewport=PHONE)
        for cookie in cookies:
            key, value = cookie.split("=", 1)
            context.add_cookies([{"name": key, "value": value, "url": self.served.url}])
        context.add_init_script(STUBS)
        return context

    def open(self, opened: dict[str, tuple[Any, str]]) -> None:
        """Open each page (name: context and path) at once; wait until all are live."""
        for name, (context, path) in opened.items():
            self.pages[name] = context.new_page()
            self.pages[name].goto(self.served.url + path, wait_until="commit")
        for page in self.pages.values():
            page.wait_for_selector("#link:text-is('live')")

    def agree(self, said: str, players: tuple[str, ...]) -> None:
        """Every page comes to show the phase and turn ``said``; the phone of the player
        whose turn it names (and only theirs) says so, with its card picker."""
        for page in self.pages.values():
            page.wait_for_function(
                "said => document.querySelector('#public p.status').innerText === said", arg=said
            )
        for player in players:
            shown = self.pages[player].evaluate(
                """() => [!!document.querySelector("#private.turn .your-turn"),
                          !!document.querySelector("form[data-type=play_card]")]"""
            )
            mine = f"turn: {player}" in said
            assert shown == [mine, mine], (player, said, shown)


def small_targets(page: Any) -> list[str]:
    """The visible targets of ``page`` smaller than 44 x 44 px."""
    found: list[str] = page.eval_on_selector_all(
        TARGETS,
        """nodes => nodes.filter(function (node) {
             var box = node.getBoundingClientRect();
             return box.width > 0 && (box.width < 44 || box.height < 44);
           }).map(function (node) { return node.outerHTML.slice(0, 80); })""",
    )
    return found


def places(form: Any) -> dict[str, str]:
    """Each chip of ``form`` that holds a place: its value to its badge."""
    held: dict[str, str] = form.evaluate(
        """form => { var held = {};
             form.querySelectorAll("button.chip[aria-pressed=true]").forEach(function (chip) {
               held[chip.value] = chip.querySelector(".place").innerText; });
             return held; }"""
    )
    return held


def shown_refusals(page: Any) -> list[str]:
    """Every refusal ``page`` shows now (hidden ones left out)."""
    said: list[str] = page.eval_on_selector_all(
        ".refusal", "nodes => nodes.filter(n => n.offsetParent !== null).map(n => n.innerText)"
    )
    return said


def a_podium_is_tapped_sealed_and_undone(pads: Pads) -> None:
    anna = pads.pages["Anna"]
    form = anna.locator("form[data-type=predict]")
    assert anna.evaluate("window.wakes") == ["screen"]  # in a game: the screen stays awake
    assert places(form) == {}  # nothing chosen by default
    for horse in ("red", "blue", "white"):
        form.locator(f"button.chip[value={horse}]").click()
    form.locator("button.chip[value=blue]").click()  # blue's place is free again
    assert places(form) == {"red": "1", "white": "3"}
    form.locator("button[type=submit]").click()  # a place is free: said below, nothing sent
    note = anna.locator("form[data-type=predict] + #note.refusal")
    assert note.inner_text() == "Tap your choice first: every place needs one."
    form.locator("button.chip[value=green]").click()
    assert places(form) == {"red": "1", "green": "2", "white": "3"}
    assert small_targets(anna) == []
    form.locator("button[type=submit]").click()
    anna.wait_for_selector("text=Your prediction: red green white")
    sealed = anna.locator("form[data-type=predict]")  # drawn again: the sealed podium in it
    assert places(sealed) == {"red": "1", "green": "2", "white": "3"}
    assert sealed.locator("button[type=submit]").inner_text() == "Change my prediction"
    host = pads.pages["host"]
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("text=Undo the last input")
    host.wait_for_selector("form[data-do=undo] + #note.ok")
    assert host.locator("#note").inner_text() == "Undone: Anna's prediction."
    anna.wait_for_selector("text=Seal my prediction")
    assert places(anna.locator("form[data-type=predict]")) == {}


def a_jockey_race_agrees_on_every_page(pads: Pads) -> None:
    pads.served.new_game(pads.host_cookie, "jockey", "Anna\nBob")
    anna, bob = pads.pages["Anna"], pads.pages["Bob"]
    for page in (anna, bob):
        page.wait_for_selector("form[data-type=bet]")
    pads.agree("Phase: betting", ("Anna", "Bob"))  # nobody's turn while bets are awaited
    bet = anna.locator("form[data-type=bet]")
    for chip in ("double", "red"):  # a double with one horse: the table refuses it
        bet.locator(f"button.chip[value={chip}]").click()
    bet.locator("button[type=submit]").click()
    anna.wait_for_selector("form[data-type=bet] + p.refusal[role=alert]:not(#note)")
    anna.wait_for_selector("#public .refusal[data-player=Anna]", state="hidden")
    bob.wait_for_selector("#public .refusal")  # the table sees that Anna's bet was refused
    assert shown_refusals(anna) == ["A double names two horses and one stake."]
    assert shown_refusals(bob) == ["Anna: bet refused: enter it again."]
    assert small_targets(anna) == []
    bet = anna.locator("form[data-type=bet]")  # drawn again, with what Anna had tapped
    bet.locator("button.chip[value=blue]").click()  # red first, blue second
    assert places(bet) == {"double": "", "red": "1", "blue": "2"}
    bet.locator("button[type=submit]").click()
    anna.wait_for_selector("text=Your bet: double red + blue 100")
    assert shown_refusals(anna) == []
    pads.agree("Phase: betting", ("Anna", "Bob"))
    form = bob.locator("form[data-type=bet]")
    for chip in ("win", "yellow"):
        form.locator(f"button.chip[value={chip}]").click()
    form.locator("button[type=submit]").click()
    # Every bet in: the table asks Anna for the race's first card, and so does every page.
    pads.agree("Phase: racing · turn: Anna", ("Anna", "Bob"))
    assert anna.evaluate("window.buzzes") == [[150, 80, 150]]  # her turn came: one buzz
    assert bob.evaluate("window.buzzes") == []
    anna.click("form[data-type=play_card] button[value='red+7']")
    pads.agree("Phase: racing · turn: Bob", ("Anna", "Bob"))
    assert len(bob.evaluate("window.buzzes")) == 1 and len(anna.evaluate("window.buzzes")) == 1


@pytest.mark.slow(25)
def test_the_pads_in_a_browser(served: Served, browser: Any) -> None:  # noqa: F811
    """One table, three pages (Anna's phone also hosts), two games."""
    pads = Pads(served, browser)
    served.new_game(pads.host_cookie, "jumpy_jack", "Anna\nBob")
    anna = pads.context(served.seat_cookie("Anna"), pads.host_cookie)  # the host plays too
    bob = pads.context(served.seat_cookie("Bob"))
    pads.open({"Anna": (anna, "/play"), "Bob": (bob, "/play"), "host": (anna, "/host")})
    manifest = served.send("GET", "/static/manifest.webmanifest")
    assert manifest.status == 200
    for icon in json.loads(manifest.body)["icons"]:
        assert served.send("GET", icon["src"]).headers["content-type"] == "image/png"
    a_podium_is_tapped_sealed_and_undone(pads)
    a_jockey_race_agrees_on_every_page(pads)
    anna = pads.pages["Anna"]
    assert anna.evaluate("window.wakes") == ["screen"]  # held through both games
    hide = """shown => { Object.defineProperty(document, "visibilityState",
        {configurable: true, get: function () { return shown ? "visible" : "hidden"; }});
        document.dispatchEvent(new Event("visibilitychange")); }"""
    anna.evaluate(hide, False)  # the phone's screen goes off: the lock is let go...
    assert anna.evaluate("window.released") == 1
    anna.evaluate(hide, True)  # ...and asked for again when the page is back
    anna.wait_for_function("window.wakes.length === 2")


def test_a_page_says_live_only_once_it_shows_the_tables_newest_picture(
    served: Served,  # noqa: F811
    browser: Any,
) -> None:
    """The socket opens before the table's picture arrives (after a restart, the host page
    still shows the old join code then): the page says "live" only with that picture."""
    context = browser.new_context(viewport=PHONE)
    held: list[tuple[Any, str | bytes]] = []

    def hold(route: Any) -> None:  # the table's frames wait here until let through
        server = route.connect_to_server()
        server.on_message(lambda message: held.append((route, message)))

    page = context.new_page()
    page.route_web_socket("**/live*", hold)
    page.goto(served.url + "/scoreboard")
    for _ in range(500):  # the socket opens, its first frame is held back
        if held:
            break
        page.wait_for_timeout(20)
    assert held, "the page never opened its socket"
    assert page.inner_text("#link") != "live"
    route, frame = held[0]
    route.send(frame)
    page.wait_for_selector("#link:text-is('live')")
    context.close()


def table_input(served: Served, entry: LogEntry) -> None:  # noqa: F811
    """``entry`` made at the table (the panel, a scan), every page redrawn after it."""
    controller = served.companion.daemon.table.controller  # type: ignore[attr-defined]
    made: list[bool] = []

    def change(ctx: Any) -> Any:
        outcome, reply = ctx.submit(entry)
        made.append(outcome.accepted)
        return reply

    served.companion.daemon.enter(lambda: controller.apply(change)).result(10)
    assert made == [True], entry


def notes(page: Any) -> list[str]:
    """The notices ``page`` shows now: answers to its inputs, refusals, "Your turn"."""
    said: list[str] = page.eval_on_selector_all(
        "#note, #private .your-turn, #private .refusal",
        "nodes => nodes.filter(n => n.offsetParent !== null).map(n => n.innerText)",
    )
    return said


def settled_page(page: Any, version: int) -> None:
    """Wait until ``page`` shows the table's picture ``version`` (or a later one)."""
    page.wait_for_function(
        "v => Number(document.body.getAttribute('data-version')) >= v", arg=version
    )


@pytest.mark.slow(15)
def test_a_pad_s_notices_belong_to_the_input_they_answer(
    served: Served,  # noqa: F811
    browser: Any,
) -> None:
    """ "Done." stays while the prompt it answers does (not to the end of the evening, nor
    above a stake the browser refuses); "Your turn" goes once a sealed prediction leaves the
    player nothing to do until the others have predicted."""
    pads = Pads(served, browser)
    served.new_game(pads.host_cookie, "jumpy_jack", "Anna\nBob")
    anna = pads.context(served.seat_cookie("Anna"))
    bob = pads.context(served.seat_cookie("Bob"))
    pads.open({"Anna": (anna, "/play"), "Bob": (bob, "/play")})
    anna, bob = pads.pages["Anna"], pads.pages["Bob"]
    assert served.call(lambda: served.companion.session.view().turn) == "Anna"  # rolls first
    for page in (anna, bob):
        form = page.locator("form[data-type=predict]")
        for horse in ("red", "green", "white"):
            form.locator(f"button.chip[value={horse}]").click()
        with page.expect_response("**/api/input"):
            form.locator("button[type=submit]").click()
        if page is anna:  # sealed first: nothing to do until Bob has predicted
            anna.wait_for_selector("form[data-type=predict] + #note.ok")
            anna.wait_for_selector("text=Your prediction: red green white")
            assert notes(anna) == ["Done."]
    anna.wait_for_selector("#private .your-turn")  # every prediction in: Anna rolls
    settled_page(bob, served.call(lambda: served.companion.session.view().events))
    assert notes(anna) == ["Your turn"]  # her "Done." answered a prompt now over
    assert notes(bob) == []

    served.new_game(pads.host_cookie, "jockey", "Anna\nBob")
    anna.wait_for_selector("form[data-type=bet]")
    bet = anna.locator("form[data-type=bet]")
    for chip in ("win", "red"):
        bet.locator(f"button.chip[value={chip}]").click()
    bet.locator("button[type=submit]").click()
    anna.wait_for_selector("text=Your bet: win red 100")
    anna.wait_for_selector("#note.ok")
    assert notes(anna) == ["Done."]  # the bet form is gone: said at the top of her part
    table_input(served, BetEntry("Bob", "blue", 100))  # every bet in: the race is on
    anna.wait_for_selector("#private .your-turn")
    assert notes(anna) == ["Your turn"]  # "Done." answered the bet: the bets are over
    rng = random.Random(3)
    session = served.companion.session
    while served.call(lambda: session.view().phase) != "race_over":
        table_input(served, served.call(lambda: autoplay.legal_input(session.table, rng)))
    table_input(served, NextRace())
    settled_page(anna, served.call(lambda: session.view().events))
    anna.wait_for_selector("form[data-type=bet]")
    assert notes(anna) == []  # race 2: nothing said about race 1's bet
    bet = anna.locator("form[data-type=bet]")
    for chip in ("win", "red"):
        bet.locator(f"button.chip[value={chip}]").click()
    bet.locator("input[name=stake]").fill("5000")  # over her limit: the browser says so
    bet.locator("button[type=submit]").click()
    assert anna.evaluate("() => !document.querySelector('input[name=stake]').validity.valid")
    assert notes(anna) == []
    anna.evaluate("() => document.activeElement.blur()")  # she gives up typing

    served.new_game(pads.host_cookie, "jockey", "Anna\nBob", hands=True)
    anna.wait_for_selector("form[data-type=hand]")
    hand = anna.locator("form[data-type=hand]")
    for kind, count in (("brown+7", 4), ("yellow+7", 4), ("blue+7", 4), ("red+7", 3)):
        hand.locator(f"input[name='cards:{kind}']").fill(str(count))
    hand.locator("button[type=submit]").click()
    anna.wait_for_selector("text=Your hand (15)")
    anna.wait_for_selector("#note.ok")
    assert notes(anna) == ["Done."]  # the hand form is gone; her bet is still to come
    bet = anna.locator("form[data-type=bet]")
    for chip in ("win", "red"):
        bet.locator(f"button.chip[value={chip}]").click()
    bet.locator("input[name=stake]").fill("5000")
    bet.locator("button[type=submit]").click()  # refused by the browser: "Done." goes
    assert notes(anna) == []
    for context in (anna.context, bob.context):
        context.close()
