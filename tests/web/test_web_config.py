"""The [web] section: on by default on port 8080, checked like every other section."""

from __future__ import annotations

import pytest

from companion.devices.config import ConfigError, WebSection, parse_config


def test_the_pages_are_on_by_default_on_port_8080() -> None:
    assert parse_config("", "test.toml").web == WebSection(True, "0.0.0.0", 8080)
    web = parse_config('[web]\nbind = "127.0.0.1"\nport = 8123\nenabled = false\n', "t").web
    assert web == WebSection(False, "127.0.0.1", 8123)


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ('[web]\nbind = "localhost:80"\n', "web.bind", "IP address"),
        ("[web]\nport = 70000\n", "web.port", "65535"),
        ('[web]\nenabled = "yes"\n', "web.enabled", "true or false"),
        ("[web]\nprot = 8080\n", "web.prot", "did you mean 'port'"),
        ('[web]\nnames = "table.lan"\n', "web.names", "list of host names"),
        ('[web]\nnames = ["table lan"]\n', "web.names", "not a host name"),
        ('[web]\nnames = ["evil.test:80"]\n', "web.names", "not a host name"),
    ],
)
def test_a_bad_web_setting_is_named_with_its_reason(text: str, key: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "test.toml")
    assert caught.value.key == key and words in caught.value.reason


def test_check_config_says_where_the_pages_are() -> None:
    from companion.commands.check_config import describe

    assert "Web pages: on 0.0.0.0, port 8080" in describe(parse_config("", "t"))
    assert "Web pages: off" in describe(parse_config("[web]\nenabled = false\n", "t"))


def test_more_host_names_are_read_and_said() -> None:
    web = parse_config('[web]\nnames = ["Table.LAN", "pi.home."]\n', "t").web
    assert web.names == ("table.lan", "pi.home")
    from companion.commands.check_config import describe

    said = describe(parse_config('[web]\nnames = ["table.lan"]\n', "t"))
    assert "Web pages: on 0.0.0.0, port 8080, also as table.lan" in said
