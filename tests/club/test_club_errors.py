"""A table says what is wrong with its club connection: a wrong password, a broker nobody
answers for, TLS on a port that has none; in its log once (not at every retry), on the host
page, and once on the panel; the right settings end it."""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.club.broker import LocalBroker, free_port
from companion.club.link import Link, LinkState, try_broker
from companion.club.publisher import Publisher
from companion.daemon.clubline import SENTENCES
from companion.devices.config.sections import Broker, ClubSection
from companion.games.text import fits_display
from companion.render.language import LANGUAGES, _, speaking
from tests.club.conftest import CLUB, FAST, USERS, login, wait_for
from tests.club.games import open_table
from tests.e2e.conftest import Child
from tests.web.hostile.limited import LimitedTable
from tests.web.hostile.test_joining import call


def publish(broker: Broker, tmp_path: Path) -> Publisher:
    path = tmp_path / "journal.sqlite3"
    open_table(path).close()
    publisher = Publisher(ClubSection(CLUB, "table1", broker), path, reconnect_s=FAST)
    publisher.start()
    return publisher


def failed(publisher: Publisher) -> Link:
    return wait_for(
        lambda: publisher.link.link if publisher.link.link.state is not LinkState.CONNECTING
        else None, what="the first answer",
    )  # fmt: skip


def wrong_password(local: LocalBroker) -> Broker:
    return Broker("127.0.0.1", local.port, username="table1", password="not-" + USERS["table1"])


def test_a_wrong_password_is_logged_once_with_the_broker_s_reason(
    broker: LocalBroker, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, "companion.club")
    publisher = publish(wrong_password(broker), tmp_path)
    try:
        link = failed(publisher)
        assert link.state is LinkState.NOT_AUTHORISED, link
        retried = wait_for(lambda: sum("(again)" in r.message for r in caplog.records) >= 2)
        assert retried  # paho tried again, and again: the log says it at debug level only
    finally:
        publisher.stop()
    warnings = [r.message for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings
    assert re.fullmatch(
        rf"club broker 127\.0\.0\.1:{broker.port}: login refused \((Not authorized|Bad user "
        r"name or password)\): check username and password in the configuration and in the "
        r"broker's password file and ACL",
        warnings[0],
    ), warnings[0]
    assert "not-" + USERS["table1"] not in caplog.text


def test_a_broker_that_is_not_there_is_said_unreachable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    nobody = Broker("127.0.0.1", free_port(), username="table1", password="pw")
    publisher = publish(nobody, tmp_path)
    try:
        link = failed(publisher)
    finally:
        publisher.stop()
    assert (link.state, link.detail) == (LinkState.UNREACHABLE, "Connection refused")
    assert "cannot be reached (Connection refused): check host and port" in caplog.text


def test_tls_against_a_port_without_it_is_said_a_tls_failure(
    broker: LocalBroker, tmp_path: Path
) -> None:
    tls = Broker("127.0.0.1", broker.port, tls=True, username="table1", password="pw1")
    publisher = publish(tls, tmp_path)
    try:
        link = failed(publisher)
    finally:
        publisher.stop()
    assert link.state is LinkState.TLS, link


def test_try_broker_says_connected_or_refused_in_one_line(broker: LocalBroker) -> None:
    good = try_broker(login(broker, "table1"), "companion-club-table1")
    assert good.line() == f"club broker 127.0.0.1:{broker.port}: connected"
    bad = try_broker(wrong_password(broker), "companion-club-table1")
    assert bad.state is LinkState.NOT_AUTHORISED and "\n" not in bad.line()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_club_sentence_fits_the_lcd(language: str) -> None:
    with speaking(language):
        for sentence in SENTENCES.values():
            assert fits_display(_(sentence)), _(sentence)


class ClubTable(LimitedTable):
    """The real daemon with its pages and a [club] section."""

    def __init__(self, root: Path, club: str) -> None:
        self.club = club
        super().__init__(root, files=1024)

    def _start(self) -> Child:
        if "[club]" not in self.config.read_text():
            self.config.write_text(self.config.read_text() + self.club)
        return super()._start()


@pytest.fixture
def wrong_table(broker: LocalBroker) -> Iterator[ClubTable]:
    root = Path(tempfile.mkdtemp(prefix="cmpc-"))
    club = (
        f'\n[club]\nclub = "{CLUB}"\ntable = "table1"\nhost = "127.0.0.1"\n'
        f'port = {broker.port}\nusername = "table1"\npassword = "wrong-pw"\n'
    )
    made = ClubTable(root, club)
    yield made
    made.close()
    shutil.rmtree(root, ignore_errors=True)


def test_the_daemon_says_a_refused_login_in_its_log_on_the_panel_and_on_the_host_page(
    wrong_table: ClubTable, broker: LocalBroker
) -> None:
    said = "Club: login refused: check username and password."
    wrong_table.child.wait_until(
        lambda s: "Club: login refused:" in " ".join(s["lcd"]), "the LCD's notice"
    )
    host = wrong_table.seat_host()
    _status, page, _cookies = call(wrong_table, "GET", "/host", cookies=host)
    assert said in str(page)
    assert re.search(rf"127\.0\.0\.1:{broker.port}: (Not authorized|Bad user name or p)", str(page))
    logged = wait_for(
        lambda: "login refused" in wrong_table.log_since() and wrong_table.log_since()
    )
    assert logged.count("login refused") == 1, logged
    assert "wrong-pw" not in logged and "wrong-pw" not in str(page)
