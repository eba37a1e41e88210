"""A failing output device is reported once, retried with backoff, and never stops the caller."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.devices.base import (
    OFF,
    Buzzer,
    DeviceStatus,
    Event,
    LedStrip,
    PixelDisplay,
    TextDisplay,
    Tone,
)
from companion.devices.buzzer import MemoryBuzzer
from companion.devices.hd44780 import Pcf8574Bus
from companion.devices.lcd import CharacterLcd
from companion.devices.oled import Oled
from companion.devices.resilience import (
    Resilient,
    ResilientBuzzer,
    ResilientLedStrip,
    ResilientPixelDisplay,
    ResilientTextDisplay,
)
from companion.devices.scheduling import ManualScheduler
from companion.devices.strip import MemoryStrip

RED, BLUE = (255, 0, 0), (0, 0, 255)


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pcf8574Bus]:
    import RPLCD.common
    import RPLCD.i2c

    fake = Pcf8574Bus(address=0x27)
    monkeypatch.setattr(RPLCD.i2c, "SMBus", lambda port: fake)
    monkeypatch.setattr(RPLCD.common, "usleep", lambda us: None)
    monkeypatch.setattr(RPLCD.common, "msleep", lambda ms: None)
    yield fake


def test_an_unplugged_lcd_is_reported_once_and_shows_the_latest_rows_when_back(
    bus: Pcf8574Bus,
) -> None:
    clock = ManualScheduler()
    events: list[Event] = []
    lcd = ResilientTextDisplay(
        Resilient("LCD", CharacterLcd.open, report=events.append, clock=clock.now), 20, 4
    )
    lcd.show(["Anna 12", "Ben 10"])
    assert bus.lcd.lines()[0].startswith("Anna 12")

    bus.unplugged = True
    lcd.show(["Anna 14", "Ben 10"])  # fails inside RPLCD: reported, not raised
    lcd.show(["Anna 14", "Ben 12"])
    lcd.show(["Anna 16", "Ben 12"])
    assert events == [DeviceStatus("LCD", False, "LCD not responding")]

    bus.unplugged = False
    clock.advance(0.3)
    lcd.tick()
    assert not lcd.guard.up  # the first retry waits 0.5 s
    clock.advance(0.3)
    lcd.tick()
    assert lcd.guard.up
    assert bus.lcd.lines()[:2] == ["Anna 16".ljust(20), "Ben 12".ljust(20)]
    assert events[1:] == [DeviceStatus("LCD", True, "LCD is back")]


def test_retries_back_off_exponentially_up_to_a_ceiling() -> None:
    clock = ManualScheduler()
    attempts: list[float] = []

    def never() -> TextDisplay:
        attempts.append(round(clock.now(), 1))
        raise OSError(121, "Remote I/O error")

    guard: Resilient[TextDisplay] = Resilient("LCD", never, clock=clock.now, max_delay_s=4.0)
    for _ in range(80):
        clock.advance(0.25)
        guard.tick()
    assert attempts == [0.0, 0.5, 1.5, 3.5, 7.5, 11.5, 15.5, 19.5]


def test_a_device_absent_at_start_is_reported_and_appears_later() -> None:
    clock = ManualScheduler()
    events: list[Event] = []
    present = False
    strips: list[MemoryStrip] = []

    def open_strip() -> LedStrip:
        if not present:
            raise FileNotFoundError(2, "No such file or directory", "/dev/ttyACM0")
        strips.append(MemoryStrip(4))
        return strips[-1]

    strip = ResilientLedStrip(
        Resilient("strip", open_strip, report=events.append, clock=clock.now), 4
    )
    strip.show([RED, OFF, OFF, OFF])
    assert events == [DeviceStatus("strip", False, "strip not responding")]
    present = True
    clock.advance(1.0)
    strip.show([OFF, RED, OFF, OFF])  # a call after the retry time reopens at once
    assert strips[0].leds == [OFF, RED, OFF, OFF]
    assert strips[0].frames == [[OFF, RED, OFF, OFF]]  # sent once, not twice
    assert events[-1] == DeviceStatus("strip", True, "strip is back")


def test_a_move_while_the_strip_is_down_comes_back_as_its_final_frame() -> None:
    clock = ManualScheduler()
    fail = False
    strips: list[MemoryStrip] = []

    class Flaky(MemoryStrip):
        def _write(self, leds: list[tuple[int, int, int]]) -> None:
            if fail:
                raise OSError(5, "Input/output error")
            super()._write(leds)

    def open_strip() -> LedStrip:
        strips.append(Flaky(4, scheduler=clock))
        return strips[-1]

    strip = ResilientLedStrip(Resilient("strip", open_strip, clock=clock.now), 4)
    strip.show([RED, OFF, OFF, OFF])
    fail = True
    strip.animate_move([OFF, OFF, RED, OFF], [1, 2], RED)
    assert not strip.guard.up
    assert strips[0].closed  # the failed strip was released before any reopening
    fail = False
    clock.advance(0.6)
    strip.tick()
    assert len(strips) == 2
    assert strips[1].frames == [[OFF, OFF, RED, OFF]]


def test_a_failure_inside_an_animation_surfaces_on_the_next_call_and_is_handled() -> None:
    clock = ManualScheduler()
    events: list[Event] = []
    fail = False

    class Flaky(MemoryStrip):
        def _write(self, leds: list[tuple[int, int, int]]) -> None:
            if fail:
                raise OSError(5, "Input/output error")
            super()._write(leds)

    strip = ResilientLedStrip(
        Resilient(
            "strip", lambda: Flaky(3, scheduler=clock), report=events.append, clock=clock.now
        ),
        3,
    )
    strip.animate_move([OFF, OFF, RED], [0, 1, 2], RED)
    fail = True
    clock.advance(0.1)  # the second step fails on the scheduler's side
    fail = False
    strip.show([BLUE, OFF, OFF])  # the failure surfaces here: reported, not raised
    assert [e.ok for e in events if isinstance(e, DeviceStatus)] == [False]
    clock.advance(0.5)
    strip.tick()
    device = strip.guard.device
    assert isinstance(device, MemoryStrip)
    assert device.leds == [BLUE, OFF, OFF]


def test_an_oled_that_fails_comes_back_with_the_latest_face() -> None:
    clock = ManualScheduler()
    oleds: list[Oled] = []
    broken = False

    def open_oled() -> PixelDisplay:
        if broken:
            raise OSError(121, "Remote I/O error")
        oleds.append(Oled.dummy(scheduler=clock))
        return oleds[-1]

    oled = ResilientPixelDisplay(Resilient("OLED", open_oled, clock=clock.now))
    oled.show_die(2)
    real = oleds[0].device.display

    def fail(image: object) -> None:
        raise OSError(121, "Remote I/O error")

    oleds[0].device.display = fail
    broken = True
    oled.show_die(6)
    oled.roll()
    oled.show_text(["Ben wins"])
    oled.show_die(5)
    broken = False
    oleds[0].device.display = real
    clock.advance(0.5)
    oled.tick()
    assert len(oleds) == 2
    assert oleds[1].frames_sent == 1
    shown = Oled.dummy()
    shown.show_die(5)
    assert oleds[1].image.tobytes() == shown.image.tobytes()


def test_tones_asked_for_while_the_buzzer_is_down_are_not_played_later() -> None:
    clock = ManualScheduler()
    buzzers: list[MemoryBuzzer] = []
    broken = True

    def open_buzzer() -> Buzzer:
        if broken:
            raise OSError(16, "Device or resource busy")
        buzzers.append(MemoryBuzzer(scheduler=clock))
        return buzzers[-1]

    buzzer = ResilientBuzzer(Resilient("buzzer", open_buzzer, clock=clock.now))
    buzzer.play(Tone.REFUSED)
    broken = False
    clock.advance(1.0)
    buzzer.tick()
    assert buzzers[0].played == []
    buzzer.play(Tone.ACCEPTED)
    assert buzzers[0].played == [Tone.ACCEPTED]


def test_a_programming_error_still_raises() -> None:
    strip = ResilientLedStrip(Resilient("strip", lambda: MemoryStrip(4)), 4)
    with pytest.raises(ValueError, match="4 colours"):
        strip.show([RED])


def test_after_close_nothing_is_sent_and_nothing_is_retried() -> None:
    clock = ManualScheduler()
    opened: list[MemoryStrip] = []

    def open_strip() -> LedStrip:
        opened.append(MemoryStrip(2))
        return opened[-1]

    strip = ResilientLedStrip(Resilient("strip", open_strip, clock=clock.now), 2)
    strip.show([RED, RED])
    strip.close()
    assert opened[0].closed and opened[0].leds == [OFF, OFF]
    strip.show([BLUE, BLUE])
    clock.advance(60)
    strip.tick()
    assert len(opened) == 1 and opened[0].leds == [OFF, OFF]


def test_the_wrappers_keep_the_output_interfaces() -> None:
    lcd: TextDisplay = ResilientTextDisplay(Resilient("LCD", CharacterLcd.fake), 20, 4)
    oled: PixelDisplay = ResilientPixelDisplay(Resilient("OLED", Oled.dummy), 128, 64)
    strip: LedStrip = ResilientLedStrip(Resilient("strip", lambda: MemoryStrip(60)), 60)
    buzzer: Buzzer = ResilientBuzzer(Resilient("buzzer", MemoryBuzzer))
    assert (lcd.cols, oled.width, strip.count) == (20, 128, 60)
    buzzer.close()
