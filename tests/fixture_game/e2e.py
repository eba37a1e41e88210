"""Petits chevaux's whole game from the panel: picked by its horse button, each pick sealed
with a horse button, rolled and moved race after race to its end.

The template of a game's whole-game script (see ``tests/e2e/scripts.py``): the e2e tests run
it through the real daemon, once straight and once with a power cut mid-race, and in French
and German. It decides only from what the daemon shows: the phase, who the table waits for,
the horses' squares.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.scripts import Script, dice, game_button, menu, moves_made, next_race, phase
from tests.fixture_game.engine import GAME

SEED, SLOW = 4, 8
SAME = ("horses", "scores", "results")
#: Rows a player reads on the way, and a row of the last screen, in French and German.
SCREENS = {
    "fr": (
        (": pronostic", "Autres: yeux fermés", "Lancez le dé", "Avancez un cheval"),
        "Partie finie!",
    ),
    "de": ((": Tipp", "Andere wegschauen", "Würfel drücken", "Zieh ein Pferd"), "Spielende!"),
}


def CUT(view: dict[str, Any]) -> bool:
    """Mid-race, a horse to be moved, ten inputs in."""
    return view.get("phase") == "move" and moves_made(view) >= 10


def play(script: Script, seed: int) -> dict[str, Any]:
    """Started as offered (two races to square 12): each player picks the next horse along,
    and every roll moves the horse furthest behind (the race lasts, the picks matter)."""
    menu(script, game_button(GAME.kind))
    rolls = dice(seed)
    while (now := phase(script)) != "game_over":
        view = script.state()["view"]
        if now == "pick":
            picked = len(view["sealed"])  # who has picked: shown, their horse never
            script.child.press(f"horse{picked % len(GAME.horses) + 1}")
        elif now == "roll":
            script.child.act(f"die {next(rolls)}", "the roll")
        elif now == "move":
            squares = [h["square"] for h in view["board"]["horses"]]
            script.child.press(f"horse{squares.index(min(squares)) + 1}")
        elif now == "race_over":
            next_race(script, "race_over")
        script.checkpoint()
    return script.finish()
