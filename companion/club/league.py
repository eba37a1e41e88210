"""The league's memory: every result once, in its own SQLite file, and the standings from them.

A result is stored by its id: the same id again (a table sending again what the broker had
not acknowledged, the broker delivering again) changes nothing. A later result of the same
game of the same table (an undo after the end, then another ending) replaces the earlier.
The standings are worked out from the stored results whenever asked (cached until the next
result): per evening and per season, per game and over every game, with a Plackett-Luce
rating (``openskill``) computed in the order the games ended, so the same file always gives
the same table.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

#: The league file's layout.
LEAGUE_SCHEMA = 1
#: A game that ends before this hour of the morning belongs to the evening before.
EVENING_ENDS_HOUR = 6

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
"""


class LeagueError(Exception):
    """The league's file cannot be used (not the league's, newer, unreadable)."""


def key_of(name: str) -> str:
    """Who a name is: the same person at every table, whatever the case or spaces."""
    return " ".join(name.split()).casefold()


def evening_of(ended: str) -> str:
    """The club evening (a local date) a game that ended at ``ended`` belongs to."""
    local = datetime.fromisoformat(ended).astimezone()
    return (local - timedelta(hours=EVENING_ENDS_HOUR)).date().isoformat()


@dataclass(frozen=True)
class Result:
    """One stored result, as the tables sent it."""

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


@dataclass
class _Cache:
    standings: dict[Scope, list[LeagueStanding]] = field(default_factory=dict)


class League:
    """The league's SQLite file and its results in memory; safe to share between threads."""

    def __init__(self, path: Path, db: sqlite3.Connection, results: list[Result]) -> None:
        self.path = path
        self._db = db
        self._results = results
        self._ids = {r.id: r for r in results}
        self._games = {self._game_key(r.data): r for r in results}
        self._lock = threading.Lock()
        self._cache = _Cache()
        #: The highest outbox number seen of each table (club, table).
        self._numbers: dict[tuple[str, str], int] = {}
        for result in results:
            self.missing_before(result.data)
        self._model = PlackettLuce()

    @classmethod
    def open(cls, path: Path) -> League:
        """Open (or create) the league's file; raises LeagueError for one it cannot use."""
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
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version={LEAGUE_SCHEMA}")
            rows = db.execute("SELECT seq, payload FROM results ORDER BY seq").fetchall()
        except sqlite3.DatabaseError as error:
            raise LeagueError(f"cannot use the league file {path}: {error}") from None
        return cls(path, db, [Result(seq, json.loads(payload)) for seq, payload in rows])

    @staticmethod
    def _game_key(data: dict[str, Any]) -> tuple[str, str, int, str]:
        return (data["club"], data["table"], data["game_id"], data["started"])

    def add(self, data: dict[str, Any], received: str | None = None) -> str:
        """Store a checked result once; say ``stored``, ``repeat``, ``replaced`` or ``stale``.

        Raises ``ValueError`` when a result with the same id but another content comes (a
        replay that was tampered with): it changes nothing.
        """
        with self._lock:
            known = self._ids.get(data["id"])
            if known is not None:
                if known.data["hash"] != data["hash"]:
                    raise ValueError("a result with this id and another content is stored")
                return "repeat"
            earlier = self._games.get(self._game_key(data))
            if earlier is not None and earlier.ended >= data["ended"]:
                return "stale"
            now = received or datetime.now(UTC).isoformat(timespec="milliseconds")
            payload = json.dumps(data, sort_keys=True, ensure_ascii=False)
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if earlier is not None:
                    self._db.execute("DELETE FROM results WHERE id = ?", (earlier.id,))
                cursor = self._db.execute(
                    "INSERT INTO results (id, club, tbl, game_id, started, ended, hash, payload, "
                    "received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        data["id"], data["club"], data["table"], data["game_id"],
                        data["started"], data["ended"], data["hash"], payload, now,
                    ),
                )  # fmt: skip
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            assert cursor.lastrowid is not None
            result = Result(cursor.lastrowid, data)
            if earlier is not None:
                self._results.remove(earlier)
                del self._ids[earlier.id]
            self._results.append(result)
            self._ids[result.id] = result
            self._games[self._game_key(data)] = result
            self._cache = _Cache()
            return "replaced" if earlier is not None else "stored"

    def latest_received(self) -> str | None:
        """When the last result was stored (UTC, ISO), or None for an empty league."""
        with self._lock:
            row = self._db.execute("SELECT max(received) FROM results").fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def missing_before(self, data: dict[str, Any]) -> bool:
        """Note a result's outbox number; say whether some of its table's numbers between the
        last one seen and it never came (a result lost on the way: worth asking again)."""
        table = (str(data["club"]), str(data["table"]))
        with self._lock:
            last = self._numbers.get(table, 0)
            self._numbers[table] = max(last, int(data["seq"]))
        return 0 < last < int(data["seq"]) - 1

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
        cache = self._cache
        if scope in cache.standings:
            return cache.standings[scope]
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
        cache.standings[scope] = table
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
