"""A club evening at speed: N tables (the real publisher and outbox), a real Mosquitto, a real
league (`companion league` in a child process), and a broker restart in the middle.

Each table plays short games on its own thread, its engines fed pre-drawn legal inputs, its
journal on disk (each input committed as at the table); after each input it hands its view
to its publisher, as the daemon does. Once the league holds half of the results, the broker
is killed (SIGKILL: what it had not saved is lost) and started again while the tables play.
Figures: results per second, the lag from a game's end at its table to its place in the
league (p50, p99, and p99 of the games that did not end around the restart), the league's
peak memory, and results lost and stored twice (both must be 0).

Then one table floods the broker for a few seconds (the largest results the league takes,
results too large for it, garbage, as fast as it can) while another ends a game: how long
that honest result waits behind the flood (from the broker's acknowledgement to the
league's file), the league's memory during the flood, and how many of the flood's results
the league kept (its budget).
"""

from __future__ import annotations

import json
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
from companion.club.mqtt import client_for
from companion.club.payloads import content_hash, dump, result_payload
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
#: How long a table floods the broker (seconds; ``--quick``: the shorter), and how far into
#: the flood another table ends a game (a share of its length).
FLOOD_S, QUICK_FLOOD_S, HONEST_AT = 5.0, 2.0, 0.3


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


def peak_memory_mb(pid: int, field: str = "VmHWM") -> float:
    """A process's peak resident memory (VmHWM), or its resident memory now (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def run(
    quick: bool, tables: int = 50, games_per_table: int = 3, flood_s: float = FLOOD_S
) -> dict[str, Figure]:
    """Play the evening and report its figures (none when Mosquitto is not installed)."""
    if quick:
        tables, games_per_table, flood_s = 10, 2, min(flood_s, QUICK_FLOOD_S)
    quiet = logging.getLogger("companion.club")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # the restart's "lost the broker" lines are expected here
    try:
        with tempfile.TemporaryDirectory(prefix="club-bench-") as folder:
            return _evening(Path(folder), tables, games_per_table, flood_s)
    finally:
        quiet.setLevel(level)


def _evening(folder: Path, count: int, games_per_table: int, flood_s: float) -> dict[str, Figure]:
    users = {"league": "league-pw", "flood": "flood-pw", "honest": "honest-pw"}
    users |= {f"t{n}": f"pw{n}" for n in range(1, count + 1)}
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
        rows = stored(database)
        flood = _flood(folder, broker, database, league.pid, flood_s)
    finally:
        for _, session, publisher in tables:
            publisher.stop()
            session.close()
        league.send_signal(signal.SIGTERM)
        try:
            league.wait(10)
        except subprocess.TimeoutExpired:  # a league still busy with a flood: stopped
            league.kill()
            league.wait(10)
        broker.stop()
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
        "flood: another table's result delayed": Figure(1000 * flood[0], "ms"),
        "flood: league memory": Figure(flood[1], "MB"),
        "flood: results kept of the flood": Figure(flood[2], "results"),
    }


def _flood(
    folder: Path, broker: LocalBroker, database: Path, league: int, seconds: float
) -> tuple[float, float, int]:
    """One table floods while another ends a game: that game's wait from the broker's
    acknowledgement to the league's file (s), the league's memory meanwhile (MB) and the
    flood's results it kept."""
    base = _one_result(folder / "flood.sqlite3")
    options = [{"board_name": "x" * 190, "teams": [["y" * 190] * n] * 2} for n in (8, 60)]
    flooder = client_for(Broker("127.0.0.1", broker.port, username="flood", password="flood-pw"),
                         "flood")  # fmt: skip
    flooder.connect("127.0.0.1", broker.port)
    flooder.loop_start()
    path = folder / "honest.sqlite3"
    session = Session.open(path)
    session.results = result_payload
    login = Broker("127.0.0.1", broker.port, username="honest", password="honest-pw")
    publisher = Publisher(ClubSection(CLUB, "honest", login), path, reconnect_s=(0.05, 0.5))
    publisher.start()
    game = draw_game(7)
    stop = threading.Event()

    def flood() -> None:
        seq = 0
        while not stop.is_set():
            seq += 1
            if seq % 3 == 2:
                payload: str | bytes = b"\xff" * 4000
            else:
                result = {**base, "id": f"{seq:032x}", "table": "flood", "seq": seq,
                          "game_id": seq, "options": options[seq % 3]}  # fmt: skip
                result["hash"] = content_hash(result)
                payload = dump(result)
            flooder.publish(f"companion/{CLUB}/flood/results", payload, 0)

    thread = threading.Thread(target=flood, daemon=True)
    honest = threading.Thread(target=play_table, args=(session, publisher, [game]), daemon=True)
    began = time.monotonic()
    thread.start()
    memory, received = 0.0, ""
    try:
        while time.monotonic() - began < seconds or not received:
            now = time.monotonic()
            memory = max(memory, peak_memory_mb(league, "VmRSS"))
            if now - began >= HONEST_AT * seconds and honest.ident is None:
                honest.start()
            received = next((r[4] for r in stored(database) if r[1] == "honest"), "")
            if now - began > DEADLINE_S:
                break
            time.sleep(0.05)
    finally:
        stop.set()
        thread.join(10)
        if honest.ident is not None:
            honest.join(DEADLINE_S)
        flooder.loop_stop()
        flooder.disconnect()
        publisher.stop()
        session.close()
    kept = sum(1 for _, table, _, _, _ in stored(database) if table == "flood")
    db = sqlite3.connect(path)
    try:
        sent = db.execute("SELECT sent FROM outbox").fetchone()[0]
    finally:
        db.close()
    delay = _at(received) - _at(sent) if received and sent else DEADLINE_S
    return max(delay, 0.0), memory, kept


def _one_result(path: Path) -> dict[str, object]:
    """A real result of a short game, as its table's outbox keeps it."""
    session = Session.open(path)
    session.results = result_payload
    for entry in draw_game(0):
        session.submit(entry)
    session.close()
    db = sqlite3.connect(path)
    try:
        payload = db.execute("SELECT payload FROM outbox").fetchone()[0]
    finally:
        db.close()
    found: dict[str, object] = json.loads(payload)
    found["club"] = CLUB
    return found


def _at(moment: str) -> float:
    return datetime.fromisoformat(moment).timestamp()


if __name__ == "__main__":  # pragma: no cover - a quick look from a shell
    print(run(quick=os.environ.get("QUICK") == "1"))
