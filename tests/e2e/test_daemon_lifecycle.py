"""The daemon as systemd runs it: ready, stopped by SIGTERM, killed and resumed."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any


def test_ready_then_sigterm_stops_within_five_seconds(daemon: Callable[[], Any]) -> None:
    child = daemon()
    ready = child.start()
    assert ready < 15
    assert child.wait_text("Choose a game")
    status, took = child.terminate()
    assert status == 0
    assert took < 5
    out = child.output()
    assert "Traceback" not in out, out


def test_a_game_killed_mid_race_resumes_where_it_stood(daemon: Callable[[], Any]) -> None:
    first = daemon()
    first.start()
    first.wait_text("Choose a game")
    first.press("horse1")  # Jumpy Jack
    first.wait_text("Players")
    first.press("push")  # one player is enough
    first.press("push")  # start with the default options
    for horse in ("horse1", "horse2", "horse3"):
        first.press(horse)
    first.wait_text("sealed")
    first.press("die")
    state = first.wait_until(lambda s: s["oled"]["die"] is not None, "the die face")
    face = state["oled"]["die"]
    lit = first.wait_until(lambda s: any(any(c) for c in s["leds"]), "horses on the strip")
    before = first.lcd()
    first.kill()  # the power cord, mid-race

    second = daemon()
    second.start()
    state = second.wait_until(lambda s: s["oled"]["die"] == face, "the same die face")
    # The bottom row carries passing announcements; the game itself is on the rows above.
    assert second.lcd()[:3] == before[:3]
    # The restarted daemon sends the same frame to the Pico.
    second.wait_until(lambda s: s["leds"] == lit["leds"], "the same LED frame")
    second.terminate()
    journal = sqlite3.connect(first.state_dir / "journal.sqlite3")
    kinds = [row[0] for row in journal.execute("SELECT kind FROM games")]
    journal.close()
    assert kinds == ["jumpy_jack"], "the restart started a second game"


def test_undo_after_a_restart_takes_back_the_input_before_it(daemon: Callable[[], Any]) -> None:
    first = daemon()
    first.start()
    first.wait_text("Choose a game")
    first.press("horse1")
    first.press("push")
    first.press("push")
    first.press("horse1")
    first.press("horse2")
    first.press("horse3")
    first.wait_text("sealed")
    sealed = first.lcd()
    first.press("die")
    first.wait_until(lambda s: s["oled"]["die"] is not None, "the die face")
    first.kill()

    second = daemon()
    second.start()
    second.wait_until(lambda s: s["oled"]["die"] is not None, "the resumed roll")
    second.send("hold undo")
    second.wait_until(lambda s: s["oled"]["die"] is None, "the roll taken back")
    time.sleep(0.2)
    assert second.lcd()[0] == sealed[0]
    second.terminate()


#: The default build's devices on a machine that has none of them (mock GPIO only).
NOTHING_ATTACHED = """
[gpio]
pin_factory = "mock"
[die]
[horse_buttons]
[encoder]
[undo]
[buzzer]
[oled]
[lcd]
[pico]
port = "/dev/serial/by-id/usb-nothing-here-if00"
[strip]
[reader]
[web]
bind = "127.0.0.1"
port = 0
"""


def test_run_comes_up_without_its_displays_and_pico_and_stops_cleanly(
    daemon: Callable[..., Any],
) -> None:
    child = daemon("run", config_text=NOTHING_ATTACHED)
    ready = child.start()
    assert ready < 15
    time.sleep(1.5)  # the missing devices are retried meanwhile
    assert child.process.poll() is None, child.output()
    status, took = child.terminate()
    out = child.output()
    assert status == 0, out
    assert took < 5
    assert "Traceback" not in out, out
    assert "LCD not responding" in out or "LCD failed" in out


def test_the_pages_address_is_set_on_the_command_line(daemon: Callable[..., Any]) -> None:
    with socket.socket() as probe:  # a port nobody listens on now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    child = daemon(
        "simulate", "--headless", "--web-bind", "127.0.0.1", "--web-port", str(port)
    )  # the configuration turns the pages off: the options turn them on
    child.start()
    assert child.process is not None and child.process.stdout is not None
    printed = child.process.stdout.readline()
    assert f"the pages are at http://127.0.0.1:{port}/" in printed, printed
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/scoreboard", timeout=10) as page:
        assert page.status == 200
    status, _ = child.terminate()
    assert status == 0


def test_a_pages_address_that_is_not_one_is_refused_in_a_sentence(tmp_path: Path) -> None:
    for option, value, said in (
        ("--web-port", "99999", "'99999' is not a port number"),
        ("--web-port", "８０", "is not a port number"),
        ("--web-bind", "pi.local", "'pi.local' is not an IPv4 address"),
    ):
        run = subprocess.run(
            [sys.executable, "-m", "companion", "simulate", "--headless", option, value,
             "--state-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert run.returncode == 2, run
        assert said in run.stderr and "Traceback" not in run.stderr, run.stderr
        assert not (tmp_path / "journal.sqlite3").exists()
