"""What every card reader shares: one scan per card presented, unknown tags, reconnecting."""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from typing import ClassVar, Generic, TypedDict, TypeVar, Unpack

from companion.devices.base import CardScanned, DeviceStatus, EventSink

log = logging.getLogger("companion.devices.readers")

#: Turns a tag's UID into the enrolled card's name, or None for a tag nobody enrolled.
Lookup = Callable[[str], str | None]

_SEPARATORS = re.compile(r"[\s:\-]")
#: The longest UID accepted (a 10-byte NFC UID is 20 hex digits; keyboard readers send less).
MAX_UID = 40


def normalize_uid(text: str) -> str | None:
    """Return a tag's UID in the one form used everywhere, or None when it is not a UID.

    Blanks, colons and dashes are dropped and letters put in upper case ("04:a2:3b" →
    "04A23B"); what remains must be 1 to 40 ASCII letters and digits.
    """
    cleaned = _SEPARATORS.sub("", text).upper()
    if not cleaned or len(cleaned) > MAX_UID or not (cleaned.isascii() and cleaned.isalnum()):
        return None
    return cleaned


class RepeatFilter:
    """Tell a card just presented from the same tag read again while it stays on the reader.

    A tag read again within ``window_s`` of its previous read is a repeat; every read
    restarts its window, so a card left on a reader that keeps reading it is one scan.
    """

    def __init__(self, window_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.window_s = window_s
        self._clock = clock
        self._seen: dict[str, float] = {}

    def fresh(self, uid: str) -> bool:
        """Record a read of ``uid``; return whether it is a new scan."""
        now = self._clock()
        last = self._seen.get(uid)
        self._seen[uid] = now
        if len(self._seen) > 64:
            self._seen = {u: t for u, t in self._seen.items() if now - t <= self.window_s}
        return last is None or now - last > self.window_s


class ReaderOptions(TypedDict, total=False):
    """The keyword arguments every reader takes (see :class:`CardReader`)."""

    lookup: Lookup | None
    repeat_window_s: float
    clock: Callable[[], float]
    name: str | None


class ConnectedOptions(ReaderOptions, total=False):
    """The keyword arguments every reader on a device takes (see :class:`ConnectedReader`)."""

    backoff_s: float
    max_backoff_s: float


class CardReader:
    """A card reader: each card presented becomes one CardScanned event.

    ``card`` in the event is the enrolled card's name from ``lookup``, or None for a tag
    nobody enrolled (the table then offers to enroll it). ``name`` names the reader in
    events and status reports (the reader's kind by default).
    """

    kind: ClassVar[str] = "reader"

    def __init__(
        self,
        *,
        lookup: Lookup | None = None,
        repeat_window_s: float = 1.5,
        clock: Callable[[], float] = time.monotonic,
        name: str | None = None,
    ) -> None:
        self.name = name or self.kind
        self.lookup = lookup
        self._repeats = RepeatFilter(repeat_window_s, clock)
        self._lock = threading.RLock()
        self._sink: EventSink | None = None
        self._bad = 0

    @property
    def repeat_window_s(self) -> float:
        """How long after its last read a tag counts as still on the reader."""
        return self._repeats.window_s

    @property
    def bad_reads(self) -> int:
        """How many reads were dropped as garbage (bad frames, bad checksums, junk lines)."""
        return self._bad

    def start(self, sink: EventSink) -> None:
        """Begin delivering events to ``sink``."""
        with self._lock:
            self._sink = sink

    def close(self) -> None:
        """Stop delivering events."""
        with self._lock:
            self._sink = None

    def deliver(self, raw: str) -> CardScanned | None:
        """Report a tag read (from any thread); return the event, or None for a repeat.

        A read that is not a UID is counted in :attr:`bad_reads` and dropped.
        """
        uid = normalize_uid(raw)
        with self._lock:
            if uid is None:
                self._bad += 1
                log.debug("%s: dropped a read that is not a tag UID: %r", self.name, raw[:60])
                return None
            sink = self._sink
            if sink is None or not self._repeats.fresh(uid):
                return None
        event = CardScanned(uid, self._card_for(uid), self.name)
        sink(event)
        return event

    def _card_for(self, uid: str) -> str | None:
        if self.lookup is None:
            return None
        try:
            return self.lookup(uid)
        except Exception:
            log.exception("%s: looking up tag %s failed; reported as unknown", self.name, uid)
            return None

    def _status(self, ok: bool, message: str) -> None:
        with self._lock:
            sink = self._sink
        if sink is not None:
            sink(DeviceStatus(self.name, ok, message))


class FakeCardReader(CardReader):
    """A reader with no hardware: :meth:`present` a tag as if a card were laid on it."""

    kind = "fake"

    def present(self, uid: str) -> CardScanned | None:
        """Lay a card with this UID on the reader; return the event, None for a repeat."""
        return self.deliver(uid)


L = TypeVar("L")


class ConnectedReader(CardReader, Generic[L]):
    """A reader on a device that can vanish: a thread reads it and reopens it with backoff.

    Subclasses open the device (``_connect``), wait briefly for reads (``_poll``, which
    returns raw UIDs and raises when the device is gone) and close it (``_disconnect``).
    A device that is missing or vanishes is reported once (DeviceStatus ok=False), tried
    again after 0.5 s, 1 s, 2 s... up to ``max_backoff_s``, and reported back when reopened.
    """

    #: What to install when the reader's library is missing (said in the log).
    INSTALL_HINT: ClassVar[str] = ""
    MISSING = "Card reader missing"
    LOST = "Card reader lost"
    BACK = "Card reader back"

    def __init__(
        self,
        *,
        backoff_s: float = 0.5,
        max_backoff_s: float = 10.0,
        **options: Unpack[ReaderOptions],
    ) -> None:
        super().__init__(**options)
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.connected = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._down = False
        self._ever_up = False
        self.failures = 0

    def _connect(self) -> L:
        raise NotImplementedError

    def _poll(self, link: L) -> list[str]:
        raise NotImplementedError

    def _disconnect(self, link: L) -> None:
        """Release the device; the default does nothing."""

    def start(self, sink: EventSink) -> None:
        """Start delivering events to ``sink`` from the reader's own thread."""
        super().start(sink)
        with self._lock:
            if self._thread is None:
                self._stopping.clear()
                self._thread = threading.Thread(
                    target=self._run, name=f"companion-{self.name}", daemon=True
                )
                self._thread.start()

    def close(self) -> None:
        """Stop the thread and release the device (waits up to a second or two)."""
        self._stopping.set()
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        super().close()

    def _run(self) -> None:
        delay = self.backoff_s
        while not self._stopping.is_set():
            try:
                link = self._connect()
            except Exception as error:
                self._lost(error, opening=True)
                if self._stopping.wait(delay):
                    break
                delay = min(delay * 2, self.max_backoff_s)
                continue
            delay = self.backoff_s
            self._up()
            try:
                while not self._stopping.is_set():
                    for raw in self._poll(link):
                        self.deliver(raw)
            except Exception as error:
                if not self._stopping.is_set():
                    self._lost(error, opening=False)
            finally:
                self.connected.clear()
                try:
                    self._disconnect(link)
                except Exception:
                    log.debug("%s: closing the device failed", self.name, exc_info=True)

    def _up(self) -> None:
        self.connected.set()
        if self._down:
            self._down = False
            log.warning("%s: the card reader is back", self.name)
            self._status(True, self.BACK)
        self._ever_up = True

    def _lost(self, error: Exception, opening: bool) -> None:
        self.failures += 1
        if self._down:
            log.debug("%s: still unavailable: %s", self.name, error)
            return
        self._down = True
        if isinstance(error, ImportError):
            log.error("%s: a library is missing (%s): %s", self.name, error, self.INSTALL_HINT)
        elif opening:
            log.warning("%s: cannot open the card reader (will retry): %s", self.name, error)
        else:
            log.warning("%s: the card reader stopped answering (will reopen): %s", self.name, error)
        self._status(False, self.LOST if self._ever_up else self.MISSING)
