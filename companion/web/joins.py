"""Joining a seat: the join code shown at the table, and the requests waiting for confirmation.

A phone that knows the code asks for a seat; the request waits until the table confirms it
(the panel's push, or the host page) and then hands the phone its seat's token once. Only the
phone that made a request can collect it: it holds the request's own random key, in a cookie.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

#: How long a request waits for the table before it is dropped (seconds).
WAIT_S = 300.0
#: The LCD shows the address and code this long after a phone opens the join page (seconds).
SHOWN_S = 60.0
#: At most this many requests wait at once (a flood of joins cannot grow memory).
MAX_WAITING = 20


def new_code() -> str:
    """Return a fresh four-digit join code."""
    return f"{secrets.randbelow(10_000):04d}"


@dataclass(frozen=True)
class JoinRequest:
    """A phone asking for a seat: its secret key, the seat, when it asked, its token once given."""

    key: str
    seat: str
    since: float
    token: str | None = None
    declined: bool = False


class Joins:
    """The join code and the requests waiting for the table; safe from any thread."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._code = new_code()
        self._waiting: dict[str, JoinRequest] = {}
        self._opened: float | None = None

    def opened(self) -> None:
        """A phone opened the join page: the table shows the code for a while."""
        with self._lock:
            self._opened = self.clock()

    def shown_until(self) -> float | None:
        """Until when the code is shown (monotonic seconds), or None when it is not."""
        with self._lock:
            if self._opened is None or self.clock() >= self._opened + SHOWN_S:
                return None
            return self._opened + SHOWN_S

    @property
    def code(self) -> str:
        """The code the LCD shows."""
        with self._lock:
            return self._code

    def renew(self) -> None:
        """A new game: a new code, and every waiting request dropped."""
        with self._lock:
            self._code = new_code()
            self._waiting.clear()

    def code_matches(self, given: str) -> bool:
        """Compare a code typed on a phone with the table's, in constant time."""
        return hmac.compare_digest(given.encode(), self.code.encode())

    def ask(self, seat: str) -> JoinRequest | None:
        """File a request for ``seat``; None when too many are waiting already."""
        with self._lock:
            self._expire()
            if len(self._waiting) >= MAX_WAITING:
                return None
            request = JoinRequest(secrets.token_urlsafe(24), seat, self.clock())
            self._waiting[request.key] = request
            return request

    def pending(self) -> list[JoinRequest]:
        """The requests waiting for the table, oldest first."""
        with self._lock:
            self._expire()
            return [r for r in self._waiting.values() if r.token is None and not r.declined]

    def find(self, key: str | None) -> JoinRequest | None:
        """The request whose key is ``key`` (compared in constant time), or None."""
        if not key:
            return None
        with self._lock:
            self._expire()
            found = None
            for known, request in self._waiting.items():
                if hmac.compare_digest(known.encode(), key.encode()):
                    found = request
            return found

    def settle(self, key: str, token: str | None) -> None:
        """Give a request its token (confirmed), or decline it (``token`` None)."""
        with self._lock:
            request = self._waiting.get(key)
            if request is not None:
                self._waiting[key] = replace(request, token=token, declined=token is None)

    def collect(self, key: str) -> None:
        """The phone has its token: forget the request."""
        with self._lock:
            self._waiting.pop(key, None)

    def _expire(self) -> None:
        now = self.clock()
        for key in [k for k, r in self._waiting.items() if now - r.since > WAIT_S]:
            del self._waiting[key]
