"""Play one short game through an installed companion's control socket (make check-install).

Run with the installed companion's Python while `companion simulate --headless --control
SOCKET` serves: it chooses the menu's first game that needs only the buttons and the die (the
registry says which), one player, the default options, then presses the horse buttons, the
die (loaded on 6) and the knob in turn until the game is over. It prints one line and exits 0
when the game finished with the LED strip lit through the fake Pico, 1 otherwise.
"""

from __future__ import annotations

import json
import socket
import sys
import time
from typing import Any

#: The inputs pressed in turn: a refused one changes nothing, so the game goes on regardless.
CYCLE = ("press horse1", "press horse2", "press horse3", "die 6", "press push")
#: The most inputs a game may take, and the longest it may take (an emulated Pi is slow).
MOST_INPUTS = 5000
MOST_SECONDS = 900.0


class Control:
    """One connection to the control socket: a command per line, a JSON reply per line."""

    def __init__(self, path: str, wait_s: float = 300.0) -> None:
        deadline = time.monotonic() + wait_s
        while True:
            self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                self.socket.connect(path)
                break
            except OSError:
                self.socket.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        self.file = self.socket.makefile("rw", encoding="utf-8")

    def send(self, command: str) -> dict[str, Any]:
        self.file.write(command + "\n")
        self.file.flush()
        reply: dict[str, Any] = json.loads(self.file.readline())
        return reply

    def wait(self, ready: Any, what: str, wait_s: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + wait_s
        while True:
            state = self.send("state")
            if ready(state):
                return state
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {what}: the LCD shows {state['lcd']}")
            time.sleep(0.05)


def first_die_game() -> tuple[int, str]:
    """The menu's number and title of the first game played with the buttons and the die."""
    from companion.games.registry import GAMES

    for number, game in enumerate(GAMES, start=1):
        if game.uses_die and not game.uses_cards:
            return number, game.title
    raise LookupError("no game of the registry is played with the buttons and the die alone")


def play(path: str) -> str:
    """Play the game; return what happened in one line (raise when it did not finish)."""
    number, title = first_die_game()
    control = Control(path)
    started = time.monotonic()
    control.wait(lambda s: s["view"]["phase"] == "no_game", "menu")
    control.send(f"press horse{number}")
    control.wait(lambda s: s["lcd"][0].strip() == title[:20].strip(), f"{title}'s set-up")
    control.send("press push")  # one player
    control.wait(lambda s: s["lcd"][3].strip() == ">Start", "the options")
    control.send("press push")  # the default options
    state = control.wait(lambda s: s["view"]["game"] is not None, "the game")
    inputs, lit = 0, False
    while not state["view"]["finished"]:
        if inputs >= MOST_INPUTS or time.monotonic() - started > MOST_SECONDS:
            raise TimeoutError(f"{title} did not finish: the LCD shows {state['lcd']}")
        for command in CYCLE:
            control.send(command)
        inputs += len(CYCLE)
        state = control.send("state")
        lit = lit or any(any(colour) for colour in state["leds"])
    if not lit:
        raise AssertionError("the LED strip never lit: no fake Pico?")
    control.send("stop")
    took = time.monotonic() - started
    entries = state["view"]["events"]
    return f"{title}: finished in {inputs} inputs ({entries} journaled), {took:.1f} s, LEDs lit"


def main() -> int:
    try:
        print(play(sys.argv[1]))
    except (OSError, TimeoutError, AssertionError, LookupError, ValueError) as error:
        print(f"check_install_game: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
