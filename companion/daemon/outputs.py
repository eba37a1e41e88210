"""Every output device behind one face: send only what changed, survive a missing device.

With ``buses`` named, a ``BusWriter`` thread per bus sends the frames, so the loop never
waits for a transfer: each display keeps only its newest frame not yet sent, the LEDs and
the buzzer go first (the displays' frames wait until an LED frame on a bus of its own has
started), then the LCD row that answers the press, then the OLED, then the other
LCD rows (with the answering row, in one transfer, when no OLED frame waits on the bus).
Without, every frame is sent in the caller's thread (tests, the simulator).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import ne
from typing import Any

from companion.devices.base import (
    OFF,
    RGB,
    ButtonAnswer,
    Buzzer,
    LedStrip,
    PixelDisplay,
    PressAnswers,
    TextDisplay,
)
from companion.devices.resilience import Resilient
from companion.render.screen import Cue, OledScreen, Screen

log = logging.getLogger("companion.outputs")

#: What goes first on a bus: a move and the LEDs, the first LCD row, a roll, the OLED, the rest;
#: last, reopening a failed device (a display's whole set-up).
PRIORITY = ("move", "strip", "hand", "lcd", "roll", "oled", "lcd-rest", "reopen strip",
            "reopen lcd", "reopen oled")  # fmt: skip
#: The output whose bus a job goes on, where it is not the job's own name.
OUTPUT_OF = {"move": "strip", "hand": "strip", "roll": "oled"}


class BusWriter:
    """One bus's sender: runs the jobs of the displays on it, one at a time, newest only.

    ``submit(key, job)`` replaces the job of ``key`` not yet started (a frame nobody will see);
    jobs run in the order of ``PRIORITY``. A job that raises is logged and the next one runs.
    ``start()`` runs the jobs on a thread; without it, ``step()`` runs one in the caller.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._pending: dict[str, Callable[[], object]] = {}
        self._changed = threading.Condition()
        self._running_job = False
        self._stopping = False
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the thread that sends."""
        self._thread = threading.Thread(target=self._run, name=f"bus {self.name}", daemon=True)
        self._thread.start()

    def submit(self, key: str, job: Callable[[], object]) -> None:
        """Queue ``job`` for ``key`` (one of PRIORITY), replacing the one still waiting."""
        self.submit_all({key: job})

    def submit_all(self, jobs: Mapping[str, Callable[[], object]]) -> None:
        """``submit`` each of ``jobs`` at once: a job that starts meanwhile sees them all."""
        with self._changed:
            self._pending.update(jobs)
            self._changed.notify_all()

    def run_now(self, key: str, job: Callable[[], object]) -> None:
        """Run ``job`` in the caller's thread when nothing is waiting or being sent (no thread
        to wake, nothing to wait for); else queue it for ``key`` as ``submit`` does."""
        with self._changed:
            if self._pending or self._running_job or self._thread is None:
                self._pending[key] = job
                self._changed.notify_all()
                return
            self._running_job = True
        self._do(job)

    def take_back(self, keys: Iterable[str]) -> None:
        """Drop the jobs of ``keys`` not yet started (a newer one comes later)."""
        with self._changed:
            for key in keys:
                self._pending.pop(key, None)
            self._changed.notify_all()

    def waiting_before(self, key: str) -> bool:
        """Whether a job that goes before ``key``'s is waiting."""
        rank = PRIORITY.index(key)
        with self._changed:
            return any(PRIORITY.index(waiting) < rank for waiting in self._pending)

    @property
    def pending(self) -> list[str]:
        """The keys waiting, in the order they will run."""
        with self._changed:
            return sorted(self._pending, key=PRIORITY.index)

    def idle(self) -> bool:
        """Whether nothing is waiting and nothing is being sent."""
        with self._changed:
            return not self._pending and not self._running_job

    def wait_taken(self, keys: Iterable[str], timeout: float | None = None) -> bool:
        """Wait until no job of ``keys`` is waiting (each has started, or was dropped); False
        if ``timeout`` passed first."""
        wanted = tuple(keys)
        with self._changed:
            return self._changed.wait_for(
                lambda: not any(key in self._pending for key in wanted), timeout
            )

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until idle (a thread must be running); False if ``timeout`` passed first."""
        with self._changed:
            return self._changed.wait_for(
                lambda: not self._pending and not self._running_job, timeout
            )

    def step(self) -> bool:
        """Run the first waiting job in the caller's thread; False when none was waiting."""
        job = self._take(block=False)
        if job is None:
            return False
        self._do(job)
        return True

    def close(self, timeout: float = 5.0) -> None:
        """Send what is waiting, then stop the thread."""
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
        while self.step():
            pass

    def _take(self, *, block: bool) -> Callable[[], object] | None:
        with self._changed:
            while not self._pending:
                if not block or self._stopping:
                    return None
                self._changed.wait()
            key = min(self._pending, key=PRIORITY.index)
            self._running_job = True
            self._changed.notify_all()  # whoever waits for it to be taken
            return self._pending.pop(key)

    def _do(self, job: Callable[[], object]) -> None:
        try:
            job()
        except Exception:
            log.exception("sending on %s failed", self.name)
        finally:
            with self._changed:
                self._running_job = False
                self._changed.notify_all()

    def _run(self) -> None:
        while True:
            job = self._take(block=True)
            if job is None:
                return
            self._do(job)


