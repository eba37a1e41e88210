"""What updating the output devices costs: LCD bus traffic, OLED frame drawing, LED strip encoding.

The LCD figures run RPLCD itself against the PCF8574 model, so the counts are the writes a real
backpack would receive; bus times come from the bus model at 100 kHz I2C
(``companion.devices.bus``), the controller's pauses included.
"""

from __future__ import annotations

from companion.benchmarks import Figure, rate
from companion.devices.bus import Bus, ManualClock
from companion.devices.hd44780 import Pcf8574Bus, rplcd_on
from companion.devices.lcd import CharacterLcd
from companion.devices.oled import Oled, die_image, text_image
from companion.devices.strip import encode_ws2812, spi_speed_hz

NAME = "outputs"

_I2C_HZ = 100_000

_SCORES = ["Jumpy Jack  race 3", "Anna   12  ♠ ***", "Ben    10  ♥ ***", "Chloé   8  ♦ ***"]
_UPDATED = ["Jumpy Jack  race 3", "Anna   14  ♠ ***", "Ben    10  ♥ ***", "Chloé   8  ♦ ***"]


def _lcd_figures() -> dict[str, Figure]:
    clock = ManualClock()
    wire = Bus("i2c-1", _I2C_HZ, clock)
    bus = Pcf8574Bus(0x27, 20, 4, wire=wire)
    with rplcd_on(bus):
        lcd = CharacterLcd.open(cols=20, rows=4)
        figures: dict[str, Figure] = {}
        for label, lines in (("full 20x4 screen", _SCORES), ("one score changed", _UPDATED)):
            writes, data, began = bus.writes, bus.lcd.data_bytes, clock.now()
            transactions = wire.transactions
            lcd.show(lines)
            bus_s = clock.now() - began
            figures[f"LCD {label}: characters sent"] = Figure(bus.lcd.data_bytes - data, "chars")
            figures[f"LCD {label}: expander writes"] = Figure(bus.writes - writes, "writes")
            figures[f"LCD {label}: I2C transactions"] = Figure(
                wire.transactions - transactions, "transactions"
            )
            figures[f"LCD {label}: est. bus time"] = Figure(bus_s * 1000, "ms")
    return figures


def run(quick: bool) -> dict[str, Figure]:
    """Measure each output's cost per update."""
    seconds = 0.2 if quick else 1.0
    figures = _lcd_figures()

    fake = CharacterLcd.fake()
    screens = [_SCORES, _UPDATED]
    flip = iter(range(10**9))
    figures["LCD update, Python side (fake controller)"] = Figure(
        1e6 / rate(lambda: fake.show(screens[next(flip) % 2]), seconds), "µs"
    )

    oled = Oled.dummy()
    faces = iter(range(10**9))
    figures["OLED die frame drawn and sent (dummy)"] = Figure(
        1000 / rate(lambda: oled.show_die(next(faces) % 6 + 1), seconds), "ms"
    )
    figures["OLED die frame drawn"] = Figure(1000 / rate(lambda: die_image(5), seconds), "ms")
    lines = ["Course hippique", "Q♠ 3:1  K♥ 5:1", "7♦ 2:1  A♣ 8:1", "Anna bets 20"]
    figures["OLED 4-line text frame drawn"] = Figure(
        1000 / rate(lambda: text_image(lines), seconds), "ms"
    )

    frame = [(255, 100, 0)] * 60
    data = encode_ws2812(frame)
    figures["SPI strip 60 LEDs: bytes per frame"] = Figure(len(data), "bytes")
    figures["SPI strip 60 LEDs: encode"] = Figure(
        1e6 / rate(lambda: encode_ws2812(frame), seconds), "µs"
    )
    figures["SPI strip 60 LEDs: time on the wire"] = Figure(
        len(data) * 8 / spi_speed_hz(3) * 1e6, "µs"
    )
    return figures
