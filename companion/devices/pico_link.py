"""The link to a Pico on USB serial: handshake, acknowledgements, resends and reconnection.

One :class:`PicoLink` per Pico owns the serial port and one thread that does all its I/O; the
devices in companion.devices.pico share it. The port, requests, the Pico's info and the errors
are in companion.devices.pico_types. The thread sleeps until the Pico sends bytes, a request
is queued or a reply falls due.
"""

from __future__ import annotations

import errno
import logging
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

from companion.devices.base import DeviceStatus, EventSink
from companion.devices.pico_protocol import Codec, LineSplitter, PicoMessage, ProtocolError, Value
from companion.devices.pico_types import (
    Command,
    LinkStats,
    PicoInfo,
    PicoPort,
    PicoRefused,
    PicoUnavailable,
    Request,
    Restore,
    open_serial,
    port_fileno,
)

log = logging.getLogger(__name__)

#: Errors after which the same request is sent again: the line was damaged on the way.
RETRYABLE = {"framing", "checksum", "too_long"}
#: An event repeated within this many messages, with its sequence number, is a duplicate: the
#: Pico numbers every line it sends, so its own lines repeat a number only after max_seq.
DUPLICATE_LINES = 64
#: Events remembered to drop their duplicates.
RECENT_EVENTS = 16
FIRMWARE_HELP = "flash the firmware/ folder of this companion (see firmware/README.md)"


def _why_not_opened(exc: Exception) -> str:
    """Say on the LCD why the port did not open (pyserial keeps the errno of the cause)."""
    number = getattr(exc, "errno", None)
    if number in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return "Pico not found, retrying"
    if number in (errno.EACCES, errno.EPERM):
        return "No access to the Pico's port: join group dialout"
    if number == errno.EBUSY or "lock" in str(exc):
        return "Pico's port is in use by another program"
    return "Pico's port cannot be opened, retrying"


class _LinkLost(Exception):
    """The connection is gone or useless: close it and connect again."""


class _Rehandshake(Exception):
    """The Pico restarted (BOOT): shake hands again on the same port."""


