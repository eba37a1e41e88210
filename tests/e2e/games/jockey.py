"""Jockey's whole game from the panel: win bets dialled, the deck scanned card by card."""

from __future__ import annotations

import random
from typing import Any

from companion.games.jockey.deck import default_deck
from tests.e2e.scripts import Script, bare, game_button, menu, next_race, phase, shown

SEED, SLOW = 9, 22
SAME = ("ranking", "results")
SCREENS = {
    "fr": (("Course 1/3: paris", "Pari: < gagnant >"), "Partie finie!"),
    "de": (("Rennen 1/3: Wetten", "Art: < Sieg >"), "Spielende!"),
}


def CUT(view: dict[str, Any]) -> bool:
    """In the second race, six cards played."""
    return view.get("phase") == "racing" and view["race"] == 2 and len(view["board"]["pile"]) >= 6


def play(script: Script, seed: int) -> dict[str, Any]:
    """Each player bets 100 on horse 1 to win; the deck played in an order drawn by seed."""
    rng = random.Random(seed)
    menu(script, game_button("jockey"))
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
