"""The table-log vocabulary: parsing, errors naming the line and the field, the JSON Schema."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.session import log
from companion.session.log import LogError, parse_line

SCHEMA = json.loads(
    resources.files("companion.session").joinpath("table-log.schema.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

GOOD = [
    {"type": "new_game", "game": "jumpy_jack", "players": ["Anna", "Bob"], "options": {}},
    {"type": "new_game", "game": "jockey", "players": ["Anna", "Bob"]},
    {"type": "next_race"},
    {"type": "undo"},
    {"type": "predict", "player": "Anna", "horses": ["red", "blue", "green"]},
    {"type": "guess", "player": "Bob", "target": "Anna", "horses": ["red", "blue", "white"]},
    {"type": "roll", "value": 4},
    {"type": "roll", "value": 4, "player": "Anna"},
    {"type": "move", "horse": "red"},
    {"type": "forfeit", "player": "Bob"},
    {"type": "deal_card", "card": "7H", "player": "Chloé"},
    {"type": "deal_course", "cards": ["7H", "QS", "2C", "9D", "KH", "5S", "8C"]},
    {"type": "set_max_bet", "amount": 10},
    {"type": "bet", "player": "Anna", "horse": "hearts", "stake": 5},
    {
        "type": "bet",
        "player": "Anna",
        "kind": "order",
        "horse": "red",
        "stake": 200,
        "horse2": "blue",
        "stake2": 100,
    },
    {"type": "pass", "player": "Chloé"},
    {"type": "turn_card", "card": "JH"},
    {"type": "hand", "player": "Anna", "cards": ["red+7", "no2+15"]},
    {"type": "play_card", "card": "red+7", "player": "Anna"},
]


@pytest.mark.parametrize("obj", GOOD, ids=lambda o: o["type"])
def test_every_good_line_parses_and_writes_back_the_same_object(obj: dict[str, object]) -> None:
    entry = parse_line(json.dumps(obj), 1)
    again = json.loads(log.dumps(entry))
    expected = dict(obj)
    if obj["type"] == "new_game":
        expected.setdefault("options", {})
    assert again == expected
    assert parse_line(log.dumps(entry)) == entry
    VALIDATOR.validate(obj)


def test_every_type_has_a_good_example_here() -> None:
    assert {o["type"] for o in GOOD} == set(log.TYPES)


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ("roll 4", None, "not JSON"),
        ('{"type": "roll", "value": 4', None, "not JSON"),
        ("[1, 2]", None, "expected a JSON object"),
        ('{"value": 4}', "type", "missing"),
        ('{"type": 7}', "type", "expected a string"),
        ('{"type": "jump", "value": 4}', "type", "unknown type"),
        ('{"type": "roll"}', "value", "missing"),
        ('{"type": "roll", "value": "four"}', "value", "whole number"),
        ('{"type": "roll", "value": 4.5}', "value", "whole number"),
        ('{"type": "roll", "value": true}', "value", "whole number"),
        ('{"type": "roll", "value": 4, "player": ""}', "player", "non-empty string"),
        ('{"type": "roll", "value": 4, "colour": "red"}', "colour", "unknown field"),
        ('{"type": "predict", "player": "Anna", "horses": "red"}', "horses", "list"),
        ('{"type": "predict", "player": "Anna", "horses": ["red", 2]}', "horses[1]", "string"),
        ('{"type": "new_game", "game": "jockey", "players": ["A"], "options": []}', "options", ""),
        ('{"type": "roll", "value": NaN}', None, "not JSON"),
    ],
)
def test_a_bad_line_names_its_line_and_field(text: str, field: str | None, words: str) -> None:
    with pytest.raises(LogError) as caught:
        parse_line(text, 12)
    error = caught.value
    assert error.line == 12 and error.field == field
    assert str(error).startswith(f"line 12, field '{field}'" if field else "line 12:")
    assert words in str(error)


def test_the_shipped_schema_is_the_vocabulary_written_as_a_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert log.json_schema() == SCHEMA


def test_secret_fields_stay_out_of_an_entrys_repr_and_description() -> None:
    entries = [
        parse_line('{"type": "predict", "player": "Anna", "horses": ["white", "blue", "green"]}'),
        parse_line(
            '{"type": "guess", "player": "Anna", "target": "Bob", "horses": ["red", '
            '"blue", "green"]}'
        ),
        parse_line('{"type": "bet", "player": "Anna", "horse": "clubs", "stake": 37}'),
        parse_line('{"type": "hand", "player": "Anna", "cards": ["red+7", "blue+10"]}'),
    ]
    for entry in entries:
        for shown in (repr(entry), str(entry), log.describe(entry)):
            assert "Anna" in shown
            for secret in ("white", "yellow", "blue", "green", "clubs", "37", "Bob"):
                assert secret not in shown


# A JSON-ish value generator that produces near misses of real entries.
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.sampled_from(["", "red", "Anna", "7H"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=6,
)
_keys = st.sampled_from(
    ["type", "value", "player", "horse", "horses", "cards", "card", "stake", "amount", "game",
     "players", "options", "target", "kind", "horse2", "stake2", "kept", "extra"]
)  # fmt: skip


@st.composite
def near_entries(draw: st.DrawFn) -> object:
    base = dict(draw(st.sampled_from(GOOD)))
    for _ in range(draw(st.integers(0, 2))):
        action = draw(st.sampled_from(["drop", "set", "retype"]))
        key = draw(_keys)
        if action == "drop":
            base.pop(key, None)
        elif action == "set":
            base[key] = draw(_values)
        else:
            base["type"] = draw(st.sampled_from([*log.TYPES, "jump"]))
    return base if draw(st.integers(0, 20)) else draw(_values)


@settings(max_examples=300, deadline=None)
@given(near_entries())
def test_the_schema_and_the_parser_agree_on_every_line(obj: object) -> None:
    try:
        log.parse_entry(obj, 1)
        parsed = True
    except LogError:
        parsed = False
    assert VALIDATOR.is_valid(obj) == parsed, obj


EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.jsonl"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_every_line_of_the_example_logs_is_valid_for_the_schema(example: Path) -> None:
    lines = example.read_text(encoding="utf-8").splitlines()
    assert lines
    for number, line in enumerate(lines, start=1):
        VALIDATOR.validate(json.loads(line))
        assert log.dumps(parse_line(line, number)) == line


def test_the_three_example_logs_are_there() -> None:
    assert [p.name for p in EXAMPLES] == [
        "course-hippique.jsonl",
        "jockey.jsonl",
        "jumpy-jack.jsonl",
    ]
