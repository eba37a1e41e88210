"""The real RPLCD adapter against a fake I2C bus that decodes the PCF8574 stream into an HD44780."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.devices.hd44780 import Pcf8574Bus
from companion.devices.lcd import CharacterLcd, RplcdPort


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
