"""The systemd unit passes `systemd-analyze verify` and the installer is safe to run twice."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from companion.commands.run import EXIT_CONFIG, EXIT_DEVICE
from companion.web.gate import MAX_OPEN, RESERVED_FILES, open_cap
from tests.units import needs, unit_settings

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs/install.md"
UNIT = REPO / "systemd" / "companion.service"
INSTALL = REPO / "systemd" / "install.sh"
CHECK_INSTALL = REPO / "systemd" / "check-install.sh"


@needs("systemd-analyze")
def test_the_unit_verifies_without_any_warning(tmp_path: Path) -> None:
    # verify checks that ExecStart exists: point it at a stand-in executable, nothing else changes.
    program = tmp_path / "companion"
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace("/opt/companion/venv/bin/companion", str(program)))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ""


def test_the_unit_is_a_watched_notify_service_with_device_access() -> None:
    settings = unit_settings(UNIT)
    assert settings["Type"] == ["notify"]
    assert settings["WatchdogSec"] and settings["Restart"] == ["on-failure"]
    assert settings["User"] == ["companion"]
    groups = settings["SupplementaryGroups"][0].split()
    assert set(groups) == {"gpio", "i2c", "spi", "dialout"}, "input only for an evdev reader"
    assert "PrivateDevices" not in settings, "PrivateDevices hides GPIO, I2C, SPI and serial"
    assert settings["StateDirectory"] == ["companion"]
    assert settings["WorkingDirectory"] == ["/run/companion"]  # lgpio writes FIFOs there


def test_a_start_that_would_fail_the_same_way_is_not_restarted() -> None:
    # A Pi whose GPIO cannot be opened (or whose configuration is refused) would otherwise
    # be restarted every 2 s until systemd's start limit.
    settings = unit_settings(UNIT)
    assert settings["RestartPreventExitStatus"][0].split() == [str(EXIT_CONFIG), str(EXIT_DEVICE)]


def test_the_unit_gives_the_pages_every_connection_with_files_to_spare() -> None:
    files = int(unit_settings(UNIT)["LimitNOFILE"][0])
    assert open_cap(files) == MAX_OPEN, "the limit caps the pages' connections"
    assert files - MAX_OPEN >= 4 * RESERVED_FILES, "little room left beside the connections"


def test_the_hardening_keeps_the_hardware_and_the_local_network_reachable() -> None:
    settings = unit_settings(UNIT)
    assert settings["DevicePolicy"] == ["closed"]
    allowed = {value.split()[0]: value.split()[1] for value in settings["DeviceAllow"]}
    for device in ("char-gpiochip", "char-i2c", "char-spi", "char-ttyACM", "char-ttyAMA"):
        assert allowed.get(device) == "rw", device
    assert allowed.get("char-input") == "r"
    assert settings["SystemCallFilter"] == ["@system-service"]
    assert settings["CapabilityBoundingSet"] == [""]
    assert settings["ProtectProc"] == ["invisible"]
    assert "ProcSubset" not in settings, "gpiozero reads /proc/device-tree and /proc/cpuinfo"
    assert settings["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    assert settings["IPAddressDeny"] == ["any"]
    assert settings["IPAddressAllow"][0].split() == [
        "localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7",
    ]  # fmt: skip
    text = UNIT.read_text()
    assert "8080" in text, "the comment names the pages' port"
    assert "COMPANION_STATE_DIR" not in text and "udev-settle" not in text


def test_every_protection_left_off_says_why_in_the_unit() -> None:
    settings = unit_settings(UNIT)
    comments = " ".join(line for line in UNIT.read_text().splitlines() if line.startswith("#"))
    for setting in ("PrivateDevices", "PrivateNetwork", "PrivateUsers", "ProcSubset"):
        assert setting not in settings
        assert setting in comments, f"{setting} is left off without a reason in the unit"


@needs("systemd-analyze")
def test_systemd_rates_the_unit_as_the_docs_say() -> None:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found is not None, result.stdout + result.stderr
    said = re.search(r"`systemd-analyze security[^`]*` rates it (\d+\.\d+)", DOC.read_text())
    assert said is not None, "docs/install.md says how systemd rates the unit"
    assert float(found.group(1)) <= float(said.group(1)), result.stdout  # as the docs say


@needs("shellcheck")
@pytest.mark.parametrize("script", [INSTALL, CHECK_INSTALL], ids=lambda path: path.name)
def test_shellcheck_finds_nothing_in_the_installer_and_its_check(script: Path) -> None:
    result = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def run_installer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60, check=True
    )


def test_installing_into_a_root_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    first = run_installer("--root", str(tmp_path))
    unit = tmp_path / "etc/systemd/system/companion.service"
    config = tmp_path / "etc/companion/companion.toml"
    assert unit.read_text() == UNIT.read_text()
    assert config.read_text() == (REPO / "systemd/companion.toml").read_text()
    assert "installed: /etc/systemd/system/companion.service" in first.stdout
    assert "would run: systemctl enable companion.service" in first.stdout

    config.write_text(config.read_text() + "\n# my own pins\n")
    second = run_installer("--root", str(tmp_path))
    assert "unchanged: /etc/systemd/system/companion.service" in second.stdout
    assert "unchanged: /etc/companion/companion.toml" in second.stdout
    assert "installed:" not in second.stdout
    assert "daemon-reload" not in second.stdout
    assert config.read_text().endswith("# my own pins\n"), "a table's own config was overwritten"


def test_a_dry_run_writes_nothing_and_says_so(tmp_path: Path) -> None:
    out = run_installer("--dry-run", "--root", str(tmp_path))
    assert list(tmp_path.iterdir()) == []
    assert "would run: apt-get install" in out.stdout
    assert "would install: /etc/systemd/system/companion.service" in out.stdout
    assert out.stdout.splitlines()[-1] == "dry run: nothing was changed"
    assert "installed" not in out.stdout.splitlines()[-1]


def test_the_first_failed_step_stops_the_installer_loudly(tmp_path: Path) -> None:
    (tmp_path / "opt").write_text("a file where the installer needs a folder\n")
    result = subprocess.run(
        ["bash", str(INSTALL), "--root", str(tmp_path)], capture_output=True, text=True
    )
    assert result.returncode != 0
    assert 'step "documentation in /opt/companion/docs" failed' in result.stderr
    assert "NOT installed" in result.stderr
    assert "is installed" not in result.stdout
    assert "== configuration" not in result.stdout, "it went on after the failure"
    assert not (tmp_path / "etc").exists()


def test_only_a_keyboard_style_reader_puts_the_user_in_input(tmp_path: Path) -> None:
    pico = run_installer("--root", str(tmp_path / "pico"), "--no-start")
    assert "usermod -a -G gpio companion" in pico.stdout
    assert "-G input" not in pico.stdout
    config = tmp_path / "evdev/etc/companion/companion.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[reader]\nkind = "evdev"\ndevice = "/dev/input/by-id/usb-rfid-event-kbd"\n')
    evdev = run_installer("--root", str(tmp_path / "evdev"), "--no-start")
    assert "would run: usermod -a -G input companion" in evdev.stdout


def test_only_a_keyboard_style_reader_brings_the_systems_evdev(tmp_path: Path) -> None:
    # evdev has no wheel: the system's package, only for the reader that needs it, so that no
    # install needs a compiler.
    pico = run_installer("--root", str(tmp_path / "pico"), "--no-start")
    assert "python3-evdev" not in pico.stdout
    config = tmp_path / "evdev/etc/companion/companion.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[reader]\nkind = "evdev"\ndevice = "/dev/input/by-id/usb-rfid-event-kbd"\n')
    evdev = run_installer("--root", str(tmp_path / "evdev"), "--no-start")
    assert "would run: apt-get install -y --no-install-recommends python3-evdev" in evdev.stdout
    for package in ("python3-dev", "gcc", "build-essential"):
        assert package not in evdev.stdout


@pytest.mark.parametrize("script", [INSTALL, CHECK_INSTALL], ids=lambda path: path.name)
def test_help_is_the_comment_at_the_top_whole(script: Path) -> None:
    said = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True)
    comment = []
    for line in script.read_text().splitlines()[1:]:
        if not line.startswith("#"):
            break
        comment.append(line.removeprefix("#").removeprefix(" "))
    assert said.returncode == 0
    assert said.stdout.splitlines() == comment
    assert "fail" in comment[-1] and "shellcheck" not in said.stdout


@pytest.mark.parametrize("script", [INSTALL, CHECK_INSTALL], ids=lambda path: path.name)
def test_an_unknown_option_is_refused(script: Path) -> None:
    result = subprocess.run(["bash", str(script), "--frobnicate"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "unknown option --frobnicate" in result.stderr


def test_the_installer_sets_the_bus_speeds_the_build_guide_describes(tmp_path: Path) -> None:
    boot = tmp_path / "boot/firmware/config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=50000\ndtparam=spi=on\n")
    config = tmp_path / "etc/companion/companion.toml"
    config.parent.mkdir(parents=True)
    own_bus = '[oled]\ndriver = "ssd1306"\nport = 4\ni2c_hz = 400000\n'
    config.write_text((REPO / "systemd/companion.toml").read_text().replace(
        "[oled]\ndriver = \"ssd1306\"\nport = 1\n", own_bus
    ))  # fmt: skip
    first = run_installer("--root", str(tmp_path), "--no-start")
    # The LCD's bus at 100 kHz (another speed replaced), the OLED's own bus 4 at 400 kHz;
    # the other lines stay as they were.
    assert boot.read_text().splitlines() == [
        "dtparam=i2c_arm=on",
        "dtparam=spi=on",
        "dtparam=i2c_arm_baudrate=100000",
        "dtoverlay=i2c4,pins_8_9,baudrate=400000",
    ]
    assert "takes effect after a reboot" in first.stdout
    second = run_installer("--root", str(tmp_path), "--no-start")
    assert "unchanged: dtoverlay=i2c4,pins_8_9,baudrate=400000" in second.stdout
    assert boot.read_text().count("baudrate") == 2


# -- the lock file ----------------------------------------------------------------------------

LOCK = REPO / "requirements.lock"
#: The extras the installer puts on a Pi from the lock (`make lock`): none. Their libraries,
#: lgpio and evdev, come from the system's packages, having no wheel for every Python.
LOCKED_EXTRAS: tuple[str, ...] = ()


def pyproject_requirements() -> dict[str, Requirement]:
    """What pyproject.toml asks for on a Pi: dependencies, the Pi's extras, the build's tools."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    lines = list(project["project"]["dependencies"])
    for extra in LOCKED_EXTRAS:
        lines += project["project"]["optional-dependencies"][extra]
    lines += project["build-system"]["requires"]
    wanted: dict[str, Requirement] = {}
    for line in lines:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        if name in wanted:  # asked twice (a dependency and a build tool): both must hold
            requirement.specifier &= wanted[name].specifier
        wanted[name] = requirement
    return wanted


