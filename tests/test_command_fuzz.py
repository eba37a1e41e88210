"""Every command entry point fed arbitrary input: an exit status and plain lines, never a crash.

Each command runs as the user types it (``companion.cli.main``); an exception escaping it is
the traceback the user would see, and fails the property. The inputs mix what a file or a
line can hold at random with shapes that are nearly right (the input a careless edit makes).
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.session.log import TYPES
from companion.session.session import Session

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: Any JSON value, strings with lone surrogates and huge numbers included.
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
names = st.sampled_from(["Anna", "Bob", "", "A" * 21, "\ud800", "Chloé"])
fields = st.sampled_from(
    ["player", "players", "value", "horse", "horses", "card", "cards", "stake", "target", "game"]
)
entries = st.fixed_dictionaries(
    {"type": st.sampled_from([*TYPES, "jump", ""])},
    optional={
        "game": st.sampled_from(["jumpy_jack", "course_hippique", "jockey", "chess"]),
        "players": st.lists(names, max_size=4),
        "player": names,
        "options": st.dictionaries(st.text(max_size=6), json_values, max_size=2),
    },
).flatmap(lambda d: st.dictionaries(fields, json_values, max_size=2).map(lambda e: {**e, **d}))
log_lines = st.one_of(
    entries.map(lambda e: json.dumps(e, ensure_ascii=False)),
    json_values.map(json.dumps),
    st.text(max_size=60),
    st.integers(1, 3000).map(lambda n: "[" * n),
)


def clean(err: str) -> None:
    assert "Traceback" not in err
    assert all(len(line) <= 500 for line in err.splitlines())


@FUZZ
@given(lines=st.lists(log_lines, min_size=1, max_size=8), as_json=st.booleans())
def test_replay_takes_any_log(
    lines: list[str], as_json: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "log.jsonl"
        log.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
        status = main(["replay", str(log), *(["--json"] if as_json else [])])
    out, err = capsys.readouterr()
    assert status in (0, 1, 2)
    clean(err)
    if status != 2:
        out.encode("utf-8")  # printable as it is


toml_keys = st.sampled_from(
    ["companion", "lcd", "oled", "pico", "reader", "strip", "die", "gpio", "x" * 300, "a.b"]
)
toml_values = st.one_of(
    st.integers(-(2**40), 2**40).map(str),
    st.text(max_size=20).map(json.dumps),
    st.sampled_from(["true", "[1, 2]", "{ a = 1 }", "'lgpio'", "0x27", "nan", "1e999"]),
    st.integers(1, 400).map(lambda n: "[" * n + "]" * n),
)
toml_texts = st.one_of(
    st.lists(
        st.tuples(
            toml_keys, st.sampled_from(["port", "players", "kind", "cols", "x" * 100])
        ).flatmap(lambda kv: toml_values.map(lambda v: f"[{kv[0]}]\n{kv[1]} = {v}\n"))
        | st.text(max_size=40),
        max_size=5,
    ).map("".join),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
)


@FUZZ
@given(text=toml_texts)
def test_check_config_takes_any_file(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "companion.toml"
        file.write_text(text, encoding="utf-8", errors="surrogatepass")
        status = main(["check-config", str(file)])
    _, err = capsys.readouterr()
    assert status in (0, 2)
    clean(err)


cards_texts = st.one_of(
    st.lists(
        st.tuples(
            st.sampled_from(["04A1B2C3", "zz", "", "04:a1:b2:c3", "1" * 200]),
            st.sampled_from(['"AS"', '"jockey:54"', '"jockey:55"', "7", '"QS"', "[[[]]]"]),
        ).map(lambda kv: f'"{kv[0]}" = {kv[1]}\n'),
        max_size=5,
    ).map(lambda lines: "[tags]\n" + "".join(lines)),
    toml_texts,
)


@FUZZ
@given(text=cards_texts)
def test_cards_list_takes_any_file(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "cards.toml"
        file.write_text(text, encoding="utf-8", errors="surrogatepass")
        (Path(folder) / "none.toml").write_text("")
        status = main(["cards", "list", "--file", str(file), "--config", f"{folder}/none.toml"])
    _, err = capsys.readouterr()
    assert status in (0, 2)
    clean(err)


def journal_bytes() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite3"
        session = Session.open(path)
        session.new_game("jumpy_jack", ("Anna", "Bob"))
        session.close()
        return path.read_bytes()


JOURNAL = journal_bytes()


@FUZZ
@given(
    flips=st.lists(st.tuples(st.integers(0, len(JOURNAL) - 1), st.integers(0, 255)), max_size=6),
    cut=st.one_of(st.none(), st.integers(0, len(JOURNAL))),
    command=st.sampled_from(
        [["games"], ["games", "--json"], ["export", "1"], ["export", "0"], ["export", "x"]]
    ),
)
def test_games_and_export_take_any_damaged_journal(
    flips: list[tuple[int, int]],
    cut: int | None,
    command: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = bytearray(JOURNAL)
    for where, byte in flips:
        data[where] = byte
    if cut is not None:
        data = data[:cut]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite3"
        path.write_bytes(bytes(data))
        before = hashlib.sha256(bytes(data)).hexdigest()
        status = main([*command, "--db", str(path)])
        after = hashlib.sha256(path.read_bytes()).hexdigest()
    _, err = capsys.readouterr()
    assert status in (0, 2)
    clean(err)
    if status == 2:
        assert after == before  # a refused file is left exactly as it was


odds_args: Any = st.fixed_dictionaries(
    {},
    optional={
        "--course": st.lists(
            st.sampled_from(["7H", "QS", "2D", "9H", "KC", "4S", "JH", "XX", "", "10C"]),
            max_size=8,
        ).map(",".join),
        "--turned": st.lists(st.sampled_from(["7H", "2S", "AH", "ZZ", "7H"]), max_size=6).map(
            ",".join
        ),
        "--setback": st.sampled_from(["first", "all"]),
        "--samples": st.integers(-5, 10**15).map(str),
        "--seed": st.integers(-(2**70), 2**70).map(str),
    },
)


@FUZZ
@given(options=odds_args)
def test_odds_takes_any_options(
    options: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    if options.get("--setback") and int(options.get("--samples", "0")) > 2000:
        options["--samples"] = "2000"  # a valid count that is still quick
    argv = ["odds"] + [part for pair in options.items() for part in pair]
    status = main(argv)
    _, err = capsys.readouterr()
    assert status in (0, 2)
    clean(err)
