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
def _module_names() -> tuple[str, ...]:
    """The command modules' names, not imported (listed once per process: a process that
    later drops its privileges may no longer be able to list the folder)."""
    return tuple(
        info.name
        for info in pkgutil.iter_modules(commands.__path__)
        if not info.name.startswith("_")
    )


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"{commands.__name__}.{name}")


@functools.cache
def command_modules() -> tuple[ModuleType, ...]:
    """Return every command module, sorted by command name.

    A command module defines NAME, HELP, configure(parser) and run(args) -> int; its file is
    named after its command (``check_config.py`` for ``check-config``).
    """
    return tuple(sorted(map(_load, _module_names()), key=lambda m: str(m.NAME)))


def named_command(argv: Sequence[str]) -> ModuleType | None:
    """The module of the command ``argv`` starts with, loaded alone; None when it starts
    with anything else (an option, a mistyped command, nothing)."""
    if not argv or argv[0].replace("-", "_") not in _module_names() or "_" in argv[0]:
        return None
    return _load(argv[0].replace("-", "_"))


def build_parser(modules: Sequence[ModuleType] | None = None) -> argparse.ArgumentParser:
    """Build the argument parser with these sub-commands (by default, every one)."""
    parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules() if modules is None else modules:
        child = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(child)
        child.set_defaults(handler=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments and run the chosen command; return its exit status.

    A command named first is parsed by a parser that knows only it, so a command does not
    wait for every other command's module to load; anything else gets the whole parser
    (the list of commands, a mistyped command's error).
    """
    given = sys.argv[1:] if argv is None else list(argv)
    command = named_command(given)
    parser = build_parser(None if command is None else [command])
    args = parser.parse_args(given)
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
