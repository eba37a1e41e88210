"""SIGTERM stops the loop whatever it was doing. A stop asked from the Python handler could
wait for ever for the queue's lock the interrupted loop held, or wait for the loop's next
wake-up when the signal came just as it went to sleep; the relay thread does neither."""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: A loop kept busy by a stream of presses, sent SIGTERM in the middle of them, many times.
SCRIPT = textwrap.dedent(
    """
    import os
    import signal
    import threading

    from companion.daemon.loop import Daemon
    from companion.daemon.notify import Notifier
    from companion.daemon.signals import SignalRelay
    from companion.devices.base import ButtonPressed
    from companion.render.screen import Screen

    class Table:
        def handle(self, event):
            return ()

        def tick(self, now):
            return ()

        def next_deadline(self):
            return None

        def hold(self):
            pass

        def commit(self):
            return ()

        def screen(self):
            return Screen(lcd=("busy",))

        def close(self):
            pass

    class Outputs:
        def show(self, screen):
            pass

        def show_panel(self, screen):
            pass

        def cue(self, cue, leds):
            pass

        def offer(self, hand):
            pass

        def answer(self, button):
            pass

        def maintain(self):
            return None

        def goodbye(self):
            pass

    for _ in range(ROUNDS):
        daemon = Daemon(Table(), Outputs(), [], Notifier())
        relay = SignalRelay([signal.SIGTERM], lambda number: daemon.stop("SIGTERM"))
        for _ in range(1000):
            daemon.post(ButtonPressed("horse1"))

        def terminate():
            daemon.running.wait()
            os.kill(os.getpid(), signal.SIGTERM)

        threading.Thread(target=terminate, daemon=True).start()
        daemon.run()
        relay.close()
    print("stopped every time")
    """
)


def test_sigterm_stops_a_busy_loop_every_time() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.replace("ROUNDS", "60")],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "stopped every time"