class PicoLink:
    """The connection to one Pico, kept alive by a background thread.

    The thread opens ``port`` (use the stable /dev/serial/by-id/ path), shakes hands, refuses a
    firmware whose protocol major differs, then sends queued requests one at a time, waiting
    for each reply and resending damaged or unanswered ones. When the Pico goes away it reopens
    the port with a growing delay (``backoff_s``: first, longest), and after every handshake
    the devices' restore functions send their state again (brightness, frame, card window).
    DeviceStatus events about the link go to every sink registered with ``add_sink``.
    ``clock`` (seconds, monotonic) times the replies and the handshake on the link's thread.
    """

    def __init__(
        self,
        port: str,
        baudrate: int = 115200,
        *,
        opener: Callable[[str, int], PicoPort] = open_serial,
        reply_timeout_s: float = 0.5,
        handshake_timeout_s: float = 1.5,
        retries: int = 3,
        backoff_s: tuple[float, float] = (0.25, 5.0),
        device: str = "pico",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self.device = device
        self.codec = Codec(side="pi")
        self.table = self.codec.table
        self.stats = LinkStats()
        self.info: PicoInfo | None = None
        self.refusal: str | None = None
        self.status: DeviceStatus | None = None
        self.needs_reader = False
        self._opener = opener
        self._clock = clock
        self._reply_timeout = reply_timeout_s
        self._handshake_timeout = handshake_timeout_s
        self._retries = retries
        self._backoff = backoff_s
        self._lock = threading.Lock()
        self._outbox: deque[Request] = deque()
        self._in_flight: Request | None = None
        self._listeners: list[Callable[[PicoMessage], None]] = []
        self._sinks: list[EventSink] = []
        self._restorers: list[Callable[[PicoInfo], Restore]] = []
        self._users = 0
        self._seq = 0
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._port: PicoPort | None = None
        self._port_fd: int | None = None
        self._poller: select.poll | None = None
        self._wake: tuple[int, int] | None = None
        self._garbage_logged = 0
        self._welcomed = False
        self._recent: deque[tuple[int, PicoMessage]] = deque(maxlen=RECENT_EVENTS)
        self._messages = 0

    # -- for the devices -------------------------------------------------------------------

    def acquire(self) -> None:
        """Count one more user; the first one starts the link's thread."""
        with self._lock:
            self._users += 1
            if self._thread is None:
                self._stop.clear()
                self._thread = threading.Thread(target=self._main, name="pico-link", daemon=True)
                self._thread.start()

    def release(self) -> None:
        """Count one user less; the last one closes the link."""
        with self._lock:
            self._users = max(0, self._users - 1)
            last = self._users == 0
        if last:
            self.close()

    def add_listener(self, listener: Callable[[PicoMessage], None]) -> None:
        """Call ``listener`` (on the link's thread) with every event the Pico sends."""
        self._listeners.append(listener)

    def add_sink(self, sink: EventSink) -> None:
        """Send DeviceStatus events to ``sink`` (once per distinct sink)."""
        with self._lock:
            if sink not in self._sinks:
                self._sinks.append(sink)
        if self.status is not None:
            sink(self.status)

    def remove_sink(self, sink: EventSink) -> None:
        with self._lock:
            if sink in self._sinks:
                self._sinks.remove(sink)

    def add_restorer(self, restorer: Callable[[PicoInfo], Restore]) -> None:
        """Call ``restorer`` after every handshake; send the commands it returns first."""
        self._restorers.append(restorer)
        if self._ready.is_set() and self.info is not None:
            for group, commands in restorer(self.info):
                self.send(commands, group)

    def remove_restorer(self, restorer: Callable[[PicoInfo], Restore]) -> None:
        if restorer in self._restorers:
            self._restorers.remove(restorer)

    def send(self, commands: Sequence[Command], group: str | None = None) -> list[Request]:
        """Queue ``commands`` in order and return their requests, without waiting.

        Commands sent with a ``group`` replace the group's earlier commands not yet on the
        wire: a new frame makes an unsent older frame pointless. Raises ValueError for a
        command the Pico would refuse.
        """
        requests = []
        for name, fields in commands:
            self.codec.encode(1, name, **fields)
            requests.append(Request(name, fields, group))
        with self._lock:
            if group is not None:
                for stale in [r for r in self._outbox if r.group == group]:
                    self._outbox.remove(stale)
                    stale.finish(None, "replaced by a newer request")
            self._outbox.extend(requests)
        self._kick()
        return requests

    def request(self, name: str, timeout: float = 2.0, /, **fields: Value) -> PicoMessage:
        """Send one message and return its reply. Raises PicoUnavailable."""
        return self.send([(name, fields)])[0].wait(timeout)

    def ping(self, timeout: float = 2.0) -> float:
        """Return the round trip of a PING, in seconds. Raises PicoUnavailable."""
        start = time.perf_counter()
        self.request("PING", timeout)
        return time.perf_counter() - start

    def wait_ready(self, timeout: float) -> PicoInfo:
        """Wait for a completed handshake and return the Pico's info.

        Raises PicoRefused if its firmware speaks another protocol major version, and
        PicoUnavailable if no handshake succeeded within ``timeout``.
        """
        deadline = time.monotonic() + timeout
        while not self._ready.wait(min(0.05, max(0.0, deadline - time.monotonic()))):
            if self.refusal is not None:
                raise PicoRefused(self.refusal)
            if time.monotonic() >= deadline:
                if self.status is not None and not self.status.ok:
                    raise PicoUnavailable(f"{self.status.message} ({self.port})")
                raise PicoUnavailable(f"no handshake with the Pico on {self.port} in {timeout} s")
        assert self.info is not None
        return self.info

    @property
    def connected(self) -> bool:
        """Whether the handshake succeeded and the Pico is still there."""
        return self._ready.is_set()

    def close(self) -> None:
        """Stop the thread and close the port (pending requests fail)."""
        with self._lock:
            thread, self._thread = self._thread, None
        self._stop.set()
        self._kick()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    # -- the link's thread -----------------------------------------------------------------

    def _main(self) -> None:
        wake = os.pipe()
        for end in wake:
            os.set_blocking(end, False)
        with self._lock:
            self._wake = wake
        try:
            self._connect_until_stopped(wake)
        finally:
            with self._lock:
                if self._wake == wake:
                    self._wake = None
                for end in wake:
                    os.close(end)

    def _connect_until_stopped(self, wake: tuple[int, int]) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            try:
                port = self._opener(self.port, self.baudrate)
            except (OSError, ValueError) as exc:
                log.info("Pico on %s cannot be opened: %s", self.port, exc)
                self._set_status(False, _why_not_opened(exc))
            else:
                self._port_fd = port_fileno(port)
                self._poller = self._poller_for(self._port_fd, wake[0])
                self._port = port
                self._welcomed = False
                lost: str | None = None
                try:
                    self._serve(port)
                except _LinkLost as exc:
                    lost = str(exc)
                except OSError as exc:
                    log.warning("Pico on %s lost: %s", self.port, exc)
                    lost = "Pico unplugged, retrying"
                finally:
                    self._disconnected(port)
                if lost is not None and not self._stop.is_set():
                    log.warning("Pico on %s: %s", self.port, lost)
                    self._set_status(False, lost)
                if self._welcomed:
                    delay = self._backoff[0]
                elif self.refusal is not None:
                    delay = self._backoff[1]
            if self._stop.wait(delay):
                break
            delay = min(self._backoff[1], delay * 2)

    def _disconnected(self, port: PicoPort) -> None:
        self._ready.clear()
        self._port = None
        self._port_fd = None
        self._poller = None
        try:
            port.close()
        except OSError:
            pass
        with self._lock:
            failed = list(self._outbox)
            self._outbox.clear()
            if self._in_flight is not None:
                failed.append(self._in_flight)
                self._in_flight = None
        for request in failed:
            request.finish(None, "the Pico went away")

    def _serve(self, port: PicoPort) -> None:
        splitter = LineSplitter(self.table.max_line)
        self._handshake(port, splitter)
        while not self._stop.is_set():
            fresh = None
            with self._lock:
                if self._in_flight is None and self._outbox:
                    request = self._outbox.popleft()
                    if self._supported(request):
                        self._in_flight = fresh = request
                in_flight = self._in_flight
                more = in_flight is None and bool(self._outbox)
            if fresh is not None:
                self._transmit(port, fresh)
            if in_flight is not None and self._overdue(in_flight):
                # The thread may have been held up past the timeout (a busy Pi) while the
                # reply came: read what waits before resending, or the Pico does it twice.
                self._take(port, splitter, self._read_waiting(port))
                if self._overdue(in_flight):
                    self._retry(port, in_flight, "no reply")
            timeout: float | None = None
            if more:
                timeout = 0.0
            elif in_flight is not None:
                timeout = max(0.0, in_flight.sent_at + self._reply_timeout - self._clock())
            self._take(port, splitter, self._receive(port, timeout))

    def _overdue(self, request: Request) -> bool:
        """Whether ``request`` is still unanswered after the reply timeout."""
        with self._lock:
            waiting = self._in_flight is request
        return waiting and self._clock() - request.sent_at > self._reply_timeout

    def _take(self, port: PicoPort, splitter: LineSplitter, data: bytes) -> None:
        """Handle the complete lines in ``data``; shake hands again if the Pico restarted."""
        try:
            for line in splitter.feed(data):
                self._on_line(port, line)
        except _Rehandshake:
            log.info("Pico on %s restarted; shaking hands again", self.port)
            self._ready.clear()
            self._handshake(port, splitter)

    @staticmethod
    def _poller_for(fd: int | None, wake: int) -> select.poll | None:
        """Return a poll object watching the port and the wake-up pipe, if poll() can."""
        if fd is None or not hasattr(select, "poll"):
            return None
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLPRI)
        poller.register(wake, select.POLLIN)
        return poller

    def _receive(self, port: PicoPort, timeout: float | None) -> bytes:
        """Return the bytes the Pico sent, after waiting at most ``timeout`` s (None: for ever)
        for some; a kick (a new request, close) ends the wait early with nothing.

        A port without a file descriptor is read with its own timeout instead.
        """
        poller = self._poller
        if poller is None:
            return self._read(port)
        ready = {fd for fd, _ in poller.poll(None if timeout is None else timeout * 1000)}
        if self._wake is not None and self._wake[0] in ready:
            try:
                while os.read(self._wake[0], 512):
                    pass
            except BlockingIOError:
                pass
        if self._port_fd in ready:
            # An unplugged port polls as ready (a hang-up), and the read then fails.
            return self._read(port)
        return b""

    @staticmethod
    def _read_waiting(port: PicoPort) -> bytes:
        """Return the bytes already waiting on the port, without waiting for more."""
        waiting = port.in_waiting
        return port.read(waiting) if waiting else b""

    def _read(self, port: PicoPort) -> bytes:
        waiting = port.in_waiting
        return port.read(max(1, waiting))

    def _next_seq(self) -> int:
        self._seq = self._seq % self.table.max_seq + 1
        return self._seq

    def _supported(self, request: Request) -> bool:
        since = self.table.messages[request.name].since
        if self.info is None or since <= int(self.info.protocol.split(".")[1]):
            return True
        request.finish(None, f"the Pico's firmware is older than protocol 1.{since}")
        return False

    def _transmit(self, port: PicoPort, request: Request) -> None:
        request.seq = self._next_seq()
        request.attempts += 1
        request.sent_at = self._clock()
        line = self.codec.encode(request.seq, request.name, **request.fields)
        port.write(line)
        self.stats.lines_sent += 1
        self.stats.bytes_sent += len(line)

    def _retry(self, port: PicoPort, request: Request, why: str) -> None:
        with self._lock:
            if self._in_flight is not request:
                return
            give_up = request.attempts > self._retries
            if give_up:
                self._in_flight = None
        if give_up:
            request.finish(None, why)
            raise _LinkLost("Pico stopped answering, retrying")
        self.stats.retries += 1
        log.info("Pico: %s to %s %d, sending it again", why, request.name, request.seq)
        self._transmit(port, request)

    def _on_line(self, port: PicoPort, line: bytes | None) -> None:
        if line in (b"", b"\r"):
            return
        self.stats.lines_received += 1
        if line is None:
            self._garbage(b"", "too_long", "a line longer than the protocol allows")
            return
        try:
            message = self.codec.decode(line)
        except ProtocolError as exc:
            self._garbage(line, exc.code, exc.detail)
            return
        self._messages += 1
        if message.name == "BOOT":
            raise _Rehandshake
        if message.name in ("ACK", "PONG", "WELCOME", "ERR"):
            self._on_reply(port, message)
            return
        if self._repeated(message):
            return
        for listener in list(self._listeners):
            try:
                listener(message)
            except Exception:
                log.exception("Pico: a listener failed on %s", message.name)

    def _repeated(self, message: PicoMessage) -> bool:
        """Whether ``message`` came a moment ago, same sequence number and all: drop it."""
        count = self._messages
        if any(seen == message and count - at <= DUPLICATE_LINES for at, seen in self._recent):
            self.stats.duplicates += 1
            log.info("Pico sent %s %d twice; the repeat is dropped", message.name, message.seq)
            return True
        self._recent.append((count, message))
        return False

    def _on_reply(self, port: PicoPort, message: PicoMessage) -> None:
        with self._lock:
            request = self._in_flight
        re = message.number("re")
        if request is None or re not in (request.seq, 0) or (re == 0 and message.name != "ERR"):
            return
        expected = self.table.messages[request.name].reply
        if message.name not in (expected, "ERR"):
            self.stats.wrong_replies += 1
            log.info("Pico answered %s %d with %s", request.name, re, message.name)
            return
        if message.name == "ERR":
            code = message.text("code")
            if code in RETRYABLE:
                self._retry(port, request, f"error {code}")
                return
            if re == 0:
                return
            log.warning("Pico refused %s: %s %s", request.name, code, message.text("text"))
            error: str | None = f"{code}: {message.text('text')}"
            reply = None
        else:
            error, reply = None, message
        with self._lock:
            if self._in_flight is request:
                self._in_flight = None
        request.finish(reply, error)

    def _garbage(self, line: bytes, code: str, detail: str) -> None:
        self.stats.bad_lines += 1
        self._garbage_logged += 1
        if self._garbage_logged <= 20 or self._garbage_logged % 100 == 0:
            shown = line[:80].decode("ascii", "replace")
            log.info("Pico sent a line that is not a message (%s, %s): %r", code, detail, shown)

    def _handshake(self, port: PicoPort, splitter: LineSplitter) -> None:
        seq = self._next_seq()
        port.write(b"\n" + self.codec.encode(seq, "HELLO", protocol=self.table.protocol))
        deadline = self._clock() + self._handshake_timeout
        while (left := deadline - self._clock()) > 0 and not self._stop.is_set():
            for line in splitter.feed(self._receive(port, left)):
                if line in (b"", b"\r"):
                    continue
                try:
                    message = self.codec.decode(line) if line is not None else None
                except ProtocolError as exc:
                    self._garbage(line or b"", exc.code, exc.detail)
                    continue
                if message is None or message.name != "WELCOME" or message.number("re") != seq:
                    continue
                self._welcome(message)
                return
        if self._stop.is_set():
            return
        raise _LinkLost("Pico not answering: is its firmware flashed?")

    def _welcome(self, message: PicoMessage) -> None:
        info = PicoInfo.from_welcome(message)
        major = int(info.protocol.split(".")[0])
        if major != self.table.major:
            self.refusal = (
                f"The Pico on {self.port} runs firmware {info.firmware} speaking protocol "
                f"{info.protocol}; this companion speaks protocol {self.table.protocol}: "
                f"{FIRMWARE_HELP}."
            )
            log.error("%s", self.refusal)
            self._set_status(
                False,
                f"Pico firmware is protocol {info.protocol}, need {self.table.major}.x: reflash it",
            )
            raise _LinkLost(self.status.message if self.status else "refused")
        self.refusal = None
        self.info = info
        self._welcomed = True
        self._recent.clear()  # a restarted Pico numbers its lines from 1 again
        self.stats.connects += 1
        log.info("Pico on %s: firmware %s, protocol %s", self.port, info.firmware, info.protocol)
        if self.needs_reader and not info.reader:
            self._set_status(False, "Pico connected, but its card reader is silent")
        else:
            self._set_status(True, "Pico connected")
        restored = [
            Request(name, fields, group)
            for restorer in list(self._restorers)
            for group, commands in restorer(info)
            for name, fields in commands
        ]
        with self._lock:
            self._outbox.extendleft(reversed(restored))
        self._ready.set()

    def _set_status(self, ok: bool, message: str) -> None:
        status = DeviceStatus(self.device, ok, message)
        if status == self.status:
            return
        self.status = status
        with self._lock:
            sinks = list(self._sinks)
        for sink in sinks:
            try:
                sink(status)
            except Exception:
                log.exception("Pico: a sink failed on %s", status)

    def _kick(self) -> None:
        """Wake the link's thread: there is a request to send, or it should stop."""
        with self._lock:
            if self._wake is not None:
                try:
                    os.write(self._wake[1], b"!")
                except BlockingIOError:
                    pass  # the pipe is full of wake-ups the thread has not read yet
        port = self._port
        if port is None or self._poller is not None:
            return
        cancel = getattr(port, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()
            except OSError:
                pass
