"""The default build's pin map: coherent, clear of reserved pins, what the daemon expects."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections import defaultdict
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.devices.config import HEADER_PIN, default_config, wiring

#: Which RP2040 pins can carry each SPI0 signal (datasheet, GPIO function table).
SPI0_FUNCTIONS = {
    "SPI0 SCK": {2, 6, 18, 22},
    "SPI0 MOSI": {3, 7, 19},
    "SPI0 MISO": {0, 4, 16, 20},
    "SPI0 CS": {1, 5, 17, 21},
}


def header_wires(pinmap: Any, board: str) -> list[tuple[Any, Any]]:
    """(device, wire) for every wire that ends on ``board``'s header."""
    return [
        (device, wire)
        for device in pinmap.devices
        if device.board == board
        for wire in device.wires
        if isinstance(wire.to, int)
    ]


def resolve(config: object, key: str) -> object:
    """Look up ``section.key`` or ``section.key[i]`` in a configuration object."""
    value = config
    for part in key.split("."):
        match = re.fullmatch(r"(\w+)(?:\[(\d+)\])?", part)
        assert match, f"bad configuration key {key!r} in the pin map"
        value = getattr(value, match.group(1))
        assert value is not None, f"the default configuration has no {key}"
        if match.group(2) is not None:
            value = value[int(match.group(2))]  # type: ignore[index]
    return value


def test_the_pi_header_table_is_the_real_header(generator: ModuleType) -> None:
    header = generator.PI_HEADER
    assert sorted(header) == list(range(1, 41))
    gpios = [int(net.removeprefix("GPIO")) for net in header.values() if net.startswith("GPIO")]
    assert sorted(gpios) == list(range(28))
    assert [p for p, net in header.items() if net == "GND"] == [6, 9, 14, 20, 25, 30, 34, 39]
    assert [p for p, net in header.items() if net == "3V3"] == [1, 17]
    assert [p for p, net in header.items() if net == "5V"] == [2, 4]
    # The configuration module keeps its own table: both must describe the same header.
    for bcm, physical in HEADER_PIN.items():
        assert header[physical] == f"GPIO{bcm}"


def test_the_pico_pin_table_is_the_real_pinout(generator: ModuleType) -> None:
    header = generator.PICO_HEADER
    assert sorted(header) == list(range(1, 41))
    gps = sorted(int(n.removeprefix("GP")) for n in header.values() if n.startswith("GP"))
    assert gps == [*range(23), 26, 27, 28]
    assert [p for p, net in header.items() if net == "GND"] == [3, 8, 13, 18, 23, 28, 38]
    assert (header[36], header[39], header[40]) == ("3V3", "VSYS", "VBUS")


def test_the_pin_map_is_coherent(generator: ModuleType, pinmap: Any) -> None:
    assert generator.problems(pinmap) == []


def test_a_wire_whose_gpio_number_disagrees_with_its_pin_is_reported(
    generator: ModuleType, pinmap: Any
) -> None:
    die = pinmap.device("die")
    moved = dataclasses.replace(die.wires[0], to=12)  # pin 12 is GPIO18, the map says 17
    broken = dataclasses.replace(
        pinmap,
        devices=tuple(
            dataclasses.replace(d, wires=(moved, *d.wires[1:])) if d is die else d
            for d in pinmap.devices
        ),
    )
    assert any("'die'" in p and "GPIO18" in p for p in generator.problems(broken))


def test_no_gpio_is_used_twice(pinmap: Any) -> None:
    i2c = set(pinmap.i2c_bcm.values())
    for board, key in (("pi", "bcm"), ("pico", "gp")):
        users: dict[int, list[str]] = defaultdict(list)
        for device, wire in header_wires(pinmap, board):
            number = getattr(wire, key)
            if number is not None:
                users[number].append(f"{device.id}:{wire.pin}")
        for number, who in users.items():
            if board == "pi" and number in i2c:
                continue  # the I2C bus is shared on purpose (next test)
            assert len(who) == 1, f"{board} GPIO {number} is wired to {who}"


def test_only_i2c_devices_share_the_i2c_pins(pinmap: Any) -> None:
    expected = {pinmap.i2c_bcm["sda"]: "SDA1", pinmap.i2c_bcm["scl"]: "SCL1"}
    on_bus = [(d, w) for d, w in header_wires(pinmap, "pi") if w.bcm in expected]
    assert {d.id for d, _ in on_bus} == {"oled", "i2c_shifter"}
    for device, wire in on_bus:
        assert wire.signal == expected[wire.bcm], f"{device.id}:{wire.pin} on an I2C pin"


