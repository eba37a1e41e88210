"""Open the devices a configuration names — real ones, or their fakes for the simulator."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.daemon.flows.cards import JOCKEY_PREFIX, jockey_number, playing_card
from companion.daemon.outputs import Panel
from companion.devices.base import (
    RGB,
    Buzzer,
    EventSink,
    InputDevice,
    LedStrip,
    PixelDisplay,
    TextDisplay,
)
from companion.devices.buzzer import GpioBuzzer, MemoryBuzzer
from companion.devices.cards_file import DECKS
from companion.devices.config import Config
from companion.devices.fake_pico import FakePico
from companion.devices.gpio import ControlPanel, GpioUnavailable
from companion.devices.lcd import CharacterLcd
from companion.devices.pico import PicoButtons, PicoCardReader, PicoLink, PicoStrip
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
from companion.games.jockey import Deck, default_deck
from companion.session.session import Session

if TYPE_CHECKING:
    from companion.devices.config.sections import OledSection
    from companion.devices.oled import Oled

log = logging.getLogger("companion.rig")


class DeviceUnavailable(Exception):
    """A device the table cannot play without (the GPIO's buttons) cannot be opened.

    The other devices are retried while the table plays; this one stops the start.
    """


@dataclass(frozen=True)
class JockeyRace:
    """What naming a Jockey card by its label needs: the deck in play, the cards played."""

    deck: Deck = field(default_factory=default_deck)
    #: Engine ids of the cards on this race's played pile.
    played: frozenset[str] = frozenset()

    @classmethod
    def of(cls, session: Session) -> JockeyRace:
        """The Jockey race in progress in ``session`` (the default deck when there is none)."""
        from companion.games.jockey import JockeyBoard, JockeyOptions  # loaded once played

        table = session.table
        board = session.view().board
        if table is None or not isinstance(board, JockeyBoard):  # a game without Jockey cards
            return cls()
        deck = JockeyOptions.from_data(table.start.options).deck
        return cls(deck, frozenset(board.pile))


@dataclass
class Simulation:
    """Handles on the fakes: drive the controls, lay cards, read what the displays show.

    With a fake Pico (``pico``), the LED strip and the card reader go through the real
    serial protocol on a pseudo-terminal; without one, through in-memory fakes.
    """

    controls: SimulatedControls
    lcd: CharacterLcd | None
    oled: Oled | None
    buzzer: MemoryBuzzer | None
    strip: MemoryStrip | None = None
    cards: FakeCardReader | None = None
    pico: FakePico | None = None
    #: Reads the Jockey race in progress, for a card typed by its label (set by the app).
    jockey: Callable[[], JockeyRace] = JockeyRace

    def scan(self, card: str) -> None:
        """Lay a card on the reader as if its enrolled tag were read."""
        uid = simulated_uid(card, self.jockey)
        if self.pico is not None:
            self.pico.scan(uid)
        elif self.cards is not None:
            self.cards.present(uid)

    def leds(self) -> list[RGB]:
        """The colours the LED strip shows now."""
        if self.pico is not None:
            return list(self.pico.shown)
        return list(self.strip.leds) if self.strip is not None else []


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


#: Simulated tags: this prefix and the card's number in the simulator's catalogue (4 bytes).
SIMULATED_TAG = "5E5E"
#: The tag of a card nobody enrolled (what the simulator reads for a name it does not know).
UNKNOWN_TAG = "DEADBEEF"
#: Every card the simulator can lay on its reader: the playing cards, then the Jockey cards.
CATALOGUE: tuple[str, ...] = tuple(c.name for deck in DECKS.values() for c in deck)


#: Where each catalogued card stands in the catalogue (its simulated tag's number).
_NUMBER: dict[str, int] = {name: number for number, name in enumerate(CATALOGUE)}


def card_name(typed: str, jockey: Callable[[], JockeyRace] = JockeyRace) -> str | None:
    """Return the name the reader reports for a typed card, or None if no deck has it.

    Playing cards as the table parses them ("qs", "10h", "7♥", "queen of spades") become
    their code ("QS"). A Jockey card is "jockey:12", "jockey 12" or "j12" (its number in
    ``companion cards labels``); its engine id, "jockey:red+7#2" or "red+7#2"; or its
    printed label, "red +7" or "red+7": the first copy not yet played this race (every
    copy played: the first). ``jockey()`` tells the deck in play and the cards played;
    it is called only for a name that is no playing card and no number. Both become
    "jockey:N", the number the deck in play gives that card.
    """
    text = typed.strip()
    if not text:
        return None
    code = playing_card(text)
    if code is not None:
        return code
    lower = text.lower()
    for prefix in (JOCKEY_PREFIX, "jockey", "j"):
        rest = text[len(prefix) :].strip()
        if lower.startswith(prefix) and rest.isdigit():
            name = f"{JOCKEY_PREFIX}{int(rest)}"
            return name if name in _NUMBER else None
    return _jockey_by_id_or_label(text, jockey)


def _squeezed(text: str) -> str:
    """``text`` in lower case without blanks: how ids and labels are compared."""
    return "".join(text.lower().split())


def _jockey_by_id_or_label(text: str, jockey: Callable[[], JockeyRace]) -> str | None:
    """Name the Jockey card an engine id or a printed label stands for, or None."""
    wanted = _squeezed(text)
    for prefix in (JOCKEY_PREFIX, "jockey"):
        wanted = wanted.removeprefix(prefix)
    if not wanted:
        return None
    race = jockey()
    by_id = race.deck.by_id.get(wanted)
    if by_id is not None:
        copies = [by_id]
    else:
        copies = [
            card
            for card in race.deck.cards
            if wanted in (_squeezed(card.label), card.id.partition("#")[0])
        ]
    if not copies:
        return None
    card = next((c for c in copies if c.id not in race.played), copies[0])
    number = jockey_number(card.id, race.deck)
    return f"{JOCKEY_PREFIX}{number}" if number is not None else None


def simulated_uid(card: str, jockey: Callable[[], JockeyRace] = JockeyRace) -> str:
    """The tag UID the simulator's reader reports for a card (an unknown tag for a bad name)."""
    number = _NUMBER.get(card_name(card, jockey) or "")
    if number is None:  # no card of either deck
        return UNKNOWN_TAG
    return f"{SIMULATED_TAG}{number:04X}"


def simulated_lookup(uid: str) -> str | None:
    """Name the card behind a simulated tag; None for any other tag."""
    if len(uid) != 8 or not uid.startswith(SIMULATED_TAG):
        return None
    number = int(uid[len(SIMULATED_TAG) :], 16)
    return CATALOGUE[number] if number < len(CATALOGUE) else None


def _dummy_oled() -> Oled:
    """An OLED in memory; its module (and PIL with it) is loaded only for a table that has one."""
    from companion.devices.oled import Oled

    return Oled.dummy()


def _open_oled(section: OledSection) -> Oled:
    """Open the OLED; its module (and PIL with it) is loaded only for a table that has one."""
    from companion.devices.oled import Oled

    return Oled.open(section.driver, section.port, section.address, section.rotate)


def simulated_rig(config: Config, report: EventSink) -> Rig:
    """Build the fakes the simulator and the end-to-end tests drive: same classes, mock pins.

    When the configuration has a Pico, a fake Pico on a pseudo-terminal, running the
    firmware's modules (the package's copy, or a source checkout's), carries the strip and
    the reader.
    """
    controls = SimulatedControls(config)
    panel_inputs = ControlPanel.from_config(
        config, pin_factory=controls.factory, roll=controls.roll
    )
    controls.watch(panel_inputs.is_down)
    inputs: list[InputDevice] = [panel_inputs]
    lcd = (
        CharacterLcd.fake(config.lcd.cols, config.lcd.rows, config.lcd.rom) if config.lcd else None
    )
    oled = _dummy_oled() if config.oled else None
    buzzer = MemoryBuzzer() if config.buzzer else None
    sim = Simulation(controls, lcd, oled, buzzer)
    panel = Panel(lcd=lcd, oled=oled, buzzer=buzzer, buses=bus_names(config))
    rig = Rig(inputs, panel, simulation=sim)
    window = config.reader.repeat_window_s if config.reader else 1.5
    if uses_pico(config):
        try:
            sim.pico = FakePico(leds=config.strip.count if config.strip else 60).plug()
        except FileNotFoundError as error:
            log.warning("no fake Pico (%s): LEDs kept in memory", error)
        else:
            rig.closers.append(sim.pico.close)
            _attach_pico(rig, config, sim.pico.path, report, simulated_lookup)
    if sim.pico is None:
        if config.strip is not None:
            sim.strip = MemoryStrip(config.strip.count, config.strip.brightness)
            panel.strip = sim.strip
        sim.cards = FakeCardReader(lookup=simulated_lookup, repeat_window_s=window, name="reader")
        inputs.append(sim.cards)
    return rig


def uses_pico(config: Config) -> bool:
    """Whether the configuration puts the strip or the card reader on the Pico."""
    on_pico = (config.strip is not None and config.strip.backend == "pico") or (
        config.reader is not None and config.reader.kind == "pico"
    )
    return on_pico and config.pico is not None


def _attach_pico(
    rig: Rig, config: Config, port: str, report: EventSink, lookup: Lookup | None
) -> None:
    """Open one link to the Pico and hang the strip, the reader and its buttons on it."""
    assert config.pico is not None
    link = PicoLink(port, config.pico.baudrate)
    link.add_sink(report)  # disconnects are reported even with only the strip on the Pico
    if config.strip is not None and config.strip.backend == "pico":
        rig.panel.strip = PicoStrip(link, config.strip.count, config.strip.brightness)
    if config.reader is not None and config.reader.kind == "pico":
        rig.inputs.append(
            PicoCardReader(link, lookup=lookup, repeat_window_s=config.reader.repeat_window_s)
        )
    rig.inputs.append(PicoButtons(link))
    rig.closers.append(link.close)


def bus_names(config: Config) -> dict[str, str]:
    """The bus each output is on: its frames go through that bus's writer thread."""
    buses = {"strip": config.strip.backend if config.strip is not None else "strip"}
    if config.lcd is not None:
        buses["lcd"] = f"i2c-{config.lcd.port}"
    if config.oled is not None:
        buses["oled"] = f"i2c-{config.oled.port}"
    return buses


def hardware_rig(config: Config, report: EventSink, lookup: Lookup | None) -> Rig:
    """Open the real devices; a display or strip that is missing now is retried later.

    Raises DeviceUnavailable, saying why in one sentence, when the GPIO cannot be opened.
    """
    try:
        inputs: list[InputDevice] = [ControlPanel.from_config(config)]
    except GpioUnavailable as error:
        raise DeviceUnavailable(str(error)) from error
    except Exception as error:  # gpiozero's and each backend's own errors for a pin
        raise DeviceUnavailable(f"the GPIO cannot be opened: {error}") from error
    guards: list[Resilient[Any]] = []
    panel = Panel()
    if (lcd := config.lcd) is not None:
        guard_lcd: Resilient[TextDisplay] = Resilient(
            "LCD",
            lambda: CharacterLcd.open(
                lcd.expander, lcd.port, lcd.address, lcd.cols, lcd.rows, lcd.rom
            ),
            report=report,
        )
        guards.append(guard_lcd)
        panel.lcd = ResilientTextDisplay(guard_lcd, lcd.cols, lcd.rows)
    if (oled := config.oled) is not None:
        guard_oled: Resilient[PixelDisplay] = Resilient(
            "OLED", lambda: _open_oled(oled),
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
    panel.buses = bus_names(config)
    rig = Rig(inputs, panel, guards)
    if uses_pico(config):
        assert config.pico is not None
        _attach_pico(rig, config, config.pico.port, report, lookup)
    return rig
