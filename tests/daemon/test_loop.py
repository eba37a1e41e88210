"""The event loop: one queue, events in order, watchdog pings, a clean and quick shutdown."""

from __future__ import annotations

import gc
import socket
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion.daemon.loop import Daemon, OutputsBeside
from companion.daemon.notify import Notifier
from companion.daemon.outputs import Panel
from companion.devices.base import RGB, ButtonPressed, Event, EventSink, Tone
from companion.render.screen import Cue, OledScreen, Screen, StripWalk
from tests.polling import eventually


class CountingTable:
    """A table that shows how many presses it has seen."""

    def __init__(self) -> None:
        self.seen: list[Event] = []
        self.ticks = 0
        self.closed = False

    def handle(self, event: Event) -> Sequence[Cue]:
        self.seen.append(event)
        return [Cue(tone=Tone.ACCEPTED)]

    def tick(self, now: float) -> Sequence[Cue]:
        self.ticks += 1
        return ()

    def next_deadline(self) -> float | None:
        return None

    def hold(self) -> None:
        pass

    def commit(self) -> Sequence[Cue]:
        return ()

    def screen(self) -> Screen:
        return Screen(lcd=(f"presses: {len(self.seen)}",), oled=OledScreen(lines=("hi",)))

    def close(self) -> None:
        self.closed = True


class Lcd:
    cols, rows = 20, 4

    def __init__(self) -> None:
        self.shown: list[list[str]] = []

    def show(self, lines: Sequence[str]) -> None:
        self.shown.append(list(lines))

    def close(self) -> None:
        pass


class Buzzer:
    def __init__(self) -> None:
        self.played: list[Tone] = []
        self.closed = False

    def play(self, tone: Tone) -> None:
        self.played.append(tone)

    def close(self) -> None:
        self.closed = True


class Button:
    def __init__(self) -> None:
        self.sink: EventSink | None = None
        self.closed = False

    def start(self, sink: EventSink) -> None:
        self.sink = sink

    def close(self) -> None:
        self.closed = True


RED, OFF = (255, 0, 0), (0, 0, 0)


class Strip:
    count = 3

    def __init__(self) -> None:
        self.sent: list[str] = []

    def show(self, frame: Sequence[RGB]) -> None:
        self.sent.append(f"leds {list(frame)}")

    def animate_move(self, frame: Sequence[RGB], path: Sequence[int], colour: RGB) -> None:
        self.sent.append(f"walk {list(path)} to {list(frame)}")

    def close(self) -> None:
        pass


class MovingTable(CountingTable):
    """A table where each press walks the red horse one LED on; it notes what the strip had
    been sent when each picture was drawn."""

    def __init__(self, strip: Strip) -> None:
        super().__init__()
        self.strip = strip
        self.sent_when_drawn: list[list[str]] = []

    def handle(self, event: Event) -> Sequence[Cue]:
        self.seen.append(event)
        return [Cue(tone=Tone.ACCEPTED), Cue(move=StripWalk((1,), RED))]

    def leds(self) -> tuple[RGB, ...]:
        return (OFF, RED, OFF) if self.seen else (RED, OFF, OFF)

    def screen(self) -> Screen:
        self.sent_when_drawn.append(list(self.strip.sent))
        return Screen(lcd=(f"presses: {len(self.seen)}",), leds=self.leds())


class Messages:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def __call__(self, text: str) -> None:
        self.sent.append(text)


def start(daemon: Daemon) -> threading.Thread:
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    assert daemon.running.wait(5)
    return thread


def test_presses_from_a_device_thread_reach_the_table_in_order_and_the_lcd() -> None:
    table, lcd, buzzer, button = CountingTable(), Lcd(), Buzzer(), Button()
    sent = Messages()
    daemon = Daemon(table, Panel(lcd=lcd, buzzer=buzzer), [button], Notifier(send=sent))
    thread = start(daemon)
    assert button.sink is not None
    for name in ("die", "horse1", "horse2"):
        button.sink(ButtonPressed(name))
    daemon.stop()
    thread.join(5)
    assert [e.button for e in table.seen if isinstance(e, ButtonPressed)] == [
        "die",
        "horse1",
        "horse2",
    ]
    assert lcd.shown[0][0] == "presses: 0"
    assert ["presses: 3", "", "", ""] in lcd.shown
    assert buzzer.played == [Tone.ACCEPTED] * 3
    assert sent.sent[0].startswith("READY=1")
    assert sent.sent[-1] == "STOPPING=1"


