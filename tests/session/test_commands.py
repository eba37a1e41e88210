"""`companion replay`, `companion export` and `companion games` on real files."""

from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.registry import KINDS
from companion.session.autoplay import random_log
from companion.session.log import Predict, Roll
from companion.session.session import Session

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.mark.parametrize("name", ["jumpy-jack", "course-hippique", "jockey"])
def test_the_shipped_example_logs_replay_cleanly_to_a_finished_game(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(EXAMPLES / f"{name}.jsonl"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["refused"] == 0
    assert {line["status"] for line in report["lines"]} == {"accepted"}
    assert report["view"]["finished"] and report["view"]["winners"]
    assert any(line["type"] == "undo" for line in report["lines"])


BAD_LOG = """\
{"type": "new_game", "game": "jumpy_jack", "players": ["Anna", "Bob"], "options": {}}
{"type": "predict", "player": "Anna", "horses": ["red", "blue", "green"]}
{"type": "roll", "value": 4}
roll 4
{"type": "jump", "value": 4}
{"type": "predict", "player": "Bob", "horses": ["white", 7, "red"]}

{"type": "predict", "player": "Bob", "horses": ["white", "yellow", "red"]}
{"type": "roll", "value": "six"}
{"type": "roll", "value": 6}
"""


def test_replay_reports_each_bad_line_goes_on_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(BAD_LOG, encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "line 1: accepted  new_game game=jumpy_jack players=Anna Bob"
    assert out[1] == "line 2: accepted  predict by Anna (sealed)"
    assert out[2].startswith("line 3: refused   roll value=4: prediction_missing: ")
    assert out[3].startswith("line 4: error     line 4: not JSON")
    assert out[4].startswith("line 5: error     line 5, field 'type': unknown type \"jump\"")
    assert out[5].startswith("line 6: error     line 6, field 'horses[1]': expected a non-empty")
    assert out[6] == "line 8: accepted  predict by Bob (sealed)"
    assert out[7].startswith("line 9: error     line 9, field 'value': expected a whole number")
    assert out[8] == "line 10: accepted  roll value=6"
    assert "9 lines, 5 refused or unreadable" in out
    assert "game 1: jumpy_jack, race 1, move" in out and "  die: 6" in out


def test_replay_json_names_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(BAD_LOG, encoding="utf-8")
    assert main(["replay", str(log), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    by_line = {line["line"]: line for line in report["lines"]}
    assert by_line[3]["code"] == "prediction_missing" and by_line[3]["sentence"]
    assert by_line[6]["status"] == "error" and by_line[6]["field"] == "horses[1]"
    assert by_line[9]["field"] == "value"
    assert report["refused"] == 5 and report["view"]["board"]["die"] == 6


def test_replay_of_a_missing_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("kind", KINDS)
def test_export_then_replay_reproduces_the_game_exactly(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    log = random_log(kind, random.Random(5), length=150, undo_rate=0.08)
    for entry in log:
        session.submit(entry)
    session.submit(Roll(9))  # refused (or not this game's): kept apart, never exported
    game = session.game_id
    live_view = session.view().to_json()
    live_engine = session.table.binding.engine_state()  # type: ignore[union-attr]
    live_private = {p: session.private_view(p).details.to_json() for p in session.view().players}
    session.close()

    out = tmp_path / "export.jsonl"
    assert main(["export", str(game), "--db", str(db), "-o", str(out)]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(log)
    assert main(["replay", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    live_view.pop("last_refusal")
    report["view"].pop("last_refusal")
    assert report["view"] == live_view
    assert report["engine"] == json.loads(json.dumps(live_engine))
    assert report["private"] == json.loads(json.dumps(live_private))


def test_games_lists_and_abandons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    session.new_game("jumpy_jack", ("Anna", "Bob"), {})
    session.submit(Predict("Anna", ("red", "blue", "green")))
    session.new_game("jockey", ("Chloé", "Dan"), {})
    session.close()
    assert main(["games", "--db", str(db), "--abandon", "1", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    assert [(g["id"], g["kind"], g["status"], g["events"]) for g in games] == [
        (1, "jumpy_jack", "abandoned", 2),
        (2, "jockey", "active", 1),
    ]
    assert main(["games", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert "Jumpy Jack" in text and "abandoned" in text and "Chloé, Dan" in text
    assert main(["games", "--db", str(tmp_path / "nothing.sqlite3")]) == 2
    assert not (tmp_path / "nothing.sqlite3").exists()
    assert main(["export", "3", "--db", str(db)]) == 2
    assert "no game 3" in capsys.readouterr().err


@pytest.mark.parametrize("there_before", [False, True])
def test_export_to_a_file_writes_it_for_its_owner_only(tmp_path: Path, there_before: bool) -> None:
    db = tmp_path / "journal.sqlite3"
    session = Session.open(db)
    for entry in random_log(KINDS[0], random.Random(2), length=12):
        session.submit(entry)  # sealed inputs among them
    game = session.game_id
    session.close()
    out = tmp_path / "export.jsonl"
    if there_before:
        out.write_text("old\n")
        out.chmod(0o644)
    umask = os.umask(0o022)  # as a login shell sets it
    try:
        assert main(["export", str(game), "--db", str(db), "-o", str(out)]) == 0
    finally:
        os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert out.read_text(encoding="utf-8").startswith('{"type": "new_game"')
