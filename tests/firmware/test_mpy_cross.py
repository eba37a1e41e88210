"""Every firmware file compiles with mpy-cross, the real MicroPython compiler, and keeps to
the MicroPython subset."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from companion.devices.fake_pico import FIRMWARE_DIR

SOURCES = sorted(FIRMWARE_DIR.glob("*.py"))
#: Modules MicroPython does not have (or that firmware must not lean on).
NOT_ON_THE_PICO = {"typing", "dataclasses", "__future__", "enum", "abc", "pathlib", "re", "logging"}
#: str methods MicroPython leaves out.
MISSING_METHODS = {"rjust", "ljust", "zfill", "center", "format_map", "removeprefix", "hex"}


def mpy_cross(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_firmware_has_its_files() -> None:
    names = {path.name for path in SOURCES}
    assert {"main.py", "board.py", "app.py", "protocol.py", "strip_anim.py"} <= names
    assert {"cards.py", "buttons.py", "rc522.py", "config.py"} <= names


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_every_firmware_file_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    result = mpy_cross(source, out)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:1] == b"M"


def test_mpy_cross_rejects_what_micropython_cannot_run(tmp_path: Path) -> None:
    source = tmp_path / "cpython_only.py"
    source.write_text("match 1:\n    case 1:\n        pass\n")
    assert mpy_cross(source, tmp_path / "x.mpy").returncode != 0


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_firmware_files_keep_to_the_micropython_subset(source: Path) -> None:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for name in names:
                assert (name or "").split(".")[0] not in NOT_ON_THE_PICO, f"imports {name}"
        if isinstance(node, ast.Attribute):
            assert node.attr not in MISSING_METHODS, f"uses .{node.attr}() at line {node.lineno}"
        assert not isinstance(node, ast.AnnAssign), f"annotation at line {node.lineno}"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None, f"{node.name} has a return annotation"
