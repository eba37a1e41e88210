"""`games`, `export`, `replay`, `odds` and `run` on bad input: one clear line, a non-zero exit.

Each command runs as the user types it (``companion.cli.main``); an exception escaping it
would be the traceback the user sees, so these tests fail on one.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from companion.cli import main
from companion.session.log import LogError, json_schema, parse_line
from companion.session.session import Session

COMPANION = [sys.executable, "-m", "companion"]


def played(path: Path) -> Path:
    session = Session.open(path)
    session.new_game("jumpy_jack", ("Anna", "Bob"))
    session.close()
    return path


def one_line(err: str, command: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"companion {command}: ") and "Traceback" not in err
    return lines[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---- games and export: the journal they are given ----------------------------------------


@pytest.mark.parametrize("command", [["games"], ["export", "1"], ["games", "--abandon", "1"]])
def test_an_empty_file_is_never_made_a_journal(
    tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    assert main([*command, "--db", str(empty)]) == 2
    assert "empty file" in one_line(capsys.readouterr().err, command[0])
    assert empty.stat().st_size == 0 and sorted(os.listdir(tmp_path)) == ["empty.sqlite3"]


@pytest.mark.parametrize("command", [["games"], ["export", "1"]])
@pytest.mark.parametrize("db", ["folder", ""])
def test_a_folder_as_the_journal_is_one_line(
    tmp_path: Path,
    command: list[str],
    db: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "folder").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main([*command, "--db", db]) == 2
    assert "is a folder, not a journal file" in one_line(capsys.readouterr().err, command[0])
    assert os.listdir(tmp_path / "folder") == []


def test_a_foreign_database_with_the_journal_version_is_refused_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "v.sqlite3"
    with sqlite3.connect(path) as db:
        for table in ("games", "events", "refusals"):
            db.execute(f"CREATE TABLE {table} (other TEXT)")
        db.execute("PRAGMA user_version = 1")
    db.close()
    before = digest(path)
    for command in (["games"], ["export", "1"]):
        assert main([*command, "--db", str(path)]) == 2
        assert "not a companion journal" in one_line(capsys.readouterr().err, command[0])
    assert digest(path) == before and sorted(os.listdir(tmp_path)) == ["v.sqlite3"]


@pytest.mark.parametrize("game", [str(2**63), str(2**64 + 5), "99999999999999999999999"])
def test_a_game_id_beyond_sqlite_integers_is_no_game(
    tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(played(tmp_path / "j.sqlite3"))
    assert main(["export", game, "--db", db]) == 2
    assert f"no game {game}" in one_line(capsys.readouterr().err, "export")
    assert main(["games", "--abandon", game, "--db", db]) == 2
    assert f"no game {game}" in one_line(capsys.readouterr().err, "games")


def test_a_players_column_that_is_not_json_still_lists_and_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = played(tmp_path / "j.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET players = 'Anna and Bob'")
    db.close()
    assert main(["games", "--db", str(path)]) == 0
    assert "(players unreadable)" in capsys.readouterr().out
    assert main(["games", "--json", "--db", str(path)]) == 0
    assert '"players": []' in capsys.readouterr().out
    assert main(["export", "1", "--db", str(path)]) == 0
    assert '"players": ["Anna", "Bob"]' in capsys.readouterr().out


# ---- export: where it writes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "reason"),
    [("folder", "Is a directory"), ("missing/x.jsonl", "No such file"), ("/dev/full", "No space")],
)
def test_export_to_a_place_it_cannot_write_is_one_line(
    tmp_path: Path,
    output: str,
    reason: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = str(played(tmp_path / "j.sqlite3"))
    (tmp_path / "folder").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["export", "1", "--db", db, "-o", output]) == 2
    line = one_line(capsys.readouterr().err, "export")
    assert f"cannot write {output}" in line and reason in line


def test_export_to_a_full_standard_output_is_one_line(tmp_path: Path) -> None:
    db = str(played(tmp_path / "j.sqlite3"))
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*COMPANION, "export", "1", "--db", db], stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert done.returncode == 2
    assert "cannot write standard output: No space" in one_line(done.stderr, "export")


# ---- replay --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"a":' * 50_000, "nested too deeply"),
        ('{"type":"\\ud800"}', "lone surrogate"),
        ('{"type": "roll", "value": 3, "player": "\\udfff"}', "lone surrogate"),
    ],
)
def test_replay_reports_a_line_no_program_could_read(
    tmp_path: Path, line: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(line + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    out = capsys.readouterr().out
    assert "line 1: error" in out and says in out


def test_replay_refuses_a_player_name_longer_than_the_configuration_allows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = "A" * 10_000_000
    log = tmp_path / "log.jsonl"
    lines = [
        {"type": "new_game", "game": "jumpy_jack", "players": [huge, "Bob"]},
        {"type": "new_game", "game": "jumpy_jack", "players": ["C" * 20, "Bob"]},
        {"type": "roll", "value": 3, "player": "D" * 21},
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    out = capsys.readouterr().out
    assert len(out) < 5_000
    assert "line 1: error     line 1, field 'players[0]': a player's name has 1 to 20" in out
    assert "line 2: accepted" in out
    assert "line 3: error     line 3, field 'player': a player's name has 1 to 20" in out


# ---- odds ----------------------------------------------------------------------------------


@pytest.mark.parametrize("samples", ["1000000000000", "200001", "0", "-5"])
def test_odds_caps_the_simulated_races(samples: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--setback", "first", "--samples", samples]) == 2
    assert "--samples must be from 1 to 200000" in one_line(capsys.readouterr().err, "odds")


# ---- run: where the journal lives ----------------------------------------------------------


def run_companion(*args: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def small_disk() -> None:  # pragma: no cover - in the child
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [*COMPANION, "run", "--config", os.devnull, *args],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=small_disk,
    )


@pytest.mark.parametrize(
    ("state", "says"),
    [
        ("plain/sub", "Not a directory"),
        ("holder", "is a folder, not a journal file"),
        ("", "is a folder, not a journal file"),
    ],
)
def test_run_with_a_state_folder_it_cannot_use_is_one_line(
    tmp_path: Path, state: str, says: str
) -> None:
    (tmp_path / "plain").write_text("not a folder")
    (tmp_path / "holder" / "journal.sqlite3").mkdir(parents=True)
    (tmp_path / "journal.sqlite3").mkdir()
    done = subprocess.run(
        [*COMPANION, "run", "--config", os.devnull, "--state-dir", state],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("companion: ") and says in done.stderr


def test_run_on_a_disk_with_no_room_for_a_new_journal_is_one_line(tmp_path: Path) -> None:
    # The file size limit makes every write past it fail, as a full disk does.
    done = run_companion("--state-dir", str(tmp_path), limit=0)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("companion: cannot write to the journal")
    assert "is it full" in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("field", ["players", "player"])
def test_the_schema_limits_names_as_the_parser_does(field: str) -> None:
    validator = jsonschema.Draft202012Validator(json_schema())
    for length, valid in ((20, True), (21, False)):
        name = "N" * length
        entry: dict[str, object] = (
            {"type": "new_game", "game": "jockey", "players": [name, "Bob"]}
            if field == "players"
            else {"type": "roll", "value": 3, "player": name}
        )
        assert validator.is_valid(entry) == valid
        try:
            parse_line(json.dumps(entry))
            parsed = True
        except LogError:
            parsed = False
        assert parsed == valid
