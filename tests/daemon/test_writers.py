"""The writer per bus: the loop never waits for a display, and only the newest frame is sent."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import pytest

from companion.daemon.outputs import BusWriter, Panel, next_row
from companion.devices.base import RGB, Tone
from companion.devices.buzzer import MemoryBuzzer
from companion.render.screen import Cue, OledScreen, Screen, StripWalk


class Gate:
    """Holds the first write it sees until the test opens it (a long bus transfer)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()
        self.used = False

    def pass_through(self) -> None:
        if not self.used:
            self.used = True
            self.entered.set()
            assert self.opened.wait(10), "the test never opened the gate"


class Lcd:
    """A 20x4 text display recording each transfer: the rows it changed, in the order sent."""

    cols, rows = 20, 4

    def __init__(self, log: list[str], gate: Gate | None = None) -> None:
        self.log = log
        self.gate = gate
        self.shown = [""] * 4

    def show(self, lines: Sequence[str], first: int | None = None) -> None:
        if self.gate is not None:
            self.gate.pass_through()
        order = sorted(range(len(lines)), key=lambda row: row != first)
        changed = [f"{row}: {lines[row]}" for row in order if lines[row] != self.shown[row]]
        if changed:
            self.log.append(f"lcd {' | '.join(changed)}")
        self.shown = list(lines)

    def close(self) -> None:
        pass


class PixelScreen:
    width, height = 128, 64

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def show_die(self, face: int) -> None:
        self.log.append(f"oled die {face}")

    def show_text(self, lines: Sequence[str]) -> None:
        self.log.append(f"oled {' '.join(lines)}")

    def close(self) -> None:
        pass


class Strip:
    count = 3

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def show(self, frame: Sequence[RGB]) -> None:
        self.log.append(f"leds {list(frame)}")

    def animate_move(self, frame: Sequence[RGB], path: Sequence[int], colour: RGB) -> None:
        self.log.append(f"move {list(path)}")

    def close(self) -> None:
        pass


class GatedScreen(PixelScreen):
    """An OLED whose first frame is held at the gate."""

    def __init__(self, log: list[str], gate: Gate) -> None:
        super().__init__(log)
        self.gate = gate

    def show_text(self, lines: Sequence[str]) -> None:
        self.gate.pass_through()
        super().show_text(lines)


class GatedStrip(Strip):
    """A strip whose first frame is held at the gate."""

    def __init__(self, log: list[str], gate: Gate) -> None:
        super().__init__(log)
        self.gate = gate

    def show(self, frame: Sequence[RGB]) -> None:
        self.gate.pass_through()
        self.log.append("leds")


RED, OFF = (255, 0, 0), (0, 0, 0)


def test_a_waiting_frame_is_replaced_by_a_newer_one_and_priorities_hold() -> None:
    writer = BusWriter("i2c-1")  # not started: the test runs each job itself
    ran: list[str] = []
    writer.submit("oled", lambda: ran.append("oled A"))
    writer.submit("lcd-rest", lambda: ran.append("rows"))
    writer.submit("oled", lambda: ran.append("oled B"))
    writer.submit("strip", lambda: ran.append("leds"))
    assert writer.pending == ["strip", "oled", "lcd-rest"]
    while writer.step():
        pass
    assert ran == ["leds", "oled B", "rows"]
    assert writer.idle()


def test_an_idle_writer_lets_its_caller_run_a_job_and_a_busy_one_queues_it() -> None:
    writer = BusWriter("pico")
    writer.start()
    threads: list[threading.Thread] = []
    writer.run_now("strip", lambda: threads.append(threading.current_thread()))
    assert threads == [threading.current_thread()], "no thread to wake: the caller ran it"
    release = threading.Event()
    writer.submit("move", release.wait)
    writer.run_now("strip", lambda: threads.append(threading.current_thread()))
    assert len(threads) == 1, "behind a job being sent: queued"
    release.set()
    assert writer.wait_idle(5)
    assert threads[1] is writer._thread
    writer.close()


def test_a_failing_job_is_logged_and_the_next_one_still_runs(caplog) -> None:
    writer = BusWriter("i2c-1")
    ran: list[str] = []
    writer.submit("lcd", lambda: 1 / 0)
    writer.submit("oled", lambda: ran.append("oled"))
    while writer.step():
        pass
    assert ran == ["oled"]
    assert "sending on i2c-1 failed" in caplog.text


def test_the_changed_row_with_the_fewest_changes_goes_first() -> None:
    sent = ["Race 1/3", "Anna 12", "Ben 10", "Your turn"]
    target = ["Race 2/3", "Anna 14", "Ben 10", "Ben's turn: roll"]
    assert next_row(sent, target) == 1  # one cell (a tie with row 0: the lower one)
    assert next_row(sent, sent) is None


