"""The systemd units of the repository as the tests read them, and the outside tools that tests
need (systemd-analyze, shellcheck, strace)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"


def unit_settings(unit: Path) -> dict[str, list[str]]:
    """Every ``Key=value`` of ``unit`` (comments left out), the values of a key in order."""
    found: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def needs(tool: str) -> pytest.MarkDecorator:
    """Skip a test whose ``tool`` this machine lacks; under CI (which installs it) never skip:
    the test runs and fails on the missing tool."""
    missing = shutil.which(tool) is None and os.environ.get("CI") != "true"
    return pytest.mark.skipif(missing, reason=f"{tool} is not installed here (CI installs it)")
