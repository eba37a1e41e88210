"""`companion run` where a device cannot be opened: one line and a documented exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.run import EXIT_DEVICE
from companion.devices.gpio import ControlPanel
from tests.units import SYSTEMD

CONFIG = SYSTEMD / "companion.toml"  # the default build's: lgpio drives the GPIO


def run_with_lgpio(tmp_path: Path, lgpio: str) -> subprocess.CompletedProcess[str]:
    """`companion run` as the service starts it, with ``lgpio`` as the lgpio module."""
    stand_in = tmp_path / "site"
    stand_in.mkdir()
    (stand_in / "lgpio.py").write_text(lgpio)
    command = [sys.executable, "-m", "companion", "run", "--config", str(CONFIG)]
    return subprocess.run(
        [*command, "--state-dir", str(tmp_path / "state")],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(stand_in), "PATH": "/usr/bin:/bin"},
    )


def test_a_pi_whose_gpio_cannot_be_opened_says_so_in_one_line(tmp_path: Path) -> None:
    # lgpio loads, but the board is not a Pi gpiozero knows ("unable to locate Pi revision").
    result = run_with_lgpio(tmp_path, "def __getattr__(name):\n    return 0\n")
    assert result.returncode == EXIT_DEVICE
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("companion: the lgpio pin factory cannot open the GPIO: ")


def test_a_missing_lgpio_says_what_to_install_in_one_line(tmp_path: Path) -> None:
    result = run_with_lgpio(tmp_path, "raise ImportError(\"No module named 'lgpio'\")\n")
    assert result.returncode == EXIT_DEVICE
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "sudo apt install python3-lgpio" in result.stderr


def test_a_pin_the_gpio_refuses_is_one_line_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def busy(config: object) -> ControlPanel:
        raise OSError(16, "GPIO 17 is busy:\nanother program holds it")

    monkeypatch.setattr(ControlPanel, "from_config", busy)
    status = main(["run", "--config", str(CONFIG), "--state-dir", str(tmp_path)])
    assert status == EXIT_DEVICE
    assert capsys.readouterr().err == (
        "companion: the GPIO cannot be opened: [Errno 16] GPIO 17 is busy: another program "
        "holds it\n"
    )
