"""The WireViz sources and SVG diagrams: regenerated from the pin map, identical, up to date."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SVG = "{http://www.w3.org/2000/svg}text"


def run_generator(root: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run wiring/generate.py as a builder would, in its own process."""
    return subprocess.run(
        [sys.executable, str(root / "wiring" / "generate.py"), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def svg_rows(path: Path) -> set[tuple[str, str, str]]:
    """Every run of three consecutive texts in an SVG (a wire's row reads from, colour, to)."""
    tree = ET.parse(path)
    texts = [(e.text or "").replace("\xa0", " ").strip() for e in tree.iter(SVG)]
    return set(zip(texts, texts[1:], texts[2:], strict=False))


def expected_rows(generator: ModuleType, pinmap: Any, diagram: str) -> set[tuple[str, str, str]]:
    """The row each wire of ``diagram`` must show: where it starts, colour:signal, where it ends."""
    rows = set()
    by_id = {d.id: d for d in pinmap.devices}
    for device in pinmap.devices:
        if device.diagram != diagram:
            continue
        for wire in device.wires:
            if isinstance(wire.to, int):
                designator, _, header, _, _, alt = generator.BOARDS[device.board]
                name = header[wire.to] + (f" {alt[wire.to]}" if wire.to in alt else "")
                start = f"{designator}:{wire.to}:{name}"
            else:
                other_id, _, other_pin = wire.to.partition(":")
                start = f"{other_id}:{by_id[other_id].pins.index(other_pin) + 1}:{other_pin}"
            end = f"{device.id}:{device.pins.index(wire.pin) + 1}:{wire.pin}"
            rows.add((start, f"{generator.COLOURS[wire.colour]}:{wire.signal}", end))
    return rows


def test_harness_files_regenerate_byte_identical(root: Path, tmp_path: Path) -> None:
    result = run_generator(root, "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    committed = sorted(p.name for p in (root / "wiring" / "harness").glob("*.yml"))
    fresh = sorted(p.name for p in tmp_path.glob("*.yml"))
    assert fresh == committed == ["panel.yml", "pico.yml", "strip.yml"]
    for name in fresh:
        assert (tmp_path / name).read_bytes() == (root / "wiring" / "harness" / name).read_bytes()


def test_check_accepts_the_committed_files(root: Path) -> None:
    result = run_generator(root, "--check")
    assert result.returncode == 0, result.stderr


def test_check_names_a_harness_file_edited_by_hand(root: Path, tmp_path: Path) -> None:
    for source in (root / "wiring" / "harness").glob("*.yml"):
        shutil.copy(source, tmp_path / source.name)
    edited = tmp_path / "panel.yml"
    edited.write_text(edited.read_text().replace("GPIO17", "GPIO4"))
    result = run_generator(root, "--check", "--out", tmp_path)
    assert result.returncode == 1
    assert "panel.yml" in result.stderr
    assert "strip.yml" not in result.stderr
    assert edited.read_text().count("GPIO4") > 1  # --check wrote nothing


def test_generator_refuses_a_pin_map_with_a_wrong_gpio(root: Path, tmp_path: Path) -> None:
    text = (root / "wiring" / "pinmap.toml").read_text()
    broken = text.replace("to = 11, bcm = 17", "to = 12, bcm = 17")
    assert broken != text
    (tmp_path / "pinmap.toml").write_text(broken)
    result = run_generator(root, "--pinmap", tmp_path / "pinmap.toml", "--out", tmp_path / "h")
    assert result.returncode == 2
    assert "'die'" in result.stderr and "GPIO18" in result.stderr
    assert not (tmp_path / "h").exists()


def test_committed_diagrams_show_every_wire_of_the_pin_map(
    root: Path, generator: ModuleType, pinmap: Any
) -> None:
    for diagram in pinmap.diagrams:
        path = root / "wiring" / "diagrams" / f"{diagram}.svg"
        assert path.is_file(), f"{path.name} is missing: python wiring/generate.py --render"
        missing = expected_rows(generator, pinmap, diagram) - svg_rows(path)
        assert not missing, f"{path.name} is out of date, it lacks {sorted(missing)}"


@pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz's dot is not installed (apt-get install graphviz)"
)
def test_diagrams_render_from_the_harness_files(
    root: Path, tmp_path: Path, generator: ModuleType, pinmap: Any
) -> None:
    result = run_generator(root, "--render", "--out", tmp_path / "h", "--diagrams", tmp_path / "d")
    assert result.returncode == 0, result.stderr
    for diagram in pinmap.diagrams:
        rows = svg_rows(tmp_path / "d" / f"{diagram}.svg")
        assert expected_rows(generator, pinmap, diagram) <= rows
