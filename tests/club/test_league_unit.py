"""The league's systemd unit: verified by systemd, hardened to the exposure docs/club.md states."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.units import needs, unit_settings

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs/club.md"
UNIT = REPO / "systemd" / "companion-league.service"


@needs("systemd-analyze")
def test_the_league_unit_verifies_without_any_warning(tmp_path: Path) -> None:
    program = tmp_path / "companion"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    unit = tmp_path / "companion-league.service"
    unit.write_text(UNIT.read_text().replace("/opt/companion/venv/bin/companion", str(program)))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


@needs("systemd-analyze")
def test_systemd_rates_the_league_unit_as_the_docs_say() -> None:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found is not None, result.stdout + result.stderr
    said = re.search(r"`systemd-analyze security[^`]*` rates it (\d+\.\d+)", DOC.read_text())
    assert said is not None, "docs/club.md says how systemd rates the league unit"
    assert float(found.group(1)) <= float(said.group(1)), result.stdout  # as the docs say


def test_the_password_stays_in_a_credential_and_the_database_in_its_state_folder() -> None:
    unit = unit_settings(UNIT)
    assert unit["LoadCredential"] == ["league.toml:/etc/companion/league.toml"]
    assert "${CREDENTIALS_DIRECTORY}/league.toml" in unit["ExecStart"][0]
    assert unit["DynamicUser"] == ["yes"] and unit["StateDirectory"] == ["companion-league"]
    from companion.devices.config.sections import LeagueSection

    assert str(LeagueSection("club").database).startswith("/var/lib/companion-league/")
    comments = " ".join(line for line in UNIT.read_text().splitlines() if line.startswith("#"))
    for left_off in ("PrivateNetwork", "IPAddressAllow"):
        assert left_off not in unit and left_off in comments