def test_a_press_during_a_long_lcd_write_is_answered_at_once_and_its_screen_wins() -> None:
    log: list[str] = []
    gate = Gate()
    buzzer = MemoryBuzzer()
    panel = Panel(
        lcd=Lcd(log, gate),
        oled=PixelScreen(log),
        strip=Strip(log),
        buzzer=buzzer,
        buses={"lcd": "i2c-1", "oled": "i2c-1", "strip": "pico"},
    )
    first = Screen(lcd=("Race 1/3", "Anna 12"), oled=OledScreen(die=3), leds=(RED, OFF, OFF))
    panel.show(first)
    assert gate.entered.wait(10)  # the LCD write is under way on the bus's thread
    # The next press: the loop hands its picture over and plays its tone, without waiting.
    second = Screen(lcd=("Race 1/3", "Anna 14"), oled=OledScreen(die=5), leds=(OFF, RED, OFF))
    panel.cue(Cue(tone=Tone.ACCEPTED), second.leds)
    panel.show(second)
    assert buzzer.played == [Tone.ACCEPTED]
    assert not panel.idle()
    gate.opened.set()
    assert panel.wait_idle(10)
    # The OLED never showed the first picture's face: it had not been sent when the second
    # came. On i2c-1, the first LCD picture ends, then the row that changed, then the OLED.
    assert [entry for entry in log if not entry.startswith("leds")] == [
        "lcd 0: Race 1/3 | 1: Anna 12",
        "lcd 1: Anna 14",
        "oled die 5",
    ]
    assert [entry for entry in log if entry.startswith("leds")][-1] == f"leds {[OFF, RED, OFF]}"
    panel.goodbye()


SCORES = ("Race 1/3", "Anna 12", "Ben 10", "Your turn")
NEXT = ("Race 2/3", "Anna 14", "Ben 10", "Ben's turn: roll")


def one_bus_panel(log: list[str]) -> Panel:
    """LEDs, LCD and OLED on one bus, the LCD showing SCORES and the OLED "Anna"."""
    panel = Panel(
        lcd=Lcd(log),
        oled=PixelScreen(log),
        strip=Strip(log),
        buses={"lcd": "i2c-1", "oled": "i2c-1", "strip": "i2c-1"},
    )
    panel.show(Screen(lcd=SCORES, oled=OledScreen(lines=("Anna",))))
    assert panel.wait_idle(10)
    log.clear()
    return panel


def show_behind_the_leds(panel: Panel, log: list[str], screen: Screen) -> None:
    """Show ``screen`` while the bus is busy with its LEDs, so that its jobs wait together."""
    gate = Gate()
    panel.strip = GatedStrip(log, gate)
    panel.show(screen)
    assert gate.entered.wait(10)
    gate.opened.set()
    assert panel.wait_idle(10)


def test_leds_first_then_the_answering_row_then_the_oled_then_the_other_rows_at_once() -> None:
    log: list[str] = []
    panel = one_bus_panel(log)
    show_behind_the_leds(
        panel, log, Screen(lcd=NEXT, oled=OledScreen(lines=("Anna", "+2")), leds=(RED, OFF, OFF))
    )
    # The row with the fewest changes answers; the other rows go in one transfer after the OLED.
    assert log == [
        "leds",
        "lcd 1: Anna 14",
        "oled Anna +2",
        "lcd 0: Race 2/3 | 3: Ben's turn: roll",
    ]
    panel.goodbye()


def test_without_an_oled_frame_waiting_the_whole_screen_goes_in_one_transfer_row_first() -> None:
    log: list[str] = []
    panel = one_bus_panel(log)
    show_behind_the_leds(
        panel, log, Screen(lcd=NEXT, oled=OledScreen(lines=("Anna",)), leds=(RED, OFF, OFF))
    )
    assert log == ["leds", "lcd 1: Anna 14 | 0: Race 2/3 | 3: Ben's turn: roll"]
    panel.goodbye()


def test_an_oled_on_its_own_bus_does_not_split_the_lcd_s_screen() -> None:
    log: list[str] = []
    panel = Panel(lcd=Lcd(log), oled=PixelScreen(log), buses={"lcd": "i2c-1", "oled": "i2c-4"})
    panel.show(Screen(lcd=SCORES))
    assert panel.wait_idle(10)
    log.clear()
    panel.show(Screen(lcd=NEXT, oled=OledScreen(lines=("Anna", "+2"))))
    assert panel.wait_idle(10)
    lcd_log = [entry for entry in log if entry.startswith("lcd")]
    assert lcd_log == ["lcd 1: Anna 14 | 0: Race 2/3 | 3: Ben's turn: roll"]
    panel.goodbye()


