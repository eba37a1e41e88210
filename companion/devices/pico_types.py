"""What the link to a Pico deals in: the serial port, requests and replies, the Pico's info, errors.

``open_serial`` opens the port (pyserial is imported only then); :class:`Request` is one
message on its way, waited on by whoever sent it; the errors say why the Pico cannot do
what was asked. The link itself, its thread and its retries, is in companion.devices.pico_link.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from companion.devices.pico_protocol import PicoMessage, Value

#: How long one read waits for bytes, for ports the link cannot wait on with poll().
READ_TIMEOUT_S = 0.05
#: A Pico that stops reading fills its USB buffer; a write then fails instead of hanging.
WRITE_TIMEOUT_S = 1.0

#: One message to send: its name and its fields.
Command = tuple[str, Mapping[str, Value]]
#: What a device sends after every handshake: (group, commands) pairs, see PicoLink.send.
Restore = list[tuple[str | None, list[Command]]]


class PicoPort(Protocol):
    """The part of pyserial's Serial the link uses.

    A port that also has ``fileno()`` (pyserial on POSIX) is waited on with poll(); for one
    without, the link's thread reads in a loop and relies on the port's own read timeout.
    """

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


def open_serial(port: str, baudrate: int) -> PicoPort:
    """Open a serial port (a device path or a pyserial URL such as ``loop://``)."""
    import serial

    handle: PicoPort = serial.serial_for_url(
        port,
        baudrate=baudrate,
        timeout=READ_TIMEOUT_S,
        write_timeout=WRITE_TIMEOUT_S,
        exclusive=True,
    )
    return handle


def port_fileno(port: PicoPort) -> int | None:
    """Return the port's file descriptor for poll(), or None if it has none."""
    fileno = getattr(port, "fileno", None)
    if fileno is None:
        return None
    try:
        fd = fileno()
    except (OSError, ValueError):
        return None
    return fd if isinstance(fd, int) and fd >= 0 else None


class PicoError(Exception):
    """The Pico cannot do what was asked."""


class PicoRefused(PicoError):
    """The Pico runs firmware with another protocol major version; the message says what to do."""


class PicoUnavailable(PicoError):
    """The Pico is unplugged, silent, or did not carry out a request in time."""


@dataclass(frozen=True)
class PicoInfo:
    """What the Pico said in its handshake."""

    firmware: str
    protocol: str
    leds: int
    reader: bool

    @classmethod
    def from_welcome(cls, message: PicoMessage) -> PicoInfo:
        """Read the Pico's WELCOME reply to the handshake."""
        return cls(
            firmware=message.text("firmware"),
            protocol=message.text("protocol"),
            leds=message.number("leds"),
            reader=message.number("reader") == 1,
        )


@dataclass
class LinkStats:
    """Counters for diagnostics and benchmarks."""

    lines_sent: int = 0
    bytes_sent: int = 0
    lines_received: int = 0
    bad_lines: int = 0
    retries: int = 0
    connects: int = 0
    #: Replies of the wrong kind for their request (an ACK to a PING), ignored.
    wrong_replies: int = 0
    #: Events received a second time (same sequence number, same message), dropped.
    duplicates: int = 0


@dataclass(eq=False)
class Request:
    """One message on its way to the Pico; ``wait`` for its reply."""

    name: str
    fields: Mapping[str, Value]
    group: str | None = None
    seq: int = 0
    attempts: int = 0
    sent_at: float = 0.0
    reply: PicoMessage | None = None
    error: str | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def wait(self, timeout: float) -> PicoMessage:
        """Return the reply. Raises PicoUnavailable if it failed or did not come in time."""
        if not self.done.wait(timeout):
            raise PicoUnavailable(f"{self.name}: no reply within {timeout} s")
        if self.reply is None:
            raise PicoUnavailable(f"{self.name}: {self.error}")
        return self.reply

    def finish(self, reply: PicoMessage | None, error: str | None = None) -> None:
        """Record the reply, or why there is none, and wake whoever waits for it."""
        self.reply = reply
        self.error = error
        self.done.set()
