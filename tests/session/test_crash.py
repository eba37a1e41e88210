"""Power-cut safety: a real process killed with SIGKILL mid-game loses no acknowledged input."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from companion.session.autoplay import random_log
from companion.session.log import dumps
from tests.memory import memory_folder

#: The child: open the journal (rebuilding the game), go on where the journal stands, and
#: print "ack N" once input N is accepted, that is once it is committed to disk. It stops
#: before input LIMIT and waits there to be killed, so a kill never comes after the end.
CHILD = """
import sys
from companion.session.log import parse_line
from companion.session.session import Session

db, log, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
entries = [parse_line(line) for line in open(log, encoding="utf-8")]
session = Session.open(db)
done = len(session.accepted())
print(f"start {done}", flush=True)
for index in range(done, min(limit, len(entries))):
    outcome = session.submit(entries[index])
    if not outcome.accepted:
        print(f"refused {index} {outcome.code}", flush=True)
        sys.exit(3)
    print(f"ack {index}", flush=True)
if limit < len(entries):
    print("waiting", flush=True)
    sys.stdin.read()
    sys.exit(4)
session.close()
print("done", flush=True)
"""


def journal_lines(db: Path) -> list[str]:
    if not db.exists():
        return []
    with sqlite3.connect(db) as connection:
        tables = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
        if "events" not in tables:
            return []
        return [r[0] for r in connection.execute("SELECT entry FROM events ORDER BY game_id, seq")]


KILLS = 20


def run_child(
    db: Path, log: Path, limit: int, kill_after_ack: int | None, delay: float | None, errors: Path
) -> tuple[list[str], int]:
    """Run the child up to input `limit` and kill it; return its whole lines and exit code.

    With `kill_after_ack`, the kill comes `delay` seconds after the child acknowledged that
    input (or started, for -1); without it, `delay` seconds after the child was started; with
    no delay at all the child is not killed and runs to its end.
    Every byte the child wrote is read through one buffered reader, so no line is lost.
    """
    with errors.open("w") as stderr:
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db), str(log), str(limit)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    assert child.stdout is not None and child.stdin is not None
    output: list[str] = []
    if kill_after_ack is None:
        time.sleep(delay or 0.0)
    else:
        for line in child.stdout:
            output.append(line)
            words = line.split()
            if words[0] in ("waiting", "refused") or (
                (words[0] == "start" and kill_after_ack < 0)
                or (words[0] == "ack" and int(words[1]) >= kill_after_ack)
            ):
                time.sleep(delay or 0.0)
                break
    if delay is not None:
        child.send_signal(signal.SIGKILL)
    output.extend(child.stdout.read().splitlines(keepends=True))
    child.stdin.close()
    child.stdout.close()
    code = child.wait()
    # Only whole lines count: a line cut by the kill was never acknowledged.
    return [line for line in output if line.endswith("\n")], code


def test_killed_mid_game_every_acknowledged_input_survives_and_nothing_else(
    tmp_path: Path,
) -> None:
    with memory_folder(tmp_path, "crash-") as folder:
        killed_mid_game(folder)


def killed_mid_game(folder: Path) -> None:
    """Kill the child KILLS times at chosen moments, then let it finish (files in ``folder``)."""
    rng = random.Random(20240611)
    entries = random_log("jumpy_jack", random.Random(99), length=600, undo_rate=0.06)
    assert len(entries) == 600
    expected = [dumps(e) for e in entries]
    log = folder / "game.jsonl"
    log.write_text("".join(line + "\n" for line in expected), encoding="utf-8")
    db = folder / "journal.sqlite3"
    errors = folder / "stderr.txt"
    acknowledged = 0  # how many inputs, from the first, the table has been told about
    for run in range(KILLS + 1):
        last = run == KILLS
        # Each killed run may go at most 30 inputs further: the game never ends before a kill.
        limit = len(entries) if last else acknowledged + rng.randint(1, 30)
        if last:
            lines, code = run_child(db, log, limit, None, None, errors)
        elif rng.random() < 0.2:
            # Killed at any moment: while starting, rebuilding, applying or waiting.
            lines, code = run_child(db, log, limit, None, rng.random() * 0.4, errors)
        else:
            # Killed a moment after a chosen acknowledgement, often inside the next input.
            wanted = rng.randint(acknowledged - 1, limit - 1)
            lines, code = run_child(db, log, limit, wanted, rng.random() * 0.005, errors)
        words = [line.split() for line in lines]
        acks = [int(w[1]) for w in words if w[0] == "ack"]
        for w in words:
            if w[0] == "start":
                # The restarted child rebuilt at least every acknowledged input.
                assert int(w[1]) >= acknowledged
        stderr = errors.read_text()
        assert not any(w[0] == "refused" for w in words), (lines, stderr)
        if last:
            assert code == 0, stderr
            assert words[-1] == ["done"]
        else:
            assert code == -signal.SIGKILL, stderr
        if acks:
            assert acks == list(range(acks[0], acks[-1] + 1))
            acknowledged = max(acknowledged, acks[-1] + 1)
        on_disk = journal_lines(db)
        # Every acknowledged input is on disk, in order; beyond them at most the one input
        # committed just before the kill, and nothing that was never submitted.
        assert acknowledged <= len(on_disk) <= acknowledged + 1, (run, lines[-5:], stderr)
        assert on_disk == expected[: len(on_disk)]
        acknowledged = len(on_disk)
    assert journal_lines(db) == expected
