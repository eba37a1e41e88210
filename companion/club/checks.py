"""The league's door: a message on a table's topic is read only if it is one it can trust.

Each refusal is a ``MessageRefused`` with a reason code and a one-line sentence (logged,
changing nothing): too large, not strict JSON (no NaN or Infinity), not the layout of a
result, a state or a status, a field out of its bounds (every text, list, number and the
options have one), a time outside the years a club can play in, published for another club
or table than its topic's, a hash that does not match its content.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from companion.club.payloads import RESULT_SCHEMA, content_hash
from companion.devices.config.sections import CLUB_NAME_RE
from companion.games.info import FIGURES
from companion.session.names import fold_name

#: The largest result the league reads (a real one is under 3 KiB).
MAX_RESULT_BYTES = 8 * 1024
#: The largest state the league reads (ten players of Course hippique: about 8 KiB).
MAX_STATE_BYTES = 24 * 1024
#: A game kind a result or a state may name: any short word, so that a table playing a game
#: the league's own companion does not list is still counted (its title comes with it).
KIND = re.compile(r"[a-z][a-z0-9_]{0,31}")
#: At most this many players at one table, names of at most this many characters.
MAX_PLAYERS, MAX_NAME = 10, 40
#: The largest outbox number and game id (a table playing all night for a century is far
#: below), and the largest figure (points, chips, balance) in either direction.
MAX_NUMBER, MAX_FIGURE = 2**31 - 1, 10**9
#: A game's options: at most this many bytes as JSON, this deep, texts of at most this many
#: characters, lists and tables of at most this many entries, numbers within MAX_FIGURE.
MAX_OPTIONS_BYTES, MAX_DEPTH, MAX_TEXT, MAX_ITEMS = 4096, 6, 200, 64
#: No club played before this: a time before it comes from a table whose clock is wrong.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
#: How far ahead of the league's clock a table's clock may run.
AHEAD = timedelta(days=2)

RESULT_KEYS = frozenset(
    {"schema", "id", "hash", "club", "table", "seq", "game", "options", "players", "winners",
     "started", "ended", "game_id", "title"}
)  # fmt: skip
PLAYER_KEYS = frozenset({"seat", "name", "rank", *FIGURES})
STATE_KEYS = frozenset(
    {"game_id", "game", "players", "race", "phase", "turn", "sealed", "waiting_for", "board",
     "finished", "winners", "events", "club", "table", "at", "leaders", "results_sent"}
)  # fmt: skip

_TOPIC = re.compile(rf"companion/({CLUB_NAME_RE})/({CLUB_NAME_RE})/(results|state|status)")
_ID = re.compile(r"[0-9a-f]{32}")
_HASH = re.compile(r"[0-9a-f]{64}")
_WORD = re.compile(r"[a-z][a-z0-9_]{0,31}")


class MessageRefused(Exception):
    """A message the league will not take: ``code`` for programs, a sentence for the log."""

    def __init__(self, code: str, sentence: str) -> None:
        super().__init__(f"{code}: {sentence}")
        self.code = code
        self.sentence = sentence


@dataclass(frozen=True)
class Where:
    """Whom a topic is about: the club, the table and the leaf (results, state, status)."""

    club: str
    table: str
    leaf: str


@dataclass(frozen=True)
class TableBoard:
    """What the league keeps of a table's retained ``state``: what its live board shows, and
    how many of the table's results the broker has acknowledged (``results_sent``)."""

    game: str | None = None
    phase: str = ""
    race: int = 0
    leaders: tuple[str, ...] = ()
    results_sent: int = 0


def where(topic: str) -> Where:
    """Read a topic of the club's tree; raises MessageRefused for any other."""
    match = _TOPIC.fullmatch(topic)
    if match is None:
        raise MessageRefused("bad_topic", f"not a table's topic: {topic[:80]!r}")
    return Where(*match.groups())


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number JSON allows")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError("a number too large")
    return number


