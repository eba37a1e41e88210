"""The bill of materials and the power budget: every wired part is bought, the supply suffices."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import pytest

from companion.devices.config import default_config

COLUMNS = ["part", "quantity", "example_part_number", "approx_price_eur", "notes"]

#: Cards that get a sticker: a 52-card deck (Course hippique) and the 54 Jockey cards.
TAGGED_CARDS = 52 + 54


@pytest.fixture(scope="module")
def bom(root: Path) -> dict[str, dict[str, str]]:
    with (root / "hardware" / "bom.csv").open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == COLUMNS
        rows = list(reader)
    for row in rows:
        assert None not in row and None not in row.values(), f"wrong column count: {row}"
    names = [row["part"] for row in rows]
    assert len(names) == len(set(names)), "a part is listed twice"
    return {row["part"]: row for row in rows}


def row_with(bom: dict[str, dict[str, str]], *words: str) -> dict[str, str]:
    """The one BOM row whose part name contains every word (case-insensitive)."""
    found = [r for name, r in bom.items() if all(w.lower() in name.lower() for w in words)]
    assert len(found) == 1, f"expected one BOM row with {words}, found {len(found)}"
    return found[0]


def test_every_row_has_a_quantity_a_price_and_an_example(bom: dict[str, dict[str, str]]) -> None:
    for name, row in bom.items():
        assert int(row["quantity"]) >= 1, name
        assert float(row["approx_price_eur"]) > 0, name
        assert row["example_part_number"].strip(), name
        assert row["notes"].strip(), name


def test_every_part_the_pin_map_names_is_in_the_bom(
    pinmap: Any, bom: dict[str, dict[str, str]]
) -> None:
    named = [part for item in (*pinmap.devices, *pinmap.links) for part in item.parts]
    missing = sorted(set(named) - set(bom))
    assert not missing, f"not in hardware/bom.csv: {missing}"


def test_quantities_cover_the_buttons_the_pin_map_wires(
    pinmap: Any, bom: dict[str, dict[str, str]]
) -> None:
    horses = pinmap.device("horse_buttons")
    wired = sum(1 for w in horses.wires if w.config and w.config.startswith("horse_buttons"))
    assert wired == 5
    assert int(row_with(bom, "horse button")["quantity"]) >= wired
    spares = pinmap.device("spare_buttons")
    assert int(row_with(bom, "spare button")["quantity"]) >= len(spares.wires) - 1


def test_the_two_boards_are_in_the_bom(bom: dict[str, dict[str, str]]) -> None:
    assert row_with(bom, "raspberry pi 4")
    assert row_with(bom, "pico")


def test_there_is_a_sticker_for_every_card_and_some_spares(bom: dict[str, dict[str, str]]) -> None:
    stickers = row_with(bom, "NTAG213")
    assert int(stickers["quantity"]) >= TAGGED_CARDS + 10


def test_the_strip_supply_carries_every_led_at_full_white(
    pinmap: Any, bom: dict[str, dict[str, str]]
) -> None:
    power = pinmap.power
    count = default_config().strip.count  # type: ignore[union-attr]
    worst = count * (power["led_full_white_ma"] + power["led_idle_ma"]) / 1000
    assert worst == pytest.approx(3.66)
    assert power["supply_volts"] == 5.0
    assert power["supply_amps"] >= worst
    assert worst < power["fuse_amps"], "the fuse would blow at full white"
    supply = row_with(bom, "power supply 5 V")
    assert f"{power['supply_amps']:g} A" in supply["part"]
    fuse = row_with(bom, "fuse")
    assert f"{power['fuse_amps']:g} A" in fuse["part"]


def test_the_power_page_states_the_figures_of_the_default_build(root: Path, pinmap: Any) -> None:
    text = (root / "hardware" / "power.md").read_text(encoding="utf-8")
    power = pinmap.power
    strip = default_config().strip
    assert strip is not None
    per_led = power["led_full_white_ma"] + power["led_idle_ma"]
    at_default = strip.count * (
        power["led_full_white_ma"] * strip.brightness + power["led_idle_ma"]
    )
    figures = {
        f"{strip.count} LEDs",
        f"brightness = {strip.brightness:g}",
        f"{strip.count * per_led / 1000:.2f} A",
        f"{at_default / 1000:.2f} A",
        f"5 V {power['supply_amps']:g} A",
        f"{power['fuse_amps']:g} A slow fuse",
    }
    missing = sorted(f for f in figures if f not in text)
    assert not missing, f"hardware/power.md does not say {missing}"


def test_the_build_guide_quotes_the_bom_total(root: Path, bom: dict[str, dict[str, str]]) -> None:
    total = sum(float(row["approx_price_eur"]) for row in bom.values())
    text = (root / "docs" / "build.md").read_text(encoding="utf-8")
    match = re.search(r"comes to about (\d+) EUR", text)
    assert match, "docs/build.md no longer states the cost of the build"
    assert abs(int(match.group(1)) - total) <= 0.05 * total, f"the BOM now totals {total:.0f}"
