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

#: The child: open the journal (rebuilding the game), go on where the journal stands, and
#: print "ack N" once input N is accepted, that is once it is committed to disk.
CHILD = """
import sys
from companion.session.log import parse_line
from companion.session.session import Session

db, log = sys.argv[1], sys.argv[2]
entries = [parse_line(line) for line in open(log, encoding="utf-8")]
session = Session.open(db)
done = len(session.accepted())
print(f"start {done}", flush=True)
for index in range(done, len(entries)):
    outcome = session.submit(entries[index])
    if not outcome.accepted:
        print(f"refused {index} {outcome.code}", flush=True)
        sys.exit(3)
    print(f"ack {index}", flush=True)
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


def test_killed_mid_game_every_acknowledged_input_survives_and_nothing_else(
    tmp_path: Path,
) -> None:
    rng = random.Random(20240611)
    entries = random_log("jumpy_jack", random.Random(99), length=600, undo_rate=0.06)
    assert len(entries) == 600
    expected = [dumps(e) for e in entries]
    log = tmp_path / "game.jsonl"
    log.write_text("".join(line + "\n" for line in expected), encoding="utf-8")
    db = tmp_path / "journal.sqlite3"
    acknowledged = 0  # how many inputs, from the first, the table has been told about
    started = time.monotonic()
    for run in range(KILLS + 1):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(db), str(log)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        last = run == KILLS
        seen: list[str] = []
        if not last and rng.random() < 0.2:
            # Killed at any moment: while starting, rebuilding, or applying.
            time.sleep(rng.random() * 0.4)
            child.send_signal(signal.SIGKILL)
        elif not last:
            # Killed after a random number of acknowledgements, a moment into the next input.
            wanted = rng.randint(0, 25)
            for line in child.stdout:
                seen.append(line)
                if not line.endswith("\n"):
                    break
                word, *rest = line.split()
                if (word == "start" and wanted == 0) or (
                    word == "ack" and int(rest[0]) >= wanted + acknowledged - 1
                ):
                    time.sleep(rng.random() * 0.005)
                    break
            child.send_signal(signal.SIGKILL)
        output, errors = child.communicate()
        output = "".join(seen) + output
        # Only whole lines count: a line cut by the kill was never acknowledged.
        lines = [line.split() for line in output.splitlines(keepends=True) if line.endswith("\n")]
        acks = [int(words[1]) for words in lines if words[0] == "ack"]
        for words in lines:
            if words[0] == "start":
                # The restarted child rebuilt at least every acknowledged input.
                assert int(words[1]) >= acknowledged
        if last:
            assert child.returncode == 0, errors
            assert output.splitlines()[-1] == "done"
        else:
            assert child.returncode == -signal.SIGKILL, errors
        if acks:
            acknowledged = max(acknowledged, acks[-1] + 1)
        on_disk = journal_lines(db)
        # Every acknowledged input is on disk, in order; beyond them at most the one input
        # committed just before the kill, and nothing that was never submitted.
        assert acknowledged <= len(on_disk) <= acknowledged + 1, (run, output[-300:], errors)
        assert on_disk == expected[: len(on_disk)]
        acknowledged = len(on_disk)
    assert journal_lines(db) == expected
    assert time.monotonic() - started < 60
