"""`companion simulate`: the companion on a machine without hardware (what `make run` starts)."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import sys
import time
from pathlib import Path

from companion.commands._pages import add_options, with_options
from companion.commands._starting import collecting_once_ready

NAME = "simulate"
HELP = "run the companion with simulated hardware in this terminal"

#: Where the simulator's log goes while its screen fills the terminal (in the state folder).
LOG_NAME = "simulator.log"


def default_state_dir() -> Path:
    """Where the simulator keeps its journal: apart from a real companion's."""
    xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg) / "companion-simulator"


def simulator_journal() -> Path:
    """Where the simulator keeps its journal unless given --state-dir."""
    from companion.daemon.app import JOURNAL_NAME

    return default_state_dir() / JOURNAL_NAME


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the simulator options."""
    parser.add_argument(
        "--config", metavar="FILE", help="configuration (default: the default build)"
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        type=Path,
        help="where the journal lives (default: $XDG_STATE_HOME/companion-simulator)",
    )
    parser.add_argument(
        "--reset",
        action="store_true",
        help="set the journal aside first (renamed, not deleted) and start at the menu",
    )
    parser.add_argument(
        "--headless", action="store_true", help="no terminal interface (drive it with --control)"
    )
    parser.add_argument("--control", metavar="SOCKET", type=Path, help="serve a control socket")
    add_options(parser)
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="debug-level log (device retries, refusals by reason code; never a secret)",
    )


def set_aside(journal: Path) -> Path | None:
    """Rename a journal (and its SQLite side files) with the time; return the new name."""
    if not journal.exists():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = journal.with_name(f"{journal.stem}-{stamp}{journal.suffix}")
    for suffix in ("-wal", "-shm"):
        side = journal.with_name(journal.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    journal.rename(target)
    return target


@collecting_once_ready
def run(args: argparse.Namespace) -> int:
    """Build the companion on fakes and run it, with the terminal interface or headless."""
    from companion.daemon.app import JOURNAL_NAME, build, collect_from_now_on
    from companion.daemon.control import ControlError, ControlServer
    from companion.devices.config import ConfigError, default_config, load_config
    from companion.session.journal import JournalError

    try:  # a configuration that cannot be used is the first thing to say
        config = load_config(args.config) if args.config else default_config()
    except ConfigError as error:
        print(f"companion: {error}", file=sys.stderr)
        return 2
    if not args.headless:
        problem = _why_no_screen()
        if problem is not None:
            print(f"companion simulate: {problem}", file=sys.stderr)
            return 2
    state_dir: Path = args.state_dir or default_state_dir()
    level = logging.DEBUG if args.verbose else logging.WARNING
    log_format = "%(asctime)s %(levelname)s %(name)s: %(message)s"
    server: ControlServer | None = None
    try:
        if args.control:  # first: a path that cannot be a socket stops the run before it starts
            server = ControlServer(args.control)
        state_dir.mkdir(parents=True, exist_ok=True)
        if args.headless:
            logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
        else:  # the terminal is the simulator's screen: the log goes to a file beside the journal
            logging.basicConfig(level=level, format=log_format, filename=state_dir / LOG_NAME)
        if args.reset:
            moved = set_aside(state_dir / JOURNAL_NAME)
            if moved is not None:
                print(f"companion simulate: the old journal is now {moved}", file=sys.stderr)
        config = dataclasses.replace(
            config, gpio=dataclasses.replace(config.gpio, pin_factory="mock")
        )
        if not args.config:  # a simulator on a laptop keeps its pages to the laptop
            config = dataclasses.replace(
                config, web=dataclasses.replace(config.web, bind="127.0.0.1")
            )
        config = with_options(config, args)
        companion = build(config, simulate=True, state_dir=state_dir)
    except (ConfigError, ControlError, JournalError, OSError) as error:
        if server is not None:
            server.close()
        print(f"companion: {error}", file=sys.stderr)
        return 2
    companion.daemon.after_ready.append(collect_from_now_on)
    sim = companion.rig.simulation
    assert sim is not None
    if server is not None:
        server.start(sim, companion.daemon)
    if companion.web is not None:
        for line in where_the_pages_are(companion.web.url, companion.web.loopback):
            print(f"companion simulate: {line}", flush=True)
    try:
        if args.headless:
            return companion.run()
        from companion.daemon.simulator import run_simulator

        return run_simulator(companion)
    finally:
        if server is not None:
            server.close()


def where_the_pages_are(url: str, loopback: bool) -> list[str]:
    """What the simulator says of its pages: where they are and, when no phone can reach
    them (bound to this computer alone), the option that opens them to the network's."""
    said = [f"the pages are at {url}"]
    if loopback:
        said.append(
            "they answer this computer only; --web-bind 0.0.0.0 opens them to the phones "
            "of your network"
        )
    return said


def _why_no_screen() -> str | None:
    """Say why the terminal interface cannot run here, or None when it can."""
    try:
        import textual  # noqa: F401
    except ImportError:
        return "the simulator's screen needs Textual: pip install 'companion[sim]' (or --headless)"
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return "the simulator's screen needs a terminal (or run it with --headless --control)"
    return None
