"""The event loop: devices push events on one queue; only this loop touches the table."""

from __future__ import annotations

import gc
import logging
import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Protocol

from companion.devices.base import RGB, ButtonPressed, Event, InputDevice, PressAnswers
from companion.render.screen import Cue, Screen

log = logging.getLogger("companion.daemon")

#: Python's garbage collection thresholds as the companion started.
PYTHON_THRESHOLDS = gc.get_threshold()


def _run_call(call: _Call) -> None:
    if not call.future.set_running_or_notify_cancel():
        return
    try:
        call.future.set_result(call.action())
    except Exception as error:  # handed to whoever asked
        call.future.set_exception(error)


def _run_input(item: _Input) -> Sequence[Cue]:
    if not item.future.set_running_or_notify_cancel():
        return ()
    try:
        cues = item.action()
    except Exception as error:  # handed to whoever made the input
        item.future.set_exception(error)
        return ()
    item.future.set_result(None)
    return cues


class Table(Protocol):
    """What the loop drives: turns events into table-log entries and says what to show."""

    def handle(self, event: Event) -> Sequence[Cue]:
        """Apply one device event; return the one-shot cues it caused."""

    def tick(self, now: float) -> Sequence[Cue]:
        """Let timed things happen (a message expiring); return cues."""

    def next_deadline(self) -> float | None:
        """When tick() next has something to do (monotonic seconds), or None."""

    def hold(self) -> None:
        """Let the next inputs be applied and drawn before they are on disk (``commit``)."""

    def commit(self) -> Sequence[Cue]:
        """Put the inputs held on disk; when that fails, put the table back as it was and
        return the cues saying so (none when all is well)."""

    def screen(self) -> Screen:
        """The steady picture of every output for the current state."""

    def leds(self) -> tuple[RGB, ...]:
        """The LEDs of ``screen()``, drawn on their own (a move's walk ends on them)."""

    def close(self) -> None:
        """Close the journal."""


class Outputs(Protocol):
    """Every output device behind one face; each part may be absent."""

    def show(self, screen: Screen) -> None:
        """Send what changed since the last screen."""

    def show_panel(self, screen: Screen) -> None:
        """Send the panel's part of ``screen`` (the strip, the LCD, the OLED) and let its
        writers take it up; ``show`` then adds the rest (the pages)."""

    def cue(self, cue: Cue, leds: Sequence[RGB]) -> None:
        """Play a tone, animate a move (ending on ``leds``, the strip's new frame) or a roll."""

    def offer(self, hand: PressAnswers) -> None:
        """Keep what each legal button lights now (a strip that answers by itself gets it)."""

    def answer(self, button: str) -> None:
        """Light at once what a press of ``button`` lights, when the hand offered holds it."""

    def maintain(self) -> float | None:
        """Retry failed devices; return seconds until the next retry is due, or None."""

    def goodbye(self) -> None:
        """Show "bye", turn the LEDs off, silence the buzzer, release everything."""


