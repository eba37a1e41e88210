"""`companion replay LOG.jsonl...`: apply table logs line by line, say what each line did."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from companion.session.session import Session

NAME = "replay"
HELP = (
    "apply a table log (JSON Lines) and print, line by line, what was accepted or refused, "
    "then the whole state, sealed inputs included"
)
#: Said under the options: the state printed at the end is not the table's public view.
SECRETS = (
    "Each line is described with its sealed fields left out, but the state at the end shows "
    "every player's private view (predictions, bets, hands) and, with --json, the engine's "
    "own state: it is for the operator, not for the players while a game is on."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the log file and the --json switch."""
    parser.epilog = SECRETS
    parser.add_argument(
        "log",
        metavar="LOG.jsonl",
        nargs="+",
        help="the table log to apply ('-' for stdin); several are replayed one after the other",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object for scripts (several logs: a list of them, each with its log)",
    )


@dataclass
class Report:
    """What a replay did: one record per non-blank line, and the session at the end."""

    session: Session
    lines: list[dict[str, Any]] = field(default_factory=list)

    @property
    def refused(self) -> int:
        """How many lines were refused or could not be read."""
        return sum(1 for line in self.lines if line["status"] != "accepted")

    def state(self) -> dict[str, Any]:
        """The whole state at the end: public view, every player's private view, the engine."""
        view = self.session.view()
        table = self.session.table
        return {
            "view": view.to_json(),
            "private": {p: self.session.private_view(p).to_json()["details"] for p in view.players},
            "engine": table.binding.engine_state() if table is not None else None,
        }


def replay(lines: Iterable[str], session: Session | None = None) -> Report:
    """Apply every line of a table log to ``session`` (a fresh in-memory one by default).

    A line that cannot be read or is refused is reported and skipped; the next line goes on.
    The game's rules judge every line; the table's order of play does not (see
    ``Session.submit``), so a log written before an order was kept replays as its journal.
    """
    from companion.session.log import LogError, describe, parse_line
    from companion.session.session import Session  # here: it brings in every engine

    report = Report(session or Session.in_memory())
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            entry = parse_line(text, number)
        except LogError as error:
            report.lines.append(
                {"line": number, "status": "error", "field": error.field, "message": str(error)}
            )
            continue
        outcome = report.session.submit(entry, ordered=False)
        record: dict[str, Any] = {
            "line": number,
            "status": "accepted" if outcome.accepted else "refused",
            "type": entry.TYPE,
            "entry": describe(entry),
        }
        if not outcome.accepted:
            record.update(code=outcome.code, sentence=outcome.sentence)
        report.lines.append(record)
    return report


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def print_text(report: Report, out: TextIO) -> None:
    """Print a replay for people: one line per log line, then the state."""
    for line in report.lines:
        status = f"line {line['line']}: {line['status']:<9}"
        if line["status"] == "error":
            print(f"{status} {line['message']}", file=out)
        elif line["status"] == "refused":
            print(f"{status} {line['entry']}: {line['code']}: {line['sentence']}", file=out)
        else:
            print(f"{status} {line['entry']}", file=out)
    print(f"\n{len(report.lines)} lines, {report.refused} refused or unreadable\n", file=out)
    state = report.state()
    view = state["view"]
    if view["game"] is None:
        print("no game", file=out)
        return
    print(f"game {view['game_id']}: {view['game']}, race {view['race']}, {view['phase']}", file=out)
    for key in ("players", "turn", "sealed", "waiting_for", "winners", "last"):
        print(f"  {key}: {_compact(view[key])}", file=out)
    if view["last_refusal"]:
        print(f"  last_refusal: {_compact(view['last_refusal'])}", file=out)
    print("board:", file=out)
    for key, value in view["board"].items():
        print(f"  {key}: {_compact(value)}", file=out)
    print("private:", file=out)
    for player, details in state["private"].items():
        print(f"  {player}: {_compact(details)}", file=out)


def run(args: argparse.Namespace) -> int:
    """Replay each log in turn; exit 1 when a line was refused or unreadable, 2 when a log was.

    Several logs are replayed in the order given, each in a fresh session: as text, each
    under a ``==> LOG <==`` header, a blank line between them; with --json, one list.
    """
    several = len(args.log) > 1
    reports: list[dict[str, Any]] = []
    status = 0
    for number, log in enumerate(args.log):
        if several and not args.json:
            print(f"{chr(10) if number else ''}==> {_shown(log)} <==", flush=True)
        report = _replay_log(log)
        if report is None:
            status = 2
            continue
        if report.refused:
            status = max(status, 1)
        if not args.json:
            print_text(report, sys.stdout)
            continue
        data = {"lines": report.lines, "refused": report.refused, **report.state()}
        if several:
            reports.append({"log": log, **data})
        else:
            print(json.dumps(data, indent=2, ensure_ascii=False))
    if several and args.json:
        print(json.dumps(reports, indent=2, ensure_ascii=False))
    return status


def _shown(log: str) -> str:
    return "standard input" if log == "-" else log


def _replay_log(log: str) -> Report | None:
    """Replay one log file ('-': stdin); None, said on stderr, when it cannot be read."""
    try:
        if log == "-":
            return replay(sys.stdin)
        with open(log, encoding="utf-8") as handle:
            return replay(handle)
    except OSError as error:
        print(f"companion replay: cannot read {log}: {error.strerror}", file=sys.stderr)
    except UnicodeDecodeError as error:
        print(f"companion replay: {log} is not UTF-8 text: {error.reason}", file=sys.stderr)
    return None
