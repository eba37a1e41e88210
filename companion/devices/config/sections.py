"""The configuration's sections as frozen values, its constants and its error."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: The ``source`` of a configuration that was not read from a file.
BUILT_IN = "<built-in defaults>"

PIN_FACTORIES = ("lgpio", "rpigpio", "mock")
OLED_DRIVERS = ("ssd1306", "sh1106")
LCD_EXPANDERS = ("PCF8574", "MCP23008", "MCP23017")
#: The HD44780's character ROMs: A00 (Japanese, on most backpack modules), A02 (European).
LCD_ROMS = ("A00", "A02")
STRIP_BACKENDS = ("pico", "spi")
READER_KINDS = ("evdev", "rdm6300", "lines", "mfrc522", "pico")
#: How the die is rolled: the die button draws a face, or the table rolls a real die.
DIE_MODES = ("electronic", "manual")
#: The Pi's own UART on the header (GPIO14 TXD, GPIO15 RXD), under its usual names.
PI_UARTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
#: The GPIO numbers of the 40-pin header (BCM).
GPIO_RANGE = (0, 27)
#: 7-bit I2C addresses a device may use (the others are reserved by the I2C standard).
I2C_ADDRESSES = (0x03, 0x77)
#: I2C bus speeds the companion accepts (Hz); Raspberry Pi OS runs its buses at 100 kHz.
I2C_SPEEDS = (10_000, 1_000_000)
DEFAULT_I2C_HZ = 100_000

#: BCM number → physical pin of the 40-pin header.
HEADER_PIN = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23,
    12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40,
    22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip

#: The pins each bus takes on the header, signal by signal.
#: Bus 4 is the Pi 4's second I2C bus on GPIO8/9 (`dtoverlay=i2c4,pins_8_9`), for the OLED.
I2C_PINS = {0: {"SDA": 0, "SCL": 1}, 1: {"SDA": 2, "SCL": 3}, 4: {"SDA": 8, "SCL": 9}}
SPI_PINS = {
    0: {"CE1": 7, "CE0": 8, "MISO": 9, "MOSI": 10, "SCLK": 11},
    1: {"CE2": 16, "CE1": 17, "CE0": 18, "MISO": 19, "MOSI": 20, "SCLK": 21},
}
UART_PINS = {"TXD": 14, "RXD": 15}
#: The reset line the `mfrc522` library drives (header pin 22).
MFRC522_RST = 25

#: The Pico of the default build (every Pico has its own serial number: use yours).
DEFAULT_PICO_PORT = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614103e7000000-if00"


@dataclass(frozen=True)
class CompanionSection:
    """[companion]: where state lives, the players offered in menus, the table's language.

    ``language`` is ``fr``, ``en`` or ``de``; empty when the file does not say (the system's
    locale then chooses, else English).
    """

    state_dir: Path = Path("/var/lib/companion")
    players: tuple[str, ...] = ()
    language: str = ""


@dataclass(frozen=True)
class GpioSection:
    """[gpio]: the gpiozero pin factory that drives every GPIO device."""

    pin_factory: str = "lgpio"


@dataclass(frozen=True)
class DieSection:
    """[die]: the die button; ``mode`` "manual" when the table rolls a real die and keys it."""

    pin: int = 17
    debounce_ms: int = 30
    roll_ms: int = 600
    mode: str = "electronic"


@dataclass(frozen=True)
class HorseButtonsSection:
    """[horse_buttons]: one button per horse, horse1 first."""

    pins: tuple[int, ...] = (5, 6, 13, 19, 26)
    debounce_ms: int = 30


@dataclass(frozen=True)
class EncoderSection:
    """[encoder]: a KY-040 style rotary encoder (A = CLK, B = DT) and its push switch."""

    a: int = 22
    b: int = 23
    push: int = 27
    steps_per_detent: int = 4
    debounce_ms: int = 30


@dataclass(frozen=True)
class UndoSection:
    """[undo]: the undo button, held ``hold_s`` seconds to confirm."""

    pin: int = 24
    hold_s: float = 1.0
    debounce_ms: int = 30


@dataclass(frozen=True)
class BuzzerSection:
    """[buzzer]: a piezo buzzer."""

    pin: int = 18


@dataclass(frozen=True)
class OledSection:
    """[oled]: a 128x64 OLED on I2C."""

    driver: str = "ssd1306"
    port: int = 1
    address: int = 0x3C
    rotate: int = 0
    #: The speed of the OLED's bus (every device on one bus shares it).
    i2c_hz: int = DEFAULT_I2C_HZ


@dataclass(frozen=True)
class LcdSection:
    """[lcd]: an HD44780 character LCD on an I2C backpack."""

    expander: str = "PCF8574"
    port: int = 1
    address: int = 0x27
    cols: int = 20
    rows: int = 4
    #: The speed of the LCD's bus; a PCF8574 backpack is specified for 100 kHz.
    i2c_hz: int = DEFAULT_I2C_HZ
    #: The controller's character ROM (its part number ends in it: HD44780UA00, ...A02).
    rom: str = "A00"


@dataclass(frozen=True)
class PicoSection:
    """[pico]: the Raspberry Pi Pico on USB serial (LED strip, card reader, spare buttons)."""

    port: str = DEFAULT_PICO_PORT
    baudrate: int = 115200


@dataclass(frozen=True)
class StripSection:
    """[strip]: the LED strip along the track."""

    backend: str = "pico"
    count: int = 60
    brightness: float = 0.25
    spi_bus: int = 0
    spi_device: int = 0


@dataclass(frozen=True)
class ReaderSection:
    """[reader]: the card reader; ``baudrate`` None means the kind's usual speed."""

    kind: str = "pico"
    device: str = ""
    repeat_window_s: float = 1.5
    cards_file: Path = Path("/var/lib/companion/cards.toml")
    baudrate: int | None = None

    @property
    def serial_baudrate(self) -> int:
        """The speed of a serial reader: the configured one, else 9600 (RDM6300) or 115200."""
        if self.baudrate is not None:
            return self.baudrate
        return 9600 if self.kind == "rdm6300" else 115200


