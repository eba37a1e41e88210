"""The configuration file: defaults, every check a builder can trip over, the implied wiring."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices import config as cfg
from companion.devices.config import (
    Config,
    ConfigError,
    ReaderSection,
    default_config,
    load_config,
    parse_config,
    wiring,
)

#: The file of the device agreements, as a builder would copy it.
AGREED_FILE = """
[companion]
state_dir = "/var/lib/companion"
players = ["Anna", "Ben", "Chloé"]

[gpio]
pin_factory = "lgpio"

[die]
pin = 17
debounce_ms = 30
roll_ms = 600

[horse_buttons]
pins = [5, 6, 13, 19, 26]
debounce_ms = 30

[encoder]
a = 22
b = 23
push = 27

[undo]
pin = 24
hold_s = 1.0

[buzzer]
pin = 18

[oled]
driver = "ssd1306"
port = 1
address = 0x3C
rotate = 0

[lcd]
expander = "PCF8574"
port = 1
address = 0x27
cols = 20
rows = 4
rom = "A00"

[pico]
port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614103e7000000-if00"
baudrate = 115200

[strip]
backend = "pico"
count = 60
brightness = 0.25
spi_bus = 0
spi_device = 0

[reader]
kind = "pico"
device = ""
repeat_window_s = 1.5
cards_file = "/var/lib/companion/cards.toml"
"""


def problems(text: str) -> list[tuple[str, str]]:
    """Return (key, reason) of every problem in a file; fail if it is accepted."""
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "test.toml")
    assert all(p.file == "test.toml" for p in caught.value.problems)
    return [(p.key, p.reason) for p in caught.value.problems]


def only_problem(text: str) -> tuple[str, str]:
    found = problems(text)
    assert len(found) == 1, found
    return found[0]


# --- the default build and where the file comes from ---


def test_the_agreed_file_is_the_default_build() -> None:
    parsed = parse_config(AGREED_FILE, "companion.toml")
    expected = default_config()
    for name in Config.__dataclass_fields__:
        if name not in ("source", "companion"):
            assert getattr(parsed, name) == getattr(expected, name), name
    assert parsed.companion.players == ("Anna", "Ben", "Chloé")
    assert parsed.reader is not None
    assert parsed.reader.cards_file == Path("/var/lib/companion/cards.toml")


def test_an_empty_file_means_no_devices_at_all() -> None:
    config = parse_config("", "empty.toml")
    assert config.gpio.pin_factory == "lgpio"
    for name in ("die", "horse_buttons", "encoder", "undo", "buzzer", "oled", "lcd"):
        assert getattr(config, name) is None
    assert (config.pico, config.strip, config.reader) == (None, None, None)
    assert wiring(config) == []


def test_a_section_with_no_keys_is_that_device_on_its_default_pins() -> None:
    config = parse_config("[die]\n[undo]\n", "two.toml")
    assert config.die == cfg.DieSection(pin=17, debounce_ms=30, roll_ms=600)
    assert config.undo is not None and config.undo.hold_s == 1.0
    assert config.encoder is None


def test_without_the_default_file_the_default_build_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(cfg.ENV_VAR, raising=False)
    monkeypatch.setattr(cfg.checker, "DEFAULT_PATH", tmp_path / "absent.toml")
    assert load_config() == default_config()


def test_a_named_file_that_is_missing_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as caught:
        load_config(missing)
    assert caught.value.file == str(missing)
    assert "no such file" in caught.value.reason


def test_the_environment_variable_names_the_file_and_an_argument_beats_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_env = tmp_path / "env.toml"
    by_env.write_text("[die]\npin = 4\n")
    by_arg = tmp_path / "arg.toml"
    by_arg.write_text("[die]\npin = 12\n")
    monkeypatch.setenv(cfg.ENV_VAR, str(by_env))
    loaded = load_config()
    assert loaded.die is not None and loaded.die.pin == 4
    assert loaded.source == str(by_env)
    argued = load_config(by_arg)
    assert argued.die is not None and argued.die.pin == 12


def test_a_file_that_is_not_toml_names_the_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[die\npin = 17\n")
    with pytest.raises(ConfigError) as caught:
        load_config(broken)
    assert caught.value.file == str(broken)
    assert "not valid TOML" in str(caught.value)


def test_relative_paths_are_taken_from_the_file_s_folder(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[companion]\nstate_dir = "state"\n[pico]\n[reader]\n')
    config = load_config(path)
    assert config.companion.state_dir == tmp_path / "state"
    assert config.reader is not None
    assert config.reader.cards_file == tmp_path / "state" / "cards.toml"


# --- wrong keys, types and values ---


def test_an_unknown_section_is_named_with_a_suggestion() -> None:
    key, reason = only_problem("[buttons]\npins = [5]\n")
    assert key == "buttons"
    assert "unknown section" in reason


def test_an_unknown_key_is_named_with_a_suggestion() -> None:
    key, reason = only_problem("[die]\ndebounce = 30\n")
    assert key == "die.debounce"
    assert "did you mean 'debounce_ms'" in reason


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("[die]\npin = 28\n", "die.pin", "from 0 to 27"),
        ("[die]\npin = -1\n", "die.pin", "from 0 to 27"),
        ('[die]\npin = "17"\n', "die.pin", "whole number"),
        ("[die]\npin = 17.0\n", "die.pin", "whole number"),
        ("[die]\npin = true\n", "die.pin", "whole number"),
        ("[die]\nroll_ms = -5\n", "die.roll_ms", "from 0"),
        ("[undo]\nhold_s = 0\n", "undo.hold_s", "from 0.1 to 10"),
        ('[gpio]\npin_factory = "pigpio"\n', "gpio.pin_factory", "unknown value 'pigpio'"),
        ('[oled]\ndriver = "ssd1305"\n', "oled.driver", "did you mean 'ssd1306'"),
        ("[oled]\naddress = 0x78\n", "oled.address", "from 0x03 to 0x77"),
        ("[oled]\naddress = 0x02\n", "oled.address", "not 0x02"),
        ('[oled]\naddress = "0x3C"\n', "oled.address", "without quotes"),
        ("[oled]\nrotate = 4\n", "oled.rotate", "from 0 to 3"),
        ('[lcd]\nexpander = "PCF8575"\n', "lcd.expander", "unknown value"),
        ('[lcd]\nrom = "A01"\n', "lcd.rom", "unknown value 'A01'"),
        ("[lcd]\ncols = 40\nrows = 4\n", "lcd.rows", "80 characters"),
        ("[pico]\n[strip]\nbrightness = 1.5\n", "strip.brightness", "from 0 to 1"),
        ("[pico]\n[strip]\ncount = 0\n", "strip.count", "from 1"),
        ('[pico]\n[strip]\nbackend = "ws281x"\n', "strip.backend", "unknown value"),
        ('[reader]\nkind = "rc522"\n', "reader.kind", "unknown value"),
        ('[reader]\nkind = "rdm6300"\n', "reader.device", "needs the device"),
        ('[reader]\nkind = "evdev"\ndevice = ""\n', "reader.device", "/dev/input/by-id"),
        ('[reader]\nkind = "mfrc522"\ndevice = "/dev/spidev0.0"\n', "reader.device", "not used"),
        ('[pico]\n[reader]\nbaudrate = 9600\n', "reader.baudrate", "only serial readers"),
        ('[reader]\nkind = "lines"\ndevice = "x"\nrepeat_window_s = -1\n', "reader.repeat_window_s",
         "from 0"),
        ("[horse_buttons]\npins = []\n", "horse_buttons.pins", "1 to 5"),
        ("[horse_buttons]\npins = [1, 4, 5, 6, 7, 8]\n", "horse_buttons.pins", "1 to 5"),
        ("[horse_buttons]\npins = 5\n", "horse_buttons.pins", "list of GPIO numbers"),
        ("[encoder]\nsteps_per_detent = 3\n", "encoder.steps_per_detent", "1, 2 or 4"),
        ('[companion]\nplayers = ["Anna", "anna"]\n', "companion.players", "twice"),
        ('[companion]\nplayers = ["Strauß", "Strauss"]\n', "companion.players", "twice"),
        ('[companion]\nplayers = ["Ann a", "Ann  a"]\n', "companion.players", "twice"),
        ('[companion]\nplayers = ["\u0410nna", "Bob"]\n', "companion.players", "mixes alphabets"),
        ('[companion]\nplayers = "Anna"\n', "companion.players", "list of names"),
        ("die = 17\n", "die", "must be a section"),
    ],
)  # fmt: skip
def test_a_wrong_value_is_named_with_its_key_and_reason(text: str, key: str, words: str) -> None:
    found_key, reason = only_problem(text)
    assert found_key == key
    assert words in reason


def test_every_problem_of_a_file_is_listed_at_once() -> None:
    found = problems("[die]\npin = 99\n[undo]\nhold_s = -1\n[nonsense]\n")
    assert {key for key, _ in found} == {"die.pin", "undo.hold_s", "nonsense"}


def test_the_error_message_gives_file_key_and_reason_on_one_line() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config("[die]\npin = 40\n", "/etc/companion/companion.toml")
    error = caught.value
    assert (error.file, error.key) == ("/etc/companion/companion.toml", "die.pin")
    assert str(error) == "/etc/companion/companion.toml: die.pin: must be from 0 to 27, not 40"


# --- pins used twice ---


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ("[die]\npin = 24\n[undo]\npin = 24\n", "undo.pin",
         "GPIO24 is already taken by the die button"),
        ("[horse_buttons]\npins = [5, 6, 5]\n", "horse_buttons.pins", "the horse1 button"),
        ("[encoder]\na = 22\nb = 22\n", "encoder.b", "A (CLK)"),
        ("[die]\npin = 18\n[buzzer]\n", "buzzer.pin", "GPIO18"),
        ("[oled]\n[die]\npin = 2\n", "die.pin", "I2C bus 1 SDA"),
        ("[lcd]\n[undo]\npin = 3\n", "undo.pin", "I2C bus 1 SCL"),
        ('[strip]\nbackend = "spi"\n[die]\npin = 10\n', "die.pin", "SPI0 MOSI"),
        ('[strip]\nbackend = "spi"\nspi_bus = 1\n[die]\n', "die.pin", "SPI1 CE1"),
        ('[reader]\nkind = "mfrc522"\n[undo]\npin = 8\n', "undo.pin", "SPI0 CE0"),
        ('[reader]\nkind = "mfrc522"\n[encoder]\npush = 25\n', "encoder.push", "MFRC522 reset"),
        ('[reader]\nkind = "rdm6300"\ndevice = "/dev/serial0"\n[die]\npin = 15\n', "die.pin",
         "UART RXD"),
        ('[reader]\nkind = "lines"\ndevice = "/dev/ttyAMA0"\n[die]\npin = 14\n', "die.pin",
         "UART TXD"),
    ],
)  # fmt: skip
def test_a_pin_used_twice_is_refused(text: str, key: str, words: str) -> None:
    found = problems(text)
    assert any(k == key and words in reason for k, reason in found), found


def test_pins_of_a_bus_are_free_when_nothing_uses_the_bus() -> None:
    config = parse_config(
        "[die]\npin = 2\n[undo]\npin = 10\n[buzzer]\npin = 15\n[encoder]\npush = 25\n"
        '[reader]\nkind = "rdm6300"\ndevice = "/dev/ttyUSB0"\n',
        "free.toml",
    )
    assert config.die is not None and config.die.pin == 2


def test_the_oled_and_the_lcd_share_the_bus_but_not_an_address() -> None:
    key, reason = only_problem("[oled]\naddress = 0x27\n[lcd]\naddress = 0x27\n")
    assert key == "lcd.address"
    assert "0x27" in reason and "OLED" in reason
    both = parse_config("[oled]\n[lcd]\n", "ok.toml")
    assert both.oled is not None and both.lcd is not None


def test_an_mfrc522_beside_an_spi_strip_on_the_same_bus_is_refused() -> None:
    found = problems('[strip]\nbackend = "spi"\n[reader]\nkind = "mfrc522"\n')
    assert any(k == "reader.kind" and "light the strip" in r for k, r in found)


def test_the_pico_backends_need_the_pico() -> None:
    found = problems('[strip]\nbackend = "pico"\n[reader]\nkind = "pico"\n')
    assert ("strip.backend", "'pico' needs a [pico] section (its serial port)") in found
    assert ("reader.kind", "'pico' needs a [pico] section (its serial port)") in found


DEVICE_PINS = ("die.pin", "undo.pin", "buzzer.pin", "encoder.a", "encoder.b", "encoder.push")
FREE_PINS = [p for p in range(28) if p not in (2, 3)]


def _file_with(pins: dict[str, int], horses: list[int]) -> str:
    sections: dict[str, list[str]] = {}
    for key, pin in pins.items():
        section, name = key.split(".")
        sections.setdefault(section, []).append(f"{name} = {pin}")
    sections["horse_buttons"] = [f"pins = {horses}"]
    sections["oled"] = []
    return "".join(
        f"[{s}]\n" + "".join(f"{line}\n" for line in lines) for s, lines in sections.items()
    )


@settings(max_examples=150, deadline=None)
@given(st.permutations(FREE_PINS), st.integers(1, 5))
def test_distinct_pins_pass_and_any_repeat_is_caught(order: list[int], horses: int) -> None:
    chosen = dict(zip(DEVICE_PINS, order, strict=False))
    horse_pins = order[len(DEVICE_PINS) : len(DEVICE_PINS) + horses]
    config = parse_config(_file_with(chosen, horse_pins), "any.toml")
    used = [c.gpio for c in wiring(config) if c.gpio is not None]
    assert sorted(set(used) - {2, 3}) == sorted(list(chosen.values()) + horse_pins)
    # Now give the undo button the die's pin: the undo key is the one named.
    clash = dict(chosen, **{"undo.pin": chosen["die.pin"]})
    found = problems(_file_with(clash, horse_pins))
    assert [k for k, _ in found] == ["undo.pin"]


# --- the wiring a configuration implies ---


def test_the_default_wiring_matches_the_agreed_pin_map() -> None:
    lines = wiring(default_config())
    pins = {(c.device, c.signal): c.gpio for c in lines if c.gpio is not None}
    assert pins[("die", "button")] == 17
    assert [pins[("horse buttons", f"horse{n}")] for n in range(1, 6)] == [5, 6, 13, 19, 26]
    assert (pins[("encoder", "CLK (A)")], pins[("encoder", "DT (B)")]) == (22, 23)
    assert pins[("encoder", "SW (push)")] == 27
    assert pins[("undo", "button")] == 24
    assert pins[("buzzer", "+")] == 18
    assert (pins[("oled", "SDA")], pins[("oled", "SCL")]) == (2, 3)
    where = {(c.device, c.signal): c.where for c in lines}
    assert where[("oled", "address")] == "0x3C on I2C bus 1"
    assert where[("lcd", "address")] == "0x27 on I2C bus 1"
    assert where[("die", "button")].startswith("GPIO17 (pin 11)")
    assert "GP2" in where[("strip", "DIN")]


def test_the_wiring_of_the_other_readers_and_the_spi_strip() -> None:
    config = parse_config(
        '[strip]\nbackend = "spi"\nspi_bus = 0\n'
        '[reader]\nkind = "rdm6300"\ndevice = "/dev/serial0"\n',
        "x.toml",
    )
    where = {(c.device, c.signal): (c.where, c.gpio) for c in wiring(config)}
    assert where[("strip", "DIN")][1] == 10
    text, pin = where[("reader", "TX")]
    assert pin == 15 and "9600 baud" in text and "divider" in text
    rc522 = parse_config('[reader]\nkind = "mfrc522"\n', "y.toml")
    pins = {c.signal: c.gpio for c in wiring(rc522)}
    assert pins == {"CE0": 8, "MISO": 9, "MOSI": 10, "SCLK": 11, "RST": 25}


def test_serial_readers_have_their_usual_speed() -> None:
    assert ReaderSection(kind="rdm6300", device="x").serial_baudrate == 9600
    assert ReaderSection(kind="lines", device="x").serial_baudrate == 115200
    assert ReaderSection(kind="lines", device="x", baudrate=57600).serial_baudrate == 57600


def test_each_i2c_bus_has_one_speed_and_the_oled_may_have_bus_4_to_itself() -> None:
    key, reason = only_problem("[oled]\ni2c_hz = 400000\n[lcd]\n")
    assert key == "oled.i2c_hz"
    assert "share I2C bus 1" in reason and len(reason) < 200
    assert only_problem("[lcd]\ni2c_hz = 5000\n")[0] == "lcd.i2c_hz"
    config = parse_config("[oled]\nport = 4\ni2c_hz = 400000\n[lcd]\n", "test.toml")
    assert config.oled is not None and config.lcd is not None
    assert (config.oled.i2c_hz, config.lcd.i2c_hz) == (400_000, 100_000)
    # Bus 4 is GPIO8/9, which SPI0 needs too: an SPI strip cannot have them.
    found = problems('[oled]\nport = 4\ni2c_hz = 400000\n[strip]\nbackend = "spi"\n')
    assert ("strip.backend", "GPIO8 is already taken by I2C bus 4 SDA (oled.port)") in found
