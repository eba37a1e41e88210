"""The example Mosquitto set-up of docs/club.md: the ACL and config the tests run, a broker
that starts from it without a warning and keeps what it must across a restart, client ids
no one can take, and each user held to its exact topics."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho
import pytest

from companion.club.broker import (
    MOSQUITTO,
    PASSWD,
    LocalBroker,
    _tool,
    acl_text,
    example_config,
    free_port,
)
from companion.club.league import League
from companion.club.listener import Listener
from companion.club.mqtt import client_for
from companion.club.mqtt import persistent as persistence
from companion.club.publisher import Publisher
from companion.devices.config.sections import Broker, ClubSection
from tests.club.conftest import CLUB, FAST, Reader, login, wait_for
from tests.club.games import open_table, play

EXAMPLE = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto"
#: Debian's /etc/mosquitto/mosquitto.conf (package mosquitto 2.0), its paths to be moved.
DEBIAN_MAIN = """\
pid_file /run/mosquitto/mosquitto.pid

persistence true
persistence_location /var/lib/mosquitto/

log_dest file /var/log/mosquitto/mosquitto.log

include_dir /etc/mosquitto/conf.d
"""


def test_the_example_acl_is_the_one_the_tests_enforce() -> None:
    lines = (EXAMPLE / "companion-club.acl").read_text().splitlines()
    assert "\n".join(lines[1:]) + "\n" == acl_text("myclub")


def test_the_example_config_is_the_one_the_tests_run() -> None:
    assert (EXAMPLE / "companion-club.conf").read_text() == example_config()


class DebianBroker:
    """Mosquitto started as Debian starts it: its main file (paths moved to ``folder``)
    including the example config from conf.d, as Mosquitto's own user when run as root."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        conf_d = folder / "conf.d"
        conf_d.mkdir(parents=True)
        (folder / "data").mkdir()
        example = example_config(f"{self.port} 127.0.0.1", f"{folder}/")
        (conf_d / "companion-club.conf").write_text(example)
        (folder / "companion-club.acl").write_text(acl_text(CLUB))
        passwords = folder / "companion-club.passwords"
        for n, (user, password) in enumerate((("league", "lpw"), ("table1", "pw1"))):
            create = ["-c"] if n == 0 else []
            subprocess.run(
                [_tool(PASSWD), "-b", *create, str(passwords), user, password], check=True
            )
        self.log = folder / "mosquitto.log"
        main = DEBIAN_MAIN.replace("/run/mosquitto/", f"{folder}/")
        main = main.replace("/var/lib/mosquitto/", f"{folder}/data/")
        main = main.replace("/var/log/mosquitto/mosquitto.log", str(self.log))
        main = main.replace("/etc/mosquitto/conf.d", str(conf_d))
        user = pwd.getpwuid(os.getuid()).pw_name
        if os.getuid() == 0:  # Mosquitto warns when it keeps root's rights: its own user
            user = "mosquitto"
            try:
                pwd.getpwnam(user)
            except KeyError:
                pytest.skip("run as root without Debian's mosquitto user")
            folder.parent.chmod(0o755)  # the test's own folder: Mosquitto's user goes through
            shutil.chown(folder, user)
            for path in folder.rglob("*"):
                shutil.chown(path, user)
        (folder / "mosquitto.conf").write_text(main + f"user {user}\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [_tool(MOSQUITTO), "-c", str(self.folder / "mosquitto.conf")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while True:
            assert self.process.poll() is None, self.said()
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                assert time.monotonic() < deadline, "the example config never listened"
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)

    def said(self) -> str:
        out = self.process.stdout.read().decode() if self.process and self.process.stdout else ""
        return out + (self.log.read_text() if self.log.exists() else "")


@pytest.fixture
def debian(tmp_path: Path) -> Iterator[DebianBroker]:
    broker = DebianBroker(tmp_path / "mosquitto")
    yield broker
    broker.stop()


