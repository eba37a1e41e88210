"""`companion outbox`: the results queued for the club's league; send again those it refused."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from companion.commands.export import open_existing

NAME = "outbox"
HELP = (
    "list the results queued for the club's league (sent, waiting, refused and why); "
    "--send-again ID... or --send-again-refused after a fix"
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the journal, --send-again, --send-again-refused and --json."""
    parser.add_argument(
        "--db",
        type=Path,
        help="the journal file (default: the companion's own, else the simulator's)",
    )
    parser.add_argument(
        "--send-again",
        type=int,
        nargs="+",
        default=[],
        metavar="ID",
        help="send these results again (the running table sends them within seconds)",
    )
    parser.add_argument(
        "--send-again-refused",
        action="store_true",
        help="send again every result the league refused",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list")


def run(args: argparse.Namespace) -> int:
    """List the outbox, after queueing results to be sent again if asked."""
    from companion.session.journal import JournalError

    try:
        journal = open_existing(args.db, NAME)
        try:
            wanted = list(args.send_again)
            if args.send_again_refused:
                wanted += [r.id for r in journal.outbox() if r.refused]
            found = journal.send_again(wanted) if wanted else []
            records = journal.outbox()
        finally:
            journal.close()
    except JournalError as error:
        print(f"companion outbox: {error}", file=sys.stderr)
        return 2
    unknown = sorted(set(args.send_again) - set(found))
    if unknown:
        listed = ", ".join(str(n) for n in unknown)
        print(f"companion outbox: no result {listed} in the outbox", file=sys.stderr)
    if found:
        print(f"queued to be sent again: {', '.join(str(n) for n in found)}", file=sys.stderr)
    if args.json:
        print(json.dumps([asdict(r) for r in records], indent=2, ensure_ascii=False))
        return 2 if unknown else 0
    if not records:
        print("no results in the outbox (a table with a [club] section queues them)")
    for r in records:
        if r.refused:
            state = f"refused by the league: {r.refused}"
        else:
            state = f"sent {r.sent}" if r.sent else "waiting to be sent"
        print(f"{r.id:>4}  game {r.game_id:<4}  {r.at}  {state}")
    return 2 if unknown else 0
