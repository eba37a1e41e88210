"""A table served in this process (its pages on a real port) and raw HTTP to any table."""

from __future__ import annotations

import contextlib
import http.client
import itertools
import json
import shutil
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.app import Companion, build
from companion.devices.config import load_config
from companion.web.seats import HOST
from tests.e2e.conftest import FAST_CONFIG
from tests.web.conftest import free_port


@dataclass(frozen=True)
class Answer:
    """What the pages answered: status, headers (lower-case names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def send(
    port: int,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One request to 127.0.0.1:``port`` as a browser page of the table would send it (the
    Host and Origin of the table unless ``headers`` say otherwise)."""
    sent = {"Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}"}
    if body is not None:
        sent["Content-Type"] = "application/json"
    sent.update(headers or {})
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in sent.items():
            connection.putheader(name, value)
        if body is not None and "Content-Length" not in sent:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        read = response.read()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, read)
    finally:
        connection.close()


@dataclass
class Served:
    """A companion built and run in this process, its pages on a real port of 127.0.0.1."""

    root: Path
    companion: Companion
    port: int
    thread: threading.Thread
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(self, action: Any) -> Any:
        """Run ``action`` on the loop's thread; return what it returned."""
        return self.companion.daemon.call(action).result(10)

    def host_cookie(self) -> str:
        """The host seat's cookie (given here: joining is not what these tests are about)."""
        assert self.companion.web is not None
        seats = self.companion.web.seats
        side = self.companion.daemon.table.side  # type: ignore[attr-defined]

        def issue() -> str:
            token = seats.issue(HOST)
            side.refresh()  # as a confirmed join does: the pages learn the seat's new token
            return token

        return "host=" + str(self.call(issue))

    def seat_cookie(self, player: str) -> str:
        """``player``'s seat cookie at the game in progress."""
        assert self.companion.web is not None
        seats = self.companion.web.seats
        session = self.companion.session

        side = self.companion.daemon.table.side  # type: ignore[attr-defined]

        def issue() -> str:
            seats.follow(session.game_id)
            token = seats.issue(player)
            side.refresh()  # as a confirmed join does: the pages learn the seat's new token
            return token

        return "seat=" + str(self.call(issue))

    def send(self, method: str, path: str, body: bytes | None = None, **headers: str) -> Answer:
        named = {k.replace("_", "-"): v for k, v in headers.items()}
        return send(self.port, method, path, body, named)

    def new_game(self, host: str, game: str, players: str, **options: Any) -> None:
        """Start a game from the host page's form."""
        form = {"do": "new_game", "game": game, "players": players}
        if options:
            form[game] = {k: json.dumps(v) for k, v in options.items()}
        answer = self.send("POST", "/api/host", json.dumps(form).encode(), Cookie=host)
        assert answer.status == 200, answer


@contextlib.contextmanager
def serving() -> Iterator[Served]:
    """A companion built and run in this process on a free port, stopped afterwards."""
    root = Path(tempfile.mkdtemp(prefix="cmph-"))
    port = free_port()
    web = f'bind = "127.0.0.1"\nport = {port}'
    config_path = root / "companion.toml"
    config_path.write_text(FAST_CONFIG.replace("enabled = false", web))
    companion = build(load_config(config_path), simulate=True, state_dir=root / "state")
    assert companion.web is not None
    # The same app on a clock an hour further at every look: no rate limit slows the tests.
    hours = itertools.count(step=3600.0)
    companion.web.clock = lambda: next(hours)
    thread = threading.Thread(target=companion.run, kwargs={"handle_signals": False})
    thread.start()
    made = Served(root, companion, port, thread)
    try:
        web = companion.web
        waited = threading.Event()
        for _ in range(1500):  # up to 30 s on a loaded machine; usually a few hundredths
            if web.started:
                break
            waited.wait(0.02)
        assert web.started, "the pages never started"
        yield made
    finally:
        companion.daemon.stop()
        thread.join(15)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    with serving() as made:
        yield made
