"""The table's connection to the club's broker: how it stands, and in one line why it is down.

paho-mqtt connects and reconnects on its own thread and says little: a broker that refuses
the login answers the CONNECT with a reason code, a broker that cannot be reached or a TLS
handshake that fails raises an error inside paho, which it swallows before calling
``on_connect_fail``. ``LinkWatch`` reads both (the error is the one being handled when paho
calls back), keeps the connection's state, logs each change once (each retry at debug
level) and tells its listener. ``try_broker`` connects once and says how it went, for
``companion check-config --try-broker``.
"""

from __future__ import annotations

import logging
import socket
import ssl
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import paho.mqtt.client as paho

from companion.club.mqtt import client_for
from companion.devices.config.sections import Broker

log = logging.getLogger("companion.club")

#: The CONNACK reason codes of a login the broker refuses (MQTT 5: bad client id, bad user
#: name or password, not authorised, banned, bad authentication method).
LOGIN_REFUSED = frozenset({133, 134, 135, 138, 140})


class LinkState(StrEnum):
    """How the connection to the club's broker stands."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    #: The broker refused the login (user name, password, client id, ACL).
    NOT_AUTHORISED = "not_authorised"
    #: The broker answered the CONNECT with another refusal (busy, unavailable...).
    TURNED_AWAY = "turned_away"
    #: Nothing answers at the broker's address (refused, timed out, unknown name, no route).
    UNREACHABLE = "unreachable"
    #: The TLS handshake failed (the broker's certificate, or TLS on a port that has none).
    TLS = "tls"
    #: The broker closed the connection before answering the CONNECT (plain MQTT on its TLS
    #: port, or a broker that drops whom it will not serve).
    HUNG_UP = "hung_up"
    #: A connection that worked was lost; paho connects again.
    LOST = "lost"
    #: The broker answers on its port (TLS included); the login was not tried (``reach``).
    ANSWERS = "answers"


#: The states in which the table cannot reach the club.
FAILURES = frozenset(
    {
        LinkState.NOT_AUTHORISED,
        LinkState.TURNED_AWAY,
        LinkState.UNREACHABLE,
        LinkState.TLS,
        LinkState.HUNG_UP,
    }
)

#: What each state means, in one line after the broker's address, and what to check.
_LINES = {
    LinkState.CONNECTING: "connecting",
    LinkState.CONNECTED: "connected",
    LinkState.NOT_AUTHORISED: "login refused{detail}: check username and password in the"
    " configuration and in the broker's password file and ACL",
    LinkState.TURNED_AWAY: "the broker refused the connection{detail}",
    LinkState.UNREACHABLE: "cannot be reached{detail}: check host and port, the network, and"
    " that the broker runs",
    LinkState.TLS: "TLS failed{detail}: check tls and ca_file, and the broker's certificate",
    LinkState.HUNG_UP: "the broker closed the connection before answering: check port and"
    " tls (TLS on one side only?)",
    LinkState.LOST: "connection lost{detail}; connecting again (results wait in the outbox)",
    LinkState.ANSWERS: "answers{detail}",
}


@dataclass(frozen=True)
class Link:
    """The connection's state, the broker it is to (``host:port``) and the broker's or the
    system's own words on a failure (never a password)."""

    state: LinkState
    broker: str
    detail: str = ""

    def line(self) -> str:
        """One line for a log or a terminal: the broker, the state, what to check."""
        detail = f" ({self.detail})" if self.detail else ""
        return f"club broker {self.broker}: {_LINES[self.state].format(detail=detail)}"


def where(broker: Broker) -> str:
    """The broker's address as the lines say it."""
    return f"{broker.host}:{broker.port}"


def refused_by(broker: Broker, reason: Any) -> Link:
    """The link after the broker answered the CONNECT with the failure ``reason``."""
    code = int(getattr(reason, "value", 128))
    state = LinkState.NOT_AUTHORISED if code in LOGIN_REFUSED else LinkState.TURNED_AWAY
    return Link(state, where(broker), str(reason))


