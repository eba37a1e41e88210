"""A notifier for a daemon made in a test: there is no systemd to tell anything."""

from __future__ import annotations


class Quiet:
    """Says nothing: ready, alive and stopping go nowhere, and no watchdog asks for pings."""

    ping_every = None

    def ready(self, status: str = "ready") -> None: ...

    def alive(self) -> None: ...

    def stopping(self) -> None: ...
