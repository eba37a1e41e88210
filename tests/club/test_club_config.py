"""The [club] and [league] sections: off by default, checked key by key."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.devices.config import ConfigError
from companion.devices.config.checker import parse_config
from companion.devices.config.sections import Broker


def test_without_a_club_section_the_table_publishes_nothing() -> None:
    config = parse_config("")
    assert config.club is None and config.league is None


def test_a_club_section_names_the_table_and_its_broker(tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    config = parse_config(
        '[club]\nclub = "cafe-du-port"\ntable = "t1"\nhost = "broker.lan"\ntls = true\n'
        'ca_file = "ca.pem"\nusername = "t1"\npassword = "s3cret"\n',
        base_dir=tmp_path,
    )
    assert config.club is not None
    assert (config.club.club, config.club.table) == ("cafe-du-port", "t1")
    assert config.club.broker == Broker("broker.lan", 8883, True, ca, "t1", "s3cret")
    assert "s3cret" not in repr(config)  # the password never reaches a log line


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        ('[club]\nclub = "a/b"\ntable = "t"\n', "club.club", "topic level"),
        ('[club]\nclub = "c"\n', "club.table", "its own name"),
        ('[club]\ntable = "t"\nport = 0\n', "club.port", "from 1 to 65535"),
        ('[club]\ntable = "t"\npassword = "x"\n', "club.password", "needs a username"),
        ('[club]\ntable = "t"\nca_file = "/no/such/ca.pem"\n', "club.ca_file", "no such file"),
        ('[club]\ntable = "t"\nqos = 2\n', "club.qos", "unknown key"),
        ('[league]\nbind = "everywhere"\n', "league.bind", "IP address"),
    ],
)
def test_a_bad_club_or_league_key_is_named_with_its_reason(
    text: str, key: str, reason: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert any(p.key == key and reason in p.reason for p in caught.value.problems), caught.value


@pytest.mark.parametrize("name", ["league", "homeassistant"])
def test_no_table_may_take_the_name_of_another_user_of_the_broker(name: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(f'[club]\ntable = "{name}"\n')
    assert caught.value.key == "club.table" and name in caught.value.reason
