"""The league's memory: every result once, in its own SQLite file, and the standings from them.

A result is stored by its id: the same id again (a table sending again what the broker had
not acknowledged, the broker delivering again) changes nothing. A later result of the same
game of the same table (an undo after the end, then another ending) replaces the earlier.
The standings are worked out from the stored results whenever asked (the last few tables
asked for are kept until the next result): per evening and per season, per game and over
every game, with a Plackett-Luce rating (``openskill``) computed in the order the games
ended, so the same file always gives the same table.

The file also keeps, per table, every outbox number the league has had (``numbers``: from
1, so the very first result lost is noticed), the results it refused with their reason
(``refusals``: each table is told them), and the stored rows that no longer read or draw
(``quarantine``: set aside when the file is opened, listed on the board, never fatal).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from companion.club.checks import claimed, result_problem
from companion.club.payloads import content_hash
from companion.session.names import fold_name

log = logging.getLogger("companion.league")

#: The league file's layout: 2 added the numbers, the refusals and the quarantine.
LEAGUE_SCHEMA = 2
#: A game that ends before this hour of the morning belongs to the evening before.
EVENING_ENDS_HOUR = 6
#: How many standings tables are kept worked out (the board asks for a dozen).
CACHED_STANDINGS = 64
#: A stored row was checked when it came: any time up to this one still draws (a league
#: whose clock was set back must not set aside what it stored before).
STORED_UNTIL = datetime(9000, 1, 1, tzinfo=UTC)
#: How many refusals are kept per table (the latest).
KEPT_REFUSALS = 100

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    club TEXT NOT NULL,
    tbl TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    started TEXT NOT NULL,
    ended TEXT NOT NULL,
    hash TEXT NOT NULL,
    payload TEXT NOT NULL,
    received TEXT NOT NULL,
    UNIQUE (club, tbl, game_id, started)
);
CREATE TABLE IF NOT EXISTS numbers (
    club TEXT NOT NULL,
    tbl TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (club, tbl, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS refusals (
    club TEXT NOT NULL,
    tbl TEXT NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL,
    code TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (club, tbl, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS quarantine (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    tbl TEXT NOT NULL,
    payload TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
"""

#: What brings a league file of each older version to the next, by the version it reads.
_MIGRATIONS = {
    1: (
        "INSERT OR IGNORE INTO numbers (club, tbl, seq) SELECT club, tbl, "
        "json_extract(payload, '$.seq') FROM results "
        "WHERE json_valid(payload) AND json_type(payload, '$.seq') = 'integer'",
    ),
}


class LeagueError(Exception):
    """The league's file cannot be used (not the league's, newer, unreadable)."""


def key_of(name: str) -> str:
    """Who a name is: the same person at every table, however it is spelt (the name rule)."""
    return fold_name(name)


def evening_of(ended: str) -> str:
    """The club evening (a local date) a game that ended at ``ended`` belongs to."""
    local = datetime.fromisoformat(ended).astimezone()
    return (local - timedelta(hours=EVENING_ENDS_HOUR)).date().isoformat()


def now_text() -> str:
    """The time now, UTC, ISO, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Result:
    """One stored result, as the tables sent it but its options (kept in the file only: the
    board never shows them, and they are the part of a result that may be large)."""

    seq: int
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def kind(self) -> str:
        return str(self.data["game"])

    @property
    def table(self) -> str:
        return str(self.data["table"])

    @property
    def ended(self) -> str:
        return str(self.data["ended"])

    @property
    def evening(self) -> str:
        return evening_of(self.ended)

    @property
    def season(self) -> str:
        return self.evening[:4]

    def players(self) -> list[dict[str, Any]]:
        return list(self.data["players"])


@dataclass(frozen=True)
class RefusedResult:
    """A result of a table the league refused: its number, its id and why."""

    table: str
    seq: int
    id: str
    code: str
    reason: str
    at: str


@dataclass(frozen=True)
class SetAside:
    """A stored row that no longer reads or draws, kept apart with the reason."""

    id: str
    table: str
    reason: str
    at: str


@dataclass
class LeagueStanding:
    """One player's line of a standings table."""

    name: str
    games: int = 0
    wins: int = 0
    ranks: int = 0
    points: int = 0
    rating: float = 0.0
    mu: float = 25.0

    @property
    def average_rank(self) -> float:
        return self.ranks / self.games if self.games else 0.0