class OutputsBeside:
    """The panel's outputs with one more view beside them: a subclass adds to ``show``; cues,
    retries and the goodbye are the panel's."""

    def __init__(self, panel: Outputs) -> None:
        self.panel = panel

    def show(self, screen: Screen) -> None:
        self.panel.show(screen)

    def show_panel(self, screen: Screen) -> None:
        self.panel.show_panel(screen)

    def cue(self, cue: Cue, leds: Sequence[RGB]) -> None:
        self.panel.cue(cue, leds)

    def offer(self, hand: PressAnswers) -> None:
        self.panel.offer(hand)

    def answer(self, button: str) -> None:
        self.panel.answer(button)

    def maintain(self) -> float | None:
        return self.panel.maintain()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until the panel has sent every frame handed over; False if ``timeout`` passed
        first (a panel that sends in the caller's thread is always idle)."""
        wait = getattr(self.panel, "wait_idle", None)
        return bool(wait(timeout)) if callable(wait) else True

    def goodbye(self) -> None:
        self.panel.goodbye()


class Notify(Protocol):
    """The systemd side: readiness, watchdog pings, stopping."""

    ping_every: float | None

    def ready(self, status: str = "ready") -> None: ...

    def alive(self) -> None: ...

    def stopping(self) -> None: ...


@dataclass(frozen=True)
class _Stop:
    reason: str


@dataclass(frozen=True)
class _Call:
    """Run ``action`` on the loop's thread (where the table may be read safely)."""

    action: Callable[[], object]
    future: Future[object]


@dataclass(frozen=True)
class _Input:
    """An input made elsewhere than the devices (a phone), applied on the loop's thread like an
    event: ``action`` returns the cues it caused; the future is done once it has run."""

    action: Callable[[], Sequence[Cue]]
    future: Future[None]


class Daemon:
    """Own the queue, the table and the outputs; run until asked to stop."""

    #: The longest the loop sleeps without a watchdog, so a stop request is never missed.
    IDLE_WAKE = 30.0
    #: How long a thread may keep the interpreter while another waits for it (Python's
    #: default is 5 ms): a press that comes while a writer draws a frame is applied this soon.
    SWITCH_INTERVAL_S = 0.001
    #: The loop collects the garbage itself once it has been idle this long (seconds), when
    #: Python would have collected by then: never on an input's way to the glass (a young
    #: collection takes a few milliseconds on a Zero 2 W, an older one tens).
    COLLECT_IDLE_S = 0.02
    #: How many new objects Python lets pile up before it collects by itself all the same
    #: (times its own threshold): a safety net should the loop never be idle.
    COLLECT_LATE = 20

    def __init__(
        self,
        table: Table,
        outputs: Outputs,
        inputs: Sequence[InputDevice],
        notifier: Notify,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self.outputs = outputs
        self.inputs = list(inputs)
        self.notifier = notifier
        self.clock = clock
        #: A SimpleQueue: its put and its wait are in C, so each wake-up runs little Python,
        #: and its put may come from a signal handler.
        self._queue: queue.SimpleQueue[Event | _Stop | _Call | _Input] = queue.SimpleQueue()
        self.handled = 0
        #: Called after each event's outputs are sent (the latency benchmark listens here).
        self.after_event: Callable[[], None] | None = None
        #: What each legal button lights now (the table controller's ``hand``): offered to the
        #: outputs after every change, so a legal press is lit before the table takes it.
        self.hand: Callable[[], PressAnswers] | None = None
        #: Called once, on the loop's thread, when the table plays (READY=1 is sent): what
        #: may come up beside it rather than before it (the pages).
        self.after_ready: list[Callable[[], None]] = []
        self.running = threading.Event()
        #: Python's own collection thresholds, which the loop keeps (see ``COLLECT_IDLE_S``).
        self._thresholds = PYTHON_THRESHOLDS
        self._closing = threading.Lock()
        self._closed = False

    def post(self, event: Event) -> None:
        """Queue a device event; safe from any thread (this is every device's sink)."""
        self._queue.put(event)

    def call(self, action: Callable[[], object]) -> Future[object]:
        """Run ``action`` on the loop's thread between two events; its result comes later."""
        future: Future[object] = Future()
        with self._closing:
            if self._closed:
                future.cancel()  # the loop has ended: nobody would ever run it
            else:
                self._queue.put(_Call(action, future))
        return future

    def enter(self, action: Callable[[], Sequence[Cue]]) -> Future[None]:
        """Queue an input that is not a device event (a phone's): ``action`` runs on the loop's
        thread in its turn, its cues are played and the outputs refreshed, like an event's."""
        future: Future[None] = Future()
        with self._closing:
            if self._closed:
                future.cancel()
            else:
                self._queue.put(_Input(action, future))
        return future

    def stop(self, reason: str = "stop requested") -> None:
        """Ask the loop to finish; safe from any thread and from a signal handler."""
        self._queue.put(_Stop(reason))

    def _collect_due(self) -> bool:
        """Whether Python would have collected the garbage by now (the loop does it)."""
        return gc.isenabled() and gc.get_count()[0] >= self._thresholds[0]

    def _collect(self) -> None:
        """Collect the garbage as Python would have: the young objects, and an older
        generation when more younger collections than its threshold have gone by."""
        _, younger, older = gc.get_count()
        _, every1, every2 = self._thresholds
        gc.collect(2 if older > every2 else 1 if younger > every1 else 0)

    def _timeout(self, retry: float | None) -> float:
        waits = [self.IDLE_WAKE]
        if retry is not None:
            waits.append(retry)
        if self.notifier.ping_every is not None:
            waits.append(self.notifier.ping_every)
        deadline = self.table.next_deadline()
        if deadline is not None:
            waits.append(max(0.0, deadline - self.clock()))
        return min(waits)

    def _due(self) -> bool:
        """Whether the table's next deadline (a message's end) has come."""
        deadline = self.table.next_deadline()
        return deadline is not None and deadline <= self.clock()

    def _send(self, cues: Sequence[Cue]) -> None:
        """Show what the input changed, in the order a player sees it: a move's walk (it
        needs only the strip's new frame, so it goes out before the displays are drawn), the
        panel's displays, then the journal's commit, and only then the tones (a beep says the
        input is on disk; a commit that fails is said instead), the pages and the hand."""
        moves = any(cue.move is not None for cue in cues)
        leds = self.table.leds() if moves else ()
        for cue in cues:
            if cue.move is not None or cue.rolling:
                self.outputs.cue(replace(cue, tone=None), leds)
        screen = self.table.screen()
        self.outputs.show_panel(screen)
        failed = self.table.commit()
        if failed:
            screen = self.table.screen()
            self.outputs.show_panel(screen)
        for cue in failed or cues:
            if cue.tone is not None:
                self.outputs.cue(Cue(tone=cue.tone), leds)
        self.outputs.show(screen)
        if self.hand is not None:
            self.outputs.offer(self.hand())

    def run(self) -> int:
        """Start the inputs, say ready, and process events until stopped; return 0."""
        switching = sys.getswitchinterval()
        sys.setswitchinterval(self.SWITCH_INTERVAL_S)
        young, *older = self._thresholds
        gc.set_threshold(young * self.COLLECT_LATE, *older)
        for device in self.inputs:
            device.start(self.post)
        self._send(())
        self.notifier.ready()
        for start in self.after_ready:
            start()
        self.running.set()
        reason = "stopped"
        retry = self.outputs.maintain()
        try:
            while True:
                timeout = self._timeout(retry)
                due = self._collect_due()
                try:
                    item = self._queue.get(
                        timeout=min(timeout, self.COLLECT_IDLE_S) if due else timeout
                    )
                except queue.Empty:
                    item = None
                    if due:
                        self._collect()
                        continue
                self.notifier.alive()
                if isinstance(item, _Stop):
                    reason = item.reason
                    break
                if isinstance(item, _Call):
                    _run_call(item)
                    retry = self.outputs.maintain()
                    if not self._due():
                        continue
                    item = None  # the pages' reads must not keep a message past its time
                if not isinstance(item, _Input):
                    # Committed once the displays have it (``_send``). A phone's input is not
                    # held: its page hears back once it is on disk, or why it is not.
                    self.table.hold()
                cues: list[Cue] = list(self.table.tick(self.clock()))
                if isinstance(item, _Input):
                    cues.extend(_run_input(item))
                    self.handled += 1
                elif item is not None:
                    if isinstance(item, ButtonPressed):
                        # The strip first: before the journal's flush, the screens, the pages.
                        self.outputs.answer(item.button)
                    cues.extend(self.table.handle(item))
                    self.handled += 1
                self._send(cues)
                retry = self.outputs.maintain()  # after the input's outputs: a retry can wait
                if item is not None and self.after_event is not None:
                    self.after_event()
        finally:
            self._shutdown(reason)
            sys.setswitchinterval(switching)
            gc.set_threshold(*self._thresholds)
        return 0

    def _shutdown(self, reason: str) -> None:
        with self._closing:  # a call still queued would otherwise wait for ever
            self._closed = True
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if isinstance(item, _Call | _Input):
                    item.future.cancel()
        log.info("shutting down: %s", reason)
        self.notifier.stopping()
        self.running.clear()
        for device in self.inputs:
            try:
                device.close()
            except Exception:  # a device that fails to close must not stop the others
                log.exception("closing %s failed", type(device).__name__)
        self.table.close()
        self.outputs.goodbye()
