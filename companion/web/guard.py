"""Security at the door: same-origin checks, rate limits and size bounds for every request."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from urllib.parse import urlsplit

#: The largest request body or socket message a page ever sends (bytes).
MAX_BODY = 2048
#: The most sockets open at once (every phone, scoreboard and host page of a table fits).
MAX_SOCKETS = 64


def same_origin(headers: Mapping[str, str]) -> bool:
    """Tell whether a request comes from one of the companion's own pages.

    The ``Origin`` header (sent by browsers with every POST and WebSocket handshake) must name
    the host the request was sent to. A request without it is refused too: every page's
    script sends one.
    """
    origin = headers.get("origin")
    host = headers.get("host")
    if not origin or not host or origin == "null":
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


class RateLimit:
    """A token bucket per client: ``burst`` requests at once, then ``per_s`` a second."""

    #: Forget a client's bucket once this many are kept (the oldest go first).
    MAX_CLIENTS = 1024

    def __init__(self, burst: int, per_s: float, clock: Callable[[], float]) -> None:
        self.burst = burst
        self.per_s = per_s
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str, spend: bool = True) -> bool:
        """Spend one request of ``client``'s bucket (with ``spend``, else only look); False
        when it is empty."""
        now = self.clock()
        with self._lock:
            level, since = self._buckets.pop(client, (float(self.burst), now))
            level = min(float(self.burst), level + (now - since) * self.per_s)
            allowed = level >= 1.0
            self._buckets[client] = (level - 1.0 if allowed and spend else level, now)
            while len(self._buckets) > self.MAX_CLIENTS:
                del self._buckets[next(iter(self._buckets))]
            return allowed
