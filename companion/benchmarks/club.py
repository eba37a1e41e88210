"""A club evening at speed: N tables (the real publisher and outbox), a real Mosquitto, a real
league (`companion league` in a child process), and a broker restart in the middle.

Each table plays short games on its own thread, its engines fed pre-drawn legal inputs, its
journal on disk (each input committed as at the table); after each input it hands its view
to its publisher, as the daemon does. Once the league holds half of the results, the broker
is killed (SIGKILL: what it had not saved is lost) and started again while the tables play.
Figures: results per second, the lag from a game's end at its table to its place in the
league (p50, p99, and p99 of the games that did not end around the restart), the league's
peak memory, and results lost and stored twice (both must be 0).
"""

from __future__ import annotations

import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

from companion.benchmarks import Figure, percentile
from companion.club.broker import BrokerMissing, LocalBroker
from companion.club.payloads import result_payload
from companion.club.publisher import Publisher
from companion.devices.config.sections import Broker, ClubSection
from companion.session.autoplay import legal_input
from companion.session.log import LogEntry, NewGame
from companion.session.session import Session

NAME = "club"

CLUB = "bench"
PLAYERS = ("Anna", "Bob", "Chloé")
#: Short games, so an evening of many tables takes seconds.
SET_UPS = (("jumpy_jack", {"target": 2}), ("course_hippique", {"rounds": 1, "course_length": 5}))
#: How long the bench waits for the league to have every result (seconds).
DEADLINE_S = 120.0


def draw_game(seed: int) -> list[LogEntry]:
    """The inputs of one whole short game, drawn in memory by the engines."""
    kind, options = SET_UPS[seed % len(SET_UPS)]
    probe = Session.in_memory()
    probe.submit(NewGame(kind, PLAYERS, dict(options)))
    rng = random.Random(seed)
    while probe.table is not None and not probe.view().finished:
        entry = legal_input(probe.table, rng)
        assert entry is not None
        probe.submit(entry)
    assert probe.table is not None
    return list(probe.table.entries)


def play_table(session: Session, publisher: Publisher, games: list[list[LogEntry]]) -> None:
    for game in games:
        for entry in game:
            session.submit(entry)
            publisher.board(session.view())


def stored(database: Path) -> list[tuple[str, str, int, str, str]]:
    """What the league holds: (id, table, game id, ended, received) of every result."""
    if not database.exists():
        return []
    db = sqlite3.connect(database)
    try:
        return list(db.execute("SELECT id, tbl, game_id, ended, received FROM results"))
    except sqlite3.OperationalError:
        return []
    finally:
        db.close()


def listening(league: subprocess.Popen[str]) -> None:
    """Wait until the league has subscribed (a result sent before would not be kept for it),
    then let its output drain on a thread of its own."""
    assert league.stdout is not None
    for line in league.stdout:
        if "listening to the tables" in line:
            break
    threading.Thread(target=league.stdout.read, daemon=True).start()


def peak_memory_mb(pid: int) -> float:
    """A process's peak resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def run(quick: bool, tables: int = 50, games_per_table: int = 3) -> dict[str, Figure]:
    """Play the evening and report its figures (none when Mosquitto is not installed)."""
    if quick:
        tables, games_per_table = 10, 2
    quiet = logging.getLogger("companion.club")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # the restart's "lost the broker" lines are expected here
    try:
        with tempfile.TemporaryDirectory(prefix="club-bench-") as folder:
            return _evening(Path(folder), tables, games_per_table)
    finally:
        quiet.setLevel(level)


def _evening(folder: Path, count: int, games_per_table: int) -> dict[str, Figure]:
    users = {"league": "league-pw"} | {f"t{n}": f"pw{n}" for n in range(1, count + 1)}
    try:
        broker = LocalBroker(folder / "broker", users, CLUB)
    except BrokerMissing as error:
        print(f"companion bench: club: {error}", file=sys.stderr)
        return {}
    broker.start()
    database = folder / "league.sqlite3"
    config = folder / "league.toml"
    config.write_text(
        f'[league]\nclub = "{CLUB}"\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'username = "league"\npassword = "league-pw"\ndatabase = "{database}"\n'
        'bind = "127.0.0.1"\npage_port = 0\n'
    )
    league = subprocess.Popen(
        [sys.executable, "-m", "companion", "league", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    listening(league)
    seeds = iter(range(count * games_per_table))
    plans = [[draw_game(next(seeds)) for _ in range(games_per_table)] for _ in range(count)]
    tables = []
    for n in range(1, count + 1):
        path = folder / f"t{n}.sqlite3"
        session = Session.open(path)
        session.results = result_payload
        login = Broker("127.0.0.1", broker.port, username=f"t{n}", password=f"pw{n}")
        publisher = Publisher(ClubSection(CLUB, f"t{n}", login), path, reconnect_s=(0.05, 0.5))
        publisher.start()
        tables.append((path, session, publisher))
    expected = count * games_per_table
    began = time.time()
    restart: tuple[float, float] = (0.0, 0.0)
    try:
        players = [threading.Thread(target=play_table, args=(s, p, plans[i]))
                   for i, (_, s, p) in enumerate(tables)]  # fmt: skip
        for thread in players:
            thread.start()
        # The broker goes away while the tables play, once half the results are in.
        halfway = time.monotonic() + DEADLINE_S
        while len(stored(database)) < expected // 2 and time.monotonic() < halfway:
            time.sleep(0.02)
        down = time.time()
        broker.stop(kill=True)  # a crash: what the broker had not saved is gone
        broker.start()
        restart = (down, time.time())
        for thread in players:
            thread.join()
        deadline = time.monotonic() + DEADLINE_S
        while len(stored(database)) < expected and time.monotonic() < deadline:
            time.sleep(0.1)
        finished = time.time()
        memory = peak_memory_mb(league.pid)
    finally:
        for _, session, publisher in tables:
            publisher.stop()
            session.close()
        league.send_signal(signal.SIGTERM)
        league.wait(10)
        broker.stop()
    rows = stored(database)
    made = set()
    for path, _, _ in tables:
        db = sqlite3.connect(path)
        made |= {row[0] for row in db.execute("SELECT json_extract(payload, '$.id') FROM outbox")}
        db.close()
    games = [(table, game_id) for _, table, game_id, _, _ in rows]
    lags = [_at(received) - _at(ended) for _, _, _, ended, received in rows]
    calm = [
        _at(received) - _at(ended)
        for _, _, _, ended, received in rows
        if not restart[0] - 1.0 <= _at(ended) <= restart[1]
    ]
    return {
        "tables": Figure(count, "tables"),
        "results": Figure(len(rows), "results"),
        "results per second": Figure(len(rows) / max(finished - began, 1e-9), "results/s"),
        "result to standings lag p50": Figure(1000 * percentile(lags or [0.0], 0.5), "ms"),
        "result to standings lag p99": Figure(1000 * percentile(lags or [0.0], 0.99), "ms"),
        "lag p99 away from the broker restart": Figure(
            1000 * percentile(calm or [0.0], 0.99), "ms"
        ),
        "broker restart": Figure(1000 * (restart[1] - restart[0]), "ms"),
        "league peak memory": Figure(memory, "MB"),
        "lost": Figure(len(made - {r[0] for r in rows}), "results"),
        "stored twice": Figure(len(games) - len(set(games)), "results"),
    }


def _at(moment: str) -> float:
    return datetime.fromisoformat(moment).timestamp()


if __name__ == "__main__":  # pragma: no cover - a quick look from a shell
    print(run(quick=os.environ.get("QUICK") == "1"))
