"""The table-log vocabulary: one frozen value type per input the table makes, parsed from JSON.

Every input at the table (a die roll, a horse button, a card scan, a bet, an undo...) is one
*entry*: a JSON object with a ``type`` and that type's fields, one object per line in a log
file (JSON Lines). ``parse_line`` turns a line into an entry and ``to_json``/``dumps`` turn it
back. A bad line raises ``LogError``, which names the line and the field.

Secret fields (a prediction's horses, a bet's horse and stake, the cards of a hand) are left
out of every entry's ``repr`` so that an entry written to a diagnostic log shows only that
the player has committed; a ``LogError`` about a secret field says what kind of value it
found, never the value (the message of a journal that no longer replays is logged).
"""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, Union


class LogError(ValueError):
    """A table-log line that cannot be read: not JSON, unknown type, bad or missing field."""

    def __init__(self, problem: str, *, line: int | None = None, field: str | None = None):
        self.line = line
        self.field = field
        self.problem = problem
        where = []
        if line is not None:
            where.append(f"line {line}")
        if field is not None:
            where.append(f"field '{field}'")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {problem}" if prefix else problem)


@dataclass(frozen=True)
class LogEntry:
    """Base of every table-log entry; ``TYPE`` is the value of its ``type`` key."""

    TYPE: ClassVar[str] = ""
    #: True when the entry carries information the rest of the table must not see yet.
    SECRET: ClassVar[bool] = False


#: The entries every game takes; each game lists the others it takes (``GameInfo.entries``).
EVERY_GAME = frozenset({"new_game", "next_race", "undo"})


@dataclass(frozen=True)
class NewGame(LogEntry):
    """Start a game of ``game`` with these players, in seating order, and named options."""

    TYPE = "new_game"
    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class NextRace(LogEntry):
    """Start the next race once the current one has ended."""

    TYPE = "next_race"


@dataclass(frozen=True)
class Undo(LogEntry):
    """Take back the last accepted input (an undo after an undo steps further back)."""

    TYPE = "undo"


@dataclass(frozen=True)
class Roll(LogEntry):
    """The die shows ``value``; ``player`` (if known) is who rolled it."""

    TYPE = "roll"
    value: int
    player: str | None = None


@dataclass(frozen=True)
class MoveEntry(LogEntry):
    """Move ``horse`` by the value just rolled."""

    TYPE = "move"
    horse: str
    player: str | None = None


@dataclass(frozen=True)
class Forfeit(LogEntry):
    """Give up the roll because no horse can legally move with it."""

    TYPE = "forfeit"
    player: str | None = None


@dataclass(frozen=True)
class Predict(LogEntry):
    """``player`` seals (or rewrites) a prediction: the horses for places 1, 2 and 3."""

    TYPE = "predict"
    SECRET = True
    player: str
    horses: tuple[str, ...] = field(repr=False)


@dataclass(frozen=True)
class GuessEntry(LogEntry):
    """``player`` guesses the prediction of the opponent ``target`` (the `guess` variant)."""

    TYPE = "guess"
    SECRET = True
    player: str
    target: str = field(repr=False)
    horses: tuple[str, ...] = field(repr=False)


@dataclass(frozen=True)
class DealCard(LogEntry):
    """The croupier lays one card of the course, the next one along the row."""

    TYPE = "deal_card"
    card: str
    player: str | None = None


@dataclass(frozen=True)
class DealCourse(LogEntry):
    """The croupier lays out the whole course at once: the cards in the row, in order."""

    TYPE = "deal_course"
    cards: tuple[str, ...]
    player: str | None = None


@dataclass(frozen=True)
class SetMaxBet(LogEntry):
    """The croupier announces (or changes) the largest stake allowed this race."""

    TYPE = "set_max_bet"
    amount: int
    player: str | None = None


@dataclass(frozen=True)
class BetEntry(LogEntry):
    """``player`` bets ``stake`` on ``horse``.

    Course hippique knows one kind of bet (``win``). Jockey also knows ``place``,
    ``double`` (``horse`` or ``horse2`` first, one ``stake``) and ``order`` (``horse``
    first with ``stake`` and ``horse2`` second with ``stake2``).
    """

    TYPE = "bet"
    SECRET = True
    player: str
    horse: str = field(repr=False)
    stake: int = field(repr=False)
    kind: str = field(default="win", repr=False)
    horse2: str | None = field(default=None, repr=False)
    stake2: int | None = field(default=None, repr=False)


@dataclass(frozen=True)
class PassEntry(LogEntry):
    """``player`` places no bet this race (Course hippique: said aloud, so not sealed)."""

    TYPE = "pass"
    player: str


