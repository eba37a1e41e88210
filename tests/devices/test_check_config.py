"""`companion check-config`: a good file prints its wiring, a bad one every problem and exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands import check_config
from companion.devices import config as cfg


def check(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["check-config", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_good_file_prints_the_wiring_it_implies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[gpio]\npin_factory = "mock"\n[die]\npin = 4\n[lcd]\naddress = 0x3F\n')
    status, out, err = check([str(path)], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{path}: OK"
    assert "GPIO pin factory: mock" in lines
    rows = [line.split(None, 2) for line in lines if line.startswith(("die ", "lcd "))]
    assert ["die", "button", "GPIO4 (pin 7), other side to GND"] in rows
    assert ["lcd", "address", "0x3F on I2C bus 1"] in rows
    assert (
        "Not configured (absent): horse_buttons, encoder, undo, buzzer, oled, pico, strip, reader"
        in out
    )


def test_a_bad_file_lists_every_problem_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text("[die]\npin = 17\n[undo]\npin = 17\n[oled]\ndriver = 'ssd1331'\n")
    status, out, err = check([str(path)], capsys)
    assert status == 2 and out == ""
    assert err.splitlines() == [
        f"{path}: 2 problems:",
        "  oled.driver: unknown value 'ssd1331' (did you mean 'ssd1306'?): use 'ssd1306', 'sh1106'",
        "  undo.pin: GPIO17 is already taken by the die button (die.pin)",
        "The companion will not start with this file.",
    ]


def test_a_named_file_that_does_not_exist_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = check([str(tmp_path / "missing.toml")], capsys)
    assert status == 2
    assert "missing.toml: 1 problem:" in err and "no such file" in err


def test_without_a_file_the_default_build_is_described(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(cfg.ENV_VAR, raising=False)
    monkeypatch.setattr(cfg.checker, "DEFAULT_PATH", tmp_path / "companion.toml")
    status, out, _ = check([], capsys)
    assert status == 0
    assert out.startswith(
        f"{tmp_path / 'companion.toml'} does not exist: the default build applies."
    )
    assert "horse buttons  horse5     GPIO26 (pin 37), other side to GND" in out
    assert "pico.port: /dev/serial/by-id/" in out, "a Pico that is not plugged in is noted"


def test_the_environment_variable_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "elsewhere.toml"
    path.write_text("[buzzer]\npin = 99\n")
    monkeypatch.setenv(cfg.ENV_VAR, str(path))
    status, _, err = check([], capsys)
    assert status == 2
    assert "buzzer.pin: must be from 0 to 27, not 99" in err


def test_missing_libraries_and_devices_are_noted_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(check_config, "installed", lambda module: module != "evdev")
    path = tmp_path / "companion.toml"
    device = tmp_path / "no-such-reader"
    path.write_text(f'[reader]\nkind = "evdev"\ndevice = "/dev/input/by-id/{device.name}"\n')
    status, out, _ = check([str(path)], capsys)
    assert status == 0
    assert "note: reader.kind = 'evdev' needs the evdev library" in out
    assert f"note: reader.device: /dev/input/by-id/{device.name} is not on this machine" in out


def test_an_empty_file_is_a_companion_without_hardware(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text("")
    status, out, _ = check([str(path)], capsys)
    assert status == 0
    assert "No devices are configured: the companion runs without hardware." in out


def test_the_installed_command_runs(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text("[die]\npin = 40\n")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "check-config", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "die.pin: must be from 0 to 27, not 40" in done.stderr


def test_the_report_says_which_die_and_card_mode_each_game_uses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text('[gpio]\npin_factory = "mock"\n[die]\nmode = "manual"\n')
    status, out, _ = check([str(path)], capsys)
    assert status == 0
    assert "  Jumpy Jack: die manual (roll a real die, key its value" in out
    assert "  Course hippique: cards dial (no reader:" in out
    assert "  Jockey: cards dial (no reader:" in out
    path.write_text('[gpio]\npin_factory = "mock"\n[die]\n[reader]\nkind = "mfrc522"\n')
    status, out, _ = check([str(path)], capsys)
    assert "  Jumpy Jack: die electronic (the die button rolls)" in out
    assert "  Jockey: cards reader (cards are scanned on the reader)" in out
    path.write_text('[die]\nmode = "manuel"\n')
    status, _, err = check([str(path)], capsys)
    assert status == 2
    assert "die.mode: unknown value 'manuel' (did you mean 'manual'?)" in err
