"""Open the devices a configuration names — real ones, or their fakes for the simulator."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.daemon.outputs import Panel
from companion.devices.base import (
    Buzzer,
    EventSink,
    InputDevice,
    LedStrip,
    PixelDisplay,
    TextDisplay,
)
from companion.devices.buzzer import GpioBuzzer, MemoryBuzzer
from companion.devices.config import Config
from companion.devices.gpio import ControlPanel
from companion.devices.lcd import CharacterLcd
from companion.devices.oled import Oled
from companion.devices.readers import FakeCardReader, reader_from_config
from companion.devices.readers.base import Lookup
from companion.devices.resilience import (
    Resilient,
    ResilientBuzzer,
    ResilientLedStrip,
    ResilientPixelDisplay,
    ResilientTextDisplay,
)
from companion.devices.simulated import SimulatedControls
from companion.devices.strip import MemoryStrip, SpiStrip

log = logging.getLogger("companion.rig")


@dataclass
class Simulation:
    """Handles on the fakes: drive the controls, lay cards, read what the displays show."""

    controls: SimulatedControls
    cards: FakeCardReader
    lcd: CharacterLcd | None
    oled: Oled | None
    strip: MemoryStrip | None
    buzzer: MemoryBuzzer | None

    def scan(self, card: str) -> None:
        """Lay a card on the reader as if its enrolled tag were read."""
        self.cards.present(simulated_uid(card))


@dataclass
class Rig:
    """Everything opened for one run: inputs, the output panel, and what needs upkeep."""

    inputs: list[InputDevice]
    panel: Panel
    guards: list[Resilient[Any]] = field(default_factory=list)
    simulation: Simulation | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        """Release whatever the inputs and the panel do not release themselves."""
        for close in self.closers:
            try:
                close()
            except Exception:
                log.exception("closing a device failed")


SIMULATED_TAG = "5E"


def simulated_uid(card: str) -> str:
    """The tag UID the simulator's reader reports for a card name (reversible)."""
    return SIMULATED_TAG + card.encode().hex().upper()


def simulated_lookup(uid: str) -> str | None:
    """Name the card behind a simulated tag; None for any other tag."""
    if not uid.startswith(SIMULATED_TAG):
        return None
    try:
        return bytes.fromhex(uid[len(SIMULATED_TAG) :]).decode()
    except ValueError:
        return None


def simulated_rig(config: Config) -> Rig:
    """Build the fakes the simulator and the end-to-end tests drive: same classes, mock pins."""
    controls = SimulatedControls(config)
    inputs: list[InputDevice] = [ControlPanel.from_config(config, pin_factory=controls.factory)]
    cards = FakeCardReader(
        lookup=simulated_lookup,
        repeat_window_s=config.reader.repeat_window_s if config.reader else 1.5,
        name="reader",
    )
    inputs.append(cards)
    lcd = CharacterLcd.fake(config.lcd.cols, config.lcd.rows) if config.lcd else None
    oled = Oled.dummy() if config.oled else None
    strip = MemoryStrip(config.strip.count, config.strip.brightness) if config.strip else None
    buzzer = MemoryBuzzer() if config.buzzer else None
    sim = Simulation(controls, cards, lcd, oled, strip, buzzer)
    return Rig(inputs, Panel(lcd=lcd, oled=oled, strip=strip, buzzer=buzzer), simulation=sim)


def hardware_rig(config: Config, report: EventSink, lookup: Lookup | None) -> Rig:
    """Open the real devices; a display or strip that is missing now is retried later."""
    inputs: list[InputDevice] = [ControlPanel.from_config(config)]
    guards: list[Resilient[Any]] = []
    panel = Panel()
    if (lcd := config.lcd) is not None:
        guard_lcd: Resilient[TextDisplay] = Resilient(
            "LCD",
            lambda: CharacterLcd.open(lcd.expander, lcd.port, lcd.address, lcd.cols, lcd.rows),
            report=report,
        )
        guards.append(guard_lcd)
        panel.lcd = ResilientTextDisplay(guard_lcd, lcd.cols, lcd.rows)
    if (oled := config.oled) is not None:
        guard_oled: Resilient[PixelDisplay] = Resilient(
            "OLED", lambda: Oled.open(oled.driver, oled.port, oled.address, oled.rotate),
            report=report,
        )  # fmt: skip
        guards.append(guard_oled)
        panel.oled = ResilientPixelDisplay(guard_oled)
    if (strip := config.strip) is not None and strip.backend == "spi":
        guard_strip: Resilient[LedStrip] = Resilient(
            "LED strip",
            lambda: SpiStrip.open(strip.count, strip.spi_bus, strip.spi_device, strip.brightness),
            report=report,
        )
        guards.append(guard_strip)
        panel.strip = ResilientLedStrip(guard_strip, strip.count)
    if (buzzer := config.buzzer) is not None:
        guard_buzzer: Resilient[Buzzer] = Resilient(
            "buzzer", lambda: GpioBuzzer(buzzer.pin), report=report
        )
        guards.append(guard_buzzer)
        panel.buzzer = ResilientBuzzer(guard_buzzer)
    if config.reader is not None:
        reader = reader_from_config(config.reader, lookup=lookup)
        if reader is not None:
            inputs.append(reader)
    panel.guards = guards
    return Rig(inputs, panel, guards)