def locked() -> dict[str, tuple[Version, int, str]]:
    """Each package of the lock: its pinned version, its number of hashes, its "via" notes."""
    entries: dict[str, tuple[Version, int, str]] = {}
    for block in re.split(r"\n(?=\S)", LOCK.read_text()):
        pinned = re.match(r"([A-Za-z0-9_.\-]+)==(\S+)", block)
        if pinned:
            hashes = len(re.findall(r"--hash=sha256:[0-9a-f]{64}", block))
            name = canonicalize_name(pinned.group(1))
            entries[name] = (Version(pinned.group(2)), hashes, block)
    return entries


def test_the_lock_pins_what_pyproject_asks_for_with_hashes() -> None:
    wanted, pins = pyproject_requirements(), locked()
    stale = [
        f"{name}{req.specifier}"
        for name, req in wanted.items()
        if name not in pins or not req.specifier.contains(pins[name][0], prereleases=True)
    ]
    assert not stale, f"requirements.lock does not answer pyproject.toml: run `make lock` ({stale})"
    assert all(hashes > 0 for _, hashes, _ in pins.values()), "every pin needs its hashes"
    from_pyproject = {name for name, (*_, block) in pins.items() if "companion (pyproject" in block}
    assert from_pyproject == set(wanted), "pyproject.toml dropped a dependency: run `make lock`"
    assert "--find-links" not in LOCK.read_text() and "--index-url" not in LOCK.read_text()


