"""The simulator's rig: every card it can lay on the reader has a tag the Pico protocol takes."""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from companion.daemon.rig import (
    CATALOGUE,
    UNKNOWN_TAG,
    JockeyRace,
    card_name,
    simulated_lookup,
    simulated_rig,
    simulated_uid,
)
from companion.games.jockey import default_deck

REPO = Path(__file__).resolve().parents[2]


def test_every_card_of_both_decks_round_trips_through_a_valid_tag() -> None:
    assert len(CATALOGUE) == 52 + 54
    for name in CATALOGUE:
        uid = simulated_uid(name)
        assert re.fullmatch(r"[0-9A-F]{8,20}", uid), uid  # what a reader reports
        assert simulated_lookup(uid) == name


def test_cards_are_read_as_people_type_them() -> None:
    assert card_name("7♥") == "7H"
    assert card_name(" qs ") == "QS"
    assert card_name("JOCKEY:12") == "jockey:12"
    assert simulated_lookup(simulated_uid("j12")) == "jockey:12"


def test_a_jockey_card_by_id_or_label_is_the_next_copy_not_played_this_race() -> None:
    deck = default_deck()
    # Numbers in `companion cards labels` order: brown, yellow, blue, then red +7 (13..16).
    assert card_name("jockey:red+7#2") == card_name("red+7#2") == "jockey:14"
    nothing_played = JockeyRace(deck)
    assert card_name("red +7", lambda: nothing_played) == "jockey:13"
    two_played = JockeyRace(deck, frozenset({"red+7#1", "red+7#3"}))
    assert card_name("Red+7", lambda: two_played) == "jockey:14"
    assert card_name(" red  +7 ", lambda: two_played) == "jockey:14"
    assert card_name("No.3 +18", lambda: nothing_played) == "jockey:52"
    assert card_name("jockey:blue lead x3", lambda: nothing_played) == "jockey:33"
    all_played = JockeyRace(deck, frozenset(f"red+7#{n}" for n in range(1, 5)))
    assert card_name("red +7", lambda: all_played) == "jockey:13"  # for the table to refuse
    for name in ("jockey:13", "jockey:14", "jockey:33", "jockey:52"):
        assert simulated_lookup(simulated_uid(name)) == name


def test_a_name_that_is_no_card_reads_as_a_tag_nobody_enrolled() -> None:
    assert simulated_uid("ZZ") == UNKNOWN_TAG
    assert simulated_uid("jockey:red+7#9") == UNKNOWN_TAG  # red +7 has four copies
    assert simulated_uid("red +70") == UNKNOWN_TAG
    assert simulated_lookup(UNKNOWN_TAG) is None
    assert simulated_lookup("04A1B2C3") is None


def test_the_simulated_lcd_shows_what_the_glass_of_its_rom_would_through_the_writers() -> None:
    from companion.devices.config import parse_config
    from companion.render.screen import Screen

    rows = ("Pronostic: Côte 3/1", "élève à l'école", "Würfel, Äpfel ♠", "Garçon! Größe")
    for rom in ("A00", "A02"):
        config = parse_config(f'[lcd]\nrom = "{rom}"\n[oled]\n')
        rig = simulated_rig(config, lambda event: None)
        sim = rig.simulation
        assert sim is not None and sim.lcd is not None
        rig.panel.show(Screen(lcd=rows))
        assert rig.panel.wait_idle(10)
        glass = sim.lcd.port.lines()  # type: ignore[attr-defined]
        assert glass == [row.ljust(20) for row in rows]
        assert sim.lcd.lines() == glass
        rig.panel.goodbye()
        rig.close()


