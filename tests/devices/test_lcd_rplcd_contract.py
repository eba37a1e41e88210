"""The real RPLCD adapter against a fake I2C bus that decodes the PCF8574 stream into an HD44780."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.devices.bus import Bus, ManualClock, i2c_bits
from companion.devices.hd44780 import Pcf8574Bus, row_offsets
from companion.devices.lcd import CharacterLcd, RplcdPort, Run


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pcf8574Bus]:
    import RPLCD.common
    import RPLCD.i2c

    fake = Pcf8574Bus(address=0x27, cols=20, rows=4)
    opened: list[int] = []

    def smbus(port: int) -> Pcf8574Bus:
        opened.append(port)
        return fake

    monkeypatch.setattr(RPLCD.i2c, "SMBus", smbus)
    monkeypatch.setattr(RPLCD.common, "usleep", lambda us: None)
    monkeypatch.setattr(RPLCD.common, "msleep", lambda ms: None)
    yield fake
    assert opened and set(opened) == {1}


def test_rows_written_through_rplcd_read_back_from_the_controller(bus: Pcf8574Bus) -> None:
    lcd = CharacterLcd.open("PCF8574", port=1, address=0x27, cols=20, rows=4)
    lcd.show(["Jumpy Jack", "Anna  ♠ 12 pts", "Ben   ♥ 10 pts", "Chloé ♦♣ ***"])
    assert bus.lcd.lines() == [
        "Jumpy Jack          ",
        "Anna  ♠ 12 pts      ",
        "Ben   ♥ 10 pts      ",
        "Chloé ♦♣ ***        ",
    ]
    assert bus.backlight
    assert bus.lcd.two_line and not bus.lcd.eight_bit


def test_an_update_through_rplcd_sends_only_the_changed_cells(bus: Pcf8574Bus) -> None:
    lcd = CharacterLcd.open(cols=20, rows=4)
    lcd.show(["Anna   120", "Ben     80", "", "turn: Ben"])
    data_before, writes_before = bus.lcd.data_bytes, bus.writes
    lcd.show(["Anna   120", "Ben     95", "", "turn: Bob"])
    assert bus.lcd.lines()[1].startswith("Ben     95")
    assert bus.lcd.lines()[3].startswith("turn: Bob ")
    # "80" -> "95" and "en" -> "ob": four cells and two cursor moves; every controller byte
    # is two nibbles of three expander writes each (data, E high, E low).
    assert bus.lcd.data_bytes - data_before == 4
    assert bus.writes - writes_before == 6 * (4 + 2)


def test_a_missing_backpack_raises_oserror_and_leaves_no_bus_open(bus: Pcf8574Bus) -> None:
    with pytest.raises(OSError):
        CharacterLcd.open(address=0x3F)
    assert bus.closed


def test_close_clears_the_screen_and_closes_the_bus(bus: Pcf8574Bus) -> None:
    port = RplcdPort(cols=20, rows=4)
    lcd = CharacterLcd(port)
    lcd.show(["bye"])
    lcd.close()
    assert bus.closed
    assert bus.lcd.lines() == [" " * 20] * 4


def test_a_16x2_display_through_rplcd(monkeypatch: pytest.MonkeyPatch) -> None:
    import RPLCD.common
    import RPLCD.i2c

    fake = Pcf8574Bus(address=0x27, cols=16, rows=2)
    monkeypatch.setattr(RPLCD.i2c, "SMBus", lambda port: fake)
    monkeypatch.setattr(RPLCD.common, "usleep", lambda us: None)
    monkeypatch.setattr(RPLCD.common, "msleep", lambda ms: None)
    lcd = CharacterLcd.open(cols=16, rows=2)
    lcd.show(["Jockey  ♣ 80", "credit  1000"])
    assert fake.lcd.lines() == ["Jockey  ♣ 80    ", "credit  1000    "]


class Calls:
    """Records each ``i2c_rdwr`` call a bus gets: the DDRAM address each message moves to."""

    def __init__(self, bus: Pcf8574Bus) -> None:
        self.calls: list[list[int]] = []
        self._inner = bus.i2c_rdwr
        bus.i2c_rdwr = self  # type: ignore[method-assign]

    def __call__(self, *messages: Any) -> None:
        # A message's first instruction nibbles sit in the high bits of its bytes 0 and 3.
        self.calls.append([(bytes(m)[0] & 0xF0 | bytes(m)[3] >> 4) & 0x7F for m in messages])
        self._inner(*messages)


def test_a_screen_of_several_runs_goes_in_one_i2c_call_its_chosen_row_first(
    bus: Pcf8574Bus,
) -> None:
    bus.wire = Bus("i2c-1", 100_000, ManualClock())
    lcd = CharacterLcd.open(cols=20, rows=4)
    lcd.show(["Race 1/3", "Anna   12", "Ben    10", "turn: Anna"])
    calls, wire = Calls(bus), bus.wire
    transactions, bits = wire.transactions, wire.bits
    lcd.show(["Race 2/3", "Anna   14", "Ben    10", "turn: Ben"], first=3)
    # Three runs ("1" -> "2", "2" -> "4", "Anna" -> "Ben "), row 3 first: one call, one
    # message (one transaction on the wire) per row, here one run each: a cursor move and its
    # characters.
    offsets = row_offsets(20)
    assert calls.calls == [[offsets[3] + 6, offsets[0] + 5, offsets[1] + 8]]
    assert wire.transactions - transactions == 3
    assert wire.bits - bits == sum(i2c_bits(6 * (1 + cells)) for cells in (4, 1, 1))
    assert bus.lcd.lines() == [
        "Race 2/3".ljust(20),
        "Anna   14".ljust(20),
        "Ben    10".ljust(20),
        "turn: Ben".ljust(20),
    ]


def test_the_runs_of_a_row_go_as_one_i2c_transaction(bus: Pcf8574Bus) -> None:
    bus.wire = Bus("i2c-1", 100_000, ManualClock())
    port = RplcdPort(cols=20, rows=4)
    calls, wire = Calls(bus), bus.wire
    port.write_runs([Run(row, col, b"x") for row in range(4) for col in range(0, 20, 2)])
    transactions, bits = wire.transactions, wire.bits
    port.write_runs([Run(row, col, b"o") for row in range(4) for col in range(1, 20, 2)])
    # Ten runs a row, each a cursor move and one character: one message (one transaction)
    # a row, all four rows in one call.
    assert [len(call) for call in calls.calls] == [4, 4]
    assert wire.transactions - transactions == 4
    assert wire.bits - bits == 4 * i2c_bits(10 * 6 * 2)
    assert bus.lcd.lines() == ["xo" * 10] * 4
