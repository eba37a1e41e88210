"""Start the real daemon in a child process on simulated hardware and drive it like a table."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

#: The default build with short timers, so a test does not wait for a slow die. The strip and
#: the card reader are on a fake Pico, so frames and scans cross a real serial line.
FAST_CONFIG = """
[companion]
language = "en"

[gpio]
pin_factory = "mock"

[die]
pin = 17
roll_ms = 30
debounce_ms = 5

[horse_buttons]
pins = [5, 6, 13, 19, 26]
debounce_ms = 5

[encoder]
a = 22
b = 23
push = 27
debounce_ms = 5

[undo]
pin = 24
hold_s = 0.3
debounce_ms = 5

[buzzer]
pin = 18

[oled]

[lcd]

[pico]
port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614103e7000000-if00"

[strip]
backend = "pico"
count = 60

[reader]
kind = "pico"
repeat_window_s = 0.2

[web]
enabled = false
"""


#: A simulated press closes the contact this long (the debouncer needs 5 ms to see it).
PRESS_S = 0.02
#: Time for the contact to open again and the debouncer to see the release.
RELEASED_S = 0.03
#: How often the displays are read while waiting for something.
POLL_S = 0.01


class Child:
    """One run of `companion simulate --headless` with a control socket and a notify socket."""

    def __init__(
        self,
        workdir: Path,
        state_dir: Path,
        config: Path,
        command: tuple[str, ...] = (),
        files: int | None = None,
    ) -> None:
        #: The companion command line (default: the headless simulator with its control socket).
        self.command = command or (
            "simulate", "--headless", "--control", str(workdir / "control.sock"),
        )  # fmt: skip
        self.workdir = workdir
        self.state_dir = state_dir
        self.config = config
        #: The child's limit on open files (as systemd's LimitNOFILE= sets it), or None.
        self.files = files
        self.process: subprocess.Popen[str] | None = None
        self.notes: list[str] = []
        self._stream: Any = None

    @property
    def control(self) -> Path:
        return self.workdir / "control.sock"

    def start(self, timeout: float = 60.0) -> float:
        """Start the daemon and wait for READY=1; return the seconds it took.

        About a second on a quiet machine; the wait is long enough for one whose cores are
        busy with other work (a slow start is measured by the bench, not failed here).
        """
        notify_path = self.workdir / "notify.sock"
        if notify_path.exists():
            notify_path.unlink()
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(str(notify_path))
        notify.settimeout(timeout)
        env = dict(os.environ, NOTIFY_SOCKET=str(notify_path), PYTHONUNBUFFERED="1")
        env.pop("WATCHDOG_USEC", None)
        began = time.monotonic()
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "companion", *self.command,
                "--state-dir", str(self.state_dir), "--config", str(self.config),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            preexec_fn=None if self.files is None else self._limit_files,
        )  # fmt: skip
        try:
            while True:
                note = notify.recv(4096).decode()
                self.notes.append(note)
                if note.startswith("READY=1"):
                    break
        except TimeoutError:
            self.process.kill()
            out = self.process.communicate()[0]
            raise AssertionError(f"the daemon never said READY=1:\n{out}") from None
        finally:
            notify.close()
        ready = time.monotonic() - began
        if not self.control.exists():
            return ready
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.connect(str(self.control))
        self._stream = connection.makefile("rw", encoding="utf-8", newline="\n")
        return ready

    def _limit_files(self) -> None:
        assert self.files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

    def send(self, command: str) -> dict[str, Any]:
        """Send one control command; return the reply."""
        self._stream.write(command + "\n")
        self._stream.flush()
        reply: dict[str, Any] = json.loads(self._stream.readline())
        assert reply["ok"], reply
        return reply

    def lcd(self) -> list[str]:
        """The four rows the LCD shows now."""
        return list(self.send("state")["lcd"])

    def wait_until(
        self, check: Callable[[dict[str, Any]], bool], what: str, timeout: float = 20.0
    ) -> dict[str, Any]:
        """Poll the displays until ``check`` holds; fail with the LCD shown if it never does
        (a moment on a quiet machine: the wait is long for one busy with other work)."""
        deadline = time.monotonic() + timeout
        state = self.send("state")
        while not check(state):
            if time.monotonic() > deadline:
                shown = "\n".join(state["lcd"])
                raise AssertionError(f"timed out waiting for {what}; the LCD shows:\n{shown}")
            time.sleep(POLL_S)
            state = self.send("state")
        return state

    def wait_text(self, text: str, timeout: float = 20.0) -> dict[str, Any]:
        """Wait until some LCD row contains ``text``."""
        return self.wait_until(lambda s: any(text in row for row in s["lcd"]), repr(text), timeout)

    def press(self, button: str) -> None:
        """Press a button, wait until the table has seen it and the contact is open again."""
        handled = self.send("state")["handled"]
        self.send(f"press {button} {PRESS_S}")
        self.wait_until(lambda s: s["handled"] > handled, f"the press of {button}")
        time.sleep(RELEASED_S)

    def turn(self, steps: int) -> None:
        """Turn the encoder and wait until the table has seen every detent."""
        handled = self.send("state")["handled"]
        self.send(f"turn {steps}")
        self.wait_until(lambda s: s["handled"] >= handled + abs(steps), f"a turn of {steps}")

    def act(self, command: str, what: str, timeout: float = 20.0) -> dict[str, Any]:
        """Send a command that makes an input (a roll, a scan); wait until it is journaled.

        If it never is, the failure also tells how many inputs the table's loop handled since
        the command (device statuses count too): none means the input never reached the table
        (lost on the way, say in the card reader), some that it came and was not journaled.
        """
        before = self.send("state")
        events = before["view"].get("events", 0)
        self.send(command)
        try:
            return self.wait_until(lambda s: s["view"].get("events", 0) > events, what, timeout)
        except AssertionError as failure:
            handled = self.send("state")["handled"] - before["handled"]
            raise AssertionError(
                f"{failure}\n(the table handled {handled} input(s) since {command!r})"
            ) from None

    def kill(self) -> None:
        """Pull the plug: SIGKILL, no chance to clean up."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self._close_stream()

    def terminate(self, timeout: float = 10.0) -> tuple[int, float]:
        """SIGTERM; return the exit status and the seconds it took to exit."""
        assert self.process is not None
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout)
        self._close_stream()
        return status, time.monotonic() - began

    def _close_stream(self) -> None:
        if self._stream is not None:
            try:
                self._stream.close()
            except OSError:
                pass
            self._stream = None

    def output(self) -> str:
        assert self.process is not None
        return self.process.stdout.read() if self.process.stdout else ""


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Callable[..., Child]]:
    """Make children sharing one journal (a short socket folder: Unix paths are limited)."""
    workdir = Path(tempfile.mkdtemp(prefix="cmp-"))
    config = tmp_path / "companion.toml"
    config.write_text(FAST_CONFIG)
    children: list[Child] = []

    def make(*command: str, config_text: str | None = None) -> Child:
        if config_text is not None:
            config.write_text(config_text)
        child = Child(workdir, tmp_path / "state", config, command)
        children.append(child)
        return child

    yield make
    for child in children:
        if child.process is not None and child.process.poll() is None:
            child.process.kill()
            child.process.wait(10)
    shutil.rmtree(workdir, ignore_errors=True)
