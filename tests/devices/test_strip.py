"""The LED strip as a player sees it: the colour of each LED, dimmed, a move walking along."""

from __future__ import annotations

import sys
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.base import OFF, RGB, LedStrip
from companion.devices.scheduling import ManualScheduler
from companion.devices.strip import (
    MemoryStrip,
    SpiStrip,
    encode_ws2812,
    parse_colour,
    scale,
    spi_speed_hz,
)
from companion.render.leds import colour

RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 200, 0)


def test_brightness_scales_every_channel() -> None:
    assert scale((255, 128, 0), 0.25) == (64, 32, 0)
    assert scale((200, 100, 50), 1.0) == (200, 100, 50)
    assert scale((200, 100, 50), 0.0) == OFF


def test_a_dim_colour_keeps_its_hue_instead_of_going_out() -> None:
    assert scale((255, 40, 0), 0.01) == (3, 1, 0)


def test_the_strip_shows_each_led_dimmed() -> None:
    strip = MemoryStrip(5, brightness=0.5)
    strip.show([RED, OFF, GREEN, OFF, (100, 100, 100)])
    assert strip.leds == [(128, 0, 0), OFF, (0, 128, 0), OFF, (50, 50, 50)]


def test_a_brightness_outside_0_to_1_is_refused() -> None:
    with pytest.raises(ValueError, match="brightness"):
        MemoryStrip(5, brightness=1.5)


def test_a_frame_of_the_wrong_length_is_refused() -> None:
    strip = MemoryStrip(5)
    with pytest.raises(ValueError, match="5 colours"):
        strip.show([RED] * 4)


def test_the_same_frame_is_written_once() -> None:
    strip = MemoryStrip(3)
    strip.show([RED, OFF, OFF])
    strip.show([RED, OFF, OFF])
    assert len(strip.frames) == 1


def test_a_move_walks_square_by_square_then_settles() -> None:
    clock = ManualScheduler()
    strip = MemoryStrip(6, scheduler=clock, step_s=0.1)
    before = [RED, OFF, OFF, OFF, OFF, BLUE]
    strip.show(before)
    after = [OFF, OFF, OFF, RED, OFF, BLUE]
    strip.animate_move(after, [1, 2, 3], RED)
    assert strip.leds == [OFF, RED, OFF, RED, OFF, BLUE]  # first step at once
    clock.advance(0.1)
    assert strip.leds == [OFF, OFF, RED, RED, OFF, BLUE]
    clock.advance(0.1)
    assert strip.leds == after
    assert strip.animating
    clock.advance(0.1)
    assert not strip.animating
    assert strip.leds == after
    assert strip.frames == [
        before,
        [OFF, RED, OFF, RED, OFF, BLUE],
        [OFF, OFF, RED, RED, OFF, BLUE],
        after,
    ]


def test_a_frame_shown_during_a_move_appears_when_the_move_ends() -> None:
    clock = ManualScheduler()
    strip = MemoryStrip(4, scheduler=clock, step_s=0.1)
    strip.animate_move([OFF, OFF, OFF, RED], [1, 2], RED)
    strip.show([OFF, OFF, OFF, RED])  # the daemon re-sends the steady frame at once
    strip.show([GREEN, OFF, OFF, RED])
    assert strip.leds == [OFF, RED, OFF, RED]
    clock.advance(0.1)
    assert strip.leds == [OFF, OFF, RED, RED]
    clock.advance(0.1)
    assert strip.leds == [GREEN, OFF, OFF, RED]


def test_a_new_move_replaces_the_running_one() -> None:
    clock = ManualScheduler()
    strip = MemoryStrip(5, scheduler=clock, step_s=0.1)
    strip.animate_move([OFF] * 5, [0, 1, 2, 3], RED)
    clock.advance(0.1)
    strip.animate_move([OFF] * 5, [4], BLUE)
    assert strip.leds == [OFF, OFF, OFF, OFF, BLUE]
    clock.run_all()
    assert strip.leds == [OFF] * 5
    assert not any(frame[2] == RED or frame[3] == RED for frame in strip.frames)


def test_a_move_off_the_strip_is_refused() -> None:
    strip = MemoryStrip(5)
    with pytest.raises(ValueError, match="LED 7"):
        strip.animate_move([OFF] * 5, [3, 7], RED)


def test_close_turns_every_led_off() -> None:
    strip = MemoryStrip(3)
    strip.show([RED, GREEN, BLUE])
    strip.close()
    assert strip.leds == [OFF] * 3 and strip.closed


def test_the_memory_strip_is_an_led_strip() -> None:
    strip: LedStrip = MemoryStrip(60)
    assert strip.count == 60


def test_colours_from_configuration_data() -> None:
    assert parse_colour("#FF8000") == (255, 128, 0)
    assert parse_colour("yellow") == YELLOW
    # A configuration names the colours the horses light in: one table for both.
    assert parse_colour(" Blue ") == colour("blue") == (0, 64, 255)
    assert parse_colour("off") == parse_colour("black") == OFF
    assert parse_colour([1, 2, 3]) == (1, 2, 3)
    for bad in ("#12345", "mauve", [1, 2], [1, 2, 256], [True, 0, 0], 7):
        with pytest.raises(ValueError):
            parse_colour(bad)


