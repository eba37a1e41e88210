"""The firmware's default pins are the ones the wiring docs give (wiring/pinmap.toml)."""

from __future__ import annotations

import tomllib
from typing import Any

from companion.devices.fake_pico import FIRMWARE_DIR

PINMAP = FIRMWARE_DIR.parent / "wiring" / "pinmap.toml"


def wires_of(pinmap: dict[str, Any], device: str) -> dict[str, int]:
    (found,) = [d for d in pinmap["device"] if d["id"] == device]
    return {wire["pin"]: wire["gp"] for wire in found["wires"] if "gp" in wire}


def test_the_default_pins_match_the_wiring(fw: Any) -> None:
    pinmap = tomllib.loads(PINMAP.read_text(encoding="utf-8"))
    config = fw.config
    assert config.STRIPS[0][0] == wires_of(pinmap, "strip_shifter")["1A"]
    reader = wires_of(pinmap, "mfrc522")
    assert {
        "SDA": config.READER["cs"],
        "SCK": config.READER["sck"],
        "MOSI": config.READER["mosi"],
        "MISO": config.READER["miso"],
        "RST": config.READER["rst"],
    } == reader
    assert dict(config.BUTTONS) == wires_of(pinmap, "spare_buttons")


def test_the_readme_gives_the_same_pins(fw: Any) -> None:
    readme = (FIRMWARE_DIR / "README.md").read_text(encoding="utf-8")
    config = fw.config
    assert f"| GP{config.STRIPS[0][0]} |" in readme
    for role in ("sck", "mosi", "miso", "cs", "rst"):
        assert f"| GP{config.READER[role]} |" in readme
    first, last = config.BUTTONS[0][1], config.BUTTONS[-1][1]
    assert f"GP{first}..GP{last}" in readme
