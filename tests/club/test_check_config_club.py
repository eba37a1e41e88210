"""`companion check-config` says what [club] and [league] set up (never a password), tries the
brokers with --try-broker (a real Mosquitto) in one line each, and never echoes a password."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.club.broker import LocalBroker, free_port
from tests.club.conftest import CLUB, USERS


def check(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["check-config", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def club_file(tmp_path: Path, port: int, password: str, *, league: bool = False) -> Path:
    path = tmp_path / "companion.toml"
    text = (
        f'[club]\nclub = "{CLUB}"\ntable = "table1"\nhost = "127.0.0.1"\nport = {port}\n'
        f'username = "table1"\npassword = "{password}"\n'
    )
    if league:
        text += (
            f'[league]\nclub = "{CLUB}"\nhost = "127.0.0.1"\nport = {port}\n'
            f'username = "league"\npassword = "{USERS["league"]}"\n'
            f'database = "{tmp_path / "league.sqlite3"}"\n'
        )
    path.write_text(text)
    return path


def test_the_club_and_league_sections_are_described_without_their_passwords(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club_file(tmp_path, 1883, "s3cret-pw", league=True)
    status, out, err = check([str(path)], capsys)
    assert status == 0 and err == ""
    assert (
        f"Club: table 'table1' of club '{CLUB}', broker 127.0.0.1:1883 with no TLS, user "
        "'table1', a password, Home Assistant off"
    ) in out.splitlines()
    assert any(line.startswith(f"League: club '{CLUB}', broker 127.0.0.1:1883") for line in
               out.splitlines())  # fmt: skip
    assert "s3cret-pw" not in out and USERS["league"] not in out


def test_try_broker_logs_in_as_the_table_and_says_so_in_one_line(
    broker: LocalBroker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = check(
        [str(club_file(tmp_path, broker.port, USERS["table1"], league=True)), "--try-broker"],
        capsys,
    )
    assert (status, err) == (0, "")
    assert out.splitlines()[-2:] == [
        f"club broker 127.0.0.1:{broker.port}: connected",
        f"club broker 127.0.0.1:{broker.port}: answers (the league's login is not tried)",
    ]


def test_try_broker_says_a_refused_login_and_exits_1(
    broker: LocalBroker, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = club_file(tmp_path, broker.port, "mistyped-pw")
    status, out, err = check([str(path), "--try-broker"], capsys)
    assert (status, err) == (1, "")
    last = out.splitlines()[-1]
    assert last.startswith(f"club broker 127.0.0.1:{broker.port}: login refused (")
    assert "mistyped-pw" not in out


def test_try_broker_says_an_unreachable_broker_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    status, out, err = check([str(club_file(tmp_path, port, "pw")), "--try-broker"], capsys)
    assert (status, err) == (1, "")
    assert out.splitlines()[-1] == (
        f"club broker 127.0.0.1:{port}: cannot be reached (Connection refused): check host and "
        "port, the network, and that the broker runs"
    )


@pytest.mark.parametrize("written", ["12345678", '["hunter2"]', '{ pw = "hunter2" }', "1.5e3"])
def test_a_mistyped_password_is_never_echoed(
    written: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(f'[club]\ntable = "t1"\nusername = "t1"\npassword = {written}\n')
    status, out, err = check([str(path)], capsys)
    assert status == 2 and "club.password: must be a quoted string" in err
    for secret in ("12345678", "hunter2", "1500", "1.5e3"):
        assert secret not in err + out
