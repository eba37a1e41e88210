"""Tell systemd the daemon is ready, alive and stopping (a no-op outside systemd).

The notification protocol of sd_notify(3) in a few lines: each message is one datagram of
``KEY=value`` lines sent to the Unix socket named by $NOTIFY_SOCKET, a path or, when it starts
with "@", a name in the abstract namespace.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable

log = logging.getLogger("companion.notify")


def socket_address(value: str) -> str | None:
    """The address $NOTIFY_SOCKET names: a path, an abstract name ("@" becomes a NUL byte),
    or None when it names no Unix socket (unset, empty, or another kind such as vsock)."""
    if value.startswith("@") and len(value) > 1:
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    return None


class NotifySocket:
    """Send each message as one datagram to systemd's notification socket.

    Outside systemd (no $NOTIFY_SOCKET) it sends nothing. A message that cannot be sent is
    logged once and dropped: the table plays on, and systemd judges the silence itself.
    """

    def __init__(self, value: str | None = None) -> None:
        raw = os.environ.get("NOTIFY_SOCKET", "") if value is None else value
        self.address = socket_address(raw)
        self._socket: socket.socket | None = None
        self._warned = False

    def __call__(self, message: str) -> None:
        if self.address is None:
            return
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._socket.sendto(message.encode(), self.address)
        except OSError as error:
            if not self._warned:
                self._warned = True
                log.warning("systemd's notification socket cannot be reached: %s", error)


class Notifier:
    """Send sd_notify messages; pings the watchdog at most twice per watchdog interval."""

    def __init__(
        self,
        send: Callable[[str], None] | None = None,
        watchdog_usec: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._send = send if send is not None else NotifySocket()
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
