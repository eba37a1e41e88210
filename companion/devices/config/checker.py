"""Read and check a configuration file: types, ranges, unknown keys, pins used twice."""

from __future__ import annotations

import difflib
import ipaddress
import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from companion.devices.config.sections import (
    CLUB_NAME_RE,
    DIE_MODES,
    GPIO_RANGE,
    I2C_ADDRESSES,
    I2C_PINS,
    I2C_SPEEDS,
    LCD_EXPANDERS,
    LCD_ROMS,
    MFRC522_RST,
    OLED_DRIVERS,
    PI_UARTS,
    PIN_FACTORIES,
    READER_KINDS,
    RESERVED_TABLES,
    SPI_PINS,
    STRIP_BACKENDS,
    UART_PINS,
    Broker,
    BuzzerSection,
    ClubSection,
    CompanionSection,
    Config,
    ConfigError,
    ConfigProblem,
    DieSection,
    EncoderSection,
    GpioSection,
    HorseButtonsSection,
    LcdSection,
    LeagueSection,
    OledSection,
    PicoSection,
    ReaderSection,
    StripSection,
    UndoSection,
    WebSection,
    default_config,
)
from companion.session.names import name_problem

#: Where the companion looks when no file is named and COMPANION_CONFIG is unset.
DEFAULT_PATH = Path("/etc/companion/companion.toml")
#: The environment variable that names another file.
ENV_VAR = "COMPANION_CONFIG"
#: The largest settings file read (a real one is a few KiB).
MAX_FILE_BYTES = 1024 * 1024


def config_path(path: str | os.PathLike[str] | None = None) -> tuple[Path, bool]:
    """Return the file to read and whether it was asked for (argument or COMPANION_CONFIG)."""
    if path is not None and str(path):
        return Path(path), True
    named = os.environ.get(ENV_VAR, "")
    if named:
        return Path(named), True
    return DEFAULT_PATH, False


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read and check the configuration file.

    ``path`` defaults to $COMPANION_CONFIG, then /etc/companion/companion.toml. When the
    default file does not exist the default build applies; a file that was named but is
    missing is an error. Raises ConfigError naming the file, the key and the reason.
    """
    file, named = config_path(path)
    try:
        text = read_text_file(file)
    except FileNotFoundError:
        if not named:
            return default_config()
        raise ConfigError([ConfigProblem(str(file), "", "no such file")]) from None
    return parse_config(text, str(file), base_dir=file.parent)


def read_text_file(file: Path) -> str:
    """Read a small UTF-8 settings file (a configuration, the enrolled cards).

    Reads at most MAX_FILE_BYTES, so that a device or a huge file cannot fill the memory.
    Raises FileNotFoundError, or ConfigError for anything else that keeps it from being read.
    """
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise ConfigError([ConfigProblem(str(file), "", f"cannot be read ({error})")]) from None
    if len(data) > MAX_FILE_BYTES:
        reason = f"is larger than {MAX_FILE_BYTES // 1024} KiB: not a settings file"
        raise ConfigError([ConfigProblem(str(file), "", reason)])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        reason = f"cannot be read (not UTF-8 text: {error.reason} at byte {error.start})"
        raise ConfigError([ConfigProblem(str(file), "", reason)]) from None


def read_toml(text: str, source: str) -> dict[str, object]:
    """Parse TOML text; raises ConfigError naming ``source`` when it is not valid TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError([ConfigProblem(source, "", f"not valid TOML ({error})")]) from None
    except RecursionError:
        reason = "not valid TOML (arrays or tables nested too deeply)"
        raise ConfigError([ConfigProblem(source, "", reason)]) from None


def parse_config(text: str, source: str = "companion.toml", base_dir: Path | None = None) -> Config:
    """Check the text of a configuration file; relative paths are taken from ``base_dir``.

    Raises ConfigError listing every problem (file, key, reason).
    """
    data = read_toml(text, source)
    return _Checker(source, base_dir or Path.cwd()).check(data)


T = TypeVar("T")
S = TypeVar("S")


def _is_int(value: object) -> bool:
    return type(value) is int


def _is_number(value: object) -> bool:
    return type(value) in (int, float)


