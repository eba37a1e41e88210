"""The OLED as a player sees it: pips where a die has them, readable suits, frames sent once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion.devices.base import PixelDisplay
from companion.devices.bus import Bus, ManualClock
from companion.devices.oled import Oled, die_image, page_bytes, roll_image, text_image
from companion.devices.oled_ram import OledWire
from companion.devices.scheduling import ManualScheduler

Point = tuple[float, float]


def lit(image: Image.Image, x: int, y: int) -> bool:
    return bool(image.getpixel((x, y)))


def blobs(image: Image.Image, box: tuple[int, int, int, int]) -> list[list[tuple[int, int]]]:
    """Connected groups of lit pixels inside ``box`` (left, top, right, bottom exclusive)."""
    left, top, right, bottom = box
    seen: set[tuple[int, int]] = set()
    found = []
    for y in range(top, bottom):
        for x in range(left, right):
            if (x, y) in seen or not lit(image, x, y):
                continue
            group, stack = [], [(x, y)]
            seen.add((x, y))
            while stack:
                px, py = stack.pop()
                group.append((px, py))
                for nx, ny in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                    inside = left <= nx < right and top <= ny < bottom
                    if inside and (nx, ny) not in seen and lit(image, nx, ny):
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            found.append(group)
    return found


def pips(image: Image.Image) -> tuple[list[Point], tuple[int, int, int, int]]:
    """Return the pip centres inside the die's outline and the die's bounding box."""
    bbox = image.getbbox()
    assert bbox is not None, "nothing drawn"
    left, top, right, bottom = bbox
    inner = (left + 4, top + 4, right - 4, bottom - 4)
    centres = []
    for group in blobs(image, inner):
        xs = [p[0] for p in group]
        ys = [p[1] for p in group]
        centres.append((sum(xs) / len(xs), sum(ys) / len(ys)))
    return sorted(centres), bbox


def spot(bbox: tuple[int, int, int, int], col: int, row: int) -> Point:
    """Where a pip belongs: the die's quarter points (col/row 0, 1, 2 = left/top, middle...)."""
    left, top, right, bottom = bbox
    return (left + (right - left) * (col + 1) / 4, top + (bottom - top) * (row + 1) / 4)


def near(found: list[Point], expected: list[Point], tolerance: float = 1.5) -> bool:
    if len(found) != len(expected):
        return False
    remaining = list(expected)
    for x, y in found:
        match = next(
            (e for e in remaining if abs(e[0] - x) <= tolerance and abs(e[1] - y) <= tolerance),
            None,
        )
        if match is None:
            return False
        remaining.remove(match)
    return True


@pytest.fixture
def oled() -> Oled:
    return Oled.dummy(scheduler=ManualScheduler())


def test_a_one_has_exactly_one_pip_in_the_middle(oled: Oled) -> None:
    oled.show_die(1)
    centres, bbox = pips(oled.device.image)
    assert near(centres, [spot(bbox, 1, 1)])


def test_a_five_has_four_corner_pips_and_one_in_the_middle(oled: Oled) -> None:
    oled.show_die(5)
    centres, bbox = pips(oled.device.image)
    corners = [spot(bbox, c, r) for c in (0, 2) for r in (0, 2)]
    assert near(centres, [*corners, spot(bbox, 1, 1)])


@pytest.mark.parametrize(
    ("face", "where"),
    [
        (2, [(2, 0), (0, 2)]),
        (3, [(2, 0), (1, 1), (0, 2)]),
        (4, [(0, 0), (2, 0), (0, 2), (2, 2)]),
        (6, [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]),
    ],
)
def test_every_face_has_its_pips_at_the_usual_spots(
    oled: Oled, face: int, where: list[tuple[int, int]]
) -> None:
    oled.show_die(face)
    centres, bbox = pips(oled.device.image)
    assert near(centres, [spot(bbox, c, r) for c, r in where])


def test_the_die_is_square_and_centred(oled: Oled) -> None:
    oled.show_die(6)
    left, top, right, bottom = oled.device.image.getbbox()
    assert right - left == bottom - top >= 56
    assert abs((left + right) / 2 - 64) <= 1 and abs((top + bottom) / 2 - 32) <= 1


def test_a_die_face_outside_1_to_6_is_refused(oled: Oled) -> None:
    with pytest.raises(ValueError, match=r"1\.\.6"):
        oled.show_die(7)


def test_the_same_frame_is_sent_only_once(oled: Oled) -> None:
    oled.show_die(3)
    oled.show_die(3)
    assert oled.frames_sent == 1
    oled.show_text(["Ben wins"])
    oled.show_text(["Ben wins"])
    oled.show_die(3)
    assert oled.frames_sent == 3


