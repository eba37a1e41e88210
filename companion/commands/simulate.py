"""`companion simulate`: the companion on a machine without hardware (what `make run` starts)."""

from __future__ import annotations

import argparse

from companion import __version__

NAME = "simulate"
HELP = "run the companion with simulated hardware in this terminal"


def configure(parser: argparse.ArgumentParser) -> None:
    """No options yet."""


def run(args: argparse.Namespace) -> int:
    """Show what the companion is while the table simulator is being built."""
    print(f"companion {__version__} — simulator")
    print("The table simulator arrives with the daemon; `companion --help` lists what runs now.")
    return 0
