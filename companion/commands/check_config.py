"""`companion check-config`: check a configuration file and print the wiring it implies."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from dataclasses import fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.devices.config import Config, Wire
    from companion.devices.config.sections import Broker

NAME = "check-config"
HELP = "check a configuration file and print the wiring it implies"

#: Devices a configuration may leave out, in the order the wiring lists them.
DEVICES = (
    "die",
    "horse_buttons",
    "encoder",
    "undo",
    "buzzer",
    "oled",
    "lcd",
    "pico",
    "strip",
    "reader",
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the optional file argument and the broker's try."""
    parser.add_argument(
        "file",
        nargs="?",
        help="the file to check (default: $COMPANION_CONFIG, then /etc/companion/companion.toml)",
    )
    parser.add_argument(
        "--try-broker",
        action="store_true",
        help="log in to the [club] broker as the table (a table running meanwhile connects "
        "again at once) and see that the [league] broker answers; one line each (exit 1 if "
        "one fails)",
    )


def run(args: argparse.Namespace) -> int:
    """Check the file; print its wiring (0) or every problem in it (2); with --try-broker,
    try the brokers too (1 when one fails)."""
    from companion.devices.config import ConfigError, config_path, load_config

    path, named = config_path(args.file)
    try:
        config = load_config(args.file)
    except ConfigError as error:
        count = len(error.problems)
        print(f"{error.file}: {count} problem{'s' if count > 1 else ''}:", file=sys.stderr)
        for problem in error.problems:
            where = f"{problem.key}: " if problem.key else ""
            print(f"  {where}{problem.reason}", file=sys.stderr)
        print("The companion will not start with this file.", file=sys.stderr)
        return 2
    if not named and not path.exists():
        print(f"{path} does not exist: the default build applies.")
    else:
        print(f"{config.source}: OK")
    for line in describe(config):
        print(line)
    if args.try_broker:
        return try_brokers(config)
    return 0


def try_brokers(config: Config) -> int:
    """Try the brokers of [club] and [league]; print one line each; 1 when one fails."""
    from companion.club.link import LinkState, reach, try_broker

    links = []
    if config.club is not None:
        club = config.club
        links.append(try_broker(club.broker, f"companion-{club.club}-{club.table}"))
    if config.league is not None:
        links.append(reach(config.league.broker))
    if not links:
        print("no [club] or [league] section: no broker to try")
        return 0
    for link in links:
        print(link.line())
    return 0 if all(link.state in (LinkState.CONNECTED, LinkState.ANSWERS) for link in links) else 1


def describe(config: Config) -> list[str]:
    """Return the report for a valid configuration: wiring table, absent devices, notes."""
    from companion.devices.config import wiring

    web = config.web
    pages = f"on {web.bind}, port {web.port}" if web.enabled else "off"
    if web.enabled and web.names:
        pages += f", also as {', '.join(web.names)}"
    lines = [f"GPIO pin factory: {config.gpio.pin_factory}", f"Web pages: {pages}"]
    lines += [*club_lines(config), ""]
    lines += _table(wiring(config))
    present = {f.name for f in fields(config) if getattr(config, f.name) is not None}
    absent = [name for name in DEVICES if name not in present]
    if absent:
        lines += ["", f"Not configured (absent): {', '.join(absent)}"]
    lines += ["", "How each game is played:", *modes(config)]
    notes = _notes(config)
    if notes:
        lines += ["", *[f"note: {note}" for note in notes]]
    return lines


def club_lines(config: Config) -> list[str]:
    """What the [club] and [league] sections say: names, broker, login (never the password)."""
    lines = []
    if config.club is not None:
        club = config.club
        assistant = "on" if club.home_assistant else "off"
        lines.append(
            f"Club: table {club.table!r} of club {club.club!r}, {_broker(club.broker)}, "
            f"Home Assistant {assistant}"
        )
    if config.league is not None:
        league = config.league
        lines.append(
            f"League: club {league.club!r}, {_broker(league.broker)}, database "
            f"{league.database}, page on {league.bind}:{league.page_port}"
        )
    return lines


