"""The wiring a configuration implies: every wire and bus address, device by device."""

from __future__ import annotations

from dataclasses import dataclass

from companion.devices.config.sections import (
    HEADER_PIN,
    I2C_PINS,
    MFRC522_RST,
    PI_UARTS,
    SPI_PINS,
    UART_PINS,
    Config,
    ReaderSection,
)


@dataclass(frozen=True)
class Wire:
    """One wire (or bus address) the configuration implies."""

    device: str
    signal: str
    where: str
    gpio: int | None = None


def gpio_name(pin: int) -> str:
    """Name a BCM pin with its place on the header: ``GPIO17 (pin 11)``."""
    return f"GPIO{pin} (pin {HEADER_PIN[pin]})"


def wiring(config: Config) -> list[Wire]:
    """List every connection the configuration implies, device by device."""
    out: list[Wire] = []

    def gpio(device: str, signal: str, pin: int, note: str = "") -> None:
        out.append(Wire(device, signal, gpio_name(pin) + note, pin))

    if config.die is not None:
        gpio("die", "button", config.die.pin, ", other side to GND")
    if config.horse_buttons is not None:
        for number, pin in enumerate(config.horse_buttons.pins, start=1):
            gpio("horse buttons", f"horse{number}", pin, ", other side to GND")
    if config.encoder is not None:
        gpio("encoder", "CLK (A)", config.encoder.a)
        gpio("encoder", "DT (B)", config.encoder.b)
        gpio("encoder", "SW (push)", config.encoder.push)
        out.append(Wire("encoder", "+ and GND", "3.3 V and GND (never 5 V)"))
    if config.undo is not None:
        gpio("undo", "button", config.undo.pin, ", other side to GND")
    if config.buzzer is not None:
        gpio("buzzer", "+", config.buzzer.pin, ", - to GND")
    for name, i2c in (("oled", config.oled), ("lcd", config.lcd)):
        if i2c is None:
            continue
        pins = I2C_PINS.get(i2c.port)
        if pins is None:
            out.append(Wire(name, "SDA, SCL", f"I2C bus {i2c.port} (pins set by its overlay)"))
        else:
            for signal, pin in pins.items():
                gpio(name, signal, pin, f", I2C bus {i2c.port}")
        out.append(Wire(name, "address", f"0x{i2c.address:02X} on I2C bus {i2c.port}"))
    if config.pico is not None:
        out.append(Wire("pico", "USB", f"{config.pico.port} at {config.pico.baudrate} baud"))
    strip = config.strip
    if strip is not None and strip.backend == "pico":
        out.append(Wire("strip", "DIN", "the Pico's GP2 through a 74AHCT125 to 5 V"))
    elif strip is not None:
        mosi = SPI_PINS.get(strip.spi_bus, {}).get("MOSI")
        if mosi is None:
            out.append(Wire("strip", "DIN", f"SPI{strip.spi_bus} MOSI through a 74AHCT125"))
        else:
            gpio("strip", "DIN", mosi, f", SPI{strip.spi_bus} MOSI through a 74AHCT125 to 5 V")
    if strip is not None:
        out.append(Wire("strip", "LEDs", f"{strip.count}, brightness {strip.brightness:g}"))
    reader = config.reader
    if reader is not None:
        out.extend(_reader_wiring(reader))
    return out


def _reader_wiring(reader: ReaderSection) -> list[Wire]:
    if reader.kind == "pico":
        return [Wire("reader", "MFRC522", "on the Pico: SPI0 GP16-GP19, RST GP20")]
    if reader.kind == "evdev":
        return [Wire("reader", "USB", reader.device)]
    if reader.kind == "mfrc522":
        out = [
            Wire("reader", signal, gpio_name(pin), pin)
            for signal, pin in sorted(SPI_PINS[0].items(), key=lambda item: item[1])
            if signal != "CE1"
        ]
        out.append(Wire("reader", "RST", gpio_name(MFRC522_RST), MFRC522_RST))
        return out
    where = f"{reader.device} at {reader.serial_baudrate} baud"
    if reader.device in PI_UARTS:
        rx = UART_PINS["RXD"]
        note = "through a divider to 3.3 V" if reader.kind == "rdm6300" else "3.3 V logic only"
        return [Wire("reader", "TX", f"{gpio_name(rx)} RXD {note}, {where}", rx)]
    return [Wire("reader", "serial", where)]
