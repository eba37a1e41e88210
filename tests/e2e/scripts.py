"""What every game's whole-game script is made of: a daemon driven from what it shows.

A game's script (``tests/e2e/games/<kind>.py``, or ``e2e.py`` in an added game's own folder:
``script_of``) plays a whole game through the real daemon with the panel's buttons, the die
and card scans, deciding only from what the companion shows, so that a run cut by a power
failure ends as the run that was not. It declares:

- ``play(script, seed)``: the whole game, from the menu to its end (the final state);
- ``SEED``, the seed of its power-cut run; ``CUT(view)``, when to pull the plug mid-race;
  ``SAME``, the keys of the final board both runs must agree on (the winners always);
- ``SLOW``, about how many seconds its power-cut test takes;
- ``SCREENS``, by language, the rows a player reads on the way and the last screen's row.
"""

from __future__ import annotations

import importlib
import random
import unicodedata
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from companion.daemon.flows.base import HORSE_BUTTONS
from companion.games.registry import HOMES, KINDS

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


def menu(script: Script, button: str, *, options: Callable[[Any], None] | None = None) -> None:
    child = script.child

    def at_menu(state: dict[str, Any]) -> bool:
        return bare(script.words["menu"]) in bare(" ".join(state["lcd"]))

    # A table started on a journal whose last game is over opens on its end pages: a push on.
    if not at_menu(child.wait_until(lambda s: at_menu(s) or s["view"].get("finished"), "a start")):
        child.press("push")
    child.wait_until(at_menu, "the menu")
    child.press(button)
    child.press("push")  # the number of players offered first
    if options is not None:
        options(child)
    else:
        child.press("push")  # start with the options as they are


def dice(seed: int) -> Iterator[int]:
    rng = random.Random(seed)
    while True:
        yield rng.randint(1, 6)


def moves_made(view: dict[str, Any]) -> int:
    return int(view.get("events", 0))


def game_button(kind: str) -> str:
    """The horse button that picks ``kind`` in the start menu (its place in the registry)."""
    return HORSE_BUTTONS[KINDS.index(kind)]


def script_of(kind: str) -> ModuleType:
    """The whole-game script a game brings (see the module's docstring)."""
    home = HOMES.get(kind)
    return importlib.import_module(f"{home}.e2e" if home else f"tests.e2e.games.{kind}")