def test_rows_still_waiting_behind_the_oled_give_way_to_a_newer_screen() -> None:
    log: list[str] = []
    gate = Gate()
    panel = Panel(
        lcd=Lcd(log), oled=GatedScreen(log, gate), buses={"lcd": "i2c-1", "oled": "i2c-1"}
    )
    panel.show(Screen(lcd=SCORES, oled=OledScreen(die=2)))
    assert panel.wait_idle(10)
    log.clear()
    panel.show(Screen(lcd=NEXT, oled=OledScreen(lines=("Anna", "+2"))))
    assert gate.entered.wait(10)  # the answering row is sent, the OLED's frame under way
    newer = ("Race 2/3", "Anna 14", "Ben 13", "Chloé's turn")
    panel.show(Screen(lcd=newer, oled=OledScreen(lines=("Anna", "+2"))))
    gate.opened.set()
    assert panel.wait_idle(10)
    # NEXT's last row never reached the glass: the newer screen took its place, in one go.
    assert log == [
        "lcd 1: Anna 14",
        "oled Anna +2",
        "lcd 2: Ben 13 | 0: Race 2/3 | 3: Chloé's turn",
    ]
    panel.goodbye()


def test_goodbye_sends_what_is_waiting_then_says_bye() -> None:
    log: list[str] = []
    panel = Panel(lcd=Lcd(log), buses={"lcd": "i2c-1"})
    panel.show(Screen(lcd=("Race 1/3",)))
    panel.goodbye()
    assert log[0] == "lcd 0: Race 1/3"
    assert log[-1] == f"lcd 0:  | 1: {'bye'.center(20)}"


def test_the_loop_s_tick_never_waits_for_a_writer_using_the_device() -> None:
    from companion.devices.resilience import Resilient

    gate = Gate()
    opened: list[int] = []

    def open_lcd() -> Lcd:
        opened.append(1)
        return Lcd([], gate)

    guard: Resilient[Lcd] = Resilient("LCD", open_lcd)
    writer = threading.Thread(target=lambda: guard.call(lambda lcd: lcd.show(["Race 1/3"])))
    writer.start()
    assert gate.entered.wait(10)  # the writer is in the middle of a transfer
    guard.tick()  # returns at once (the test would hang otherwise) and opens nothing
    assert opened == [1]
    gate.opened.set()
    writer.join(10)
    assert guard.device is not None and guard.device.shown == ["Race 1/3"]


def test_a_failed_display_is_reopened_by_its_bus_writer_while_the_loop_goes_on() -> None:
    from companion.devices.resilience import Resilient, ResilientTextDisplay

    log: list[str] = []
    gate = Gate()
    now = [0.0]
    opened_on: list[str] = []

    def open_lcd() -> Lcd:
        opened_on.append(threading.current_thread().name)
        if len(opened_on) == 1:
            raise OSError(121, "Remote I/O error")  # unplugged when the companion starts
        gate.pass_through()  # reopening runs the display's whole, long set-up
        return Lcd(log)

    guard: Resilient[Lcd] = Resilient("LCD", open_lcd, clock=lambda: now[0])
    panel = Panel(lcd=ResilientTextDisplay(guard), guards=[guard], buses={"lcd": "i2c-1"})
    panel.show(Screen(lcd=("Race 1/3",)))  # dropped for now, kept as the latest
    assert panel.wait_idle(10)
    now[0] = 1.0  # the retry is due
    assert panel.maintain() == Panel.RETRY_EVERY  # returns at once: the reopen is elsewhere
    assert gate.entered.wait(10)
    assert opened_on[-1] == "bus i2c-1"
    gate.opened.set()
    assert panel.wait_idle(10)
    assert guard.up
    assert log == ["lcd 0: Race 1/3"]
    panel.goodbye()


def hand_run_writers(monkeypatch: pytest.MonkeyPatch) -> dict[str, BusWriter]:
    """Make the panel's writers run their jobs only when the test steps them; return them."""
    made: dict[str, BusWriter] = {}
    made_by = BusWriter.__init__

    def remember(writer: BusWriter, name: str) -> None:
        made_by(writer, name)
        made[name] = writer

    monkeypatch.setattr(BusWriter, "__init__", remember)
    monkeypatch.setattr(BusWriter, "start", lambda writer: None)
    return made


