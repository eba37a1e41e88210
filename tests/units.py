"""The systemd units of the repository as the tests read them: each key's values, in order."""

from __future__ import annotations

from pathlib import Path

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"


def unit_settings(unit: Path) -> dict[str, list[str]]:
    """Every ``Key=value`` of ``unit`` (comments left out), the values of a key in order."""
    found: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found