def test_the_installer_installs_only_the_locked_pins(tmp_path: Path) -> None:
    out = run_installer("--dry-run", "--root", str(tmp_path)).stdout
    pip = [line for line in out.splitlines() if "/venv/bin/pip install" in line]
    assert pip == [
        "would run: /opt/companion/venv/bin/pip install --require-hashes --only-binary :all: "
        f"--no-deps -r {LOCK}",
        f"would run: /opt/companion/venv/bin/pip install --no-deps --no-build-isolation "
        f"--upgrade {REPO}",
    ]


def test_the_lock_holds_the_builds_tools_and_nothing_that_needs_a_compiler() -> None:
    pins = locked()
    build = tomllib.loads((REPO / "pyproject.toml").read_text())["build-system"]["requires"]
    for line in build:  # installed with the rest, before the companion is built with them
        assert canonicalize_name(Requirement(line).name) in pins
    for name in ("sdnotify", "evdev", "lgpio"):  # no wheel for every Python on a Pi
        assert name not in pins, f"{name} would be built from source on some Pi"


# -- where images are built, and systems that lack a package -------------------------------


def test_an_image_being_built_gets_the_unit_enabled_and_nothing_started() -> None:
    out = run_installer("--dry-run", "--offline-system").stdout
    service = out[out.index("== service") :]
    assert "would run: systemctl enable companion.service" in service
    assert "daemon-reload" not in service and "restart" not in service
    assert "enabled for the next boot without starting it" in service


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root")
def test_a_booted_system_is_started_and_one_without_systemd_is_not(tmp_path: Path) -> None:
    # sd_booted(3): systemd runs the system when /run/systemd/system exists. A mount namespace
    # of the test's own shows the installer one, then none.
    def service_lines(booted: bool) -> str:
        made = "mkdir -p /run/systemd/system" if booted else "true"
        script = f"mount -t tmpfs none /run/systemd && {made} && bash {INSTALL} --dry-run"
        result = subprocess.run(
            ["unshare", "--mount", "sh", "-c", script], capture_output=True, text=True, timeout=60
        )
        assert result.returncode == 0, result.stderr
        return result.stdout[result.stdout.index("== service") :]

    booted = service_lines(booted=True)
    assert "would run: systemctl daemon-reload" in booted
    assert "would run: systemctl restart companion.service" in booted
    image = service_lines(booted=False)
    assert "would run: systemctl enable companion.service" in image
    assert "daemon-reload" not in image and "restart" not in image