def failed_with(broker: Broker, error: BaseException | None) -> Link:
    """The link after connecting raised ``error`` (TLS, or the network's refusal)."""
    if isinstance(error, ssl.SSLCertVerificationError):
        return Link(LinkState.TLS, where(broker), error.verify_message or "certificate refused")
    if isinstance(error, ssl.SSLError):
        return Link(LinkState.TLS, where(broker), error.reason or error.__class__.__name__)
    if broker.tls and isinstance(error, ConnectionResetError | ConnectionAbortedError):
        # Answered, then dropped in the handshake: a port that speaks no TLS.
        return Link(LinkState.TLS, where(broker), f"{error.strerror} in the TLS handshake")
    if isinstance(error, socket.gaierror):
        return Link(LinkState.UNREACHABLE, where(broker), f"unknown host name: {error.strerror}")
    if isinstance(error, TimeoutError):
        return Link(LinkState.UNREACHABLE, where(broker), "no answer: timed out")
    if isinstance(error, OSError):
        return Link(LinkState.UNREACHABLE, where(broker), error.strerror or str(error))
    return Link(LinkState.UNREACHABLE, where(broker), repr(error) if error else "")


class LinkWatch:
    """Follow one paho client's connection: ``connected`` and ``disconnected`` from its
    callbacks, failures to connect by itself; ``on_change`` hears each new state (on paho's
    thread)."""

    def __init__(self, client: paho.Client, broker: Broker, *, logged: bool = True) -> None:
        self.broker = broker
        self.logged = logged
        self.link = Link(LinkState.CONNECTING, where(broker))
        self.on_change: Callable[[Link], None] | None = None
        self.changed = threading.Event()
        client.on_connect_fail = self._failed

    def connected(self, reason: Any) -> None:
        """paho's ``on_connect``: the broker answered the CONNECT (accepted, or ``reason``)."""
        if getattr(reason, "is_failure", False):
            self._set(refused_by(self.broker, reason))
        else:
            self._set(Link(LinkState.CONNECTED, where(self.broker)))

    def disconnected(self, reason: Any) -> None:
        """paho's ``on_disconnect``: lost after it worked, or hung up before answering."""
        state = self.link.state
        if state is LinkState.CONNECTED and getattr(reason, "is_failure", True):
            self._set(Link(LinkState.LOST, where(self.broker), str(reason)))
        elif state is LinkState.CONNECTING:
            self._set(Link(LinkState.HUNG_UP, where(self.broker)))

    def _failed(self, client: paho.Client, userdata: Any) -> None:
        # paho calls back from inside its ``except OSError`` block: the error is at hand.
        self._set(failed_with(self.broker, sys.exc_info()[1]))

    def _set(self, link: Link) -> None:
        again = link == self.link
        self.link = link
        if self.logged:
            _log(link, again)
        if again:
            return
        self.changed.set()
        if self.on_change is not None:
            self.on_change(link)


def _log(link: Link, again: bool) -> None:
    """Log a change once (a failure as a warning), the same state again at debug level."""
    if again:
        log.debug("%s (again)", link.line())
    elif link.state in FAILURES or link.state is LinkState.LOST:
        log.warning("%s", link.line())
    else:
        log.info("%s", link.line())


def reach(broker: Broker, timeout: float = 10.0) -> Link:
    """See that ``broker`` answers on its port, its TLS handshake included, without logging in
    (the league's login would take its place at the broker and end its kept session)."""
    try:
        with socket.create_connection((broker.host, broker.port), timeout) as connection:
            if broker.tls:
                context = ssl.create_default_context(
                    cafile=str(broker.ca_file) if broker.ca_file is not None else None
                )
                with context.wrap_socket(connection, server_hostname=broker.host):
                    pass
    except OSError as error:
        return failed_with(broker, error)
    words = "TLS included; " if broker.tls else ""
    return Link(LinkState.ANSWERS, where(broker), f"{words}the league's login is not tried")


def try_broker(broker: Broker, client_id: str, timeout: float = 10.0) -> Link:
    """Connect once to ``broker`` as ``client_id`` and disconnect; return how it went (still
    ``CONNECTING`` when nothing was heard within ``timeout`` seconds)."""
    client = client_for(broker, client_id, reconnect_s=(timeout, timeout))
    watch = LinkWatch(client, broker, logged=False)  # the caller says how it went
    client.on_connect = lambda c, u, flags, reason, props: watch.connected(reason)
    client.on_disconnect = lambda c, u, flags, reason, props: watch.disconnected(reason)
    client.connect_async(broker.host, broker.port, keepalive=30)
    client.loop_start()
    try:
        watch.changed.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    if watch.link.state is LinkState.CONNECTING:
        return Link(LinkState.UNREACHABLE, where(broker), f"no answer within {timeout:g} s")
    return watch.link
