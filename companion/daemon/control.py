"""A local control socket for the simulator: press buttons, lay cards, read the displays.

One command per line, one JSON reply per line: ``press horse2 [SECONDS]``, ``hold [undo]``,
``turn -3``, ``scan QS``, ``die 4`` (press the die, loaded to land on 4), ``state``,
``stop``. A bad command gets ``{"ok": false, "code": ..., "error": ...}`` and changes nothing.
Only the simulator opens it, on a Unix socket only this user can reach; it never replaces a
file that is not a stale socket of this user's. Lines, connections and arguments are bounded.
"""

from __future__ import annotations

import json
import logging
import math
import os
import socket
import stat
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

from companion.daemon.loop import Daemon
from companion.daemon.rig import Simulation
from companion.daemon.table import TableController
from companion.devices.simulated import MAX_PRESS_S, MAX_TURN, PRESS_S
from companion.games.errors import fits_display

log = logging.getLogger("companion.control")


#: How long a control command waits for the loop to answer.
ANSWER_S = 5.0
#: The longest command line read, newline excluded; a longer one is refused and skipped.
MAX_LINE = 256
#: Connections served at once; one more is told so in one error line and closed.
MAX_CONNECTIONS = 8
#: A connection that sends no whole line for this long is told so and closed, freeing its slot.
IDLE_S = 300.0
#: After a failed accept() (no file left, say), the accepting thread waits this long.
ACCEPT_RETRY_S = 0.1
#: A failed accept() is logged at most once in this many seconds, with how many failed since.
ACCEPT_LOG_S = 1.0
#: Connections the kernel holds for the accepting thread (more than are ever served at once).
BACKLOG = 64
#: The longest path a Unix socket binds to: sun_path holds 108 bytes with the closing NUL.
MAX_SOCKET_PATH = 107
#: How much of a bad word a refusal repeats (quoted).
SHOWN = 14
#: The commands, as the refusal of an unknown one lists them.
COMMANDS = "press hold turn scan die state stop"


class ControlError(Exception):
    """The control socket cannot be opened at the path given: a reason code and a sentence."""

    def __init__(self, code: str, sentence: str) -> None:
        super().__init__(sentence)
        self.code = code
        self.sentence = sentence


class CommandRefused(ValueError):
    """A control command that is not carried out: a reason code and a sentence for a 20x4 LCD."""

    def __init__(self, code: str, sentence: str) -> None:
        if not fits_display(sentence):
            raise ValueError(f"refusal sentence does not fit a 20x4 display: {sentence!r}")
        super().__init__(sentence)
        self.code = code
        self.sentence = sentence

    def reply(self) -> dict[str, Any]:
        return {"ok": False, "code": self.code, "error": self.sentence}