@dataclass(frozen=True)
class WebSection:
    """[web]: the phone and scoreboard pages served on the local network (on by default).

    ``names`` are the host names the pages answer to besides the Pi's own addresses,
    ``localhost`` and ``<hostname>.local`` (a name given to the Pi by the router's DNS, say).
    """

    enabled: bool = True
    bind: str = "0.0.0.0"
    port: int = 8080
    names: tuple[str, ...] = ()


#: A club's, a table's or a league's name: a topic level of letters, digits, - and _.
CLUB_NAME_RE = r"[A-Za-z0-9_-]{1,32}"
#: The user names of the broker that are not tables: the league's and Home Assistant's.
RESERVED_TABLES = ("league", "homeassistant")


@dataclass(frozen=True)
class Broker:
    """How to reach the club's MQTT broker and log in to it.

    ``ca_file`` is the certificate authority that signed the broker's certificate when
    ``tls`` is on (None: the system's authorities).
    """

    host: str = "localhost"
    port: int = 1883
    tls: bool = False
    ca_file: Path | None = None
    username: str = ""
    password: str = field(default="", repr=False)


@dataclass(frozen=True)
class ClubSection:
    """[club]: publish the table's board and finished games to the club's MQTT broker.

    Absent by default: the table then publishes nothing.
    """

    club: str
    table: str
    broker: Broker = field(default_factory=Broker)
    home_assistant: bool = False


@dataclass(frozen=True)
class LeagueSection:
    """[league]: the club's league service: its broker, its database, its page.

    The board listens on this machine only (``bind``) unless told otherwise; ``names`` are
    the host names it answers to besides this machine's addresses and ``localhost``.
    ``max_results`` is how many new results one table may add in a row (it gets one more
    a minute); a table past it has the next ones refused, with the reason.
    """

    club: str
    broker: Broker = field(default_factory=Broker)
    database: Path = Path("/var/lib/companion-league/league.sqlite3")
    bind: str = "127.0.0.1"
    page_port: int = 8090
    names: tuple[str, ...] = ()
    max_results: int = 1000


@dataclass(frozen=True)
class Config:
    """A whole configuration; a device section that is None means that device is absent."""

    source: str = BUILT_IN
    companion: CompanionSection = field(default_factory=CompanionSection)
    gpio: GpioSection = field(default_factory=GpioSection)
    die: DieSection | None = None
    horse_buttons: HorseButtonsSection | None = None
    encoder: EncoderSection | None = None
    undo: UndoSection | None = None
    buzzer: BuzzerSection | None = None
    oled: OledSection | None = None
    lcd: LcdSection | None = None
    pico: PicoSection | None = None
    strip: StripSection | None = None
    reader: ReaderSection | None = None
    web: WebSection = field(default_factory=WebSection)
    club: ClubSection | None = None
    league: LeagueSection | None = None


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def die_mode(config: Config) -> str:
    """How the table rolls: the [die] section's mode; with no die button, a real die keyed in."""
    return config.die.mode if config.die is not None else "manual"


def card_mode(config: Config) -> str:
    """How cards come in: "reader" with a [reader] section, else "dial" (knob and buttons)."""
    return "reader" if config.reader is not None else "dial"


@dataclass(frozen=True)
class ConfigProblem:
    """One thing wrong with a configuration file: where, which key, and why."""

    file: str
    key: str
    reason: str

    def __post_init__(self) -> None:
        # What a file says is quoted back, but never at any length: a key or value of
        # megabytes is cut, so the message stays readable.
        object.__setattr__(self, "key", _cut(self.key, 60))
        object.__setattr__(self, "reason", _cut(self.reason, 400))

    def __str__(self) -> str:
        return (
            f"{self.file}: {self.key}: {self.reason}" if self.key else f"{self.file}: {self.reason}"
        )


class ConfigError(ValueError):
    """A configuration file the companion cannot start with; lists every problem found.

    ``file``, ``key`` and ``reason`` are those of the first problem.
    """

    def __init__(self, problems: Sequence[ConfigProblem]) -> None:
        if not problems:
            raise ValueError("a ConfigError needs at least one problem")
        self.problems = tuple(problems)
        first = self.problems[0]
        self.file, self.key, self.reason = first.file, first.key, first.reason
        super().__init__("\n".join(str(p) for p in self.problems))


def default_config() -> Config:
    """Return the configuration of the default build: every device, on its default pins."""
    return Config(
        die=DieSection(),
        horse_buttons=HorseButtonsSection(),
        encoder=EncoderSection(),
        undo=UndoSection(),
        buzzer=BuzzerSection(),
        oled=OledSection(),
        lcd=LcdSection(),
        pico=PicoSection(),
        strip=StripSection(),
        reader=ReaderSection(),
    )
