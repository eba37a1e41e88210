"""`companion games`: list the games in the journal; abandon one."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from companion.commands.export import open_existing

NAME = "games"
HELP = "list the games in the journal (id, game, players, status); --abandon ID"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the journal, --abandon and --json."""
    parser.add_argument(
        "--db",
        type=Path,
        help="the journal file (default: the companion's own, else the service's, else the "
        "simulator's)",
    )
    parser.add_argument("--abandon", type=int, metavar="ID", help="mark this game abandoned")
    parser.add_argument("--json", action="store_true", help="print one JSON list")


def run(args: argparse.Namespace) -> int:
    """List the games, after abandoning one if asked."""
    from companion.session.journal import JournalError

    try:
        journal = open_existing(args.db, NAME)
        try:
            if args.abandon is not None:
                journal.set_status(args.abandon, "abandoned")
            records = journal.games()
        finally:
            journal.close()
    except JournalError as error:
        print(f"companion games: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([asdict(r) for r in records], indent=2, ensure_ascii=False))
        return 0
    if not records:
        print("no games in the journal")
    from companion.games.registry import GAMES  # only now: the registry imports every engine

    for r in records:
        name = next((g.title for g in GAMES if g.kind == r.kind), r.kind)
        players = ", ".join(r.players) or "(players unreadable)"
        print(f"{r.id:>4}  {name:<15}  {r.status:<9}  {r.events:>5} events  {r.created}  {players}")
    return 0
