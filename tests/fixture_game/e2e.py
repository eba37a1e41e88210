"""Petits chevaux's whole game from the panel: picked by its horse button, rolled to its end.

The template of a game's whole-game script (see ``tests/e2e/scripts.py``): the e2e tests run
it through the real daemon, once straight and once with a power cut mid-race, and in French
and German.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.scripts import Script, dice, game_button, menu
from tests.fixture_game.engine import GAME

SEED, SLOW = 4, 6
SAME = ("squares", "winner")
#: Its rows in French and German: the fixture's screens say only names and numbers.
SCREENS: dict[str, tuple[tuple[str, ...], str]] = {}


def CUT(view: dict[str, Any]) -> bool:
    """Three rolls in."""
    return int(view.get("events", 0)) >= 3 and not view["finished"]


def play(script: Script, seed: int) -> dict[str, Any]:
    """Started as offered (the last square 12), rolled until a horse gets there."""
    menu(script, game_button(GAME.kind))
    rolls = dice(seed)
    while not script.state()["view"]["finished"]:
        script.child.act(f"die {next(rolls)}", "the roll")
        script.checkpoint()
    return script.finish()
