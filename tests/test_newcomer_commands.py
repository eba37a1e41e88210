"""The commands as a newcomer types them on a laptop: found journals, examples, several logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.session.log import Predict
from companion.session.session import Session

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


# -- `companion games` and `companion export` on a laptop ------------------------------------


@pytest.fixture
def laptop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's state folder with no companion service: only what `companion simulate` writes."""
    for name in ("COMPANION_JOURNAL", "STATE_DIRECTORY"):
        monkeypatch.delenv(name, raising=False)
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


def a_game_in(path: Path, kind: str, players: tuple[str, ...]) -> None:
    """Play the opening of a game into a real journal file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    session = Session.open(path)
    session.new_game(kind, players, {})
    if kind == "jumpy_jack":
        session.submit(Predict(players[0], ("red", "blue", "green")))
    session.close()


def test_games_and_export_read_the_simulators_journal_and_say_so(
    laptop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    simulated = laptop / "companion-simulator" / "journal.sqlite3"  # `companion simulate`'s
    a_game_in(simulated, "jumpy_jack", ("Anna", "Bob"))
    said = f"reading the simulator's journal, {simulated}\n"

    status, out, err = run(capsys, "games")
    assert status == 0 and "Jumpy Jack" in out and "Anna, Bob" in out
    assert err == f"companion games: {said}"
    status, out, err = run(capsys, "games", "--json")
    assert status == 0 and [g["players"] for g in json.loads(out)] == [["Anna", "Bob"]]
    assert err == f"companion games: {said}"

    status, out, err = run(capsys, "export", "1")
    assert status == 0 and err == f"companion export: {said}"
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["type"] for line in lines] == ["new_game", "predict"]


def test_the_companions_own_journal_comes_first(
    laptop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_game_in(laptop / "companion-simulator" / "journal.sqlite3", "jumpy_jack", ("Anna", "Bob"))
    a_game_in(laptop / "companion" / "journal.sqlite3", "jockey", ("Chloé", "Dan"))
    status, out, err = run(capsys, "games")
    assert status == 0 and "Jockey" in out and "Chloé, Dan" in out and "Anna" not in out
    assert err == ""


def test_with_no_journal_at_all_both_places_are_named(
    laptop: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "games")
    own, simulated = laptop / "companion", laptop / "companion-simulator"
    assert status == 2 and out == ""
    assert str(own / "journal.sqlite3") in err and str(simulated / "journal.sqlite3") in err
    assert not own.exists() and not simulated.exists()  # looking creates nothing


def test_a_journal_named_by_companion_journal_is_the_only_one_read(
    laptop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    a_game_in(laptop / "companion-simulator" / "journal.sqlite3", "jumpy_jack", ("Anna", "Bob"))
    chosen = laptop / "elsewhere.sqlite3"
    monkeypatch.setenv("COMPANION_JOURNAL", str(chosen))
    status, out, err = run(capsys, "export", "1")
    assert status == 2 and out == ""
    assert err == f"companion export: there is no journal at {chosen}\n"


# -- `companion odds` without a proper course -------------------------------------------------


@pytest.mark.parametrize(
    ("args", "example"),
    [
        ([], "--course 7H,QS,2D,9H,KC"),
        (["--course", ""], "--course 7H,QS,2D,9H,KC"),
        (["--course", "7H QS 2D 9H KC"], "--course 7H,QS,2D,9H,KC"),
        (["--course", "7H, QS 2D, 9H,KC"], "--course 7H,QS,2D,9H,KC"),
        (["--course", "7H", "QS", "2D", "9H", "KC"], "--course 7H,QS,2D,9H,KC"),
        (["--course", "7H,QS,2D,9H,KC", "--turned", "3S", "QH"], "--turned 3S,QH"),
        (["--course", "7H,QS,2D"], "--course 7H,QS,2D,9H,KC"),
        (["--course", "7H,QS,2D,9H,KC", "--turned", "3S QH"], "--turned 3S,QH"),
    ],
)
def test_odds_without_a_proper_course_shows_what_to_type(
    capsys: pytest.CaptureFixture[str], args: list[str], example: str
) -> None:
    status, out, err = run(capsys, "odds", *args)
    assert status == 2 and out == ""
    assert err.startswith("companion odds: ") and example in err
    assert len(err.splitlines()) == 1


def test_the_example_the_refusal_shows_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "odds")
    typed = err.split("e.g. ")[1].split(" (")[0].split()
    assert typed[:2] == ["companion", "odds"]
    status, out, _ = run(capsys, *typed[1:])
    assert status == 0 and "Course: 7H QS 2D 9H KC" in out


# -- `companion replay` of several logs -------------------------------------------------------


def test_several_logs_are_replayed_one_after_the_other_under_headers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    logs = [str(EXAMPLES / f"{name}.jsonl") for name in ("jockey", "jumpy-jack")]
    alone = []
    for log in logs:
        status, out, _ = run(capsys, "replay", log)
        assert status == 0
        alone.append(out)
    status, out, err = run(capsys, "replay", *logs)
    assert status == 0 and err == ""
    assert out == f"==> {logs[0]} <==\n{alone[0]}\n==> {logs[1]} <==\n{alone[1]}"


def test_several_logs_as_json_are_one_list_naming_each_log(
    capsys: pytest.CaptureFixture[str],
) -> None:
    logs = sorted(str(path) for path in EXAMPLES.glob("*.jsonl"))  # what a shell's glob gives
    assert len(logs) == 3
    status, out, _ = run(capsys, "replay", *logs, "--json")
    assert status == 0
    reports = json.loads(out)
    assert [r["log"] for r in reports] == logs
    assert [r["view"]["game"] for r in reports] == ["course_hippique", "jockey", "jumpy_jack"]
    for log, report in zip(logs, reports, strict=True):
        _, alone, _ = run(capsys, "replay", log, "--json")
        assert report == {"log": log, **json.loads(alone)}


def test_an_unreadable_or_refused_log_among_several_sets_the_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = str(EXAMPLES / "jumpy-jack.jsonl")
    refused = tmp_path / "refused.jsonl"
    refused.write_text('{"type": "roll", "value": 4}\n', encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(refused), example)
    assert status == 1 and out.count("==> ") == 2 and "1 lines, 1 refused" in out

    missing = tmp_path / "missing.jsonl"
    status, out, err = run(capsys, "replay", str(missing), example, str(refused))
    assert status == 2
    assert err == f"companion replay: cannot read {missing}: No such file or directory\n"
    headers = [line for line in out.splitlines() if line.startswith("==> ")]
    assert headers == [f"==> {missing} <==", f"==> {example} <==", f"==> {refused} <=="]
    assert "game 1: jumpy_jack" in out  # the logs after the unreadable one were replayed


# -- `companion simulate` with a configuration that cannot be used ----------------------------


def test_simulate_reports_a_missing_configuration_before_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    missing = tmp_path / "missing.toml"
    # pytest's stdin is no terminal: the screen could not start either.
    status, out, err = run(capsys, "simulate", "--config", str(missing), "--state-dir", str(state))
    assert status == 2 and out == ""
    assert err == f"companion: {missing}: no such file\n"
    assert not state.exists()  # nothing is written for a table that cannot start
    status, _, err = run(capsys, "simulate", "--state-dir", str(state))
    assert status == 2 and "needs a terminal" in err


# -- `companion games` and `companion export` on an installed Pi -----------------------------


def test_on_the_pi_the_services_journal_is_read_and_said(
    laptop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The owner's own user has no journal; the service keeps its own in /var/lib/companion.
    from companion.commands import export

    service = laptop.parent / "var-lib-companion" / "journal.sqlite3"
    a_game_in(service, "jockey", ("Chloé", "Dan"))
    a_game_in(laptop / "companion-simulator" / "journal.sqlite3", "jumpy_jack", ("Anna", "Bob"))
    monkeypatch.setattr(export, "SERVICE_JOURNAL", service)
    status, out, err = run(capsys, "games")
    assert status == 0 and "Chloé, Dan" in out and "Anna" not in out
    assert err == f"companion games: reading the service's journal, {service}\n"
    status, out, err = run(capsys, "export", "1")
    assert status == 0 and json.loads(out.splitlines()[0])["type"] == "new_game"


def test_a_service_journal_the_user_may_not_read_says_to_use_sudo(
    laptop: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.commands import export

    service = laptop.parent / "var-lib-companion" / "journal.sqlite3"
    a_game_in(service, "jockey", ("Chloé", "Dan"))
    monkeypatch.setattr(export, "SERVICE_JOURNAL", service)
    monkeypatch.setattr(export.os, "access", lambda path, mode: False)  # root reads anything
    status, out, err = run(capsys, "games")
    assert status == 2 and out == ""
    assert err == (
        f"companion games: the service's journal, {service}, is readable by the service only: "
        "sudo companion games\n"
    )


def test_the_services_journal_is_where_its_unit_keeps_it() -> None:
    from companion.commands.export import SERVICE_JOURNAL
    from tests.units import SYSTEMD, unit_settings

    state = unit_settings(SYSTEMD / "companion.service")["StateDirectory"]
    assert SERVICE_JOURNAL.parent == Path("/var/lib") / state[0]