@dataclass(frozen=True)
class TurnCard(LogEntry):
    """The croupier turns ``card`` from the pack (Course hippique)."""

    TYPE = "turn_card"
    card: str
    player: str | None = None


@dataclass(frozen=True)
class Hand(LogEntry):
    """``player`` is dealt ``cards`` (Jockey, when the companion tracks hands).

    With a player's first cards of a race, ``kept`` names the (up to 2) unplayed cards of
    the last race the player keeps.
    """

    TYPE = "hand"
    SECRET = True
    player: str
    cards: tuple[str, ...] = field(repr=False)
    kept: tuple[str, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class PlayCard(LogEntry):
    """``card`` is played (Jockey): scanned or chosen, by ``player`` if known."""

    TYPE = "play_card"
    card: str
    player: str | None = None


#: Every entry type, by the value of its ``type`` key, in the order the docs list them.
TYPES: dict[str, type[LogEntry]] = {
    cls.TYPE: cls
    for cls in (
        NewGame,
        NextRace,
        Undo,
        Predict,
        GuessEntry,
        Roll,
        MoveEntry,
        Forfeit,
        DealCard,
        DealCourse,
        SetMaxBet,
        BetEntry,
        PassEntry,
        TurnCard,
        Hand,
        PlayCard,
    )
}


# ---- field kinds -------------------------------------------------------------------------


@dataclass(frozen=True)
class LogField:
    """How one field of an entry is written in JSON."""

    name: str
    kind: str  # "string", "integer", "strings", "object"
    required: bool
    secret: bool
    #: The value an optional field takes when it is left out (None for a required one).
    default: object = field(default=None, compare=False)


def _kind_of(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _kind_of(inner[0])
    if annotation is str:
        return "string"
    if annotation is int:
        return "integer"
    if origin is tuple and typing.get_args(annotation)[0] is str:
        return "strings"
    if origin is dict:
        return "object"
    raise TypeError(f"no JSON kind for {annotation!r}")


def _specs(cls: type[LogEntry]) -> tuple[LogField, ...]:
    hints = typing.get_type_hints(cls)
    specs = []
    for f in dataclasses.fields(cls):
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = None if required else f.default
        specs.append(LogField(f.name, _kind_of(hints[f.name]), required, not f.repr, default))
    return tuple(specs)


SPECS: dict[str, tuple[LogField, ...]] = {name: _specs(cls) for name, cls in TYPES.items()}

_KIND_WORDS = {
    "string": "a non-empty string",
    "integer": "a whole number",
    "strings": "a list of non-empty strings",
    "object": "a JSON object",
}


#: The longest player name a log may hold (the configuration's limit too).
MAX_NAME = 20
#: The fields that hold players' names.
_NAME_FIELDS = frozenset({"player", "players", "target"})


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _given(spec: LogField, value: object) -> str:
    """Quote a wrong value for an error message; of a sealed field, say only what JSON it is."""
    if not spec.secret or value in ("", None) or isinstance(value, bool):
        return _shown(value)
    if isinstance(value, str):
        kind = "a string"
    elif isinstance(value, list):
        kind = "a list"
    elif isinstance(value, dict):
        kind = "an object"
    else:
        kind = "a number"
    return f"{kind} (sealed: not shown)"


def _convert(spec: LogField, value: object, line: int | None) -> object:
    def wrong(name: str = spec.name) -> LogError:
        return LogError(
            f"expected {_KIND_WORDS[spec.kind]}, got {_given(spec, value)}", line=line, field=name
        )

    if spec.kind == "string":
        if not isinstance(value, str) or not value:
            raise wrong()
        if spec.name in _NAME_FIELDS and len(value) > MAX_NAME:
            raise LogError(
                f"a player's name has 1 to {MAX_NAME} characters", line=line, field=spec.name
            )
        return value
    if spec.kind == "integer":
        return _integer(value, wrong)
    if spec.kind == "strings":
        if not isinstance(value, list):
            raise wrong()
        for index, item in enumerate(value):
            if not isinstance(item, str) or not item:
                raise LogError(
                    f"expected a non-empty string, got {_given(spec, item)}",
                    line=line,
                    field=f"{spec.name}[{index}]",
                )
            if spec.name in _NAME_FIELDS and len(item) > MAX_NAME:
                raise LogError(
                    f"a player's name has 1 to {MAX_NAME} characters",
                    line=line,
                    field=f"{spec.name}[{index}]",
                )
        return tuple(value)
    if not isinstance(value, dict):
        raise wrong()
    return dict(value)


def _integer(value: object, wrong: typing.Callable[[], LogError]) -> int:
    if isinstance(value, bool):
        raise wrong()
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    raise wrong()


def parse_entry(obj: object, line: int | None = None) -> LogEntry:
    """Turn a decoded JSON value into an entry.

    Raises LogError (naming ``line`` and the field) when it is not an object, has no or an
    unknown ``type``, misses a required field, has a field of the wrong type or an unknown
    field.
    """
    if not isinstance(obj, dict):
        raise LogError(f"expected a JSON object, got {_shown(obj)}", line=line)
    if "type" not in obj:
        raise LogError("missing", line=line, field="type")
    name = obj["type"]
    if not isinstance(name, str):
        raise LogError(f"expected a string, got {_shown(name)}", line=line, field="type")
    if name not in TYPES:
        known = ", ".join(TYPES)
        raise LogError(f"unknown type {_shown(name)} (known: {known})", line=line, field="type")
    specs = SPECS[name]
    known_fields = {s.name for s in specs}
    for key in obj:
        if key != "type" and key not in known_fields:
            raise LogError(f"unknown field for a {name} entry", line=line, field=key[:40])
    values: dict[str, object] = {}
    for spec in specs:
        if spec.name not in obj:
            if spec.required:
                raise LogError(f"missing from a {name} entry", line=line, field=spec.name)
            continue
        values[spec.name] = _convert(spec, obj[spec.name], line)
    entry: LogEntry = TYPES[name](**values)
    return entry


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def parse_line(text: str, line: int | None = None) -> LogEntry:
    """Parse one line of a table log; raises LogError naming the line (and the field)."""
    try:
        obj = json.loads(text, parse_constant=_refuse_constant)
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError):
            reason = f"{error.msg} at column {error.colno}"
        elif isinstance(error, UnicodeEncodeError):
            reason = "a \\u escape names half a character (a lone surrogate)"
        else:
            reason = str(error)
        raise LogError(f"not JSON ({reason})", line=line) from None
    except RecursionError:
        raise LogError("not JSON (nested too deeply)", line=line) from None
    return parse_entry(obj, line)


def to_json(entry: LogEntry) -> dict[str, object]:
    """Return the JSON object for ``entry``: ``type`` first, absent optional fields left out."""
    obj: dict[str, object] = {"type": entry.TYPE}
    for spec in SPECS[entry.TYPE]:
        value = getattr(entry, spec.name)
        if not spec.required and value == spec.default and spec.name != "options":
            continue
        obj[spec.name] = list(value) if isinstance(value, tuple) else value
    return obj


def dumps(entry: LogEntry) -> str:
    """Return ``entry`` as one line of JSON (no newline)."""
    return json.dumps(to_json(entry), ensure_ascii=False)


def loads(text: str) -> LogEntry:
    """Parse one line of JSON into an entry (LogError on a bad line)."""
    return parse_line(text)


def describe(entry: LogEntry) -> str:
    """Say what ``entry`` is without giving away a secret: ``"predict by Anna (sealed)"``."""
    if entry.SECRET:
        return f"{entry.TYPE} by {getattr(entry, 'player', '?')} (sealed)"
    parts = [entry.TYPE]
    for spec in SPECS[entry.TYPE]:
        value = getattr(entry, spec.name)
        if value is None or value == () or value == {}:
            continue
        if isinstance(value, tuple):
            value = " ".join(value)
        parts.append(f"{spec.name}={value}")
    return " ".join(parts)


def json_schema() -> dict[str, object]:
    """Build the JSON Schema of one table-log entry from the vocabulary above."""
    kinds: dict[str, dict[str, object]] = {
        "string": {"type": "string", "minLength": 1},
        "integer": {"type": "integer"},
        "strings": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "object": {"type": "object"},
    }
    defs: dict[str, object] = {}
    for name, cls in TYPES.items():
        props: dict[str, object] = {"type": {"const": name}}
        for spec in SPECS[name]:
            props[spec.name] = dict(kinds[spec.kind])
            if spec.name in _NAME_FIELDS and spec.kind == "string":
                props[spec.name] = {**kinds["string"], "maxLength": MAX_NAME}
            elif spec.name in _NAME_FIELDS:
                props[spec.name] = {
                    "type": "array",
                    "items": {**kinds["string"], "maxLength": MAX_NAME},
                }
        defs[name] = {
            "description": (cls.__doc__ or "").split("\n")[0],
            "type": "object",
            "properties": props,
            "required": ["type", *(s.name for s in SPECS[name] if s.required)],
            "additionalProperties": False,
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "companion/session/table-log.schema.json",
        "title": "One entry of a companion table log (one JSON object per line)",
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": list(TYPES)}},
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in TYPES],
        "$defs": defs,
    }