def next_row(sent: Sequence[str], target: Sequence[str]) -> int | None:
    """The row to send next: of the rows that differ, the one with the fewest changed cells
    (the bottom one on a tie, where messages of the moment sit); None when all are sent."""
    changed = [
        (sum(map(ne, old.ljust(len(new)), new)), -row, row)
        for row, (old, new) in enumerate(zip(sent, target, strict=True))
        if old != new
    ]
    return min(changed)[2] if changed else None


@dataclass
class Panel:
    """The output devices the configuration names; any of them may be None."""

    lcd: TextDisplay | None = None
    oled: PixelDisplay | None = None
    strip: LedStrip | None = None
    buzzer: Buzzer | None = None
    #: Devices that reopen themselves after a failure; they need a tick now and then.
    guards: list[Resilient[Any]] = field(default_factory=list)
    #: The bus of each output ("lcd", "oled", "strip"): one writer thread per bus. None: send
    #: in the caller's thread.
    buses: Mapping[str, str] | None = None

    #: How often to retry a failed device while one is down (seconds).
    RETRY_EVERY = 1.0
    #: The longest the loop waits for a move's walk to start before it draws the displays
    #: (seconds; the strip's job only starts it, so this is a bound, not a wait).
    WALK_AHEAD_S = 0.05
    #: The longest ``show_panel`` waits for the displays' writers to take up a new picture
    #: (seconds; they take it up at once unless a bus is busy, so this is a bound, not a wait).
    SCREENS_AHEAD_S = 0.05

    def __post_init__(self) -> None:
        self._last: Screen | None = None
        self._writers: dict[str, BusWriter] = {}
        self._lcd_target: list[str] = []
        self._lcd_sent: list[str] | None = None
        self._rows_lock = threading.Lock()
        #: The frame the last move's walk ends on, until the next picture is drawn.
        self._moved_to: list[RGB] | None = None
        #: The displays' jobs waiting for an LED job to start, by writer (see ``_send``).
        self._held: dict[BusWriter, dict[str, Callable[[], object]]] = {}
        self._leds_waiting = False
        self._held_lock = threading.Lock()
        #: What each legal button lights now, and the answer lit for a press the table has not
        #: yet drawn (see ``answer``).
        self._hand = PressAnswers()
        self._answered: ButtonAnswer | None = None
        #: Set as each display's writer takes up its new frame (see ``show_panel``).
        self._taken: list[threading.Event] = []

    def _writer(self, output: str) -> BusWriter | None:
        """The writer of ``output``'s bus (started on first use), or None without buses."""
        if self.buses is None:
            return None
        bus = self.buses.get(output, output)
        writer = self._writers.get(bus)
        if writer is None:
            writer = self._writers[bus] = BusWriter(bus)
            writer.start()
        return writer

    def idle(self) -> bool:
        """Whether every frame handed over has been sent."""
        with self._held_lock:
            if self._held:
                return False
        return all(writer.idle() for writer in list(self._writers.values()))

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every frame handed over has been sent (a frame held for the LEDs moves
        to its writer while the strip's is waited for, hence the second look)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.idle():
            for writer in list(self._writers.values()):
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not writer.wait_idle(left):
                    return False
        return True

    def maintain(self) -> float | None:
        """Give failed devices their chance to come back; say when to call again (or None).

        A display or strip is reopened by the writer of its bus, so its set-up never holds up
        the loop; the others (the buzzer) here.
        """
        devices = (("lcd", self.lcd), ("oled", self.oled), ("strip", self.strip))
        guarded = ((name, getattr(device, "guard", None)) for name, device in devices)
        outputs = {id(guard): name for name, guard in guarded if guard is not None}
        for guard in self.guards:
            name = outputs.get(id(guard))
            writer = self._writer(name) if name is not None and not guard.up else None
            if writer is None:
                guard.tick()
            else:
                writer.submit(f"reopen {name}", guard.tick)
        return self.RETRY_EVERY if any(not g.up for g in self.guards) else None

    def show(self, screen: Screen) -> None:
        """Send each part of ``screen`` that differs from the last one: the LEDs first."""
        last = self._last
        strip, lcd, oled = self.strip, self.lcd, self.oled
        jobs: dict[str, Callable[[], object]] = {}
        moved_to, self._moved_to = self._moved_to, None
        answered, self._answered = self._answered, None
        if strip is not None and (
            moved_to is not None or last is None or last.leds != screen.leds or answered is not None
        ):
            frame = fit_frame(screen.leds, strip.count)
            lit = answered is not None and tuple(frame) == answered.frame
            if frame != moved_to and not lit:  # a walk ends on its frame: nothing more then
                jobs["strip"] = lambda: strip.show(frame)
        if lcd is not None and (last is None or last.lcd != screen.lcd):
            rows = fit_rows(screen.lcd, lcd.rows)
            if self.buses is None:
                jobs["lcd"] = lambda: lcd.show(rows)
            else:
                with self._rows_lock:
                    self._lcd_target = rows
                jobs["lcd"] = self._lcd_first
        if oled is not None and (last is None or last.oled != screen.oled):
            content = screen.oled
            jobs["oled"] = lambda: draw_oled(oled, content)
        self._send(self._noting_taken(jobs))
        self._last = screen

    def show_panel(self, screen: Screen) -> None:
        """``show``, then wait (at most ``SCREENS_AHEAD_S``) until each display's writer has
        taken up the first of its new frames: what the loop does next (the journal's flush,
        the tones, the pages, the hand) does not take the CPU from them."""
        self.show(screen)
        taken, self._taken = self._taken, []
        deadline = time.monotonic() + self.SCREENS_AHEAD_S
        for event in taken:
            if not event.wait(max(0.0, deadline - time.monotonic())):
                return

    def _noting_taken(
        self, jobs: Mapping[str, Callable[[], object]]
    ) -> dict[str, Callable[[], object]]:
        """``jobs``, the first display job of each writer noting when it starts (for
        ``show_panel``); a display queued behind another on its bus is not waited for."""
        noted = dict(jobs)
        self._taken = []
        writers: set[int] = set()
        for key in sorted(k for k in jobs if k in ("lcd", "oled")):
            writer = self._writer(key)
            if writer is None or id(writer) in writers:
                continue
            writers.add(id(writer))
            started = threading.Event()
            self._taken.append(started)
            noted[key] = _noting(started, jobs[key])
        return noted

    def _send(self, jobs: Mapping[str, Callable[[], object]]) -> None:
        """Run ``jobs`` now, in turn, or hand each to the writer of its output's bus (those of
        one bus together: the first to start sees the others waiting).

        When the strip has a bus of its own and its writer is free, the displays' jobs handed
        over meanwhile wait until the LED job starts: the LEDs answer a press first, and the
        displays' writers do not take the CPU from it.
        """
        queued: dict[BusWriter, dict[str, Callable[[], object]]] = {}
        for key, job in jobs.items():
            writer = self._writer(OUTPUT_OF.get(key, key))
            if writer is None:
                job()
            else:
                queued.setdefault(writer, {})[key] = job
        strip = self._writer("strip") if self._strip_alone() else None
        leds = queued.pop(strip, None) if strip is not None else None
        if strip is not None and leds is None and strip.idle():
            self._hand_over()  # no LED job left to wait for: what it held goes out now
        if strip is not None and leds is not None:
            if strip.idle():  # it starts at once: worth waiting for (not for an animation)
                with self._held_lock:
                    self._leds_waiting = True
            strip.submit_all({key: self._leds_first(job) for key, job in leds.items()})
        with self._held_lock:
            if self._leds_waiting:
                for writer, its_jobs in queued.items():
                    writer.take_back(its_jobs)  # an older frame must not go out meanwhile
                    self._held.setdefault(writer, {}).update(its_jobs)
                return
        for writer, its_jobs in queued.items():
            writer.submit_all(its_jobs)

    def _let_walk_out(self) -> None:
        """Wait, at most ``WALK_AHEAD_S``, while the strip's own writer starts a move's walk:
        the loop would otherwise draw the displays meanwhile and take the CPU from it (most of
        the LEDs' wait on a slow Pi). The job only starts the walk: the Pico, or the strip's
        own timer, walks the light."""
        writer = self._writer("strip") if self._strip_alone() else None
        if writer is not None:
            writer.wait_idle(self.WALK_AHEAD_S)

    def _strip_alone(self) -> bool:
        """Whether the strip has a bus writer that no display shares."""
        buses = self.buses
        if buses is None or self.strip is None:
            return False
        return buses.get("strip", "strip") not in (buses.get(d, d) for d in ("lcd", "oled"))

    def _leds_first(self, job: Callable[[], object]) -> Callable[[], object]:
        """``job`` (an LED frame or move) that first hands over the displays' jobs held for it."""

        def leds_first() -> object:
            self._hand_over()
            return job()

        return leds_first

    def _hand_over(self) -> None:
        """Give the displays' writers the jobs held for the LEDs."""
        with self._held_lock:
            held, self._held = self._held, {}
            self._leds_waiting = False
        for writer, its_jobs in held.items():
            writer.submit_all(its_jobs)

    def _lcd_first(self) -> None:
        """Send the LCD row that answers toward the newest rows asked for: the whole screen
        with it, that row first, in one transfer; or, when a job that goes before the other
        rows waits on the bus (the OLED's), that row alone, the others queued behind it."""
        lcd = self.lcd
        if lcd is None:
            return
        with self._rows_lock:
            target = list(self._lcd_target)
        sent = self._lcd_sent
        if sent is None:  # the first screen: whatever is on the glass is unknown
            self._lcd_show(lcd, target)
            return
        row = next_row(sent, target)
        if row is None:
            return
        writer = self._writer("lcd")
        if writer is None or not writer.waiting_before("lcd-rest"):
            self._lcd_show(lcd, target, row)
            return
        step = list(sent)
        step[row] = target[row]
        self._lcd_show(lcd, step)
        if step != target:
            writer.submit("lcd-rest", self._lcd_rest)

    def _lcd_rest(self) -> None:
        """Send every LCD row not yet sent toward the newest rows asked for, in one transfer."""
        lcd = self.lcd
        with self._rows_lock:
            target = list(self._lcd_target)
        if lcd is not None and self._lcd_sent != target:
            self._lcd_show(lcd, target)

    def _lcd_show(self, lcd: TextDisplay, rows: list[str], first: int | None = None) -> None:
        """Show ``rows`` (``first``: that row before the others), noting what the LCD shows."""
        self._lcd_sent = None  # unknown should this write fail
        lcd.show(rows, first)
        self._lcd_sent = rows

    def offer(self, hand: PressAnswers) -> None:
        """Keep ``hand``, what each legal button lights now, to light a press at once; a strip
        that answers presses by itself (the Pico's) is offered it too, after its frames, and
        puts the table's frame back when it lit an answer the table did not take."""
        changed = hand != self._hand
        self._hand = hand
        strip = self.strip
        offer = getattr(strip, "offer", None)
        if strip is None or not callable(offer):
            return
        if not changed and not getattr(strip, "answered", False):
            return
        last = self._last
        frame = fit_frame(last.leds if last is not None else (), strip.count)
        fitted = fit_hand(hand, strip.count)
        self._send({"hand": lambda: offer(frame, fitted)})

    def answer(self, button: str) -> None:
        """Light what a press of ``button`` lights when the hand holds it (a legal press): on
        the strip's writer at once, before the table takes the press (its journal, its
        screens). The table's own frame and walk then find the strip showing them; a press
        the table refuses finds the strip put back. A strip that answered the press itself
        (the Pico) is left alone."""
        answer = self._hand.of(button)
        strip = self.strip
        if answer is None or strip is None:
            return
        self._hand = PressAnswers()  # spent: the table offers the next one
        frame = fit_frame(answer.frame, strip.count)
        path = [i for i in answer.path if 0 <= i < strip.count]
        self._answered = ButtonAnswer(button, tuple(frame), tuple(path), answer.colour)
        if getattr(strip, "answered", False):
            return
        key = "move" if path else "strip"
        job: Callable[[], object] = (
            (lambda: strip.animate_move(frame, path, answer.colour))
            if path
            else (lambda: strip.show(frame))
        )
        if path:
            writer = self._writer("strip")
            if writer is not None:
                writer.take_back(("strip",))
        alone = self._writer("strip") if self._strip_alone() else None
        if alone is not None:  # its writer idle, the loop lights it itself: nothing to wake
            alone.run_now(key, self._leds_first(job))
        else:
            self._send({key: job})
        self._let_walk_out()  # the strip's writer has the CPU first, the table then

    def cue(self, cue: Cue, leds: Sequence[RGB]) -> None:
        """Play a tone and animate a move on the strip (ending on ``leds``, its new frame)."""
        if cue.tone is not None and self.buzzer is not None:
            self.buzzer.play(cue.tone)
        strip = self.strip
        if cue.move is not None and strip is not None:
            path = [i for i in cue.move.path if 0 <= i < strip.count]
            frame, colour = fit_frame(leds, strip.count), cue.move.colour
            answered = self._answered
            walk = (tuple(frame), tuple(path), colour)
            if answered is not None and (answered.frame, answered.path, answered.colour) == walk:
                self._moved_to = frame  # the press's answer walks it already
            elif path:
                writer = self._writer("strip")
                if writer is not None:
                    writer.take_back(("strip",))  # an older frame must not follow the walk
                self._send({"move": lambda: strip.animate_move(frame, path, colour)})
                self._moved_to = frame
                self._let_walk_out()
        if cue.rolling and self.oled is not None:
            roll = getattr(self.oled, "roll", None)  # OLEDs that can animate a roll
            if callable(roll):
                self._send({"roll": roll})

    def goodbye(self) -> None:
        """Send what is waiting, then say bye on the displays, turn the LEDs off and silence
        the buzzer."""
        self._hand_over()
        for writer in self._writers.values():
            writer.close()
        self._writers.clear()
        self.buses = None
        lcd, oled, strip, buzzer = self.lcd, self.oled, self.strip, self.buzzer
        if lcd is not None:
            _quietly("lcd", lambda: lcd.show(fit_rows(("", "bye".center(lcd.cols)), lcd.rows)))
        if oled is not None:
            _quietly("oled", lambda: oled.show_text(["bye"]))
        if strip is not None:
            _quietly("strip", strip.close)
        if buzzer is not None:
            _quietly("buzzer", buzzer.close)


def _noting(started: threading.Event, job: Callable[[], object]) -> Callable[[], object]:
    """``job``, setting ``started`` as it starts."""

    def noting() -> object:
        started.set()
        return job()

    return noting


def _quietly(name: str, action: Callable[[], object]) -> None:
    """Run one shutdown step; a failing device must not keep the others lit."""
    try:
        action()
    except Exception:
        log.exception("%s failed while shutting down", name)


def fit_rows(rows: tuple[str, ...], count: int) -> list[str]:
    """Return exactly ``count`` rows: cut extra ones, pad with blank rows."""
    return (list(rows) + [""] * count)[:count]


def fit_frame(leds: Sequence[RGB], count: int) -> list[RGB]:
    """Return exactly ``count`` LED colours: cut or pad with dark LEDs."""
    return (list(leds) + [OFF] * count)[:count]


def fit_hand(hand: PressAnswers, count: int) -> PressAnswers:
    """Return ``hand`` for a strip of ``count`` LEDs: each frame fitted, each walk kept to the
    LEDs the strip has."""
    return PressAnswers(
        tuple(
            ButtonAnswer(
                answer.button,
                tuple(fit_frame(answer.frame, count)),
                tuple(i for i in answer.path if 0 <= i < count),
                answer.colour,
            )
            for answer in hand.answers
        )
    )


def draw_oled(oled: PixelDisplay, content: OledScreen) -> None:
    """Draw a die face or lines of text on the OLED."""
    if content.die is not None:
        oled.show_die(content.die)
    else:
        oled.show_text(list(content.lines))