def test_a_moves_walk_goes_out_before_the_displays_are_drawn() -> None:
    strip, lcd = Strip(), Lcd()
    table = MovingTable(strip)
    daemon = Daemon(table, Panel(lcd=lcd, strip=strip), [], Notifier(send=Messages()))
    thread = start(daemon)
    daemon.post(ButtonPressed("horse1"))
    daemon.stop()
    thread.join(5)
    walk = f"walk [1] to {[OFF, RED, OFF]}"
    # When the press's picture was drawn, the walk to the new frame had gone out already.
    assert table.sent_when_drawn[-1] == [f"leds {[RED, OFF, OFF]}", walk]
    # The walk ends on that frame: it is not sent again.
    assert strip.sent == [f"leds {[RED, OFF, OFF]}", walk]
    assert ["presses: 1", "", "", ""] in lcd.shown


class SlowStrip(Strip):
    """A strip whose writer takes a while to start a walk (a slow Pi's serial link)."""

    def animate_move(self, frame: Sequence[RGB], path: Sequence[int], colour: RGB) -> None:
        time.sleep(0.05)
        super().animate_move(frame, path, colour)


def test_on_its_own_bus_a_moves_walk_is_out_before_the_displays_are_drawn(monkeypatch) -> None:
    monkeypatch.setattr(Panel, "WALK_AHEAD_S", 5.0)  # a bound: the walk starts well before
    strip = SlowStrip()
    table = MovingTable(strip)
    panel = Panel(strip=strip, buses={"strip": "pico"})
    daemon = Daemon(table, panel, [], Notifier(send=Messages()))
    thread = start(daemon)
    daemon.post(ButtonPressed("horse1"))
    daemon.stop()
    thread.join(5)
    # The strip's writer, not the loop, sent the walk; the loop drew the picture after it.
    assert table.seen == [ButtonPressed("horse1")]
    assert f"walk [1] to {[OFF, RED, OFF]}" in table.sent_when_drawn[-1]


def test_outputs_beside_the_panel_wait_for_its_frames_like_the_panel() -> None:
    """The control socket's snapshot settles through ``wait_idle``: with the pages beside the
    panel it must still wait for the frames on their way to the glass."""

    class SlowFrames(Strip):
        def show(self, frame: Sequence[RGB]) -> None:
            time.sleep(0.05)
            super().show(frame)

    strip = SlowFrames()
    beside = OutputsBeside(Panel(strip=strip, buses={"strip": "pico"}))
    beside.show(Screen(lcd=(), leds=(RED, OFF, OFF)))
    assert beside.wait_idle(5)
    assert strip.sent == [f"leds {[RED, OFF, OFF]}"]
    beside.goodbye()


def test_shutdown_says_bye_closes_the_journal_and_the_devices() -> None:
    table, lcd, buzzer, button = CountingTable(), Lcd(), Buzzer(), Button()
    daemon = Daemon(table, Panel(lcd=lcd, buzzer=buzzer), [button], Notifier(send=Messages()))
    thread = start(daemon)
    began = time.monotonic()
    daemon.stop()
    thread.join(5)
    assert time.monotonic() - began < 1
    assert table.closed and button.closed and buzzer.closed
    assert lcd.shown[-1] == ["", "bye".center(20), "", ""]


def test_an_idle_loop_sleeps_instead_of_polling() -> None:
    table = CountingTable()
    daemon = Daemon(table, Panel(), [], Notifier(send=Messages()))
    thread = start(daemon)
    time.sleep(0.5)
    daemon.stop()
    thread.join(5)
    assert table.ticks <= 1, "the loop woke up while nothing happened"


def test_watchdog_pings_come_from_the_loop_at_half_the_interval() -> None:
    sent = Messages()
    daemon = Daemon(CountingTable(), Panel(), [], Notifier(send=sent, watchdog_usec="200000"))
    thread = start(daemon)
    time.sleep(0.55)
    daemon.stop()
    thread.join(5)
    pings = sent.sent.count("WATCHDOG=1")
    assert 3 <= pings <= 7, sent.sent


