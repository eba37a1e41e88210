"""Whole games through the real daemon: buttons and card scans only, a power cut mid-race.

Each game is played twice by the same script: once without interruption, once with the
daemon killed (SIGKILL) in the middle of a race and started again on the same journal. The
script decides only from what the companion shows, so both runs must end the same way.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.games.jockey.deck import default_deck

Start = Callable[[], Any]


def bare(text: str) -> str:
    """``text`` without its accents: what an LCD without them shows (é as e, ä as a)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def shown(script: Script) -> str:
    """The LCD's rows in one line, accents left out (the words are compared so)."""
    return bare(" ".join(script.child.lcd()))


#: What the scripts read on the LCD, in each language the table speaks.
WORDS: dict[str, dict[str, str]] = {
    "en": {"menu": "Choose a game", "turn": "turn cards", "max": "max bet", "bet": ": bet"},
    "fr": {"menu": "Choisir un jeu", "turn": ": tourne", "max": ": plafond", "bet": ": mise"},
    "de": {"menu": "Spiel wählen", "turn": "deckt auf", "max": "Höchstwette", "bet": ": Wette"},
}


class Script:
    """Drive one game to its end; kill the daemon once when ``kill_when`` says so."""

    def __init__(
        self,
        start: Start,
        kill_when: Callable[[dict[str, Any]], bool] | None,
        language: str = "en",
    ) -> None:
        self.start = start
        self.words = WORDS[language]
        self.kill_when = kill_when
        self.killed = False
        self.child = start()
        self.child.start()
        self.steps = 0

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.child.send("state")
        return state

    def checkpoint(self) -> None:
        """Between two inputs: pull the plug here if it is time, and come back up."""
        self.steps += 1
        assert self.steps < 2000, "the game never ended"
        if self.killed or self.kill_when is None or not self.kill_when(self.state()["view"]):
            return
        before = self.state()
        self.child.kill()
        self.killed = True
        self.child = self.start()
        self.child.start()
        after = self.child.wait_until(
            lambda s: s["view"].get("events") == before["view"]["events"], "the journal back"
        )
        assert after["view"]["board"] == before["view"]["board"]
        assert after["lcd"][:3] == before["lcd"][:3]

    def finish(self) -> dict[str, Any]:
        state = self.state()
        self.child.terminate()
        return state


def phase(script: Script) -> str:
    return str(script.state()["view"].get("phase", "no_game"))


def next_race(script: Script, over: str) -> None:
    """Push until the next race (or the end of the game) shows."""
    while phase(script) == over:
        script.child.press("push")


def menu(script: Script, game_button: str, *, options: Callable[[Any], None] | None = None) -> None:
    child = script.child

    def at_menu(state: dict[str, Any]) -> bool:
        return bare(script.words["menu"]) in bare(" ".join(state["lcd"]))

    # A table started on a journal whose last game is over opens on its end pages: a push on.
    if not at_menu(child.wait_until(lambda s: at_menu(s) or s["view"].get("finished"), "a start")):
        child.press("push")
    child.wait_until(at_menu, "the menu")
    child.press(game_button)
    child.press("push")  # the number of players offered first
    if options is not None:
        options(child)
    else:
        child.press("push")  # start with the options as they are


def play_jumpy_jack(script: Script, dice: Iterator[int]) -> dict[str, Any]:
    def target_two(child: Any) -> None:
        child.turn(-5)  # up to the first option, the target
        for _ in range(3):  # 16 -> 8 -> 4 -> 2 points
            child.press("push")
        child.turn(6)  # down past the language, to Start
        child.press("push")

    menu(script, "horse1", options=target_two)
    while (now := phase(script)) != "match_over":
        if now == "predict" and script.state()["view"]["waiting_for"]:
            for button in ("horse1", "horse2", "horse3"):
                script.child.press(button)
        elif now in ("predict", "roll"):  # every prediction sealed: the first roll may come
            script.child.act(f"die {next(dice)}", "the roll")
        elif now == "move":
            board = script.state()["view"]["board"]
            names = [h["name"] for h in board["horses"]]
            horse = board["legal_horses"][0]
            script.child.press(f"horse{names.index(horse) + 1}")
        elif now == "race_over":
            next_race(script, "race_over")
        script.checkpoint()
    return script.finish()


SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def play_course_hippique(script: Script, rng: random.Random) -> dict[str, Any]:
    menu(script, "horse2")
    cards: list[str] = []
    race = 0
    trail: list[tuple[str, int, str, int, str]] = []  # what each step saw, for a failure
    while (now := phase(script)) != "game_over":
        view = script.state()["view"]
        lcd = shown(script)
        trail.append((now, view["race"], str(view.get("turn")), view["events"], lcd))
        if now in ("dealing", "redeal") and (view["race"] != race or now == "redeal"):
            race = view["race"]
            cards = [rank + suit for suit in SUITS for rank in RANKS]
            rng.shuffle(cards)
            if now == "redeal":
                script.child.act(f"scan {cards.pop()}", "a new course card")
                continue
        if now in ("dealing", "redeal", "racing") or bare(script.words["turn"]) in lcd:
            script.child.act(f"scan {cards.pop()}", "a card")
        elif bare(script.words["max"]) in lcd:
            script.child.press("push")
        elif bare(script.words["bet"]) in lcd:
            script.child.press(f"horse{view['race']}")  # a horse, the dial's stake
            script.child.press("push")
        elif now == "race_over":
            next_race(script, "race_over")
        else:
            steps = "\n".join(map(str, trail[-12:]))
            raise AssertionError(f"nothing to do in phase {now}: {lcd}\nthe steps before:\n{steps}")
        script.checkpoint()
    return script.finish()


def play_jockey(script: Script, rng: random.Random) -> dict[str, Any]:
    menu(script, "horse3")
    order = list(range(1, 55))
    rng.shuffle(order)
    ids = [card.id for card in default_deck().cards]
    while (now := phase(script)) != "game_over":
        lcd = shown(script)
        if now == "betting" and bare(script.words["bet"]) in lcd:
            script.child.press("push")  # a win bet, the first kind
            script.child.press("horse1")
            script.child.press("push")  # the smallest stake, 100
        elif now in ("betting", "racing"):  # every bet is in: the first card may come
            pile = set(script.state()["view"]["board"]["pile"])
            number = next(n for n in order if ids[n - 1] not in pile)
            script.child.act(f"scan jockey:{number}", "a played card")
        elif now == "race_over":
            next_race(script, "race_over")
        else:
            raise AssertionError(f"nothing to do in phase {now}: {lcd}")
        script.checkpoint()
    return script.finish()


def dice(seed: int) -> Iterator[int]:
    rng = random.Random(seed)
    while True:
        yield rng.randint(1, 6)


def moves_made(view: dict[str, Any]) -> int:
    return int(view.get("events", 0))


@pytest.mark.slow(12)
def test_jumpy_jack_survives_a_power_cut_mid_race(daemon: Start) -> None:
    straight = play_jumpy_jack(Script(daemon, None), dice(5))
    cut = Script(daemon, lambda v: v.get("phase") == "roll" and moves_made(v) >= 12)
    again = play_jumpy_jack(cut, dice(5))
    assert cut.killed
    assert again["view"]["winners"] == straight["view"]["winners"]
    assert again["view"]["board"]["results"] == straight["view"]["board"]["results"]
    assert again["lcd"] == straight["lcd"]


@pytest.mark.slow(15)
def test_course_hippique_survives_a_power_cut_mid_race(daemon: Start) -> None:
    straight = play_course_hippique(Script(daemon, None), random.Random(3))
    cut = Script(daemon, lambda v: v.get("phase") == "racing" and len(v["board"]["turned"]) >= 5)
    again = play_course_hippique(cut, random.Random(3))
    assert cut.killed
    assert again["view"]["board"]["ranking"] == straight["view"]["board"]["ranking"]
    assert again["view"]["board"]["results"] == straight["view"]["board"]["results"]
    assert again["lcd"] == straight["lcd"]


@pytest.mark.slow(22)
def test_jockey_survives_a_power_cut_mid_race(daemon: Start) -> None:
    straight = play_jockey(Script(daemon, None), random.Random(9))
    cut = Script(
        daemon,
        lambda v: v.get("phase") == "racing" and v["race"] == 2 and len(v["board"]["pile"]) >= 6,
    )
    again = play_jockey(cut, random.Random(9))
    assert cut.killed
    assert again["view"]["board"]["ranking"] == straight["view"]["board"]["ranking"]
    assert again["view"]["board"]["results"] == straight["view"]["board"]["results"]
    assert again["lcd"] == straight["lcd"]