def _hint(word: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


#: What is wrong with a list of players' names, by the name rule's code.
_NAME_PROBLEMS = {
    "same_name": "a name appears twice: {0!r} and {1!r} (case, spaces, invisible marks aside)",
    "mixed_scripts": "{0!r} mixes alphabets (such as a Cyrillic letter among Latin ones)",
    "bad_name": "{0!r} has nothing visible in it",
}

#: The languages the table speaks.
LANGUAGES = ("en", "fr", "de")
#: A host name the pages may answer to: DNS labels of letters, digits and hyphens.
_HOST_NAME = re.compile(r"(?i)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?")


class _Table:
    """Read the keys of one section, recording a problem for each bad or unknown key."""

    def __init__(self, checker: _Checker, name: str, data: Mapping[str, object]) -> None:
        self.checker = checker
        self.name = name
        self.data = data
        self.read: list[str] = []

    def key(self, key: str) -> str:
        return f"{self.name}.{key}"

    def problem(self, key: str, reason: str) -> None:
        self.checker.problem(self.key(key), reason)

    def _get(self, key: str, default: T, check: Callable[[object], T | None]) -> T:
        self.read.append(key)
        if key not in self.data:
            return default
        value = check(self.data[key])
        return default if value is None else value

    def integer(self, key: str, default: int, low: int, high: int, *, hexa: bool = False) -> int:
        def check(value: object) -> int | None:
            shown = (lambda n: f"0x{n:02X}") if hexa else str
            span = f"from {shown(low)} to {shown(high)}"
            if isinstance(value, str) and hexa:
                self.problem(key, f"write the address as a number, {value} without quotes")
                return None
            if not _is_int(value):
                self.problem(key, f"must be a whole number {span}, not {value!r}")
                return None
            assert isinstance(value, int)
            if not low <= value <= high:
                self.problem(key, f"must be {span}, not {shown(value)}")
                return None
            return value

        return self._get(key, default, check)

    def number(self, key: str, default: float, low: float, high: float) -> float:
        def check(value: object) -> float | None:
            if not _is_number(value):
                self.problem(key, f"must be a number from {low:g} to {high:g}, not {value!r}")
                return None
            assert isinstance(value, int | float)
            if not low <= value <= high:
                self.problem(key, f"must be from {low:g} to {high:g}, not {value:g}")
                return None
            return float(value)

        return self._get(key, default, check)

    def text(self, key: str, default: str, choices: Sequence[str] = ()) -> str:
        def check(value: object) -> str | None:
            if not isinstance(value, str):
                self.problem(key, f"must be a quoted string, not {value!r}")
                return None
            if choices and value not in choices:
                known = ", ".join(repr(c) for c in choices)
                self.problem(key, f"unknown value {value!r}{_hint(value, choices)}: use {known}")
                return None
            return value

        return self._get(key, default, check)

    def secret(self, key: str) -> str:
        """A password: text, never shown back (not even a mistyped one)."""

        def check(value: object) -> str | None:
            if not isinstance(value, str):
                self.problem(key, "must be a quoted string (what was written is not shown)")
                return None
            return value

        return self._get(key, "", check)

    def flag(self, key: str, default: bool) -> bool:
        def check(value: object) -> bool | None:
            if isinstance(value, bool):
                return value
            self.problem(key, f"must be true or false, not {value!r}")
            return None

        return self._get(key, default, check)

    def pin(self, key: str, default: int) -> int:
        return self.integer(key, default, *GPIO_RANGE)

    def path(self, key: str, default: Path) -> Path:
        def check(value: object) -> Path | None:
            if not isinstance(value, str) or not value.strip():
                self.problem(key, f"must be a path in quotes, not {value!r}")
                return None
            given = Path(value)
            return given if given.is_absolute() else self.checker.base_dir / given

        return self._get(key, default, check)

    def finish(self) -> None:
        """Record a problem for every key of the section that no setting read."""
        for key in self.data:
            if key not in self.read:
                known = ", ".join(self.read)
                self.problem(
                    key, f"unknown key{_hint(key, self.read)} (keys of [{self.name}]: {known})"
                )


@dataclass(frozen=True)
class _Claim:
    """A GPIO pin taken by a key (a pin setting, or a bus some device needs).

    Claims with the same ``bus`` share the pin (two devices on one I2C bus).
    """

    pin: int
    key: str
    what: str
    bus: str = ""


class _Checker:
    """Check a whole file: every section, then pins used twice and devices that clash."""

    SECTIONS = (
        "companion", "gpio", "die", "horse_buttons", "encoder", "undo", "buzzer",
        "oled", "lcd", "pico", "strip", "reader", "web", "club", "league",
    )  # fmt: skip

    def __init__(self, source: str, base_dir: Path) -> None:
        self.source = source
        self.base_dir = base_dir
        self.problems: list[ConfigProblem] = []

    def problem(self, key: str, reason: str) -> None:
        self.problems.append(ConfigProblem(self.source, key, reason))

    def check(self, data: Mapping[str, object]) -> Config:
        tables: dict[str, Mapping[str, object]] = {}
        for name, value in data.items():
            if name not in self.SECTIONS:
                known = ", ".join(self.SECTIONS)
                self.problem(name, f"unknown section{_hint(name, self.SECTIONS)} (known: {known})")
            elif not isinstance(value, dict):
                self.problem(name, f"must be a section: write [{name}] on a line of its own")
            else:
                tables[name] = value
        companion = self._companion(tables.get("companion", {}))

        def section(name: str, read: Callable[[_Table], S]) -> S | None:
            if name not in tables:
                return None
            table = _Table(self, name, tables[name])
            found = read(table)
            table.finish()
            return found

        config = Config(
            source=self.source,
            companion=companion,
            gpio=section("gpio", self._gpio) or GpioSection(),
            die=section("die", self._die),
            horse_buttons=section("horse_buttons", self._horse_buttons),
            encoder=section("encoder", self._encoder),
            undo=section("undo", self._undo),
            buzzer=section("buzzer", self._buzzer),
            oled=section("oled", self._oled),
            lcd=section("lcd", self._lcd),
            pico=section("pico", self._pico),
            strip=section("strip", self._strip),
            reader=section("reader", lambda t: self._reader(t, companion)),
            web=section("web", self._web) or WebSection(),
            club=section("club", self._club),
            league=section("league", self._league),
        )
        self._check_together(config)
        if self.problems:
            raise ConfigError(self.problems)
        return config

    # -- sections --

    def _companion(self, data: Mapping[str, object]) -> CompanionSection:
        table = _Table(self, "companion", data)
        default = CompanionSection()
        state_dir = table.path("state_dir", default.state_dir)
        players: tuple[str, ...] = ()
        table.read.append("players")
        if "players" in data:
            raw = data["players"]
            if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
                table.problem("players", 'must be a list of names in quotes: ["Anna", "Ben"]')
            else:
                names = tuple(p.strip() for p in raw)
                if len(names) > 10:
                    table.problem("players", f"at most 10 players, not {len(names)}")
                elif any(not n or len(n) > 20 for n in names):
                    table.problem("players", "every name needs 1 to 20 characters")
                elif (problem := name_problem(names)) is not None:
                    table.problem("players", _NAME_PROBLEMS[problem.code].format(*problem.names))
                else:
                    players = names
        language = ""
        table.read.append("language")
        if "language" in data:
            raw_language = data["language"]
            if raw_language not in LANGUAGES:
                table.problem("language", 'must be "fr", "en" or "de"')
            else:
                language = str(raw_language)
        table.finish()
        return CompanionSection(state_dir=state_dir, players=players, language=language)

    def _web(self, t: _Table) -> WebSection:
        d = WebSection()
        enabled = t.flag("enabled", d.enabled)
        bind = t.text("bind", d.bind)
        try:
            ipaddress.ip_address(bind)
        except ValueError:
            t.problem("bind", f"must be an IP address such as 0.0.0.0 or 127.0.0.1, not {bind!r}")
        port = t.integer("port", d.port, 0, 65535)
        names = self._host_names(t, "table.lan")
        return WebSection(enabled=enabled, bind=bind, port=port, names=names)

    def _host_names(self, t: _Table, example: str) -> tuple[str, ...]:
        """The ``names`` key of [web] and [league]: host names a page answers to."""
        t.read.append("names")
        if "names" not in t.data:
            return ()
        raw = t.data["names"]
        if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
            t.problem("names", f'must be a list of host names in quotes: ["{example}"]')
        elif bad := [n for n in raw if not _HOST_NAME.fullmatch(n)]:
            t.problem("names", f"{bad[0]!r} is not a host name such as {example}")
        else:
            return tuple(n.lower().rstrip(".") for n in raw)
        return ()

    def _name(self, t: _Table, key: str, default: str) -> str:
        name = t.text(key, default)
        if not re.fullmatch(CLUB_NAME_RE, name):
            t.problem(key, f"must be 1 to 32 letters, digits, - or _ (a topic level), not {name!r}")
        return name

    def _broker(self, t: _Table) -> Broker:
        """The keys [club] and [league] share: how to reach and log in to the broker."""
        host = t.text("host", "localhost")
        if not host.strip() or any(c.isspace() for c in host):
            t.problem("host", f"must be a host name or an IP address, not {host!r}")
        tls = t.flag("tls", False)
        ca_file = t.path("ca_file", Path()) if "ca_file" in t.data else None
        if ca_file is not None and not ca_file.is_file():
            t.problem("ca_file", f"no such file: {ca_file}")
        username = t.text("username", "")
        password = t.secret("password")
        if password and not username:
            t.problem("password", "a password needs a username")
        port = t.integer("port", 8883 if tls else 1883, 1, 65535)
        return Broker(host, port, tls, ca_file, username, password)

    def _club(self, t: _Table) -> ClubSection:
        club = self._name(t, "club", "club")
        table = self._name(t, "table", "table")
        if table in RESERVED_TABLES:
            t.problem(
                "table", f"{table} is a name the club's broker keeps: call the table otherwise"
            )
        if "table" not in t.data:
            t.problem("table", 'every table needs its own name: table = "table1"')
        broker = self._broker(t)
        assistant = t.flag("home_assistant", False)
        return ClubSection(club, table, broker, assistant)

    def _league(self, t: _Table) -> LeagueSection:
        d = LeagueSection(club="club")
        club = self._name(t, "club", d.club)
        broker = self._broker(t)
        database = t.path("database", d.database)
        bind = t.text("bind", d.bind)
        try:
            ipaddress.ip_address(bind)
        except ValueError:
            t.problem("bind", f"must be an IP address such as 0.0.0.0 or 127.0.0.1, not {bind!r}")
        page_port = t.integer("page_port", d.page_port, 0, 65535)
        names = self._host_names(t, "league.lan")
        max_results = t.integer("max_results", d.max_results, 1, 1_000_000)
        return LeagueSection(club, broker, database, bind, page_port, names, max_results)

    def _gpio(self, t: _Table) -> GpioSection:
        return GpioSection(pin_factory=t.text("pin_factory", "lgpio", PIN_FACTORIES))

    def _die(self, t: _Table) -> DieSection:
        d = DieSection()
        return DieSection(
            pin=t.pin("pin", d.pin),
            debounce_ms=t.integer("debounce_ms", d.debounce_ms, 0, 500),
            roll_ms=t.integer("roll_ms", d.roll_ms, 0, 10_000),
            mode=t.text("mode", d.mode, DIE_MODES),
        )

    def _horse_buttons(self, t: _Table) -> HorseButtonsSection:
        d = HorseButtonsSection()
        pins = d.pins
        t.read.append("pins")
        if "pins" in t.data:
            raw = t.data["pins"]
            low, high = GPIO_RANGE
            if not isinstance(raw, list) or not all(_is_int(p) for p in raw):
                t.problem("pins", "must be a list of GPIO numbers: [5, 6, 13, 19, 26]")
            elif not 1 <= len(raw) <= 5:
                t.problem("pins", f"one pin per horse, 1 to 5 of them, not {len(raw)}")
            elif bad := [p for p in raw if not low <= p <= high]:
                t.problem("pins", f"GPIO numbers run from {low} to {high}, not {bad[0]}")
            else:
                pins = tuple(int(p) for p in raw)
        return HorseButtonsSection(
            pins=pins, debounce_ms=t.integer("debounce_ms", d.debounce_ms, 0, 500)
        )

    def _encoder(self, t: _Table) -> EncoderSection:
        d = EncoderSection()
        a, b, push = t.pin("a", d.a), t.pin("b", d.b), t.pin("push", d.push)
        steps = t.integer("steps_per_detent", d.steps_per_detent, 1, 4)
        if steps == 3:
            t.problem("steps_per_detent", "must be 1, 2 or 4, not 3")
            steps = d.steps_per_detent
        debounce = t.integer("debounce_ms", d.debounce_ms, 0, 500)
        return EncoderSection(a=a, b=b, push=push, steps_per_detent=steps, debounce_ms=debounce)

    def _undo(self, t: _Table) -> UndoSection:
        d = UndoSection()
        return UndoSection(
            pin=t.pin("pin", d.pin),
            hold_s=t.number("hold_s", d.hold_s, 0.1, 10.0),
            debounce_ms=t.integer("debounce_ms", d.debounce_ms, 0, 500),
        )

    def _buzzer(self, t: _Table) -> BuzzerSection:
        return BuzzerSection(pin=t.pin("pin", BuzzerSection().pin))

    def _oled(self, t: _Table) -> OledSection:
        d = OledSection()
        return OledSection(
            driver=t.text("driver", d.driver, OLED_DRIVERS),
            port=t.integer("port", d.port, 0, 99),
            address=t.integer("address", d.address, *I2C_ADDRESSES, hexa=True),
            rotate=t.integer("rotate", d.rotate, 0, 3),
            i2c_hz=t.integer("i2c_hz", d.i2c_hz, *I2C_SPEEDS),
        )

    def _lcd(self, t: _Table) -> LcdSection:
        d = LcdSection()
        section = LcdSection(
            expander=t.text("expander", d.expander, LCD_EXPANDERS),
            port=t.integer("port", d.port, 0, 99),
            address=t.integer("address", d.address, *I2C_ADDRESSES, hexa=True),
            cols=t.integer("cols", d.cols, 8, 40),
            rows=t.integer("rows", d.rows, 1, 4),
            i2c_hz=t.integer("i2c_hz", d.i2c_hz, *I2C_SPEEDS),
            rom=t.text("rom", d.rom, LCD_ROMS),
        )
        if section.cols * section.rows > 80:
            t.problem(
                "rows",
                f"an HD44780 holds 80 characters: {section.cols}x{section.rows} does not exist",
            )
        return section

    def _pico(self, t: _Table) -> PicoSection:
        d = PicoSection()
        port = t.text("port", d.port)
        if not port.strip():
            t.problem("port", "must name the Pico's serial port (ls /dev/serial/by-id/)")
        return PicoSection(port=port, baudrate=t.integer("baudrate", d.baudrate, 50, 4_000_000))

    def _strip(self, t: _Table) -> StripSection:
        d = StripSection()
        return StripSection(
            backend=t.text("backend", d.backend, STRIP_BACKENDS),
            count=t.integer("count", d.count, 1, 1024),
            brightness=t.number("brightness", d.brightness, 0.0, 1.0),
            spi_bus=t.integer("spi_bus", d.spi_bus, 0, 6),
            spi_device=t.integer("spi_device", d.spi_device, 0, 2),
        )

    def _reader(self, t: _Table, companion: CompanionSection) -> ReaderSection:
        d = ReaderSection()
        kind = t.text("kind", d.kind, READER_KINDS)
        device = t.text("device", d.device)
        window = t.number("repeat_window_s", d.repeat_window_s, 0.0, 60.0)
        cards_file = t.path("cards_file", companion.state_dir / "cards.toml")
        baudrate: int | None = None
        if "baudrate" in t.data:
            baudrate = t.integer("baudrate", 9600, 50, 4_000_000)
        else:
            t.read.append("baudrate")
        if kind in ("evdev", "rdm6300", "lines") and not device.strip():
            example = {
                "evdev": "/dev/input/by-id/usb-...-event-kbd (ls /dev/input/by-id/)",
                "rdm6300": "/dev/serial0 (the Pi's UART) or /dev/ttyUSB0",
                "lines": "/dev/ttyACM0 or /dev/serial/by-id/...",
            }[kind]
            t.problem("device", f"kind {kind!r} needs the device it reads, e.g. {example}")
        elif kind in ("mfrc522", "pico") and device.strip():
            t.problem("device", f"not used when kind = {kind!r}: leave it out")
        if baudrate is not None and kind not in ("rdm6300", "lines"):
            t.problem("baudrate", f"only serial readers have a speed, not kind {kind!r}")
        return ReaderSection(
            kind=kind,
            device=device,
            repeat_window_s=window,
            cards_file=cards_file,
            baudrate=baudrate,
        )

    # -- the sections together --

    def _check_together(self, config: Config) -> None:
        # A setting already found wrong stands at its default here: leave it out.
        wrong = {problem.key for problem in self.problems}
        if config.pico is None:
            strip_pico = config.strip is not None and config.strip.backend == "pico"
            if strip_pico and "strip.backend" not in wrong:
                self.problem("strip.backend", "'pico' needs a [pico] section (its serial port)")
            reader_pico = config.reader is not None and config.reader.kind == "pico"
            if reader_pico and "reader.kind" not in wrong:
                self.problem("reader.kind", "'pico' needs a [pico] section (its serial port)")
        if not wrong & {"oled.port", "oled.address", "lcd.port", "lcd.address"}:
            self._check_i2c(config)
        strip, reader = config.strip, config.reader
        spi0_strip = strip is not None and strip.backend == "spi" and strip.spi_bus == 0
        if spi0_strip and reader is not None and reader.kind == "mfrc522":
            self.problem(
                "reader.kind",
                "the MFRC522 is on SPI0, where the LED strip's data line is: every byte "
                "sent to the reader would light the strip (use strip.spi_bus = 1)",
            )
        taken: dict[int, _Claim] = {}
        for claim in _claims(config):
            if claim.key in wrong:
                continue
            earlier = taken.get(claim.pin)
            if earlier is None:
                taken[claim.pin] = claim
            elif not (claim.bus and claim.bus == earlier.bus):
                self.problem(
                    claim.key,
                    f"GPIO{claim.pin} is already taken by {earlier.what} ({earlier.key})",
                )

    def _check_i2c(self, config: Config) -> None:
        oled, lcd = config.oled, config.lcd
        wrong = {problem.key for problem in self.problems}
        shared = oled is not None and lcd is not None and oled.port == lcd.port
        if (
            shared
            and oled is not None
            and lcd is not None
            and oled.i2c_hz != lcd.i2c_hz
            and not wrong & {"oled.i2c_hz", "lcd.i2c_hz"}
        ):
            self.problem(
                "oled.i2c_hz",
                f"the OLED and the LCD share I2C bus {lcd.port}, which has one speed: "
                f"{oled.i2c_hz} and {lcd.i2c_hz} differ (put the OLED on bus 4 for "
                "its own speed)",
            )
        if (
            oled is not None
            and lcd is not None
            and (oled.port, oled.address) == (lcd.port, lcd.address)
        ):
            self.problem(
                "lcd.address",
                f"0x{lcd.address:02X} on I2C bus {lcd.port} is the OLED's "
                "address too (a PCF8574 backpack can be set to 0x20..0x27, a PCF8574A "
                "to 0x38..0x3F)",
            )


def _bus_claims(config: Config) -> list[_Claim]:
    """Return the pins taken by the buses the configured devices need (first, so that a
    clash is reported on the pin setting that runs into the bus)."""
    claims: list[_Claim] = []
    for name, section in (("oled", config.oled), ("lcd", config.lcd)):
        if section is not None and section.port in I2C_PINS:
            for signal, pin in I2C_PINS[section.port].items():
                what = f"I2C bus {section.port} {signal}"
                claims.append(_Claim(pin, f"{name}.port", what, f"i2c{section.port}"))
    if config.strip is not None and config.strip.backend == "spi":
        bus = config.strip.spi_bus
        for signal, pin in SPI_PINS.get(bus, {}).items():
            claims.append(_Claim(pin, "strip.backend", f"SPI{bus} {signal}", f"spi{bus}"))
    reader = config.reader
    if reader is not None and reader.kind == "mfrc522":
        for signal, pin in SPI_PINS[0].items():
            claims.append(_Claim(pin, "reader.kind", f"SPI0 {signal}", "spi0"))
        claims.append(_Claim(MFRC522_RST, "reader.kind", "the MFRC522 reset line"))
    if reader is not None and reader.kind in ("rdm6300", "lines") and reader.device in PI_UARTS:
        for signal, pin in UART_PINS.items():
            claims.append(_Claim(pin, "reader.device", f"the Pi's UART {signal}"))
    return claims


def _claims(config: Config) -> list[_Claim]:
    claims = _bus_claims(config)
    if config.die is not None:
        claims.append(_Claim(config.die.pin, "die.pin", "the die button"))
    if config.horse_buttons is not None:
        for number, pin in enumerate(config.horse_buttons.pins, start=1):
            claims.append(_Claim(pin, "horse_buttons.pins", f"the horse{number} button"))
    if config.encoder is not None:
        claims.append(_Claim(config.encoder.a, "encoder.a", "the encoder's A (CLK) line"))
        claims.append(_Claim(config.encoder.b, "encoder.b", "the encoder's B (DT) line"))
        claims.append(_Claim(config.encoder.push, "encoder.push", "the encoder's push switch"))
    if config.undo is not None:
        claims.append(_Claim(config.undo.pin, "undo.pin", "the undo button"))
    if config.buzzer is not None:
        claims.append(_Claim(config.buzzer.pin, "buzzer.pin", "the buzzer"))
    return claims
