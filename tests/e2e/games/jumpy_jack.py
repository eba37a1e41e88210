"""Jumpy Jack's whole game from the panel: predictions sealed, rolls, the legal horse moved."""

from __future__ import annotations

from typing import Any

from tests.e2e.scripts import Script, dice, game_button, menu, moves_made, next_race, phase

SEED, SLOW = 5, 12
SAME = ("results",)
SCREENS = {
    "fr": (("Course 1: scellés", "Lancez le dé", "Joueur 1 joue"), "Match fini!"),
    "de": (("Rennen 1: verdeckt", "Würfel drücken", "Spieler 1 ist dran"), "Partie vorbei!"),
}


def CUT(view: dict[str, Any]) -> bool:
    """Mid-race, the die to be rolled, twelve inputs in."""
    return view.get("phase") == "roll" and moves_made(view) >= 12


def play(script: Script, seed: int) -> dict[str, Any]:
    """A match to 2 points: each player predicts 1-2-3, the legal horse moves."""
    rolls = dice(seed)

    def target_two(child: Any) -> None:
        child.turn(-5)  # up to the first option, the target
        for _ in range(3):  # 16 -> 8 -> 4 -> 2 points
            child.press("push")
        child.turn(6)  # down past the language, to Start
        child.press("push")

    menu(script, game_button("jumpy_jack"), options=target_two)
    while (now := phase(script)) != "match_over":
        if now == "predict" and script.state()["view"]["waiting_for"]:
            for button in ("horse1", "horse2", "horse3"):
                script.child.press(button)
        elif now in ("predict", "roll"):  # every prediction sealed: the first roll may come
            script.child.act(f"die {next(rolls)}", "the roll")
        elif now == "move":
            board = script.state()["view"]["board"]
            names = [h["name"] for h in board["horses"]]
            horse = board["legal_horses"][0]
            script.child.press(f"horse{names.index(horse) + 1}")
        elif now == "race_over":
            next_race(script, "race_over")
        script.checkpoint()
    return script.finish()