# The WS2812 encoding over SPI.


def test_red_encodes_bit_exactly_at_three_spi_bits_per_led_bit() -> None:
    data = encode_ws2812([RED])
    # Green 0x00 -> 100 x 8, red 0xFF -> 110 x 8, blue 0x00 -> 100 x 8.
    assert data[:10] == bytes([0x00, 0x92, 0x49, 0x24, 0xDB, 0x6D, 0xB6, 0x92, 0x49, 0x24])
    assert set(data[10:]) == {0}
    assert len(data[10:]) * 8 / spi_speed_hz(3) >= 280e-6  # the latch gap


def test_one_bit_patterns_at_four_spi_bits() -> None:
    data = encode_ws2812([(0x80, 0x01, 0x00)], bits_per_bit=4)
    green = data[1:5]  # 0x01: seven zeros then a one
    red = data[5:9]  # 0x80: a one then seven zeros
    assert green == bytes([0x88, 0x88, 0x88, 0x8E])
    assert red == bytes([0xE8, 0x88, 0x88, 0x88])
    assert spi_speed_hz(4) == 3_200_000


def decode(data: bytes, bits_per_bit: int, count: int) -> list[RGB]:
    """Read SPI bytes back as a WS2812 would: a long high pulse is a 1 (independent decoder)."""
    bits = "".join(format(byte, "08b") for byte in data[1:])
    period_s = 1 / spi_speed_hz(bits_per_bit)
    values = []
    for i in range(count * 24):
        chunk = bits[i * bits_per_bit : (i + 1) * bits_per_bit]
        high_s = (len(chunk) - len(chunk.lstrip("1"))) * period_s
        assert chunk.startswith("1") and "01" not in chunk, chunk
        # WS2812B: T0H 0.25-0.55 µs, T1H 0.65-0.95 µs; anything else is misread.
        assert 0.25e-6 <= high_s <= 0.55e-6 or 0.65e-6 <= high_s <= 0.95e-6, high_s
        values.append(1 if high_s > 0.6e-6 else 0)
    leds = []
    for led in range(count):
        g, r, b = (
            int("".join(map(str, values[led * 24 + c * 8 : led * 24 + c * 8 + 8])), 2)
            for c in range(3)
        )
        leds.append((r, g, b))
    return leds


COLOURS = st.tuples(*[st.integers(0, 255)] * 3)


@settings(max_examples=150, deadline=None)
@given(st.lists(COLOURS, min_size=1, max_size=20), st.sampled_from([3, 4]))
def test_every_frame_decodes_back_with_valid_pulse_widths(frame: list[RGB], bits: int) -> None:
    assert decode(encode_ws2812(frame, bits), bits, len(frame)) == frame


class FakeSpi:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def writebytes2(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


def test_the_spi_strip_sends_dimmed_frames_only_when_they_change() -> None:
    spi = FakeSpi()
    strip = SpiStrip(3, spi, brightness=0.5)
    strip.show([RED, OFF, BLUE])
    strip.show([RED, OFF, BLUE])
    assert len(spi.writes) == 1
    assert decode(spi.writes[0], 3, 3) == [(128, 0, 0), OFF, (0, 0, 128)]
    strip.close()
    assert decode(spi.writes[-1], 3, 3) == [OFF] * 3 and spi.closed


def test_opening_the_spi_strip_sets_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[tuple[int, int]] = []

    class SpiDev(FakeSpi):
        def open(self, bus: int, device: int) -> None:
            opened.append((bus, device))

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=SpiDev))
    strip = SpiStrip.open(60, bus=0, device=1, brightness=0.25)
    assert opened == [(0, 1)]
    assert strip.spi.max_speed_hz == 2_400_000 and strip.spi.mode == 0
    strip.show([GREEN] * 60)
    assert decode(strip.spi.writes[-1], 3, 60) == [(0, 64, 0)] * 60


def test_a_failing_write_during_a_move_is_raised_by_the_next_call() -> None:
    class Unplugged(FakeSpi):
        fail = False

        def writebytes2(self, data: bytes) -> None:
            if self.fail:
                raise OSError(5, "Input/output error")
            super().writebytes2(data)

    spi = Unplugged()
    clock = ManualScheduler()
    strip = SpiStrip(4, spi, brightness=1.0, scheduler=clock)
    strip.animate_move([OFF] * 4, [0, 1, 2], RED)
    spi.fail = True
    clock.advance(0.1)
    assert not strip.animating
    spi.fail = False
    with pytest.raises(OSError):
        strip.show([BLUE] * 4)
    strip.show([BLUE] * 4)
    assert decode(spi.writes[-1], 3, 4) == [BLUE] * 4
