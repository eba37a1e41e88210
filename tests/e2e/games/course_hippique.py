"""Course hippique's whole game from the panel: course cards scanned, bets dialled, cards turned."""

from __future__ import annotations

import random
from typing import Any

from tests.e2e.scripts import Script, bare, game_button, menu, next_race, phase, shown

SEED, SLOW = 3, 15
SAME = ("ranking", "results")
SCREENS = {
    "fr": (("Carte parcours 2/7", "1/3  banque Joueur"), "Partie finie!"),
    "de": (("Streckenkarte 2/7", "Rennen 1/3 Bank"), "Spielende!"),
}
SUITS = "SHDC"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def CUT(view: dict[str, Any]) -> bool:
    """Mid-race, five cards turned."""
    return view.get("phase") == "racing" and len(view["board"]["turned"]) >= 5


def play(script: Script, seed: int) -> dict[str, Any]:
    """Three players; each bets on the horse of the race's number; the pack shuffled by seed."""
    rng = random.Random(seed)
    menu(script, game_button("course_hippique"))
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
