"""The bus model: transfers take the time the wire needs, on a pretend clock, shared per bus."""

from __future__ import annotations

from collections.abc import Iterator

import luma.oled.device
import pytest
from PIL import Image
from smbus2 import i2c_msg

from companion.benchmarks.glass import Marks, Meter, ProbePort
from companion.devices.bus import Bus, ManualClock, i2c_bits, ws2812_s
from companion.devices.hd44780 import Pcf8574Bus, rplcd_on
from companion.devices.lcd import CharacterLcd, changed_runs
from companion.devices.oled import Oled, die_image, page_bytes, text_image
from companion.devices.oled_ram import OledWire
from companion.devices.scheduling import ManualScheduler

SCORES = ["Jumpy Jack  race 3", "Anna   12  ♠ ***", "Ben    10  ♥ ***", "Chloé   8  ♦ ***"]


def test_an_i2c_write_takes_its_bits_at_the_bus_speed() -> None:
    clock = ManualClock()
    slow, fast = Bus("i2c-1", 100_000, clock), Bus("i2c-3", 400_000, clock)
    slow.i2c_write(1)  # start, address, one byte, stop: 20 bit times
    assert clock.now() == pytest.approx(200e-6)
    fast.i2c_write(1)
    assert clock.now() == pytest.approx(250e-6)
    assert i2c_bits(1025) == 9236
    assert ws2812_s(60) == pytest.approx(60 * 24 * 1.25e-6 + 300e-6)


def test_devices_on_one_bus_wait_for_each_other() -> None:
    clock = ManualClock()
    bus = Bus("i2c-1", 100_000, clock, slack_s=1.0)  # callers run ahead: nobody sleeps
    bus.i2c_write(1)
    bus.i2c_write(1)  # a second device: starts when the first transfer ends
    assert clock.now() == 0.0
    assert bus.busy_until == pytest.approx(400e-6)
    assert bus.done_at() == pytest.approx(400e-6)
    bus.settle()
    assert clock.now() == pytest.approx(400e-6)


@pytest.fixture
def lcd_at_100k() -> Iterator[tuple[CharacterLcd, Pcf8574Bus, ManualClock]]:
    clock = ManualClock()
    pcf = Pcf8574Bus(0x27, 20, 4, wire=Bus("i2c-1", 100_000, clock))
    with rplcd_on(pcf):
        yield CharacterLcd.open(), pcf, clock


def test_an_lcd_row_is_one_transaction_of_54_bits_a_character(
    lcd_at_100k: tuple[CharacterLcd, Pcf8574Bus, ManualClock],
) -> None:
    lcd, pcf, clock = lcd_at_100k
    wire = pcf.wire
    assert wire is not None
    began, transactions = clock.now(), wire.transactions
    lcd.show(SCORES)
    took = clock.now() - began
    # One I2C transaction per row with changed cells: each run's cursor move and characters
    # back to back, each byte two nibbles of three expander writes, 9 bits each on the wire;
    # and one for the custom character "é" (the suits were loaded at start-up): its address
    # and eight rows.
    runs = changed_runs(None, lcd.frame(SCORES)[0])
    rows = sorted({r.row for r in runs})
    assert wire.transactions - transactions == len(rows) + 1
    cells = sum(i2c_bits(sum(6 * (1 + len(r.codes)) for r in runs if r.row == row)) for row in rows)
    assert took == pytest.approx((cells + i2c_bits(6 * 9)) / 100_000)
    assert took < 0.05  # RPLCD's own way, a transaction per expander write: over 0.1 s
    assert pcf.lcd.lines()[1].startswith("Anna   12")
    began = clock.now()
    lcd.show([SCORES[0], "Anna   14  ♠ ***", *SCORES[2:]])  # one digit
    assert clock.now() - began == pytest.approx(i2c_bits(6 * 2) / 100_000)


class CountingClock(ManualClock):
    """A pretend clock that counts how often a caller was held."""

    def __init__(self) -> None:
        super().__init__()
        self.holds: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.holds.append(seconds)
        super().sleep(seconds)


def test_one_i2c_rdwr_call_holds_its_caller_once_and_notes_each_message_s_end() -> None:
    clock = CountingClock()
    wire = Bus("i2c-1", 100_000, clock)
    pcf = Pcf8574Bus(0x27, 20, 4, wire=wire)
    pcf.i2c_rdwr(*(i2c_msg.write(0x27, bytes(size)) for size in (6, 12, 30)))
    bits = [i2c_bits(6), i2c_bits(12), i2c_bits(30)]
    # The kernel's I2C_RDWR blocks its caller for the whole call: one hold, for every bit.
    assert clock.holds == [pytest.approx(sum(bits) / 100_000)]
    assert wire.transactions == 3
    assert [end for end, _ in pcf.messages] == pytest.approx(
        [bits[0] / 100_000, (bits[0] + bits[1]) / 100_000, sum(bits) / 100_000]
    )
    assert [noted for _, noted in pcf.messages] == bits
    pcf.unplugged = True
    with pytest.raises(OSError):
        pcf.i2c_rdwr(i2c_msg.write(0x27, bytes(6)))
    assert len(clock.holds) == 1  # nothing answered: nothing went on the wire


