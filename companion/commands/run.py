"""`companion run`: the companion at the table, on the Raspberry Pi's real hardware."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from companion.commands._pages import add_options, with_options
from companion.commands._starting import collecting_once_ready

NAME = "run"
HELP = "run the companion on the real hardware (what the systemd service starts)"

#: The exit statuses besides 0 (stopped): systemd/companion.service restarts on neither,
#: since the same start would fail the same way until someone changes something.
EXIT_CONFIG = 2
EXIT_DEVICE = 3
EPILOG = (
    f"exit status: 0 once stopped; {EXIT_CONFIG} for a configuration or a journal that "
    f"cannot be used; {EXIT_DEVICE} for a device the table needs (the GPIO) that cannot "
    "be opened"
)

log = logging.getLogger("companion")


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the run options."""
    parser.epilog = EPILOG
    parser.add_argument("--config", metavar="FILE", help="configuration file")
    parser.add_argument("--state-dir", metavar="DIR", type=Path, help="where the journal lives")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="debug-level log (device retries, refusals by reason code; never a secret)",
    )
    add_options(parser)


@collecting_once_ready
def run(args: argparse.Namespace) -> int:
    """Load the configuration, open the devices and run until stopped."""
    from companion.daemon.app import build, collect_from_now_on
    from companion.daemon.rig import DeviceUnavailable
    from companion.devices.config import ConfigError, load_config
    from companion.session.journal import JournalError

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        config = with_options(load_config(args.config), args)
        companion = build(config, simulate=False, state_dir=args.state_dir)
    except (ConfigError, JournalError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except DeviceUnavailable as error:
        log.debug("the devices cannot be opened", exc_info=True)  # -v: where, for a report
        print(f"companion: {' '.join(str(error).split())}", file=sys.stderr)
        return EXIT_DEVICE
    companion.daemon.after_ready.append(collect_from_now_on)
    if companion.web is not None:
        print(f"companion: the pages are at {companion.web.url}", flush=True)
    return companion.run()
