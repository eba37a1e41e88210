"""Only the table's own host names get an answer: a page fetched under another name (the
DNS-rebinding shape, where a forged Host equals a forged Origin) is refused before any route
runs. Against the real daemon."""

from __future__ import annotations

import json
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from companion.web.server import lan_address
from tests.e2e.conftest import FAST_CONFIG
from tests.web.conftest import Table
from tests.web.hostile.conftest import send


class NamedTable(Table):
    """A table whose [web] section names one more host name: table.lan."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.close()
        web = f'bind = "127.0.0.1"\nport = {self.port}\nnames = ["Table.LAN"]'
        self.config.write_text(FAST_CONFIG.replace("enabled = false", web))
        self.child = self._start()


@pytest.fixture(scope="module")
def named() -> Iterator[NamedTable]:
    root = Path(tempfile.mkdtemp(prefix="cmpn-"))
    made = NamedTable(root)
    yield made
    made.close()
    shutil.rmtree(root, ignore_errors=True)


def test_a_forged_host_equal_to_a_forged_origin_is_refused(table: Table) -> None:
    evil = f"rebound.example:{table.port}"
    before = table.view()
    page = send(table.port, "GET", "/join", headers={"Host": evil})
    assert page.status == 421 and page.json()["code"] == "wrong_host"
    assert b"Join" not in page.body
    asked = send(
        table.port,
        "POST",
        "/api/join",
        json.dumps({"code": "0000", "seat": "#host"}).encode(),
        {"Host": evil, "Origin": f"http://{evil}"},
    )
    assert asked.status == 421 and asked.json()["code"] == "wrong_host"
    with pytest.raises(InvalidStatus):
        connect(
            f"ws://127.0.0.1:{table.port}/live?page=board",
            origin=f"http://{evil}",
            additional_headers={"Host": evil},
        )
    assert "Join code" not in " ".join(table.child.lcd())  # the join page never opened
    assert table.view() == before


@pytest.mark.parametrize(
    "name", ["evil.test", "203.0.113.77", "127.0.0.1.nip.io", "localhost.evil"]
)
def test_other_names_and_addresses_are_refused(table: Table, name: str) -> None:
    answer = send(table.port, "GET", "/", headers={"Host": f"{name}:{table.port}"})
    assert answer.status == 421, name


def test_the_machines_own_names_are_answered(table: Table) -> None:
    machine = socket.gethostname().split(".")[0]
    lan = lan_address()  # the address the LCD and the QR code give phones
    for name in ("127.0.0.1", "localhost", "LOCALHOST", "[::1]", f"{machine}.local", machine, lan):
        answer = send(table.port, "GET", "/", headers={"Host": f"{name}:{table.port}"})
        assert answer.status == 200, name
    assert send(table.port, "GET", "/", headers={"Host": "localhost."}).status == 200


def test_a_configured_name_is_answered(named: NamedTable) -> None:
    answer = send(named.port, "GET", "/scoreboard", headers={"Host": f"table.lan:{named.port}"})
    assert answer.status == 200
    assert send(named.port, "GET", "/", headers={"Host": "other.lan"}).status == 421