def snapshot(sim: Simulation, daemon: Daemon) -> dict[str, Any]:
    """What the fakes show now (LCD rows, OLED, LEDs, tones) and the game's public view.

    Runs on the loop's thread (through ``Daemon.call``), so it never sees a half-made state;
    the frames handed to the bus writers are on the glass first.
    """
    settle = getattr(daemon.outputs, "wait_idle", None)
    if callable(settle):
        settle(ANSWER_S)
    screen = daemon.table.screen()
    view: dict[str, Any] = {}
    table = getattr(daemon.table, "controller", daemon.table)  # the pages wrap the controller
    if isinstance(table, TableController):
        public = table.session.view()
        view = {
            "board": public.board.to_json(),
            "game": public.game,
            "game_id": public.game_id,
            "phase": public.phase,
            "race": public.race,
            "turn": public.turn,
            "waiting_for": list(public.waiting_for),
            "sealed": list(public.sealed),
            "offers": table.session.offers().to_json(),
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


def shown(word: str) -> str:
    """A word from the client, cut short and quoted, to repeat in a refusal."""
    quoted = repr(word)
    return quoted if len(quoted) <= SHOWN else quoted[: SHOWN - 1] + "…"


def claim(path: Path) -> None:
    """Make ``path`` free for the socket: remove a stale socket of this user's, nothing else.

    Raises ControlError when the path is too long for a Unix socket, its folder is missing,
    it is a folder, a file that is not a socket, another user's socket, or a socket a
    running program still serves.
    """
    size = len(os.fsencode(path))
    if size > MAX_SOCKET_PATH:
        raise ControlError(
            "path_too_long",
            f"{path}: a Unix socket path has at most {MAX_SOCKET_PATH} bytes, this one {size}",
        )
    if not path.parent.is_dir():
        raise ControlError("no_folder", f"{path}: there is no folder {path.parent}")
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise ControlError("unusable", f"{path}: {error.strerror}") from None
    if stat.S_ISDIR(found.st_mode):
        raise ControlError("is_folder", f"{path} is a folder: give the socket a file name")
    if not stat.S_ISSOCK(found.st_mode):
        raise ControlError("not_a_socket", f"{path} is a file, not a socket: it is left alone")
    if found.st_uid != os.getuid():
        raise ControlError("not_ours", f"{path} is another user's socket: it is left alone")
    if _served(path):
        raise ControlError("in_use", f"{path} is served by another running program")
    again = os.lstat(path)
    if (again.st_dev, again.st_ino) == (found.st_dev, found.st_ino):
        path.unlink()


def _served(path: Path) -> bool:
    """Whether a program accepts connections on the socket at ``path`` (else it is stale)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(str(path))
    except ConnectionRefusedError:
        return False
    except OSError:
        return True  # cannot tell: the socket is not removed
    finally:
        probe.close()
    return True


def _lines(connection: socket.socket, within_s: float) -> Iterator[bytes | None]:
    """Yield each line the client sends, newline removed, as soon as it is complete.

    A line over MAX_LINE bytes is yielded as None once it passes the limit, and its rest is
    skipped up to its newline, so memory stays bounded whatever arrives. A last line without
    a newline counts when the client stops sending. Each line must be complete within
    ``within_s`` seconds of the previous reply (or of connecting): TimeoutError otherwise,
    however the client trickles its bytes.
    """
    buffer = bytearray()
    skipping = False
    deadline = time.monotonic() + within_s
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        connection.settimeout(left)
        chunk = connection.recv(4096)
        if not chunk:
            if buffer and not skipping:
                yield bytes(buffer)
            return
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if not skipping:
                buffer += piece
                if len(buffer) > MAX_LINE:
                    buffer.clear()
                    skipping = True
                    yield None
                    deadline = time.monotonic() + within_s
                elif end >= 0:
                    yield bytes(buffer)
                    buffer.clear()
                    deadline = time.monotonic() + within_s
            if end < 0:
                break
            skipping = False
            start = end + 1


def _number(word: str, kind: Callable[[str], float], code: str, sentence: str) -> float:
    try:
        return kind(word)
    except ValueError:
        raise CommandRefused(code, sentence) from None


class ControlServer:
    """Serve control commands on a Unix socket: one accepting thread, one per connection.

    The constructor claims ``path`` and binds it (raises ControlError); ``start`` serves the
    simulation; ``close`` stops and removes the socket, if it is still the one bound.
    """

    def __init__(self, path: Path, idle_s: float = IDLE_S) -> None:
        self.path = path
        self.idle_s = idle_s
        claim(path)
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)
        try:
            self._server.bind(str(path))
        except OSError as error:
            self._server.close()
            raise ControlError("unusable", f"{path}: {error.strerror or error}") from None
        finally:
            os.umask(old_umask)
        bound = os.lstat(path)
        self._identity = (bound.st_dev, bound.st_ino)
        self._server.listen(BACKLOG)
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self.sim: Simulation | None = None
        self.daemon: Daemon | None = None

    def start(self, sim: Simulation, daemon: Daemon) -> None:
        """Begin serving ``sim`` and ``daemon`` (returns at once)."""
        self.sim = sim
        self.daemon = daemon
        self._thread = threading.Thread(target=self._serve, name="control", daemon=True)
        self._thread.start()

    # -- the commands ------------------------------------------------------------------------

    def answer(self, line: str) -> dict[str, Any]:
        """Carry out one command line and return the reply; a bad one changes nothing."""
        words = line.split()
        if not words:
            return CommandRefused("empty", f"Empty command. Try: {COMMANDS}.").reply()
        name, args = words[0], words[1:]
        commands: dict[str, Callable[[list[str]], dict[str, Any]]] = {
            "press": self._press,
            "hold": self._hold,
            "turn": self._turn,
            "scan": self._scan,
            "die": self._die,
            "state": self._state,
            "stop": self._stop,
        }
        command = commands.get(name)
        try:
            if command is None:
                sentence = f"No command {shown(name)}. Try: {COMMANDS}."
                raise CommandRefused("unknown_command", sentence)
            return command(args)
        except CommandRefused as refused:
            return refused.reply()
        except KeyError as error:  # a control this panel does not have
            said = str(error.args[0]) if error.args else "no such control"
            return {"ok": False, "code": "no_control", "error": said}
        except (TimeoutError, CancelledError):
            return CommandRefused("no_answer", "The table did not answer: is it stopping?").reply()

    @property
    def _sim(self) -> Simulation:
        assert self.sim is not None
        return self.sim

    @property
    def _daemon(self) -> Daemon:
        assert self.daemon is not None
        return self.daemon

    @staticmethod
    def _arity(name: str, args: list[str], least: int, most: int, usage: str) -> None:
        if not least <= len(args) <= most:
            raise CommandRefused("usage", f"Usage: {name} {usage}".rstrip() + ".")

    def _button(self, word: str) -> str:
        if word not in self._sim.controls.buttons:
            raise CommandRefused("no_button", f"No button {shown(word)} on this panel.")
        return word

    def _press(self, args: list[str]) -> dict[str, Any]:
        self._arity("press", args, 1, 2, "BUTTON [SECONDS]")
        button = self._button(args[0])
        seconds = PRESS_S
        if len(args) > 1:
            bad = f"A press lasts more than 0 and at most {MAX_PRESS_S:g} seconds."
            seconds = _number(args[1], float, "bad_seconds", bad)
            if not (math.isfinite(seconds) and 0 < seconds <= MAX_PRESS_S):
                raise CommandRefused("bad_seconds", bad)
        self._sim.controls.press(button, seconds)
        return {"ok": True}

    def _hold(self, args: list[str]) -> dict[str, Any]:
        self._arity("hold", args, 0, 1, "[BUTTON]")
        self._sim.controls.hold(self._button(args[0] if args else "undo"))
        return {"ok": True}

    def _turn(self, args: list[str]) -> dict[str, Any]:
        self._arity("turn", args, 1, 1, "STEPS")
        bad = f"A turn is 1 to {MAX_TURN} detents, minus for anticlockwise."
        steps = int(_number(args[0], int, "bad_steps", bad))
        if not 0 < abs(steps) <= MAX_TURN:
            raise CommandRefused("bad_steps", bad)
        self._sim.controls.turn(steps)
        return {"ok": True}

    def _scan(self, args: list[str]) -> dict[str, Any]:
        if not args:
            raise CommandRefused("usage", "Usage: scan CARD (QS, 10h, jockey 12...).")
        self._sim.scan(" ".join(args))
        return {"ok": True}

    def _die(self, args: list[str]) -> dict[str, Any]:
        self._arity("die", args, 1, 1, "FACE")
        bad = "A die face is a number from 1 to 6."
        face = int(_number(args[0], int, "bad_face", bad))
        if not 1 <= face <= 6:
            raise CommandRefused("bad_face", bad)
        self._button("die")
        self._sim.controls.load_die(face)
        self._sim.controls.press("die")
        return {"ok": True}

    def _state(self, args: list[str]) -> dict[str, Any]:
        self._arity("state", args, 0, 0, "")
        sim, daemon = self._sim, self._daemon
        result = daemon.call(lambda: snapshot(sim, daemon)).result(ANSWER_S)
        assert isinstance(result, dict)
        return {"ok": True, **result}

    def _stop(self, args: list[str]) -> dict[str, Any]:
        self._arity("stop", args, 0, 0, "")
        self._daemon.stop("stop from the control socket")
        return {"ok": True}

    # -- the connections ---------------------------------------------------------------------

    def _serve(self) -> None:
        failed, logged = 0, -math.inf
        while not self._closing.is_set():
            try:
                connection, _ = self._server.accept()
            except OSError as error:  # no file left, say: serve again once one is free
                if self._closing.is_set():
                    return
                failed += 1
                if time.monotonic() - logged >= ACCEPT_LOG_S:
                    log.warning("control socket: %d accept() failed: %s", failed, error)
                    failed, logged = 0, time.monotonic()
                self._closing.wait(ACCEPT_RETRY_S)
                continue
            if not self._slots.acquire(blocking=False):
                self._turn_away(connection)
                continue
            with self._lock:
                self._open.add(connection)
            threading.Thread(
                target=self._talk, args=(connection,), name="control-connection", daemon=True
            ).start()

    @staticmethod
    def _turn_away(connection: socket.socket) -> None:
        busy = CommandRefused("busy", f"Busy: {MAX_CONNECTIONS} connections are open already.")
        with connection:
            connection.settimeout(1.0)
            try:
                connection.sendall(json.dumps(busy.reply()).encode() + b"\n")
            except OSError:
                pass

    def _talk(self, connection: socket.socket) -> None:
        try:
            with connection:
                try:
                    for line in _lines(connection, self.idle_s):
                        reply = self._reply_to(line)
                        connection.settimeout(ANSWER_S)
                        connection.sendall(json.dumps(reply).encode() + b"\n")
                except TimeoutError:
                    connection.settimeout(ANSWER_S)
                    sentence = f"Idle for {self.idle_s:g} s: connection closed."
                    idle = CommandRefused("idle", sentence).reply()
                    connection.sendall(json.dumps(idle).encode() + b"\n")
        except OSError:
            pass  # the client went away
        finally:
            with self._lock:
                self._open.discard(connection)
            self._slots.release()

    def _reply_to(self, line: bytes | None) -> dict[str, Any]:
        if line is None:
            sentence = f"Line too long: a command has at most {MAX_LINE} bytes."
            return CommandRefused("line_too_long", sentence).reply()
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            return CommandRefused("not_text", "The command is not UTF-8 text.").reply()
        return self.answer(text)

    def close(self) -> None:
        """Stop serving, end the open connections and remove the socket file (if still ours)."""
        self._closing.set()
        try:
            self._server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._server.close()
        with self._lock:
            connections = list(self._open)
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        try:
            found = os.lstat(self.path)
        except OSError:
            return
        if (found.st_dev, found.st_ino) == self._identity:
            try:
                self.path.unlink()
            except OSError:
                pass