def test_the_displays_wait_for_the_leds_when_the_strip_has_a_bus_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    writers = hand_run_writers(monkeypatch)
    log: list[str] = []
    panel = Panel(
        lcd=Lcd(log),
        oled=PixelScreen(log),
        strip=Strip(log),
        buses={"lcd": "i2c-1", "oled": "i2c-1", "strip": "pico"},
    )
    panel.show(Screen(lcd=("Race 1/3",), oled=OledScreen(die=3), leds=(RED, OFF, OFF)))
    # Nothing for the displays' bus yet: its writer would take the CPU from the LED frame.
    assert writers["pico"].pending == ["strip"]
    assert writers["i2c-1"].pending == []
    assert not panel.idle()
    assert writers["pico"].step()
    assert log == [f"leds {[RED, OFF, OFF]}"]
    assert writers["i2c-1"].pending == ["lcd", "oled"]
    while writers["i2c-1"].step():
        pass
    assert log[1:] == ["lcd 0: Race 1/3", "oled die 3"]
    assert panel.idle()
    # A screen that leaves the LEDs as they are goes straight to the displays.
    panel.show(Screen(lcd=("Race 1/3", "Anna 12"), oled=OledScreen(die=3), leds=(RED, OFF, OFF)))
    assert writers["pico"].pending == []
    assert writers["i2c-1"].pending == ["lcd"]


def test_a_move_hands_the_displays_over_as_its_walk_begins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    writers = hand_run_writers(monkeypatch)
    log: list[str] = []
    panel = Panel(lcd=Lcd(log), strip=Strip(log), buses={"lcd": "i2c-1", "strip": "pico"})
    panel.show(Screen(lcd=("Race 1/3",), leds=(RED, OFF, OFF)))
    assert writers["pico"].step()
    assert writers["i2c-1"].step()
    # A move: the walk is queued first, then the screen with the horse on its new square.
    moved = Screen(lcd=("Race 1/3", "Anna 12"), leds=(OFF, RED, OFF))
    panel.cue(Cue(move=StripWalk((0, 1), RED)), moved.leds)
    panel.show(moved)
    assert writers["i2c-1"].pending == []  # held until the walk starts...
    # The walk ends on the new frame: the strip is not sent that frame again.
    assert writers["pico"].pending == ["move"]
    assert writers["pico"].step()  # ...which hands the LCD over as it begins
    assert writers["i2c-1"].pending == ["lcd"]
    assert log[-1] == "move [0, 1]"
    assert not writers["pico"].step()


def test_a_walk_is_not_followed_by_an_older_frame_and_a_newer_one_still_goes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    writers = hand_run_writers(monkeypatch)
    log: list[str] = []
    panel = Panel(strip=Strip(log), buses={"strip": "pico"})
    panel.show(Screen(leds=(RED, OFF, OFF)))
    assert writers["pico"].step()
    panel.show(Screen(leds=(RED, RED, OFF)))  # a frame still waiting when the move comes
    moved = Screen(leds=(OFF, RED, OFF))
    panel.cue(Cue(move=StripWalk((0, 1), RED)), moved.leds)
    panel.show(moved)
    assert writers["pico"].pending == ["move"]
    # The same picture drawn again after the walk sends nothing; a new frame goes.
    panel.show(moved)
    assert writers["pico"].pending == ["move"]
    panel.show(Screen(leds=(OFF, OFF, RED)))
    assert writers["pico"].pending == ["move", "strip"]
    while writers["pico"].step():
        pass
    assert log[1:] == ["move [0, 1]", f"leds {[OFF, OFF, RED]}"]


def test_displays_held_for_leds_whose_job_is_gone_go_out_with_the_next_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The displays wait for the LED job of their frame; when that job is taken back before it
    starts (a newer walk replaces it), the next screen must not wait on it for ever: the LCD
    kept a move's news on show long after it had gone from the table."""
    writers = hand_run_writers(monkeypatch)
    log: list[str] = []
    panel = Panel(lcd=Lcd(log), strip=Strip(log), buses={"lcd": "i2c-1", "strip": "pico"})
    panel.show(Screen(lcd=("Race 1/3", "Anna finishes 1st!"), leds=(RED, OFF, OFF)))
    assert writers["i2c-1"].pending == []  # held for the LEDs
    writers["pico"].take_back(("strip",))  # the LED job goes before it ever starts
    panel.show(Screen(lcd=("Race 1/3", "Push: menu"), leds=(RED, OFF, OFF)))  # the news gone
    assert writers["i2c-1"].pending == ["lcd"]
    assert writers["i2c-1"].step() and not writers["i2c-1"].step()
    assert log[-1].endswith("Push: menu")
