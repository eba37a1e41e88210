"""The Pico's inputs: the card re-read window, button debouncing, the MFRC522 driver."""

from __future__ import annotations

from typing import Any

import pytest


def test_a_card_left_on_the_reader_is_reported_once(fw: Any) -> None:
    window = fw.cards.CardWindow(1500)
    reports = [window.read("04A1B2C3", now) for now in range(0, 5000, 60)]
    assert [r for r in reports if r] == ["04A1B2C3"]


def test_a_card_put_straight_back_is_not_reported_again_but_later_it_is(fw: Any) -> None:
    window = fw.cards.CardWindow(1500)
    assert window.read("AA000001", 0) == "AA000001"
    assert window.read(None, 500) is None
    assert window.read("AA000001", 1400) is None
    assert window.read("AA000001", 3000) == "AA000001"


def test_another_card_is_reported_at_once(fw: Any) -> None:
    window = fw.cards.CardWindow(1500)
    assert window.read("AA000001", 0) == "AA000001"
    assert window.read("BB000002", 60) == "BB000002"
    assert window.read("AA000001", 120) == "AA000001"


def test_a_zero_window_still_reports_a_held_card_once_per_gap(fw: Any) -> None:
    window = fw.cards.CardWindow(0)
    assert window.read("AA000001", 0) == "AA000001"
    assert window.read("AA000001", 0) is None
    assert window.read("AA000001", 1) == "AA000001"


def test_uids_are_upper_case_hex(fw: Any) -> None:
    assert fw.cards.uid_text(bytes([0x04, 0xA1, 0x0F])) == "04A10F"


def test_a_steady_press_is_reported_once_and_bounces_are_not(fw: Any) -> None:
    buttons = fw.buttons.Debouncer(["horse1", "horse2"], 30)
    presses = []
    levels = {0: [1, 0], 5: [0, 0], 10: [1, 0], 15: [0, 0]}
    for now in range(0, 200, 5):
        level = levels.get(now, [1, 0] if now >= 20 else [0, 0])
        presses += [(now, n) for n in buttons.update(level, now)]
    assert presses == [(50, "horse1")]


def test_release_rearms_a_button(fw: Any) -> None:
    buttons = fw.buttons.Debouncer(["undo"], 30)
    presses = []
    for now in range(0, 400, 5):
        pressed = 0 <= now < 100 or 200 <= now < 300
        presses += [now for _ in buttons.update([pressed], now)]
    assert presses == [30, 230]


class Pin:
    def __init__(self) -> None:
        self.levels: list[int] = []

    def value(self, level: int) -> None:
        self.levels.append(level)


def test_crc_a_matches_the_standard(fw: Any) -> None:
    assert fw.rc522.crc_a(bytes([0x50, 0x00])) == bytes([0x57, 0xCD])
    assert fw.rc522.crc_a(b"") == bytes([0x63, 0x63])


@pytest.mark.parametrize("uid", ["04A1B2C3", "04A1B2C3D4E5F6", "0102030405060708090A"])
def test_the_driver_reads_uids_of_every_length(fw: Any, chip: Any, make_tag: Any, uid: str) -> None:
    reader = fw.rc522.MFRC522(chip, Pin(), Pin())
    assert reader.init()
    assert chip.registers[0x14] & 0x03 == 0x03, "the antenna is on"
    assert reader.read_uid() is None
    chip.tags.append(make_tag(uid))
    assert reader.read_uid() == bytes.fromhex(uid)
    assert chip.tags[0].state == "halt"
    assert reader.read_uid() == bytes.fromhex(uid), "a halted tag is woken again"


def test_two_tags_at_once_read_as_none(fw: Any, chip: Any, make_tag: Any) -> None:
    reader = fw.rc522.MFRC522(chip, Pin())
    assert reader.init()
    chip.tags += [make_tag("04A1B2C3"), make_tag("0BADCAFE")]
    assert reader.read_uid() is None


def test_no_chip_on_the_bus_is_detected(fw: Any, chip: Any) -> None:
    chip.registers[0x37] = 0x00
    assert not fw.rc522.MFRC522(chip, Pin()).init()