def connect(port: int, user: str, password: str, *, keep: bool = False) -> paho.Client:
    client = client_for(Broker("127.0.0.1", port, username=user, password=password), user)
    if keep:
        client.connect("127.0.0.1", port, clean_start=False, properties=persistence())
    else:
        client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def test_mosquitto_starts_with_the_example_config_without_a_warning_and_keeps_the_queue(
    debian: DebianBroker,
) -> None:
    """As Debian includes it: no warning, and a result queued for the league while it is
    away survives a clean restart of the broker (the persistence the example states)."""
    debian.start()
    results = f"companion/{CLUB}/table1/results"
    got: list[bytes] = []
    subscribed = threading.Event()
    league = connect(debian.port, "league", "lpw", keep=True)
    league.on_subscribe = lambda *_: subscribed.set()
    league.subscribe(results, qos=1)
    wait_for(subscribed.is_set, what="the league's subscription")
    league.loop_stop()
    league.disconnect()
    table = connect(debian.port, "table1", "pw1")
    table.publish(results, b"a result", 1).wait_for_publish(10)
    table.loop_stop()
    table.disconnect()
    debian.stop()
    debian.start()
    league = client_for(Broker("127.0.0.1", debian.port, username="league", password="lpw"), "x")
    league.on_message = lambda client, data, message: got.append(message.payload)
    league.connect("127.0.0.1", debian.port, clean_start=False, properties=persistence())
    league.loop_start()
    try:
        wait_for(lambda: got, what="the result kept across the restart")
    finally:
        league.loop_stop()
        league.disconnect()
        debian.stop()
    said = debian.said()
    assert "Warning" not in said and "Error" not in said, said
    assert got == [b"a result"]


def test_a_tables_credentials_take_no_other_clients_session(
    broker: LocalBroker, tmp_path: Path, league: tuple[League, Listener]
) -> None:
    """Table1's password, with the league's client id or table2's: the broker names the
    client by its user, so the league keeps its session and table2 its connection."""
    store, listener = league
    path = tmp_path / "table2.sqlite3"
    session = open_table(path)
    honest = Publisher(ClubSection(CLUB, "table2", login(broker, "table2")), path, reconnect_s=FAST)
    honest.start()
    drops: list[Any] = []
    listener.client.on_disconnect = lambda *args: drops.append(args)
    try:
        wait_for(lambda: honest.figures.connects == 1, what="table2 connected")
        for taken in (f"companion-league-{CLUB}", f"companion-{CLUB}-table2", "league", "table2"):
            hijacker = client_for(login(broker, "table1"), taken)
            hijacker.connect("127.0.0.1", broker.port, clean_start=False, properties=persistence())
            hijacker.loop_start()
            try:
                wait_for(hijacker.is_connected, what=f"table1 in as {taken}")
            finally:
                hijacker.loop_stop()
                hijacker.disconnect()
        play(session)
        honest.board(session.view())
        wait_for(lambda: len(store.results()) == 1, what="table2's result, for the league")
    finally:
        honest.stop()
    assert drops == [] and honest.figures.connects == 1


def test_each_table_writes_its_exact_topics_and_home_assistant_only_its_status(
    broker: LocalBroker,
) -> None:
    everything = Reader(broker, "#")
    table1 = connect(broker.port, "table1", "pw1")
    assistant = connect(broker.port, "homeassistant", "ha-pw")
    refused = [
        (table1, f"companion/{CLUB}/table1/state/deeper"),
        (table1, f"companion/{CLUB}/table1/x/y/z"),
        (table1, f"companion/{CLUB}/table2/results"),
        (table1, f"companion/{CLUB}/league/resend/table1"),
        (table1, "homeassistant/lock/companion-club-table1/door/config"),
        (table1, "homeassistant/sensor/companion-club-table2/phase/config"),
        (table1, "homeassistant/sensor/companion-club-table1/anything/config"),
        (assistant, f"companion/{CLUB}/table1/results"),
        (assistant, "homeassistant/switch/any/thing/config"),
    ]
    allowed = [
        (table1, f"companion/{CLUB}/table1/state"),
        (table1, "homeassistant/sensor/companion-club-table1/phase/config"),
        (assistant, "homeassistant/status"),
    ]
    try:
        for client, topic in refused + allowed:
            client.publish(topic, b"{}", 1, retain=True).wait_for_publish(10)
        wait_for(lambda: len(everything.messages) >= len(allowed), what="the allowed ones")
        dropped: list[Any] = []
        table1.on_disconnect = lambda *args: dropped.append(args)
        table1.publish(f"companion/{CLUB}/table1/state", b"x" * 40_000, 1, retain=True)
        wait_for(lambda: dropped, what="the too large packet refused")
    finally:
        for client in (table1, assistant):
            client.loop_stop()
            client.disconnect()
    assistant_reads = Reader(broker, f"companion/{CLUB}/+/state", "homeassistant")
    try:
        wait_for(lambda: assistant_reads.messages, what="Home Assistant reads a table's state")
    finally:
        assistant_reads.close()
    everything.close()
    assert sorted(topic for topic, _, _ in everything.messages) == sorted(t for _, t in allowed)
    assert all(len(payload) < 100 for _, payload, _ in everything.messages)