SPADE = [
    "..#..",
    ".###.",
    "#####",
    "#####",
    "#.#.#",
    "..#..",
    ".###.",
    ".....",
]


def picture(image: Image.Image, x: int, y: int, w: int = 5, h: int = 8) -> list[str]:
    return ["".join("#" if lit(image, x + i, y + j) else "." for i in range(w)) for j in range(h)]


def test_a_suit_in_small_text_is_drawn_as_a_spade_not_a_box(oled: Oled) -> None:
    oled.show_text(["Anna Q♠", "Ben 10♥", "Chloe 7♦"])
    # Small text: 6-pixel cells from x=1, 12-pixel lines; the suit is the 7th character.
    assert picture(oled.device.image, 1 + 6 * 6, 2) == SPADE


def test_short_messages_are_drawn_large_and_centred(oled: Oled) -> None:
    oled.show_text(["Q♠"])
    left, top, right, bottom = oled.device.image.getbbox()
    assert bottom - top >= 14  # twice the 7-pixel letters
    assert abs((left + right) / 2 - 64) <= 6
    # The spade at twice the size: every glyph pixel is a 2x2 block.
    big = oled.device.image
    spade_x = right - 10
    rows = picture(big, spade_x, top, 10, 14)
    assert [row[::2] for row in rows[::2]] == SPADE[:7]


def test_accents_are_drawn(oled: Oled) -> None:
    plain = text_image(["Chloe", "x", "y"])
    accented = text_image(["Chloé", "x", "y"])
    differs = {
        x // 6
        for x in range(128)
        for y in range(12)
        if plain.getpixel((x, y)) != accented.getpixel((x, y))
    }
    assert differs == {4}  # only the fifth cell, the é


