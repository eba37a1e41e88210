"""`companion export GAME`: write a game's journal as a table log that `companion replay` reads."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the journal is loaded by the commands that open one, not at start
    from companion.session.journal import Journal

NAME = "export"
HELP = (
    "write the journal of a game as a table log (JSON Lines) for `companion replay`: "
    "a full dump, sealed inputs included"
)
#: Where the installed service keeps its journal (StateDirectory=companion of its unit).
SERVICE_JOURNAL = Path("/var/lib/companion/journal.sqlite3")
#: Said under the options: the operator's own dump is no place for players to look.
SECRETS = (
    "The log holds every input in full: predictions, bets and hands that are still sealed "
    "at the table are in it. Keep it from the players until the game is over."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the game, the journal and the output file."""
    parser.epilog = SECRETS
    parser.add_argument("game", metavar="GAME", help="the game's id (see `companion games`)")
    parser.add_argument(
        "--db",
        type=Path,
        help="the journal file (default: the companion's own, else the service's, else the "
        "simulator's)",
    )
    parser.add_argument("-o", "--output", type=Path, help="write here instead of to stdout")


def open_existing(path: Path | None, command: str = "export") -> Journal:
    """Open an existing journal, read-only where it cannot be written; never create one.

    Without ``path``, the companion's own journal; when there is none (and
    $COMPANION_JOURNAL names none), the simulator's, said on stderr by ``command``.
    Raises JournalError (a missing or empty file, a folder, a damaged or foreign file).
    """
    from companion.session.journal import Journal

    path = path or found_journal(command)
    return Journal.open(path, create=False, writable=False)


def found_journal(command: str) -> Path:
    """The companion's own journal; on a machine without one, the installed service's (on
    the Pi), else the simulator's (on a laptop)."""
    from companion.session.journal import JournalError, default_path

    own = default_path()
    if own.exists() or os.environ.get("COMPANION_JOURNAL"):
        return own
    if SERVICE_JOURNAL.exists():
        if not os.access(SERVICE_JOURNAL, os.R_OK):
            raise JournalError(
                f"the service's journal, {SERVICE_JOURNAL}, is readable by the service only: "
                f"sudo companion {command}"
            )
        said = f"companion {command}: reading the service's journal, {SERVICE_JOURNAL}"
        print(said, file=sys.stderr)
        return SERVICE_JOURNAL
    from companion.commands.simulate import simulator_journal

    simulated = simulator_journal()
    if not simulated.exists():
        raise JournalError(f"there is no journal at {own}, nor the simulator's at {simulated}")
    print(f"companion {command}: reading the simulator's journal, {simulated}", file=sys.stderr)
    return simulated


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, readable and writable by its owner only (0600), even when
    the file was there before with a wider mode: it holds sealed inputs."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(handle, "w", encoding="utf-8") as output:
        os.fchmod(output.fileno(), 0o600)
        output.write(text)


def run(args: argparse.Namespace) -> int:
    """Write every accepted entry of the game, the new_game line first."""
    try:
        game_id = int(args.game)
    except ValueError:
        print(f"companion export: GAME is a game id (a number), not {args.game!r}", file=sys.stderr)
        return 2
    from companion.session.journal import JournalError

    try:
        journal = open_existing(args.db)
        try:
            lines = journal.events(game_id)
        finally:
            journal.close()
    except JournalError as error:
        print(f"companion export: {error}", file=sys.stderr)
        return 2
    text = "".join(line + "\n" for line in lines)
    try:
        if args.output is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            write_private(args.output, text)
    except BrokenPipeError:
        raise
    except OSError as error:
        where = "standard output" if args.output is None else str(args.output)
        print(f"companion export: cannot write {where}: {error.strerror}", file=sys.stderr)
        return 2
    return 0
