"""A real Mosquitto per test (its own port, password file and ACL), and MQTT readers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.club.broker import BrokerMissing, LocalBroker
from companion.club.league import League
from companion.club.listener import Listener
from companion.club.mqtt import client_for
from companion.club.mqtt import persistent as persistence
from companion.devices.config.sections import Broker, LeagueSection
from tests.memory import memory_folder

CLUB = "club"
#: Reconnect delays of the tests' clients: a test does not wait for the production backoff.
FAST = (0.05, 0.2)
USERS = {
    "league": "league-pw", "homeassistant": "ha-pw", "table1": "pw1", "table2": "pw2",
    "table3": "pw3",
}  # fmt: skip
#: Users of the test broker that only read (a client's id is its user name: one per reader).
WATCHERS = 6


def wait_for(condition: Callable[[], Any], timeout: float = 20.0, what: str = "") -> Any:
    """Poll ``condition`` until it is true (returned), failing after a generous deadline."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or condition}")


@pytest.fixture
def tmp_path(tmp_path: Path) -> Iterator[Path]:
    """A fresh folder in memory (else pytest's own): journals, league, broker data."""
    with memory_folder(tmp_path, "club-") as folder:
        yield folder


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    try:
        local = LocalBroker(tmp_path / "broker", USERS, CLUB, watchers=WATCHERS)
    except BrokerMissing:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("Mosquitto is not installed (apt-get install mosquitto)")
    local.start()
    yield local
    local.stop()


def login(local: LocalBroker, user: str) -> Broker:
    return Broker("127.0.0.1", local.port, username=user, password=USERS[user])


class Reader:
    """A plain MQTT subscriber that keeps every message it gets, per topic (a watcher of the
    broker, which reads everything, unless ``user`` is given)."""

    def __init__(
        self,
        local: LocalBroker,
        topic: str,
        user: str | None = None,
        *,
        persistent: bool = False,
    ) -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self.lock = threading.Lock()
        name, password = (user, USERS[user]) if user else local.watcher()
        logged = Broker("127.0.0.1", local.port, username=name, password=password)
        self.client = client_for(logged, name, reconnect_s=(0.1, 0.5))
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe(topic, qos=1)
        subscribed = threading.Event()
        self.client.on_subscribe = lambda c, u, mid, codes, p: subscribed.set()
        if persistent:  # the broker keeps its subscription and queues for it while away
            self.client.connect(
                "127.0.0.1", local.port, clean_start=False, properties=persistence()
            )
        else:
            self.client.connect("127.0.0.1", local.port)
        self.client.loop_start()
        wait_for(subscribed.is_set, what=f"a subscription to {topic}")

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self.lock:
            self.messages.append((message.topic, message.payload, bool(message.retain)))

    def on(self, topic: str) -> list[bytes]:
        with self.lock:
            return [payload for t, payload, _ in self.messages if t == topic]

    def json_on(self, topic: str) -> list[dict[str, Any]]:
        return [json.loads(p) for p in self.on(topic)]

    def at_least(self, topic: str, count: int) -> list[dict[str, Any]]:
        """Wait until ``count`` messages came on ``topic``; return them all, as JSON."""
        wait_for(lambda: len(self.on(topic)) >= count, what=f"{count} messages on {topic}")
        return self.json_on(topic)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def start_league(config: Path) -> tuple[subprocess.Popen[str], str]:
    """Start `companion league`; return it and its board's address once it has subscribed
    (a result published before its first subscription would never be kept for it)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "league", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    url, subscribed, seen = "", False, []
    while not (url and subscribed):
        line = process.stdout.readline()
        assert line, "the league stopped before it was ready:\n" + "".join(seen)
        seen.append(line)
        found = re.search(r"the board is at (http://[0-9.]+:[0-9]+/)", line)
        url = found.group(1) if found else url
        subscribed = subscribed or "listening to the tables" in line
    return process, url


@pytest.fixture
def league(broker: LocalBroker, tmp_path: Path) -> Iterator[tuple[League, Listener]]:
    """A league storing into its own file, connected to the broker."""
    store = League.open(tmp_path / "league.sqlite3")
    listener = Listener(LeagueSection(CLUB, login(broker, "league")), store, reconnect_s=FAST)
    listener.start()
    wait_for(listener.connected.is_set, what="the league connected")
    yield store, listener
    listener.stop()
    store.close()
