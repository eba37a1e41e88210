"""Tell systemd the daemon is ready, alive and stopping (a no-op outside systemd)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable


class Notifier:
    """Send sd_notify messages; pings the watchdog at most twice per watchdog interval."""

    def __init__(
        self,
        send: Callable[[str], None] | None = None,
        watchdog_usec: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if send is None:
            from sdnotify import SystemdNotifier

            send = SystemdNotifier().notify
        self._send = send
        self._clock = clock
        usec = watchdog_usec if watchdog_usec is not None else os.environ.get("WATCHDOG_USEC")
        interval = int(usec) / 1e6 if usec and usec.isdigit() and int(usec) > 0 else None
        #: Seconds between pings (half the watchdog interval), or None without a watchdog.
        self.ping_every = interval / 2 if interval else None
        self._last_ping = float("-inf")

    def ready(self, status: str = "ready") -> None:
        """Say the hardware is up and the loop is about to run."""
        self._send(f"READY=1\nSTATUS={status}")
        self._last_ping = self._clock()

    def status(self, text: str) -> None:
        """Publish a one-line status (shown by `systemctl status`)."""
        self._send(f"STATUS={text}")

    def alive(self) -> None:
        """Ping the watchdog if it is due; call it from the event loop itself."""
        if self.ping_every is None:
            return
        now = self._clock()
        if now - self._last_ping >= self.ping_every:
            self._send("WATCHDOG=1")
            self._last_ping = now

    def stopping(self) -> None:
        """Say the daemon is shutting down."""
        self._send("STOPPING=1")
