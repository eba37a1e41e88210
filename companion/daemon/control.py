"""A local control socket for the simulator: press buttons, lay cards, read the displays.

One command per line, one JSON reply per line: ``press horse2 [SECONDS]``, ``hold undo``,
``turn -3``, ``scan QS``, ``die 4`` (press the die, loaded to land on 4), ``state``,
``stop``. Only the simulator opens it, on a Unix socket only this user can reach.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.daemon.loop import Daemon
from companion.daemon.rig import Simulation
from companion.daemon.table import TableController
from companion.devices.simulated import PRESS_S

log = logging.getLogger("companion.control")


#: How long a control command waits for the loop to answer.
ANSWER_S = 5.0


def snapshot(sim: Simulation, daemon: Daemon) -> dict[str, Any]:
    """What the fakes show now (LCD rows, OLED, LEDs, tones) and the game's public view.

    Runs on the loop's thread (through ``Daemon.call``), so it never sees a half-made state.
    """
    screen = daemon.table.screen()
    view: dict[str, Any] = {}
    table = getattr(daemon.table, "controller", daemon.table)  # the pages wrap the controller
    if isinstance(table, TableController):
        public = table.session.view()
        view = {
            "board": public.board,
            "game": public.game,
            "phase": public.phase,
            "race": public.race,
            "turn": public.turn,
            "waiting_for": list(public.waiting_for),
            "finished": public.finished,
            "winners": list(public.winners),
            "events": public.events,
        }
    return {
        "lcd": sim.lcd.lines() if sim.lcd is not None else [],
        "oled": {"die": screen.oled.die, "lines": list(screen.oled.lines)},
        "leds": [list(c) for c in sim.leds()],
        "tones": [t.value for t in sim.buzzer.played] if sim.buzzer is not None else [],
        "handled": daemon.handled,
        "view": view,
    }


def _press_args(words: list[str]) -> tuple[str, float]:
    """``press NAME [SECONDS]``: which button, and how long the contact stays closed."""
    return words[0], float(words[1]) if len(words) > 1 else PRESS_S


class ControlServer:
    """Serve control commands on a Unix socket from one background thread."""

    def __init__(self, path: Path, sim: Simulation, daemon: Daemon) -> None:
        self.path = path
        self.sim = sim
        self.daemon = daemon
        if path.exists():
            path.unlink()
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)
        try:
            self._server.bind(str(path))
        finally:
            os.umask(old_umask)
        self._server.listen(4)
        self._thread = threading.Thread(target=self._serve, name="control", daemon=True)
        self._commands: dict[str, Callable[[list[str]], dict[str, Any]]] = {
            "press": lambda a: self._act(lambda: sim.controls.press(*_press_args(a))),
            "hold": lambda a: self._act(lambda: sim.controls.hold(a[0] if a else "undo")),
            "turn": lambda a: self._act(lambda: sim.controls.turn(int(a[0]))),
            "scan": lambda a: self._act(lambda: sim.scan(a[0])),
            "die": lambda a: self._act(lambda: self._roll(int(a[0]))),
            "state": lambda a: {"ok": True, **self._state()},
            "stop": lambda a: self._act(lambda: daemon.stop("stop from the control socket")),
        }

    def start(self) -> None:
        """Begin serving (returns at once)."""
        self._thread.start()

    def _roll(self, face: int) -> None:
        self.sim.controls.load_die(face)
        self.sim.controls.press("die")

    def _state(self) -> dict[str, Any]:
        result = self.daemon.call(lambda: snapshot(self.sim, self.daemon)).result(ANSWER_S)
        assert isinstance(result, dict)
        return result

    @staticmethod
    def _act(action: Callable[[], None]) -> dict[str, Any]:
        action()
        return {"ok": True}

    def answer(self, line: str) -> dict[str, Any]:
        """Carry out one command line and return the reply."""
        words = line.split()
        if not words:
            return {"ok": False, "error": "empty command"}
        command = self._commands.get(words[0])
        if command is None:
            return {"ok": False, "error": f"unknown command {words[0]!r}"}
        try:
            return command(words[1:])
        except (IndexError, KeyError, ValueError, TimeoutError) as error:
            return {"ok": False, "error": f"{words[0]}: {error}"}

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._server.accept()
            except OSError:
                return
            threading.Thread(target=self._talk, args=(connection,), daemon=True).start()

    def _talk(self, connection: socket.socket) -> None:
        with connection, connection.makefile("rw", encoding="utf-8", newline="\n") as stream:
            for line in stream:
                stream.write(json.dumps(self.answer(line.strip())) + "\n")
                stream.flush()

    def close(self) -> None:
        """Stop serving and remove the socket file."""
        try:
            self._server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._server.close()
        try:
            self.path.unlink()
        except OSError:
            pass