def read_json(payload: bytes, limit: int) -> dict[str, Any]:
    """Decode a JSON object of at most ``limit`` bytes, strictly (no NaN, no Infinity, no
    number too large for a float); raises MessageRefused for anything else."""
    if len(payload) > limit:
        raise MessageRefused("too_large", f"{len(payload)} bytes, more than {limit}")
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MessageRefused("not_json", "the message is not strict JSON text") from None
    if not isinstance(data, dict):
        raise MessageRefused("not_json", "the message is not a JSON object")
    return data


def _whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _text(value: object, longest: int) -> bool:
    return isinstance(value, str) and len(value) <= longest


def moment(value: object, now: datetime | None = None) -> datetime | None:
    """The time an ISO text with a zone says, if it is one a club could have played at (from
    2000 to two days ahead of ``now``); else None."""
    if not _text(value, 40):
        return None
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    if when.tzinfo is None or when.utcoffset() is None:
        return None
    latest = (now or datetime.now(UTC)) + AHEAD
    return when if EARLIEST <= when <= latest else None


def _options_problem(options: object) -> str | None:
    """What is wrong with a game's options (a table of plain values), or None."""
    if not isinstance(options, dict):
        return "options must be an object"
    if len(json.dumps(options)) > MAX_OPTIONS_BYTES:
        return f"options must take at most {MAX_OPTIONS_BYTES} bytes"

    def bad(value: object, depth: int) -> bool:
        if depth > MAX_DEPTH:
            return True
        if value is None or isinstance(value, bool):
            return False
        if isinstance(value, int | float):
            return not abs(value) <= MAX_FIGURE
        if isinstance(value, str):
            return len(value) > MAX_TEXT
        if isinstance(value, list):
            return len(value) > MAX_ITEMS or any(bad(v, depth + 1) for v in value)
        if isinstance(value, dict):
            return len(value) > MAX_ITEMS or any(
                not _text(k, MAX_TEXT) or bad(v, depth + 1) for k, v in value.items()
            )
        return True

    if not all(_WORD.fullmatch(key) for key in options) or bad(options, 1):
        return "options must be short plain values"
    return None


def _players_problem(players: object) -> str | None:
    """What is wrong with a result's players, or None."""
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        return f"players must be a list of 1 to {MAX_PLAYERS}"
    for seat, player in enumerate(players, start=1):
        if not isinstance(player, dict) or player.get("seat") != seat:
            return "each player needs its seat, in order"
        if not set(player) <= PLAYER_KEYS:
            return "a player has a field the league does not know"
        name = player.get("name")
        if not _text(name, MAX_NAME) or not fold_name(str(name)):
            return f"each player needs a name of 1 to {MAX_NAME} characters"
        if not _whole(player.get("rank"), 1, len(players)):
            return "each player's rank must run from 1 to the number of players"
        for figure in FIGURES:
            value = player.get(figure)
            if value is not None and not _whole(value, -MAX_FIGURE, MAX_FIGURE):
                return "points, chips and balance must be whole numbers (or null)"
    folded = {fold_name(p["name"]) for p in players}
    if len(folded) != len(players):
        return "a player appears twice"
    return None


def result_problem(data: Mapping[str, Any], now: datetime | None = None) -> str | None:
    """What is wrong with a result's layout, or None."""
    unknown = sorted(set(data) - RESULT_KEYS)
    if unknown:
        return f"unknown field {unknown[0][:32]!r}"
    if data.get("schema") != RESULT_SCHEMA:
        return f"schema must be {RESULT_SCHEMA}"
    if not isinstance(data.get("id"), str) or not _ID.fullmatch(data["id"]):
        return "id must be 32 hex digits"
    if not isinstance(data.get("hash"), str) or not _HASH.fullmatch(data["hash"]):
        return "hash must be 64 hex digits"
    if not all(_text(data.get(k), 32) for k in ("club", "table")):
        return "club and table must be short names"
    if not isinstance(data.get("game"), str) or not KIND.fullmatch(data["game"]):
        return "game must be a short word (a game's kind)"
    if "title" in data and not (_text(data["title"], MAX_NAME) and data["title"].strip()):
        return f"title must be a text of 1 to {MAX_NAME} characters"
    options = _options_problem(data.get("options"))
    if options is not None:
        return options
    if not _whole(data.get("seq"), 1, MAX_NUMBER):
        return "seq must be a positive whole number"
    if not _whole(data.get("game_id"), 1, MAX_NUMBER):
        return "game_id must be a positive whole number"
    started, ended = moment(data.get("started"), now), moment(data.get("ended"), now)
    if started is None or ended is None:
        return "started and ended must be ISO times with a zone, from 2000 to today"
    if ended < started:
        return "a game cannot end before it started"
    players = _players_problem(data.get("players"))
    if players is not None:
        return players
    names = [p["name"] for p in data["players"]]
    winners = data.get("winners")
    if (
        not isinstance(winners, list)
        or not winners
        or len(winners) > len(names)
        or not all(isinstance(w, str) and w in names for w in winners)
    ):
        return "winners must name players of the game"
    return None


