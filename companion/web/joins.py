"""Joining a seat: the join code and its budget of wrong tries, and the requests waiting.

A phone that knows the code asks for a seat; the request waits until the table confirms it
(a deliberate act at the panel, or the host page) and then hands the phone its seat's token
once. Only the phone that made a request can collect it: it holds the request's own random
key, in a cookie.

The code has a budget of wrong tries shared by every address (``CodeBudget``): a few at
once, then one every ``REFILL_S`` seconds, and a new code after ``WRONG_PER_CODE`` wrong
tries. When the budget is spent, the table's code becomes a long one (``LONG_DIGITS``
digits, shown where the short one was): a short try is then refused without being looked
at, a long one is always checked. A phone that reads the code at the table is never kept
out by someone else's guessing; a guesser gets one short try every ``REFILL_S`` seconds, or
long tries in a space too large to search.
"""

from __future__ import annotations

import enum
import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.session.names import same_person

#: How long a request waits for the table before it is dropped (seconds).
WAIT_S = 300.0
#: How long the host's seat stays open to a new phone once the menu opened it (seconds).
HOST_OPEN_S = 120.0
#: At most this many requests wait at once, one per seat (a flood of joins grows nothing).
MAX_WAITING = 4
#: Requests kept at most, answered ones included (until their phone hears the answer).
KEPT = 4 * MAX_WAITING
#: Digits of the usual code, and of the code in force while the budget is spent.
SHORT_DIGITS = 4
LONG_DIGITS = 9
#: Wrong tries the budget allows at once (every address together)...
BURST = 10
#: ...then one more every this many seconds.
REFILL_S = 15.0
#: A new code is drawn after this many wrong tries against it.
WRONG_PER_CODE = 3


def new_code(digits: int = SHORT_DIGITS) -> str:
    """Return a fresh join code of ``digits`` digits."""
    return f"{secrets.randbelow(10**digits):0{digits}d}"


class Verdict(enum.Enum):
    """What became of a code typed on a phone."""

    RIGHT = "right"
    WRONG = "wrong"
    #: A short code while the long one is in force: not looked at.
    SPENT = "spent"


class CodeBudget:
    """The table's code and the budget of wrong tries it is guarded by (not thread-safe:
    ``Joins`` holds the lock)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.code = new_code()
        self.long = False
        self._level = float(BURST)
        self._since = clock()
        self._wrong = 0

    def _refill(self) -> None:
        now = self.clock()
        self._level = min(float(BURST), self._level + (now - self._since) / REFILL_S)
        self._since = now

    @property
    def level(self) -> float:
        """Wrong tries the budget still allows now."""
        self._refill()
        return self._level

    def renew(self) -> None:
        """Draw a new code (a long one while the budget is spent)."""
        self._refill()
        if self.long and self._level >= BURST:
            self.long = False
        self.code = new_code(LONG_DIGITS if self.long else SHORT_DIGITS)
        self._wrong = 0

    def check(self, given: str) -> Verdict:
        """Compare ``given`` with the code in force (in constant time); spend a wrong try."""
        self._refill()
        if self.long and len(given) != LONG_DIGITS:
            return Verdict.SPENT
        if hmac.compare_digest(given.encode(), self.code.encode()):
            if self.long and self._level >= BURST:  # the guessing is over: short codes again
                self.renew()
            return Verdict.RIGHT
        self._level = max(0.0, self._level - 1.0)
        self._wrong += 1
        if not self.long and self._level < 1.0:
            self.long = True  # spent: a code too long to guess replaces the short one
            self.renew()
        elif not self.long and self._wrong >= WRONG_PER_CODE:
            self.renew()
        return Verdict.WRONG


@dataclass(frozen=True)
class JoinRequest:
    """A phone asking for a seat: its secret key, the seat, when it asked, its token once given;
    ``new`` when the seat is a new person's, named on the phone."""

    key: str
    seat: str
    since: float
    token: str | None = None
    declined: bool = False
    new: bool = False


class Refused(enum.Enum):
    """Why a request could not be filed."""

    SEAT_ASKED = "seat_asked"
    TOO_MANY = "too_many"


class Joins:
    """The join code and the requests waiting for the table; safe from any thread."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._budget = CodeBudget(clock)
        self._waiting: dict[str, JoinRequest] = {}
        self._host_open_until: float | None = None

    def open_host(self) -> None:
        """The table opens the host's seat to a new phone for a while."""
        with self._lock:
            self._host_open_until = self.clock() + HOST_OPEN_S

    def close_host(self) -> None:
        """The host's seat has its phone: closed again."""
        with self._lock:
            self._host_open_until = None

    @property
    def host_open(self) -> bool:
        """Whether the table has opened the host's seat to a new phone, and it is still open."""
        with self._lock:
            until = self._host_open_until
            return until is not None and self.clock() < until

    @property
    def code(self) -> str:
        """The code in force (the table and the host page show it)."""
        with self._lock:
            return self._budget.code

    @property
    def level(self) -> float:
        """Wrong tries the budget still allows now."""
        with self._lock:
            return self._budget.level

    def renew(self) -> None:
        """The evening is over: a new code, and every request still waiting declined (its
        phone hears so when it asks next)."""
        with self._lock:
            self._budget.renew()
            for key, request in self._waiting.items():
                if request.token is None and not request.declined:
                    self._waiting[key] = replace(request, declined=True)

    def check(self, given: str) -> Verdict:
        """Check a code typed on a phone against the code in force."""
        with self._lock:
            return self._budget.check(given)

    def ask(self, seat: str, new: bool = False) -> JoinRequest | Refused:
        """File a request for ``seat`` (a new person's when ``new``), unless one waits for it
        (or for a name alike) already, or too many wait."""
        with self._lock:
            self._expire()
            waiting = [r for r in self._waiting.values() if r.token is None and not r.declined]
            if any(same_person(r.seat, seat) for r in waiting):
                return Refused.SEAT_ASKED
            if len(waiting) >= MAX_WAITING:
                return Refused.TOO_MANY
            request = JoinRequest(secrets.token_urlsafe(24), seat, self.clock(), new=new)
            self._waiting[request.key] = request
            answered = [k for k, r in self._waiting.items() if r.token or r.declined]
            for key in answered[: max(0, len(self._waiting) - KEPT)]:
                del self._waiting[key]  # answers nobody came for: the oldest go
            return request

    def pending(self) -> list[JoinRequest]:
        """The requests waiting for the table, oldest first."""
        with self._lock:
            self._expire()
            return [r for r in self._waiting.values() if r.token is None and not r.declined]

    def next_expiry(self) -> float | None:
        """When the oldest waiting request is dropped (monotonic seconds), or None."""
        with self._lock:
            return min(
                (
                    r.since + WAIT_S
                    for r in self._waiting.values()
                    if r.token is None and not r.declined
                ),
                default=None,
            )

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

    def decline_all(self) -> int:
        """Decline every request still waiting; return how many."""
        with self._lock:
            waiting = [k for k, r in self._waiting.items() if r.token is None and not r.declined]
            for key in waiting:
                self._waiting[key] = replace(self._waiting[key], declined=True)
            return len(waiting)

    def collect(self, key: str) -> None:
        """The phone has its token (or its no): forget the request."""
        with self._lock:
            self._waiting.pop(key, None)

    def _expire(self) -> None:
        now = self.clock()
        for key in [k for k, r in self._waiting.items() if now - r.since >= WAIT_S]:
            del self._waiting[key]