def test_the_docs_commands_are_on_the_path(tmp_path: Path) -> None:
    first = run_installer("--root", str(tmp_path), "--no-start")
    command = tmp_path / "usr/local/bin/companion"
    assert os.readlink(command) == "/opt/companion/venv/bin/companion"
    assert "linked: /usr/local/bin/companion" in first.stdout
    second = run_installer("--root", str(tmp_path), "--no-start")
    assert "unchanged: /usr/local/bin/companion" in second.stdout


def test_a_trial_without_lgpio_leaves_only_that_package_out(tmp_path: Path) -> None:
    pi = run_installer("--dry-run", "--root", str(tmp_path)).stdout
    assert "python3-lgpio" in pi
    trial = run_installer("--dry-run", "--root", str(tmp_path), "--without-lgpio").stdout
    apt = [line for line in trial.splitlines() if "apt-get install" in line]
    assert apt == ["would run: apt-get install -y --no-install-recommends python3-venv i2c-tools"]


def install_with_package_tools(
    tmp_path: Path, architecture: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Run a real install with stand-ins for the package tools: python3-lgpio is in no list,
    even after an update, and any install fails, so nothing on this machine changes whatever
    the installer does. Returns the run and the file of apt-get's calls."""
    tools = tmp_path / "bin"
    tools.mkdir()
    calls = tmp_path / "calls"
    calls.touch()
    fakes = {
        "dpkg": f"echo {architecture}",
        "dpkg-query": "exit 1",
        # apt-cache policy: the candidate first, then a long table of versions.
        "apt-cache": 'case "$2" in python3-lgpio) echo "  Candidate: (none)" ;;'
        ' *) echo "  Candidate: 1.0"; seq 20000 | sed "s/^/     500 /" ;; esac',
        "apt-get": f'echo "$*" >> {calls}; [ "$1" = update ]',
    }
    for name, body in fakes.items():
        (tools / name).write_text(f"#!/bin/sh\n{body}\n")
        (tools / name).chmod(0o755)
    env = dict(os.environ, PATH=f"{tools}:{os.environ['PATH']}")
    result = subprocess.run(
        ["bash", str(INSTALL), "--no-start"], capture_output=True, text=True, env=env, timeout=60
    )
    return result, calls


@pytest.mark.skipif(os.geteuid() != 0, reason="the installer's real path runs as root")
def test_a_package_the_system_cannot_have_stops_the_install_with_one_sentence(
    tmp_path: Path,
) -> None:
    result, calls = install_with_package_tools(tmp_path, "arm64")
    assert result.returncode == 1
    said = result.stderr.strip().splitlines()
    assert len(said) == 1, result.stderr
    assert said[0].startswith("install.sh: python3-lgpio is in none of this system's package")
    assert "Raspberry Pi OS" in said[0] and "--without-lgpio" in said[0]
    assert said[0].endswith("the companion is NOT installed")
    assert calls.read_text().splitlines() == ["update"], "the lists are read again first"
    assert "== service user" not in result.stdout, "it went on after the failure"


@pytest.mark.skipif(os.geteuid() != 0, reason="the installer's real path runs as root")
def test_a_32_bit_system_stops_the_install_with_one_sentence(tmp_path: Path) -> None:
    result, calls = install_with_package_tools(tmp_path, "armhf")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "install.sh: this system is armhf, and the companion's pinned packages exist for 64-bit"
        " systems only (arm64: 64-bit Raspberry Pi OS): the companion is NOT installed"
    ]
    assert calls.read_text() == "", "nothing was installed"