def claimed(data: Mapping[str, Any]) -> tuple[int, str] | None:
    """The outbox number and id a message says it is, when both read as such (a refusal of
    it can then be told to its table), else None."""
    seq, ident = data.get("seq"), data.get("id")
    if _whole(seq, 1, MAX_NUMBER) and isinstance(ident, str) and _ID.fullmatch(ident):
        return int(str(seq)), ident
    return None


def check_result(topic: Where, data: Mapping[str, Any], now: datetime | None = None) -> None:
    """Check a ``results`` message read with ``read_json``; raise MessageRefused if the
    league will not have it."""
    problem = result_problem(data, now)
    if problem is not None:
        raise MessageRefused("bad_schema", problem)
    if data.get("club") != topic.club or data.get("table") != topic.table:
        said = f"{data.get('club')!s:.32}/{data.get('table')!s:.32}"
        raise MessageRefused(
            "wrong_table", f"a result of {said} published on {topic.club}/{topic.table}"
        )
    if content_hash(data) != data["hash"]:
        raise MessageRefused("bad_hash", "the hash does not match the result's content")


def _names(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= MAX_PLAYERS
        and all(_text(n, MAX_NAME) for n in value)
    )


def _state_problem(data: Mapping[str, Any]) -> str | None:
    unknown = sorted(set(data) - STATE_KEYS)
    if unknown:
        return f"unknown field {unknown[0][:32]!r}"
    game = data.get("game")
    if game is not None and not (isinstance(game, str) and KIND.fullmatch(game)):
        return "game must be null or a short word (a game's kind)"
    if not (isinstance(data.get("phase"), str) and _WORD.fullmatch(data["phase"])):
        return "phase must be a short word"
    if not _whole(data.get("race"), 0, 1000):
        return "race must be a whole number"
    if not all(_names(data.get(k)) for k in ("players", "leaders", "winners")):
        return f"players, leaders and winners must be lists of at most {MAX_PLAYERS} names"
    if not _whole(data.get("results_sent", 0), 0, MAX_NUMBER):
        return "results_sent must be a whole number"
    if not isinstance(data.get("board", {}), dict):
        return "board must be an object"
    return None


def check_state(topic: Where, payload: bytes) -> TableBoard:
    """What a ``state`` message shows of its table; raises MessageRefused for one the league
    will not show (too large, not its layout, another table's)."""
    data = read_json(payload, MAX_STATE_BYTES)
    problem = _state_problem(data)
    if problem is not None:
        raise MessageRefused("bad_state", problem)
    if data.get("table") != topic.table or data.get("club") != topic.club:
        raise MessageRefused("wrong_table", "a state published for another table")
    return TableBoard(
        data.get("game"),
        data["phase"],
        data["race"],
        tuple(data["leaders"]),
        data.get("results_sent", 0),
    )


def check_status(payload: bytes) -> str:
    """A ``status`` message's word: online or offline; raises MessageRefused for another."""
    if payload not in (b"online", b"offline"):
        raise MessageRefused("bad_status", "a status is online or offline")
    return payload.decode("ascii")