@dataclass(frozen=True)
class Scope:
    """Which results a standings table counts: an evening or a season, one game or all."""

    evening: str | None = None
    season: str | None = None
    kind: str | None = None

    def holds(self, result: Result) -> bool:
        return (
            (self.evening is None or result.evening == self.evening)
            and (self.season is None or result.season == self.season)
            and (self.kind is None or result.kind == self.kind)
        )


@dataclass(frozen=True)
class HistoryLine:
    """One game of a player's history, with their overall rating after it."""

    result: Result
    rank: int
    rating: float


def row_problem(payload: str) -> str | None:
    """Why a stored row cannot be shown (it does not read, check or draw), or None."""
    try:
        data = json.loads(payload, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return "not strict JSON"
    if not isinstance(data, dict):
        return "not a JSON object"
    problem = result_problem(data, STORED_UNTIL)
    if problem is not None:
        return problem
    if content_hash(data) != data["hash"]:
        return "the hash does not match the content"
    try:
        evening_of(data["ended"])
        json.dumps(data, allow_nan=False)
    except (ValueError, OverflowError) as error:
        return f"cannot be drawn: {error}"
    return None


def _refuse_constant(word: str) -> Any:
    raise ValueError(word)


def _brief(data: dict[str, Any]) -> dict[str, Any]:
    """A result without its options: what the league keeps of it in memory."""
    return {key: value for key, value in data.items() if key != "options"}


Key = tuple[str, str]


class League:
    """The league's SQLite file and its results in memory; safe to share between threads."""

    def __init__(self, path: Path, db: sqlite3.Connection, results: list[Result]) -> None:
        self.path = path
        self._db = db
        self._results = results
        self._ids = {r.id: r for r in results}
        self._games = {self._game_key(r.data): r for r in results}
        self._lock = threading.Lock()
        self._standings: OrderedDict[Scope, list[LeagueStanding]] = OrderedDict()
        self._model = PlackettLuce()
        #: Every outbox number had of each table (club, table).
        self._numbers: dict[Key, set[int]] = {}
        for club, table, seq in db.execute("SELECT club, tbl, seq FROM numbers"):
            self._numbers.setdefault((club, table), set()).add(seq)
        self._refusals: dict[Key, dict[int, RefusedResult]] = {}
        for club, table, seq, ident, code, reason, at in db.execute(
            "SELECT club, tbl, seq, id, code, reason, at FROM refusals ORDER BY at"
        ):
            refusal = RefusedResult(table, seq, ident, code, reason, at)
            self._refusals.setdefault((club, table), {})[seq] = refusal

    @classmethod
    def open(cls, path: Path) -> League:
        """Open (or create) the league's file; raises LeagueError for one it cannot use.

        A stored row that does not read or draw any more is moved to the quarantine (one
        log line each) and the league opens without it.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > LEAGUE_SCHEMA:
                db.close()
                raise LeagueError(f"{path} was written by a newer league (version {version})")
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if version == 0 and tables:
                db.close()
                raise LeagueError(f"{path} is another program's database; it was left untouched")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA busy_timeout=5000")  # a reader of the file (a backup) may lock it
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                for older in range(version or LEAGUE_SCHEMA, LEAGUE_SCHEMA):
                    for statement in _MIGRATIONS[older]:
                        db.execute(statement)
                db.execute(f"PRAGMA user_version={LEAGUE_SCHEMA}")
                results = cls._readable(db)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as error:
            raise LeagueError(f"cannot use the league file {path}: {error}") from None
        return cls(path, db, results)

    @staticmethod
    def _readable(db: sqlite3.Connection) -> list[Result]:
        """The stored results that read and draw; the others go to the quarantine."""
        results = []
        rows = db.execute("SELECT seq, id, tbl, payload FROM results ORDER BY seq").fetchall()
        for seq, ident, table, payload in rows:
            problem = row_problem(payload) if isinstance(payload, str) else "not text"
            if problem is None:
                results.append(Result(seq, _brief(json.loads(payload))))
                continue
            log.warning("result %s of %s set aside: %s", ident, table, problem)
            db.execute(
                "INSERT INTO quarantine (seq, id, tbl, payload, reason, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (seq, ident, table, str(payload), problem, now_text()),
            )
            db.execute("DELETE FROM results WHERE seq = ?", (seq,))
        return results

    @staticmethod
    def _game_key(data: dict[str, Any]) -> tuple[str, str, int, str]:
        return (data["club"], data["table"], data["game_id"], data["started"])

    def add(self, data: dict[str, Any], received: str | None = None) -> str:
        """Store a checked result once; say ``stored``, ``repeat``, ``replaced`` or ``stale``.

        Its table's outbox number is kept whatever is said (and a refusal of it is forgotten
        once it is stored). Raises ``ValueError`` when a result with the same id but another
        content comes (a replay that was tampered with): it changes nothing.
        """
        key = (str(data["club"]), str(data["table"]))
        with self._lock:
            known = self._ids.get(data["id"])
            if known is not None and known.data["hash"] != data["hash"]:
                raise ValueError("a result with this id and another content is stored")
            earlier = self._games.get(self._game_key(data))
            said = "stored"
            if known is not None:
                said = "repeat"
            elif earlier is not None and earlier.ended >= data["ended"]:
                said = "stale"
            elif earlier is not None:
                said = "replaced"
            now = received or now_text()
            payload = json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False)
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT OR IGNORE INTO numbers (club, tbl, seq) VALUES (?, ?, ?)",
                    (*key, data["seq"]),
                )
                self._db.execute(
                    "DELETE FROM refusals WHERE club = ? AND tbl = ? AND seq = ?",
                    (*key, data["seq"]),
                )
                cursor = None
                if said in ("stored", "replaced"):
                    if earlier is not None:
                        self._db.execute("DELETE FROM results WHERE id = ?", (earlier.id,))
                    cursor = self._db.execute(
                        "INSERT INTO results (id, club, tbl, game_id, started, ended, hash, "
                        "payload, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            data["id"], data["club"], data["table"], data["game_id"],
                            data["started"], data["ended"], data["hash"], payload, now,
                        ),
                    )  # fmt: skip
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._numbers.setdefault(key, set()).add(int(data["seq"]))
            self._refusals.get(key, {}).pop(int(data["seq"]), None)
            if cursor is None:
                return said
            assert cursor.lastrowid is not None
            result = Result(cursor.lastrowid, _brief(data))
            if earlier is not None:
                self._results.remove(earlier)
                del self._ids[earlier.id]
            self._results.append(result)
            self._ids[result.id] = result
            self._games[self._game_key(data)] = result
            self._standings.clear()
            return said

    def refuse(self, club: str, table: str, data: dict[str, Any], code: str, reason: str) -> bool:
        """Keep that a table's result was refused (when the message says its number and id);
        say whether it was kept. Only the latest ``KEPT_REFUSALS`` of a table are kept."""
        found = claimed(data)
        if found is None:
            return False
        seq, ident = found
        key = (club, table)
        with self._lock:
            if seq in self._numbers.get(key, set()):
                return False  # a result the league has: a late copy changes nothing
            refusal = RefusedResult(table, seq, ident, code, reason[:200], now_text())
            kept = self._refusals.setdefault(key, {})
            kept.pop(seq, None)
            kept[seq] = refusal
            dropped = list(kept)[:-KEPT_REFUSALS]
            for old in dropped:
                del kept[old]
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT OR REPLACE INTO refusals (club, tbl, seq, id, code, reason, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (club, table, seq, ident, code, refusal.reason, refusal.at),
                )
                self._db.executemany(
                    "DELETE FROM refusals WHERE club = ? AND tbl = ? AND seq = ?",
                    [(club, table, old) for old in dropped],
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return True

    def has(self, ident: str) -> bool:
        """Whether a result with this id is stored."""
        with self._lock:
            return ident in self._ids

    def is_refused(self, club: str, table: str, seq: int) -> bool:
        """Whether the league keeps a refusal of a table's result number ``seq``."""
        with self._lock:
            return seq in self._refusals.get((club, table), {})

    def refusals(self, club: str, table: str) -> list[RefusedResult]:
        """A table's refused results the league keeps, oldest first."""
        with self._lock:
            return list(self._refusals.get((club, table), {}).values())

    def tables_refused(self) -> list[Key]:
        """Every (club, table) with a refusal kept."""
        with self._lock:
            return [key for key, kept in self._refusals.items() if kept]

    def missing(self, club: str, table: str, top: int, most: int = 16) -> list[tuple[int, int]]:
        """The outbox numbers of a table from 1 to ``top`` (or its highest had) that the
        league has neither had nor refused, as at most ``most`` ranges (first, last)."""
        key = (club, table)
        with self._lock:
            had = self._numbers.get(key, set()) | set(self._refusals.get(key, {}))
        top = max(top, max(had, default=0))
        ranges: list[tuple[int, int]] = []
        expected = 1
        for number in sorted(had):
            if number > expected:
                ranges.append((expected, number - 1))
            expected = max(expected, number + 1)
        if expected <= top:
            ranges.append((expected, top))
        return ranges[:most]

    def quarantined(self) -> list[SetAside]:
        """The rows set aside because they no longer read or draw, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, tbl, reason, at FROM quarantine ORDER BY seq"
            ).fetchall()
        return [SetAside(*row) for row in rows]

    def exported(self) -> list[dict[str, Any]]:
        """Every stored result as its table sent it, options included, in the order the games
        ended (read from the file)."""
        with self._lock:
            rows = self._db.execute("SELECT payload FROM results ORDER BY ended, id").fetchall()
        found: list[dict[str, Any]] = [json.loads(row[0]) for row in rows]
        return sorted(found, key=lambda d: (str(d["ended"]), str(d["id"])))

    def results(self, scope: Scope = Scope()) -> list[Result]:
        """The results a scope holds, in the order the games ended."""
        with self._lock:
            found = [r for r in self._results if scope.holds(r)]
        return sorted(found, key=lambda r: (r.ended, r.id))

    def evenings(self) -> list[str]:
        """Every evening with a result, the latest first."""
        with self._lock:
            return sorted({r.evening for r in self._results}, reverse=True)

    def standings(self, scope: Scope = Scope()) -> list[LeagueStanding]:
        """The standings of a scope, best rating first (ties: more wins, then name)."""
        with self._lock:
            kept = self._standings.get(scope)
            if kept is not None:
                self._standings.move_to_end(scope)
                return kept
        lines: dict[str, LeagueStanding] = {}
        ratings: dict[str, Any] = {}
        for result in self.results(scope):
            players = result.players()
            for player in players:
                key = key_of(player["name"])
                line = lines.setdefault(key, LeagueStanding(player["name"]))
                line.name = player["name"]
                line.games += 1
                line.wins += player["name"] in result.data["winners"]
                line.ranks += player["rank"]
                line.points += player.get("points") or 0
            self._rate(ratings, players)
        for key, line in lines.items():
            rating = ratings.get(key) or self._model.rating()  # one-player games rate nobody
            line.rating = round(rating.ordinal(), 2)
            line.mu = round(rating.mu, 2)
        table = sorted(lines.values(), key=lambda s: (-s.rating, -s.wins, key_of(s.name)))
        with self._lock:
            self._standings[scope] = table
            while len(self._standings) > CACHED_STANDINGS:
                self._standings.popitem(last=False)
        return table

    def _rate(self, ratings: dict[str, Any], players: Sequence[dict[str, Any]]) -> None:
        keys = [key_of(p["name"]) for p in players]
        if len(keys) < 2:
            return
        for key in keys:
            if key not in ratings:
                ratings[key] = self._model.rating(name=key)
        new = self._model.rate([[ratings[k]] for k in keys], ranks=[p["rank"] for p in players])
        for key, team in zip(keys, new, strict=True):
            ratings[key] = team[0]

    def history(self, name: str) -> list[HistoryLine]:
        """A player's games, in the order they ended, with their overall rating after each."""
        wanted = key_of(name)
        ratings: dict[str, Any] = {}
        lines = []
        for result in self.results():
            players = result.players()
            self._rate(ratings, players)
            for player in players:
                if key_of(player["name"]) == wanted and wanted in ratings:
                    lines.append(HistoryLine(result, player["rank"], ratings[wanted].ordinal()))
        return lines

    def close(self) -> None:
        self._db.close()


def rows_for_export(results: Iterable[Result]) -> list[dict[str, Any]]:
    """One flat row per player per result (the CSV export's lines)."""
    rows = []
    for result in results:
        d = result.data
        for player in d["players"]:
            rows.append(
                {
                    "result_id": d["id"], "evening": result.evening, "club": d["club"],
                    "table": d["table"], "game_id": d["game_id"], "game": d["game"],
                    "started": d["started"], "ended": d["ended"], "seat": player["seat"],
                    "player": player["name"], "rank": player["rank"],
                    "points": player.get("points"), "chips": player.get("chips"),
                    "balance": player.get("balance"),
                    "winner": player["name"] in d["winners"],
                }
            )  # fmt: skip
    return rows
