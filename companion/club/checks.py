"""The league's door: a message on a table's topic is read only if it is a result it can trust.

Each refusal is a ``MessageRefused`` with a reason code and a one-line sentence (logged
once, changing nothing): too large, not JSON, not the result's layout, published for
another club or table than its topic's, a hash that does not match its content.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.club.payloads import FIGURES, RESULT_SCHEMA, content_hash
from companion.devices.config.sections import CLUB_NAME_RE

#: The largest message the league reads (a real result is well under 4 KiB).
MAX_MESSAGE_BYTES = 64 * 1024
#: The game kinds a result may name.
KINDS = ("jumpy_jack", "course_hippique", "jockey")
#: At most this many players at one table, names of at most this many characters.
MAX_PLAYERS, MAX_NAME = 10, 40

_TOPIC = re.compile(rf"companion/({CLUB_NAME_RE})/({CLUB_NAME_RE})/(results|state|status)")
_ID = re.compile(r"[0-9a-f]{32}")
_HASH = re.compile(r"[0-9a-f]{64}")


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


def where(topic: str) -> Where:
    """Read a topic of the club's tree; raises MessageRefused for any other."""
    match = _TOPIC.fullmatch(topic)
    if match is None:
        raise MessageRefused("bad_topic", f"not a table's topic: {topic[:80]!r}")
    return Where(*match.groups())


def read_json(payload: bytes) -> dict[str, Any]:
    """Decode a small JSON object; raises MessageRefused for anything else."""
    if len(payload) > MAX_MESSAGE_BYTES:
        raise MessageRefused("too_large", f"{len(payload)} bytes, more than {MAX_MESSAGE_BYTES}")
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MessageRefused("not_json", "the message is not JSON text") from None
    if not isinstance(data, dict):
        raise MessageRefused("not_json", "the message is not a JSON object")
    return data


def _is_int(value: object) -> bool:
    return type(value) is int


def _time(value: object) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        return datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        return False


def _schema_problem(data: Mapping[str, Any]) -> str | None:
    """What is wrong with a result's layout, or None."""
    if data.get("schema") != RESULT_SCHEMA:
        return f"schema must be {RESULT_SCHEMA}"
    if not isinstance(data.get("id"), str) or not _ID.fullmatch(data["id"]):
        return "id must be 32 hex digits"
    if not isinstance(data.get("hash"), str) or not _HASH.fullmatch(data["hash"]):
        return "hash must be 64 hex digits"
    if data.get("game") not in KINDS:
        return "game must be one of " + ", ".join(KINDS)
    if not isinstance(data.get("options"), dict):
        return "options must be an object"
    if not _is_int(data.get("seq")) or data["seq"] < 1:
        return "seq must be a positive whole number"
    if not _is_int(data.get("game_id")) or data["game_id"] < 1:
        return "game_id must be a positive whole number"
    if not (_time(data.get("started")) and _time(data.get("ended"))):
        return "started and ended must be ISO times with a zone"
    players = data.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        return f"players must be a list of 1 to {MAX_PLAYERS}"
    names = []
    for seat, player in enumerate(players, start=1):
        if not isinstance(player, dict) or player.get("seat") != seat:
            return "each player needs its seat, in order"
        name = player.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
            return f"each player needs a name of 1 to {MAX_NAME} characters"
        rank = player.get("rank")
        if not isinstance(rank, int) or not _is_int(rank) or not 1 <= rank <= len(players):
            return "each player's rank must run from 1 to the number of players"
        if any(player.get(f) is not None and not _is_int(player.get(f)) for f in FIGURES):
            return "points, chips and balance must be whole numbers or null"
        names.append(name)
    if len({n.strip().casefold() for n in names}) != len(names):
        return "a player appears twice"
    winners = data.get("winners")
    if not isinstance(winners, list) or not set(winners) <= set(names) or not winners:
        return "winners must name players of the game"
    return None


def check_result(topic: Where, payload: bytes) -> dict[str, Any]:
    """Return the result a ``results`` message carries, or raise MessageRefused."""
    data = read_json(payload)
    problem = _schema_problem(data)
    if problem is not None:
        raise MessageRefused("bad_schema", problem)
    if data.get("club") != topic.club or data.get("table") != topic.table:
        said = f"{data.get('club')!s:.32}/{data.get('table')!s:.32}"
        raise MessageRefused(
            "wrong_table", f"a result of {said} published on {topic.club}/{topic.table}"
        )
    if content_hash(data) != data["hash"]:
        raise MessageRefused("bad_hash", "the hash does not match the result's content")
    return data
