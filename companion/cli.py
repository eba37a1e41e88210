"""The `companion` command line: one sub-command per module of `companion.commands`."""

from __future__ import annotations

import argparse
import functools
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from companion import __version__, commands

PROG = "companion"
DESCRIPTION = (
    "Runs the table of a horse-racing board game, such as Jumpy Jack, Course hippique or "
    "Jockey: reads the die, the buttons and the cards, checks every move, keeps every score."
)


@functools.cache
def command_modules() -> tuple[ModuleType, ...]:
    """Return every command module, sorted by command name (found once per process: a
    process that later drops its privileges may no longer be able to list the folder).

    A command module defines NAME, HELP, configure(parser) and run(args) -> int.
    """
    found = []
    for info in pkgutil.iter_modules(commands.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        found.append(module)
    return tuple(sorted(found, key=lambda m: str(m.NAME)))


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every discovered sub-command."""
    parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules():
        child = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(child)
        child.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the chosen command; return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return 0
    try:
        status: int = args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    return status