def test_no_device_sits_on_a_reserved_gpio(pinmap: Any) -> None:
    reserved = {bcm for pins in pinmap.reserved_bcm.values() for bcm in pins}
    assert reserved >= {0, 1, 7, 8, 9, 10, 11, 14, 15}
    for device, wire in header_wires(pinmap, "pi"):
        assert wire.bcm not in reserved, f"{device.id}:{wire.pin} is on reserved GPIO{wire.bcm}"


def test_the_mfrc522_uses_pins_that_carry_spi0(pinmap: Any) -> None:
    reader = pinmap.device("mfrc522")
    used = {w.signal: w.gp for w in reader.wires if w.signal in SPI0_FUNCTIONS}
    assert set(used) == set(SPI0_FUNCTIONS)
    for signal, gp in used.items():
        assert gp in SPI0_FUNCTIONS[signal], f"GP{gp} cannot carry {signal}"


def test_every_device_on_a_gpio_has_a_ground(pinmap: Any) -> None:
    for device in pinmap.devices:
        if not any(w.bcm is not None or w.gp is not None for w in device.wires):
            continue
        grounded = any(
            w.signal == "GND" and (isinstance(w.to, int) or w.to.endswith(":GND"))
            for w in device.wires
        )
        assert grounded, f"{device.id} has a GPIO wire but no ground wire"


def test_nothing_powered_from_5v_touches_a_pi_gpio(generator: ModuleType, pinmap: Any) -> None:
    for device in pinmap.devices:
        if device.board != "pi":
            continue
        nets = {generator.PI_HEADER[w.to] for w in device.wires if isinstance(w.to, int)}
        if "5V" in nets and any(n.startswith("GPIO") for n in nets):
            # Only a level shifter may: its low side is powered from 3.3 V.
            assert {"LV", "HV"} <= set(device.pins), f"{device.id} puts 5 V next to a GPIO"
            assert "3V3" in nets


def test_the_default_configuration_holds_the_pin_map_numbers(pinmap: Any) -> None:
    config = default_config()
    checked = 0
    for device in pinmap.devices:
        for wire in device.wires:
            if wire.config is not None:
                number = wire.bcm if device.board == "pi" else wire.gp
                assert resolve(config, wire.config) == number, f"{device.id}:{wire.pin}"
                checked += 1
        for key, value in device.config.items():
            assert resolve(config, key) == value, f"{device.id}: {key}"
            checked += 1
    for link in pinmap.links:
        for key, value in link.config.items():
            assert resolve(config, key) == value, f"{link.id}: {key}"
            checked += 1
    assert checked >= 20


def test_every_gpio_the_configuration_drives_is_on_the_pin_map(pinmap: Any) -> None:
    from_config = {c.gpio for c in wiring(default_config()) if c.gpio is not None}
    on_map = {w.bcm for _, w in header_wires(pinmap, "pi") if w.bcm is not None}
    assert from_config == on_map


def test_every_button_gpio_on_the_pi_names_its_configuration_key(pinmap: Any) -> None:
    i2c = set(pinmap.i2c_bcm.values())
    for device, wire in header_wires(pinmap, "pi"):
        if wire.bcm is not None and wire.bcm not in i2c:
            assert wire.config, f"{device.id}:{wire.pin} names no configuration key"


def test_the_two_displays_have_different_i2c_addresses(pinmap: Any) -> None:
    addresses = {
        d.id: v for d in pinmap.devices for k, v in d.config.items() if k.endswith(".address")
    }
    assert addresses == {"oled": 0x3C, "lcd": 0x27}


def firmware_constants(root: Path) -> dict[str, Any]:
    """The constants of firmware/config.py, read without importing MicroPython code."""
    tree = ast.parse((root / "firmware" / "config.py").read_text(encoding="utf-8"))
    return {
        target.id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def test_the_pico_firmware_drives_the_pins_of_the_pin_map(root: Path, pinmap: Any) -> None:
    firmware = firmware_constants(root)
    strip_data = [w.gp for w in pinmap.device("strip_shifter").wires if w.gp is not None]
    assert [pin for pin, _ in firmware["STRIPS"]] == strip_data == [2]
    reader = firmware["READER"]
    wired = {w.signal: w.gp for w in pinmap.device("mfrc522").wires if w.gp is not None}
    assert reader["spi"] == 0
    assert (reader["sck"], reader["mosi"], reader["miso"], reader["cs"], reader["rst"]) == (
        wired["SPI0 SCK"],
        wired["SPI0 MOSI"],
        wired["SPI0 MISO"],
        wired["SPI0 CS"],
        wired["RFID reset"],
    )
    spare = {w.signal: w.gp for w in pinmap.device("spare_buttons").wires if w.gp is not None}
    assert dict(firmware["BUTTONS"]) == spare
