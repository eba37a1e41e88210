"""The door of every request: only the table's own host names get in, every answer carries
the pages' security headers, and an error no route expected answers a short refusal.

The headers: a Content-Security-Policy that lets a page run only the companion's own files
(no inline script or style, no framing), no MIME sniffing, no referrer, and nothing private
kept in a browser's cache (a shared phone's back button shows no one else's pad).
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from starlette.requests import ClientDisconnect
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion.web.words import marked

log = logging.getLogger("companion.web")

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
NO_STORE = (b"cache-control", b"no-store")
#: Paths whose answers a browser may keep: the pages' own files, the same for everyone.
SHARED = ("/static/", "/favicon")
#: The names every machine gives itself.
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: How many addresses are remembered as the machine's own or not, and for how long (s): an
#: address the Pi is given later is answered within a minute.
_KNOWN = 64
_KNOWN_S = 60.0


def host_name(header: str) -> str:
    """The name in a Host header, without its port, brackets or final dot, in lower case."""
    name = header.strip().lower()
    if name.startswith("["):
        name = name[1 : name.find("]")] if "]" in name else ""
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    return name.rstrip(".")


def _own_address(name: str) -> bool:
    """Whether ``name`` is an IP address of this machine (one a socket may be bound to)."""
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((str(address), 0))
        except OSError as error:
            if error.errno in (errno.EADDRNOTAVAIL, errno.EINVAL, errno.EAFNOSUPPORT):
                return False
            raise
    return True


@dataclass
class HostNames:
    """The names the pages answer to: the configured ones, this machine's addresses,
    ``localhost`` and its own (``<hostname>`` and the mDNS ``<hostname>.local``)."""

    configured: Iterable[str] = ()
    names: frozenset[str] = field(init=False)
    clock: Callable[[], float] = time.monotonic
    _seen: dict[str, tuple[bool, float]] = field(init=False, default_factory=dict)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        machine = socket.gethostname().lower().rstrip(".")
        own = {machine, f"{machine.split('.')[0]}.local"} if machine else set()
        given = {host_name(n) for n in self.configured}
        self.names = frozenset(LOCAL_NAMES | own | given)

    def allows(self, header: str | None) -> bool:
        """Whether a request whose Host header is ``header`` is one for these pages."""
        if not header:
            return False
        name = host_name(header)
        if name in self.names:
            return True
        now = self.clock()
        with self._lock:
            known, since = self._seen.get(name, (False, -_KNOWN_S))
        if now - since < _KNOWN_S:
            return known
        try:
            known = _own_address(name)
        except OSError:
            return False
        with self._lock:
            if len(self._seen) >= _KNOWN:
                self._seen.clear()
            self._seen[name] = (known, now)
        return known


#: A refusal drawn by the app: reason code, sentence (a word of the pages), status.
Refuse = Callable[[str, str, int], Response]
#: The reason code of an error no route expected (a test fails when it is ever answered).
FAILED = "failed"


class Door:
    """ASGI middleware in front of every route (see the module's docstring)."""

    def __init__(self, app: ASGIApp, refuse: Refuse, names: HostNames | None = None) -> None:
        self.app = app
        self.refuse = refuse
        self.names = names if names is not None else HostNames()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.names.allows(host):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": ""})
            else:
                refusal = self.refuse("wrong_host", marked("Open the companion's own page."), 421)
                await refusal(scope, receive, _private(send))
            return
        path = str(scope.get("path", ""))
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = _with_headers(message, not path.startswith(SHARED))
            elif message["type"] in ("websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except ClientDisconnect:
            return  # the phone went away mid-request: nobody to answer, nothing to log
        except Exception as error:
            # One line, no traceback: a request's own words never reach the log.
            log.error("%s %s failed: %s", scope.get("method", "WS"), path, type(error).__name__)
            if started:
                return
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1011, "reason": ""})
            else:
                refusal = self.refuse(FAILED, marked("That request failed."), 400)
                await refusal(scope, receive, _private(send))


def _with_headers(message: Message, private: bool) -> Message:
    """``message`` (a response's start) with the security headers, and no-store if private."""
    headers = [
        (k, v)
        for k, v in message.get("headers", [])
        if not (private and k.lower() == b"cache-control")
    ]
    headers.extend(HEADERS)
    if private:
        headers.append(NO_STORE)
    return {**message, "headers": headers}


def _private(send: Send) -> Send:
    """``send`` adding the security headers and no-store to a response's start."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = _with_headers(message, True)
        await send(message)

    return sending
