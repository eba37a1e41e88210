"""The league installs and runs alone, on a laptop or a server: none of the table's hardware
libraries, its own pins of the lock, and an installer of its own (with Mosquitto if asked)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from companion.club.broker import LocalBroker
from companion.club.publisher import Publisher
from companion.devices.config.sections import ClubSection
from tests.club.conftest import CLUB, login, start_league, wait_for
from tests.club.games import open_table, play
from tests.club.test_durability import league_config
from tests.club.test_league_page import fetch
from tests.units import needs

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "systemd" / "install-league.sh"
#: The table's hardware libraries and what only the table uses (its pages' QR codes and
#: sockets, the simulator's terminal): the league never imports one.
TABLE_ONLY = (
    "gpiozero", "lgpio", "RPi", "luma", "RPLCD", "smbus2", "serial", "sdnotify", "evdev",
    "spidev", "mfrc522", "PIL", "segno", "websockets", "textual", "colorzero", "cbor2",
)  # fmt: skip
BLOCKER = f"""\
import sys

class TableOnly:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {TABLE_ONLY!r}:
            raise ImportError(name + " is not installed: this machine runs the league alone")
        return None

sys.meta_path.insert(0, TableOnly())
"""


def lock_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("league_lock", REPO / "systemd/league-lock.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_league_runs_without_any_of_the_tables_libraries(
    broker: LocalBroker, tmp_path: Path
) -> None:
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "sitecustomize.py").write_text(BLOCKER)
    database = tmp_path / "league.sqlite3"
    config = tmp_path / "league.toml"
    config.write_text(league_config(broker, database))
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(blocked)
    try:
        league, url = start_league(config)
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before
    path = tmp_path / "table1.sqlite3"
    session = open_table(path)
    publisher = Publisher(ClubSection(CLUB, "table1", login(broker, "table1")), path)
    publisher.start()
    try:
        play(session)
        publisher.board(session.view())
        wait_for(lambda: json.loads(fetch(url + "results.json")[1]), what="the result")
        status, board = fetch(url)
    finally:
        publisher.stop()
        league.send_signal(signal.SIGTERM)
        out = league.communicate(timeout=10)[0]
    assert status == 200 and "table1" in board
    assert "Traceback" not in out and "not installed" not in out, out


def test_the_leagues_lock_is_the_whole_locks_pins_of_what_the_league_imports() -> None:
    script = lock_script()
    whole = (REPO / "requirements.lock").read_text()
    assert (REPO / "requirements-league.lock").read_text() == script.league_lock(whole), (
        "requirements-league.lock is stale: run `make lock`"
    )
    probe = (
        "import importlib.metadata as m, sys\n"
        "import uvicorn, companion.commands.league\n"
        "import companion.club.league, companion.club.listener, companion.club.page\n"
        "import companion.devices.config\n"
        "owners = m.packages_distributions()\n"
        "print(sorted({d.lower().replace('_', '-') for name in list(sys.modules)\n"
        "              for d in owners.get(name.split('.')[0], ())}))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    imported = set(json.loads(found.stdout.replace("'", '"'))) - {"companion"}
    assert imported <= set(script.LEAGUE), imported - set(script.LEAGUE)
    assert "setuptools" in script.LEAGUE  # the companion is built with the pinned tools


def run_installer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60, check=True
    )


def test_the_league_installer_places_the_league_and_the_broker_and_no_table(
    tmp_path: Path,
) -> None:
    first = run_installer("--root", str(tmp_path), "--broker", "--no-start")
    lines = first.stdout.splitlines()
    packages = "python3-venv python3-pip mosquitto"
    assert f"would run: apt-get install -y --no-install-recommends {packages}" in lines
    assert (
        f"would run: /opt/companion/venv/bin/pip install --require-hashes --no-deps -r "
        f"{REPO}/requirements-league.lock"
    ) in lines
    for table_only in ("raspi-config", "usermod", "gpio", "i2c", "companion.service"):
        assert table_only not in first.stdout, table_only
    unit = tmp_path / "etc/systemd/system/companion-league.service"
    assert unit.read_text() == (REPO / "systemd/companion-league.service").read_text()
    config = tmp_path / "etc/companion/league.toml"
    assert config.read_text() == (REPO / "systemd/league.toml").read_text()
    assert config.stat().st_mode & 0o777 == 0o600
    acl = (tmp_path / "etc/mosquitto/companion-club.acl").read_text()
    assert "companion/myclub/%u/results" in acl  # the club named in league.toml
    conf = tmp_path / "etc/mosquitto/conf.d/companion-club.conf"
    assert conf.read_text() == (REPO / "systemd/mosquitto/companion-club.conf").read_text()
    assert (tmp_path / "opt/companion/docs/club.md").exists()
    config.write_text(config.read_text().replace('club = "myclub"', 'club = "cafe-du-port"'))
    second = run_installer("--root", str(tmp_path), "--broker", "--no-start")
    assert "installed:" not in second.stdout and "daemon-reload" not in second.stdout
    assert 'club = "cafe-du-port"' in config.read_text(), "the organiser's settings were lost"


def test_a_dry_run_of_the_league_installer_writes_nothing(tmp_path: Path) -> None:
    out = run_installer("--dry-run", "--root", str(tmp_path)).stdout
    assert list(tmp_path.iterdir()) == []
    assert "mosquitto" not in out  # without --broker
    assert out.splitlines()[-1] == "dry run: nothing was changed"


@needs("shellcheck")
def test_shellcheck_finds_nothing_in_the_league_installer() -> None:
    result = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