def test_the_glass_bench_marks_the_first_row_when_its_message_ends(
    lcd_at_100k: tuple[CharacterLcd, Pcf8574Bus, ManualClock],
) -> None:
    lcd, pcf, clock = lcd_at_100k
    assert pcf.wire is not None
    marks, probes = Marks(), Meter()
    lcd.port = ProbePort(lcd.port, pcf, 100_000, marks, probes)
    lcd.show(SCORES)
    began = clock.now()
    lcd.show(["Jumpy Jack  race 4", "Anna   14  ♠ ***", *SCORES[2:]], first=1)
    row_1, row_0 = i2c_bits(6 * 2), i2c_bits(6 * 2)  # "2" -> "4", "3" -> "4"
    assert marks.lcd[-2:] == pytest.approx(
        [began + row_1 / 100_000, began + (row_1 + row_0) / 100_000]
    )
    assert marks.lcd_floor[-2:] == pytest.approx([row_1 / 100_000, row_0 / 100_000])
    assert marks.lcd[-1] == pytest.approx(clock.now())
    assert probes.cpu > 0


def frame_time(oled: Oled, clock: ManualClock, image: Image.Image) -> float:
    began = clock.now()
    oled.show_image(image)
    return clock.now() - began


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_the_oled_sends_only_changed_pages_and_shows_every_frame(
    controller: str, rotate: int
) -> None:
    clock = ManualClock()
    wire = OledWire(Bus("i2c-3", 400_000, clock), controller)
    device = getattr(luma.oled.device, controller)(wire, width=128, height=64, rotate=rotate)
    oled = Oled(device)
    full = frame_time(oled, clock, die_image(5))
    assert 0.022 < full < 0.025  # a whole frame: about 23 ms at 400 kHz
    for image in (die_image(6), text_image(["Ben wins"]), text_image(["Ben wins!"]), die_image(1)):
        sent = wire.data_bytes
        took = frame_time(oled, clock, image)
        glass = page_bytes(image.rotate(180) if rotate == 2 else image)
        assert wire.pages() == [glass[p * 128 : (p + 1) * 128] for p in range(8)]
        assert wire.data_bytes - sent < 1024
        assert took < full
    # "Ben wins" to "Ben wins!": only the columns of the new mark change.
    oled.show_text(["Ben wins"])
    sent = wire.data_bytes
    oled.show_text(["Ben wins!"])
    assert wire.data_bytes - sent < 256
    sent = wire.data_bytes
    oled.show_text(["Ben wins!"])
    assert wire.data_bytes == sent  # the same frame again: nothing on the bus


@pytest.mark.parametrize("rotate", [0, 2])
def test_a_frame_shown_again_after_another_is_sent_again(rotate: int) -> None:
    clock = ManualClock()
    wire = OledWire(Bus("i2c-3", 400_000, clock), "ssd1306")
    oled = Oled(luma.oled.device.ssd1306(wire, width=128, height=64, rotate=rotate))

    def glass(image: Image.Image) -> list[bytes]:
        pages = page_bytes(image.rotate(180) if rotate == 2 else image)
        return [pages[p * 128 : (p + 1) * 128] for p in range(8)]

    for show, image in [
        (lambda: oled.show_text(["Ben wins"]), text_image(["Ben wins"])),
        (lambda: oled.show_die(3), die_image(3)),
        (lambda: oled.show_text(["Ben wins"]), text_image(["Ben wins"])),
        (lambda: oled.show_text(["Anna wins"]), text_image(["Anna wins"])),
        (lambda: oled.show_die(3), die_image(3)),
    ]:
        sent = wire.data_bytes
        show()
        assert wire.pages() == glass(image)
        assert wire.data_bytes > sent  # each differs from the frame before: it went out
    sent = wire.data_bytes
    oled.show_die(3)
    assert wire.data_bytes == sent


@pytest.mark.parametrize(("hz", "shown", "landed_by"), [(100_000, 8, 0.66), (20_000, 2, 0.9)])
def test_a_roll_keeps_its_length_on_a_slow_bus(hz: int, shown: int, landed_by: float) -> None:
    scheduler = ManualScheduler()
    wire = OledWire(Bus("i2c-1", hz, scheduler), "ssd1306")
    oled = Oled(luma.oled.device.ssd1306(wire), scheduler=scheduler)
    oled.show_die(2)
    began, frames = scheduler.now(), oled.frames_sent
    oled.roll(duration_s=0.6, frame_s=0.075)
    oled.show_die(4)  # the result, asked for while the die tumbles
    scheduler.run_all()
    assert oled.rolling is False
    assert wire.pages() == [page_bytes(die_image(4))[p * 128 : (p + 1) * 128] for p in range(8)]
    # At 100 kHz every tumbling frame fits its 75 ms; at 20 kHz frames whose time has
    # passed are dropped. Either way the face lands just after the 0.6 s, never 8 slow
    # frames plus 8 pauses later.
    assert oled.frames_sent - frames - 1 == shown
    assert 0.6 < scheduler.now() - began < landed_by


def test_the_oled_is_rolling_until_the_face_after_the_roll_is_on_the_wire() -> None:
    scheduler = ManualScheduler()
    seen: list[bool] = []
    displays: list[Oled] = []

    class Watched(OledWire):
        def data(self, data: bytes | bytearray | list[int]) -> None:
            for display in displays:  # what someone waiting for the display would read
                seen.append(display.rolling)
            super().data(data)

    wire = Watched(Bus("i2c-1", 100_000, scheduler), "ssd1306")
    oled = Oled(luma.oled.device.ssd1306(wire), scheduler=scheduler)
    displays.append(oled)
    oled.show_die(2)
    seen.clear()
    oled.roll(duration_s=0.6, frame_s=0.075)
    oled.show_die(4)
    scheduler.run_all()
    assert seen and all(seen)  # the face's bytes too: nobody takes the display for idle
    assert not oled.rolling