def test_a_table_without_an_oled_starts_without_the_imaging_libraries() -> None:
    """PIL and segno draw the OLED's pictures and join code: a table without one (or a
    table whose host page is not open yet) does not wait for them to load."""
    probe = (
        "import sys\n"
        "from companion.daemon.rig import simulated_rig\n"
        "from companion.devices.config import parse_config\n"
        "import companion.web.server\n"
        "rig = simulated_rig(parse_config('[lcd]\\n[web]\\n'), lambda event: None)\n"
        "loaded = sorted({name.split('.')[0] for name in sys.modules} & {'PIL', 'segno'})\n"
        "rig.panel.goodbye()\n"
        "rig.close()\n"
        "print(*loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []
    with_oled = probe.replace("[lcd]", "[oled]")
    out = subprocess.run(
        [sys.executable, "-c", with_oled], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["PIL"]


def test_a_table_starts_on_the_menu_without_loading_any_games_engine(tmp_path) -> None:
    """The menu names every game, but only the game chosen is loaded: a start does not wait
    for the rules, screens and pages of three games (a Pi Zero takes seconds for them)."""
    probe = (
        "import pathlib, sys\n"
        "from companion.daemon.app import build\n"
        "from companion.devices.config import parse_config\n"
        'config = parse_config(\'[gpio]\\npin_factory = "mock"\\n[lcd]\\n[web]\\n'
        'bind = "127.0.0.1"\\n\')\n'
        f"companion = build(config, simulate=True, state_dir=pathlib.Path({str(tmp_path)!r}))\n"
        "menu = companion.daemon.table.screen()\n"
        "print(*menu.lcd, sep='|')\n"
        "print(*sorted(sys.modules))\n"
        "companion.daemon.table.close()\n"
        "companion.rig.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    shown, loaded = out.stdout.splitlines()[:2]
    assert "Jumpy Jack" in shown  # the menu is drawn, with the first game offered
    kinds = ("jumpy_jack", "course_hippique", "jockey")
    engines = {f"companion.games.{kind}.{part}" for kind in kinds for part in ("game", "match")}
    layers = {f"companion.{layer}.{kind}" for kind in kinds for layer in ("render", "daemon.flows")}
    assert not (engines | layers) & set(loaded.split())
    assert {"companion.games.registry", "companion.games.jockey"} <= set(loaded.split())
    assert "babel" not in loaded.split()  # the number formats are read once the table plays


def test_a_start_collects_no_garbage_until_ready_then_leaves_what_it_made_out(tmp_path) -> None:
    """The collector is off while the companion starts (a start makes objects that stay, and
    collecting them costs a Pi Zero time), on again once it is ready, with the start's objects
    kept out of later collections; a command that ends before that turns it back on too."""
    probe = (
        "import gc, sys\n"
        "from companion.cli import main\n"
        "from companion.daemon.app import Companion\n"
        "def run(self, *, handle_signals=True):\n"
        "    print('starting', gc.isenabled(), gc.get_freeze_count() > 0)\n"
        "    for start in self.daemon.after_ready:\n"
        "        start()\n"
        "    print('ready', gc.isenabled(), gc.get_freeze_count() > 0)\n"
        "    self.rig.close()\n"
        "    return 0\n"
        "Companion.run = run\n"
        f"main(['simulate', '--headless', '--web-port', '0', '--state-dir', {str(tmp_path)!r}])\n"
        "print('ended', gc.isenabled())\n"
        "gc.disable()\n"
        "main(['simulate', '--headless', '--config', sys.argv[1]])\n"
        "print('refused', gc.isenabled())\n"
    )
    missing = str(tmp_path / "missing.toml")
    out = subprocess.run(
        [sys.executable, "-c", probe, missing], capture_output=True, text=True, check=True
    )
    said = [line for line in out.stdout.splitlines() if not line.startswith("companion simulate:")]
    assert [line for line in said if " " in line and "http" not in line] == [
        "starting False False",
        "ready True True",
        "ended True",
        "refused True",
    ], out.stdout + out.stderr


def test_an_installed_simulator_has_its_fake_pico_from_the_package_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The package build copies the firmware's modules the fake Pico runs; with that copy and
    # no source checkout beside it, the simulator's strip and reader still go through a Pico.
    from companion.devices import fake_pico
    from companion.devices.config import parse_config
    from companion.devices.pico import PicoStrip

    hook = runpy.run_path(str(REPO / "setup.py"), run_name="the_build_hook")
    copied = hook["copy_firmware"](REPO, tmp_path)
    packaged = tmp_path / "companion" / "devices" / "pico_firmware"
    assert sorted(path.stem for path in copied) == sorted(fake_pico.FIRMWARE_MODULES)
    monkeypatch.setattr(fake_pico, "PACKAGED_FIRMWARE", packaged)
    monkeypatch.setattr(fake_pico, "FIRMWARE_DIR", tmp_path / "no checkout")
    fake_pico.firmware_module.cache_clear()
    try:
        config = parse_config((REPO / "systemd" / "companion.toml").read_text())
        rig = simulated_rig(config, lambda event: None)
        try:
            assert rig.simulation is not None and rig.simulation.pico is not None
            assert isinstance(rig.panel.strip, PicoStrip)
            app = Path(str(fake_pico.firmware_module("app").__file__))
            assert app.parent == packaged
        finally:
            rig.close()
    finally:
        fake_pico.firmware_module.cache_clear()