def test_notifications_reach_a_real_notify_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    notifier = Notifier(watchdog_usec="0")
    notifier.ready("up")
    notifier.stopping()
    assert server.recv(256) == b"READY=1\nSTATUS=up"
    assert server.recv(256) == b"STOPPING=1"
    server.close()


def test_a_call_runs_on_the_loop_thread_between_events() -> None:
    table = CountingTable()
    daemon = Daemon(table, Panel(), [], Notifier(send=Messages()))
    thread = start(daemon)
    daemon.post(ButtonPressed("horse1"))
    seen = daemon.call(lambda: (threading.current_thread() is thread, len(table.seen)))
    assert seen.result(5) == (True, 1)
    failing = daemon.call(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        failing.result(5)
    daemon.stop()
    thread.join(5)
    assert daemon.handled == 1, "a call is not an event of the table"


def test_a_call_queued_behind_a_stop_is_cancelled_not_left_waiting() -> None:
    daemon = Daemon(CountingTable(), Panel(), [], Notifier(send=Messages()))
    thread = start(daemon)
    daemon.stop()
    queued = daemon.call(lambda: 42)  # behind the stop in the queue
    thread.join(5)
    after = daemon.call(lambda: 43)  # the loop has ended
    assert queued.cancelled()
    assert after.cancelled()


class NewsTable(CountingTable):
    """A table showing a message until ``until`` (on the loop's clock), then its picture."""

    def __init__(self, until: float) -> None:
        super().__init__()
        self.until: float | None = until

    def tick(self, now: float) -> Sequence[Cue]:
        if self.until is not None and now >= self.until:
            self.until = None
        return ()

    def next_deadline(self) -> float | None:
        return self.until

    def screen(self) -> Screen:
        return Screen(lcd=("news" if self.until is not None else "calm",))


def test_a_message_expires_on_time_while_calls_keep_the_loop_busy() -> None:
    """The pages and the control socket read the table through calls; a steady stream of
    them must not keep a move's message on the LCD past its time."""
    lcd = Lcd()
    table = NewsTable(until=time.monotonic() + 0.3)
    daemon = Daemon(table, Panel(lcd=lcd), [], Notifier(send=Messages()))
    thread = start(daemon)
    stop_calls = threading.Event()

    def keep_busy() -> None:
        while not stop_calls.is_set():  # always one call waiting behind the one running
            daemon.call(lambda: time.sleep(0.002))
            time.sleep(0.001)

    busy = threading.Thread(target=keep_busy, daemon=True)
    busy.start()
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline and lcd.shown[-1] != ["calm", "", "", ""]:
        time.sleep(0.02)
    shown = lcd.shown[-1]
    stop_calls.set()
    busy.join(5)
    daemon.stop()
    thread.join(5)
    assert shown == ["calm", "", "", ""], f"the message was still on show after its time: {shown}"


class LitteringTable(CountingTable):
    """A table that leaves a thousand objects in reference cycles behind each press (more
    than Python lets pile up before it collects) and notes whether a press is being made."""

    def __init__(self) -> None:
        super().__init__()
        self.pressing = False

    def handle(self, event: Event) -> Sequence[Cue]:
        self.pressing = True
        for _ in range(1000):
            cycle: list[object] = []
            cycle.append(cycle)
        return super().handle(event)


def test_the_garbage_is_collected_between_presses_never_on_a_press_s_way() -> None:
    table = LitteringTable()
    daemon = Daemon(table, Panel(lcd=Lcd()), [], Notifier(send=Messages()))
    handled = threading.Event()

    def after_event() -> None:
        table.pressing = False
        handled.set()

    daemon.after_event = after_event
    during: list[bool] = []

    def noted(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and threading.current_thread() is thread:
            during.append(table.pressing)

    thread = start(daemon)
    gc.callbacks.append(noted)
    try:
        for _ in range(5):
            handled.clear()
            collections = len(during)
            daemon.post(ButtonPressed("horse1"))
            assert handled.wait(5)
            assert eventually(lambda n=collections: len(during) > n), "collected once idle"
    finally:
        gc.callbacks.remove(noted)
        daemon.stop()
        thread.join(5)
    assert during, "the loop collected"
    assert not any(during), "never while a press was being made and shown"
