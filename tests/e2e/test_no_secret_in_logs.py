"""The real daemon logging at DEBUG (`-v`) while sealed inputs are entered with the buttons:
stopped before the reveal, its output holds no prediction and no stake."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from companion.daemon.app import JOURNAL_NAME
from companion.session.session import Session

#: The default board's horses, in the order of the horse buttons.
JUMPY_HORSES = ("red", "blue", "green", "yellow", "white")
JOCKEY_HORSES = ("brown", "yellow", "blue", "red")


def verbose(daemon: Callable[..., Any]) -> Any:
    """A headless simulator with its control socket, every logger at DEBUG; started."""
    child = daemon()
    child.command = (*child.command, "--verbose")
    child.start()
    child.wait_text("Choose a game")
    return child


def stopped_output(child: Any) -> str:
    """Stop the daemon; return what it wrote, less other libraries' records (image chunks...)."""
    status, _ = child.terminate()
    assert status == 0
    lines = str(child.output()).splitlines()
    assert any(line.startswith("INFO companion.") for line in lines), lines
    return "\n".join(line for line in lines if not re.match(r"[A-Z]+ (?!companion\b)\S+: ", line))


def sealed(child: Any, player: str) -> Any:
    """What ``player`` sealed, read from the journal the stopped daemon left."""
    session = Session.open(child.state_dir / JOURNAL_NAME)
    try:
        return session.private_view(player).details
    finally:
        session.close()


def test_predictions_entered_at_the_table_are_not_logged(daemon: Callable[..., Any]) -> None:
    child = verbose(daemon)
    child.press("horse1")  # Jumpy Jack
    child.turn(1)  # 2 players
    child.press("push")
    child.turn(5)  # down to Start, the options as they are
    child.press("push")
    child.wait_until(lambda s: s["view"].get("game") == "jumpy_jack", "the game to start")
    predictions = {"Player 1": ("white", "green", "red"), "Player 2": ("yellow", "blue", "white")}
    for horses in predictions.values():
        for horse in horses:
            child.press(f"horse{JUMPY_HORSES.index(horse) + 1}")
    child.wait_until(lambda s: s["view"]["waiting_for"] == [], "every prediction sealed")
    output = stopped_output(child)
    for player, horses in predictions.items():
        assert sealed(child, player).prediction == horses
    for horses in predictions.values():
        assert not re.search(r"\W+".join(horses), output), output


def test_jockey_stakes_entered_at_the_table_are_not_logged(daemon: Callable[..., Any]) -> None:
    child = verbose(daemon)
    for button in ("horse3", "push", "push"):  # Jockey, 2 players, the 80-square track
        child.press(button)
    child.wait_until(lambda s: s["view"].get("game") == "jockey", "the game to start")
    # Stakes a few detents away: the first detents of a turn step by 100 however fast.
    for horse, stake in (("red", 500), ("blue", 400)):
        child.wait_text(": bet")
        child.press("push")  # a win bet, the first kind
        child.press(f"horse{JOCKEY_HORSES.index(horse) + 1}")
        child.turn(stake // 100 - 1)
        child.press("push")
    child.wait_until(lambda s: s["view"]["waiting_for"] == [], "every bet sealed")
    output = stopped_output(child)
    first = sealed(child, "Player 1").bet
    assert (first.kind, first.horses, first.stakes) == ("win", ("red",), (500,))
    assert sealed(child, "Player 2").bet.stakes == (400,)
    for stake in (500, 400):
        assert not re.search(rf"(?<![\d.]){stake}(?![\d.])", output), output