def _broker(broker: Broker) -> str:
    tls = "no TLS"
    if broker.tls:
        tls = f"TLS (CA {broker.ca_file})" if broker.ca_file else "TLS (the system's CAs)"
    login = f"user {broker.username!r}" if broker.username else "no user name"
    password = ", a password" if broker.password else ""
    return f"broker {broker.host}:{broker.port} with {tls}, {login}{password}"


#: What each mode means at the table, in a few words.
_MODE_WORDS = {
    "electronic": "the die button rolls",
    "manual": "roll a real die, key its value: knob and push, or horse buttons 1-5, die 6",
    "reader": "cards are scanned on the reader",
    "dial": "no reader: dial each card with the horse buttons and the knob",
}


def modes(config: Config) -> list[str]:
    """Which die mode and which card mode each game will use with this file."""
    from companion.devices.config import card_mode, die_mode
    from companion.games.registry import GAMES

    die, cards = die_mode(config), card_mode(config)
    lines = []
    for game in GAMES:  # every game of the registry, in the menu's order
        if game.uses_die:
            lines.append(f"  {game.title}: die {die} ({_MODE_WORDS[die]})")
        if game.uses_cards:
            lines.append(f"  {game.title}: cards {cards} ({_MODE_WORDS[cards]})")
        if not (game.uses_die or game.uses_cards):
            lines.append(f"  {game.title}: no die and no cards to read")
    return lines


def _table(connections: list[Wire]) -> list[str]:
    if not connections:
        return ["No devices are configured: the companion runs without hardware."]
    rows = [("device", "signal", "connection")]
    rows += [(c.device, c.signal, c.where) for c in connections]
    wide = [max(len(row[i]) for row in rows) for i in range(2)]
    return [f"{d:<{wide[0]}}  {s:<{wide[1]}}  {w}".rstrip() for d, s, w in rows]


_GPIO_LIBRARIES = {
    "lgpio": ("lgpio", "sudo apt install python3-lgpio, or pip install 'companion[pi]'"),
    "rpigpio": ("RPi", "pip install 'companion[rpigpio]'"),
}


def installed(module: str) -> bool:
    """Whether a library can be imported here (without importing it)."""
    return importlib.util.find_spec(module) is not None


def _notes(config: Config) -> list[str]:
    """What this machine lacks for the file: libraries not installed, device paths not there."""
    wanted: list[tuple[str, str, str]] = []
    gpio_devices = (config.die, config.horse_buttons, config.encoder, config.undo, config.buzzer)
    if any(d is not None for d in gpio_devices) and config.gpio.pin_factory in _GPIO_LIBRARIES:
        module, hint = _GPIO_LIBRARIES[config.gpio.pin_factory]
        wanted.append((f"gpio.pin_factory = {config.gpio.pin_factory!r}", module, hint))
    reader = config.reader
    if reader is not None and reader.kind == "evdev":
        hint = "sudo apt install python3-evdev, or pip install 'companion[usbhid]'"
        wanted.append(("reader.kind = 'evdev'", "evdev", hint))
    if reader is not None and reader.kind == "mfrc522":
        hint = "pip install 'companion[rc522]'"
        wanted += [("reader.kind = 'mfrc522'", m, hint) for m in ("mfrc522", "spidev")]
    if config.strip is not None and config.strip.backend == "spi":
        wanted.append(("strip.backend = 'spi'", "spidev", "pip install 'companion[spi]'"))
    notes = [
        f"{setting} needs the {module} library, not installed here ({hint})"
        for setting, module, hint in wanted
        if not installed(module)
    ]
    for name, section in (("club", config.club), ("league", config.league)):
        broker = section.broker if section is not None else None
        if broker is not None and not broker.username:
            notes.append(
                f"[{name}] has no username: a broker that lets no anonymous client in (the"
                " example's) refuses it"
            )
    paths: list[tuple[str, str]] = []
    if config.pico is not None:
        paths.append(("pico.port", config.pico.port))
    if reader is not None and reader.kind in ("evdev", "rdm6300", "lines"):
        paths.append(("reader.device", reader.device))
    for key, path in paths:
        if path.startswith("/dev/") and not os.path.exists(path):
            notes.append(f"{key}: {path} is not on this machine (plugged in? the right name?)")
    return notes
