"""Configuration and cards files that are not what they should be: one clear line, never a hang.

Every command that reads such a file is run as the user types it (``companion.cli.main``),
so an exception escaping it (the traceback the user would see) fails the test.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.devices.enrollment import enroll

DEEP_TOML = "a = " + "[" * 100_000 + "\n"
DEEP_TABLES = "a = " + "{b = " * 50_000 + "\n"


def problem_lines(err: str) -> list[str]:
    assert "Traceback" not in err
    return err.strip().splitlines()


@pytest.mark.parametrize("text", [DEEP_TOML, DEEP_TABLES])
@pytest.mark.parametrize(
    "command",
    [
        ["check-config", "{file}"],
        ["run", "--config", "{file}", "--state-dir", "{state}"],
        ["simulate", "--headless", "--config", "{file}", "--state-dir", "{state}"],
        ["cards", "enroll", "playing", "--file", "{file}", "--reader", "terminal"],
        ["cards", "list", "--file", "{file}"],
    ],
)
def test_deeply_nested_toml_is_refused_in_one_sentence(
    tmp_path: Path, text: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "deep.toml"
    file.write_text(text)
    fill = {"file": str(file), "state": str(tmp_path / "state")}
    assert main([part.format(**fill) for part in command]) == 2
    err = capsys.readouterr().err
    assert "nested too deeply" in err and len(problem_lines(err)) <= 3


def test_check_config_of_an_endless_device_stops_at_a_size(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check-config", "/dev/zero"]) == 2
    lines = problem_lines(capsys.readouterr().err)
    assert lines[1] == "  is larger than 1024 KiB: not a settings file"


def test_cards_list_of_an_endless_device_stops_at_a_size(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["cards", "list", "--file", "/dev/zero"]) == 2
    assert "larger than 1024 KiB" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        "x" * 1_000_000 + " = 1\n",
        "[lcd]\n" + "y" * 1_000_000 + " = 1\n",
        '[pico]\nport = 7\nbaudrate = "' + "z" * 1_000_000 + '"\n',
        "[" + "w" * 1_000_000 + "]\n",
    ],
)
def test_a_huge_key_or_value_is_quoted_cut(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "companion.toml"
    file.write_text(text)
    assert main(["check-config", str(file)]) == 2
    lines = problem_lines(capsys.readouterr().err)
    assert all(len(line) <= 500 for line in lines) and "..." in "".join(lines)


def test_a_huge_tag_in_the_cards_file_is_quoted_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "cards.toml"
    file.write_text('[tags]\n"' + "A" * 500_000 + '" = "' + "B" * 500_000 + '"\n')
    assert main(["cards", "list", "--file", str(file)]) == 2
    err = capsys.readouterr().err
    assert len(err) < 1_000 and "..." in err


def test_cards_enroll_reads_on_past_typed_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    typed = b"\xff\xfe\xfd\n04A1B2C3\n\xc3\n"
    (tmp_path / "companion.toml").write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "cards", "enroll", "playing", "--reader", "terminal",
         "--file", str(tmp_path / "cards.toml"), "--config", str(tmp_path / "companion.toml")],
        input=typed, capture_output=True, timeout=60,
    )  # fmt: skip
    out = done.stdout.decode()
    assert "Traceback" not in done.stderr.decode()
    assert "is not a tag: scan AS again." in out  # the bad bytes read as a line, not an end
    assert "AS enrolled: tag 04A1B2C3." in out
    assert "1 tag(s) enrolled" in out and done.returncode == 1


def test_an_enrollment_ends_when_its_typed_input_cannot_be_read(tmp_path: Path) -> None:
    typed = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\n"), encoding="utf-8")
    out = io.StringIO()
    status = enroll("playing", tmp_path / "cards.toml", None, "this terminal", stdin=typed, out=out)
    assert status == 1
    assert "(typed input stopped: it is not UTF-8 text)" in out.getvalue()
    assert "0 tag(s) enrolled" in out.getvalue()