def test_small_text_fits_21_columns_and_5_lines() -> None:
    image = text_image(["W" * 30] + ["W"] * 6)
    lines_drawn = {y // 12 for y in range(64) for x in range(128) if image.getpixel((x, y))}
    assert lines_drawn == {0, 1, 2, 3, 4}
    cells = {x // 6 for x in range(128) if image.getpixel((x, 4))}
    assert len(cells) == 21


def test_the_frame_can_be_saved_as_png(oled: Oled, tmp_path: Path) -> None:
    oled.show_die(4)
    path = tmp_path / "four.png"
    oled.frame_png(path)
    with Image.open(path) as saved:
        assert saved.convert("1").tobytes() == oled.device.image.convert("1").tobytes()


def test_a_roll_animates_then_shows_the_face_asked_for_meanwhile() -> None:
    clock = ManualScheduler()
    oled = Oled.dummy(scheduler=clock)
    oled.show_text(["press", "the die"])
    oled.roll(duration_s=0.6, frame_s=0.1)
    oled.show_die(4)
    assert oled.rolling
    seen = [oled.device.image.tobytes()]
    for _ in range(5):
        clock.advance(0.1)
        seen.append(oled.device.image.tobytes())
    faces = {die_image(face).tobytes() for face in range(1, 7)}
    assert len(set(seen)) == 6 and not set(seen) & faces  # a tumbling die, no readable face
    clock.advance(0.1)
    assert not oled.rolling
    centres, _ = pips(oled.device.image)
    assert len(centres) == 4


def test_a_new_roll_replaces_the_running_one() -> None:
    clock = ManualScheduler()
    oled = Oled.dummy(scheduler=clock)
    oled.roll(0.4, 0.1)
    clock.advance(0.15)
    oled.roll(0.4, 0.1)
    oled.show_die(2)
    sent = oled.frames_sent
    clock.advance(0.31)
    assert oled.rolling  # the first roll would have ended by now
    clock.advance(0.1)
    assert not oled.rolling
    assert oled.frames_sent == sent + 4  # three more roll frames, then the two
    assert len(pips(oled.device.image)[0]) == 2


def test_roll_frames_differ_from_step_to_step() -> None:
    frames = [roll_image(step).tobytes() for step in range(6)]
    assert len(set(frames)) == 6


def test_a_failing_bus_raises_oserror_even_when_luma_wraps_it(oled: Oled) -> None:
    from luma.core.error import DeviceNotFoundError

    def fail(image: Image.Image) -> None:
        raise DeviceNotFoundError("I2C device not found on address: 0x3C")

    oled.device.display = fail
    with pytest.raises(OSError, match="0x3C"):
        oled.show_die(1)


def test_a_failure_during_a_roll_is_raised_by_the_next_call() -> None:
    clock = ManualScheduler()
    oled = Oled.dummy(scheduler=clock)
    oled.roll(0.6, 0.1)
    real = oled.device.display

    def fail(image: Image.Image) -> None:
        raise OSError(121, "Remote I/O error")

    oled.device.display = fail
    clock.advance(0.1)
    assert not oled.rolling
    oled.device.display = real
    with pytest.raises(OSError):
        oled.show_die(6)
    oled.show_die(6)
    assert len(pips(oled.device.image)[0]) == 6


def test_opening_an_oled_on_a_missing_bus_raises_oserror() -> None:
    with pytest.raises(OSError):
        Oled.open("ssd1306", port=250, address=0x3C)
    with pytest.raises(ValueError, match="sh1106"):
        Oled.open("ssd1309")


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_real_driver_classes_take_our_frames(driver: str) -> None:
    import luma.oled.device
    from luma.core.interface.serial import noop

    device = getattr(luma.oled.device, driver)(noop(), width=128, height=64)
    oled = Oled(device, scheduler=ManualScheduler())
    oled.show_die(5)
    oled.show_text(["Jumpy Jack!", "Anna wins", "16 pts ♠"])
    assert oled.frames_sent == 2
    oled.close()


def test_close_blanks_the_screen(oled: Oled) -> None:
    oled.show_die(2)
    oled.close()
    assert oled.device.image.getbbox() is None


def test_the_oled_is_a_pixel_display() -> None:
    display: PixelDisplay = Oled.dummy()
    assert (display.width, display.height) == (128, 64)


def test_an_oled_that_does_not_answer_leaves_no_bus_open(monkeypatch: pytest.MonkeyPatch) -> None:
    import luma.core.interface.serial
    from luma.core.error import DeviceNotFoundError

    buses: list[SilentBus] = []

    class SilentBus:
        def __init__(self, port: int, address: int) -> None:
            self.closed = False
            buses.append(self)

        def command(self, *cmd: int) -> None:
            raise DeviceNotFoundError("I2C device not found on address: 0x3C")

        def cleanup(self) -> None:
            self.closed = True

    monkeypatch.setattr(luma.core.interface.serial, "i2c", SilentBus)
    with pytest.raises(OSError, match="0x3C"):
        Oled.open("sh1106", port=1, address=0x3C)
    assert len(buses) == 1 and buses[0].closed


class SmbusOnWire:
    """``smbus2.SMBus`` as luma opens it on a Pi, with a modelled controller behind it: the
    calls each frame makes into the kernel."""

    def __init__(self, wire: OledWire) -> None:
        self.wire = wire
        self.calls: list[str] = []

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        assert address == self.wire.address
        self.calls.append("block")
        if register == 0x00:
            self.wire.command(*data)
        else:
            self.wire.data(data)

    def i2c_rdwr(self, *messages: Any) -> None:
        assert all(message.addr == self.wire.address for message in messages)
        self.calls.append(f"{len(messages)} messages")
        self.wire.write_messages([bytes(message) for message in messages])

    def close(self) -> None:
        self.wire.cleanup()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_frame_reaches_a_real_oled_in_one_call_to_the_kernel(
    driver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import smbus2

    wire = OledWire(Bus("i2c-1", 400_000, ManualClock()), driver)
    bus = SmbusOnWire(wire)
    monkeypatch.setattr(smbus2, "SMBus", lambda port: bus)
    oled = Oled.open(driver, port=1, address=0x3C)
    bus.calls.clear()  # luma's setup of the controller
    for show, image in [
        (lambda: oled.show_die(5), die_image(5)),
        (lambda: oled.show_text(["Ben wins"]), text_image(["Ben wins"])),
        (lambda: oled.show_text(["Ben wins!"]), text_image(["Ben wins!"])),
    ]:
        show()
        assert len(bus.calls) == 1 and bus.calls[0].endswith(" messages")
        assert wire.pages() == [page_bytes(image)[p * 128 : (p + 1) * 128] for p in range(8)]
        bus.calls.clear()
    wire.unplugged = True
    with pytest.raises(OSError):
        oled.show_die(2)
    wire.unplugged = False
    bus.calls.clear()
    sent = wire.data_bytes
    oled.show_die(2)  # the frame on the glass is unknown: all of it is sent again
    whole = "2 messages" if driver == "ssd1306" else "16 messages"  # one window, or 8 pages
    assert bus.calls == [whole] and wire.data_bytes - sent == 1024
    assert wire.pages() == [page_bytes(die_image(2))[p * 128 : (p + 1) * 128] for p in range(8)]
    oled.close()
    assert wire.closed
