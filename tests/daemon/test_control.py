"""The simulator's control socket: it keeps every file it did not make, refuses bad paths and
bad commands with one line each, and bounds lines, connections and arguments."""

from __future__ import annotations

import json
import os
import select
import shutil
import socket
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.daemon.app import Companion, build
from companion.daemon.control import (
    BACKLOG,
    MAX_CONNECTIONS,
    MAX_LINE,
    MAX_SOCKET_PATH,
    ControlError,
    ControlServer,
)
from companion.games.errors import fits_display
from tests.daemon.test_simulator import quick_config


@pytest.fixture
def folder() -> Iterator[Path]:
    """A short folder for sockets (a Unix socket path has at most 107 bytes)."""
    made = Path(tempfile.mkdtemp(prefix="ctl-"))
    yield made
    shutil.rmtree(made, ignore_errors=True)


class Client:
    """One connection to the control socket, reading one reply line at a time."""

    def __init__(self, path: Path) -> None:
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(10)
        self.socket.connect(str(path))
        self._pending = b""

    def send(self, data: bytes) -> None:
        self.socket.sendall(data)

    def reply(self) -> dict[str, Any]:
        while b"\n" not in self._pending:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise AssertionError(f"the connection ended; got {self._pending!r}")
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, command: bytes | str) -> dict[str, Any]:
        self.send((command.encode() if isinstance(command, str) else command) + b"\n")
        return self.reply()

    def close(self) -> None:
        self.socket.close()


class Running:
    """A simulated companion with its loop in a thread and a control socket served."""

    def __init__(self, state_dir: Path, path: Path, idle_s: float = 300.0) -> None:
        self.companion: Companion = build(quick_config(), simulate=True, state_dir=state_dir)
        self.loop = threading.Thread(
            target=lambda: self.companion.run(handle_signals=False), daemon=True
        )
        self.loop.start()
        assert self.companion.daemon.running.wait(10), "the loop did not start"
        self.path = path
        self.server = ControlServer(path, idle_s)
        sim = self.companion.rig.simulation
        assert sim is not None
        self.server.start(sim, self.companion.daemon)

    def client(self) -> Client:
        return Client(self.path)

    def stop(self) -> None:
        self.server.close()
        self.companion.daemon.stop("test over")
        self.loop.join(10)


@pytest.fixture
def running(tmp_path: Path, folder: Path) -> Iterator[Running]:
    served = Running(tmp_path / "state", folder / "control.sock")
    yield served
    served.stop()


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def refused(reply: dict[str, Any], code: str) -> None:
    assert reply["ok"] is False, reply
    assert reply["code"] == code, reply
    assert fits_display(reply["error"]), reply


# -- the path --------------------------------------------------------------------------------


def a_journal(path: Path) -> bytes:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        db.execute("INSERT INTO games VALUES (1)")
    db.close()
    return path.read_bytes()


def test_a_journal_at_the_control_path_survives_and_the_run_stops(tmp_path: Path) -> None:
    journal = tmp_path / "v.sqlite3"
    before = a_journal(journal)
    status = main(
        ["simulate", "--headless", "--control", str(journal), "--state-dir", str(tmp_path / "sd")]
    )
    assert status == 2
    assert journal.read_bytes() == before
    assert not (tmp_path / "sd").exists(), "the run went on and made its state folder"


@pytest.mark.parametrize(
    ("where", "says"),
    [
        ("folder", "is a folder"),
        ("missing/control.sock", "there is no folder"),
        ("x" * (MAX_SOCKET_PATH + 1), f"at most {MAX_SOCKET_PATH} bytes"),
    ],
)
def test_a_path_that_cannot_be_a_socket_is_one_clear_line(
    where: str, says: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "folder").mkdir()
    control = folder / where
    state = folder / "state"
    status = main(["simulate", "--headless", "--control", str(control), "--state-dir", str(state)])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1 and says in err, err
    assert "Traceback" not in err
    assert not state.exists()
    assert sorted(p.name for p in folder.iterdir()) == ["folder"]


def test_a_stale_socket_is_replaced_but_a_served_one_is_left(folder: Path) -> None:
    path = folder / "control.sock"
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))
    stale.close()  # the file stays, nobody listens: what a killed simulator leaves
    server = ControlServer(path)
    try:
        with pytest.raises(ControlError) as other:
            ControlServer(path)
        assert other.value.code == "in_use"
        Client(path).close()  # the first server still accepts
    finally:
        server.close()
    assert not path.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a socket to another user needs root")
def test_another_user_s_stale_socket_is_left_alone(folder: Path) -> None:
    path = folder / "control.sock"
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))
    stale.close()
    os.chown(path, 65534, 65534)
    with pytest.raises(ControlError) as theirs:
        ControlServer(path)
    assert theirs.value.code == "not_ours"
    assert path.is_socket()


def test_closing_leaves_a_file_that_took_the_socket_s_place(folder: Path) -> None:
    path = folder / "control.sock"
    server = ControlServer(path)
    path.unlink()
    path.write_text("someone else's\n")
    server.close()
    assert path.read_text() == "someone else's\n"


# -- the commands ----------------------------------------------------------------------------


BAD = [
    ("turn 100000000", "bad_steps"),
    ("turn 0", "bad_steps"),
    ("turn a", "bad_steps"),
    ("press horse1 inf", "bad_seconds"),
    ("press horse1 nan", "bad_seconds"),
    ("press horse2 1e9", "bad_seconds"),
    ("press horse2 -1", "bad_seconds"),
    ("press", "usage"),
    ("press horse1 0.1 0.2", "usage"),
    ("press nosuch", "no_button"),
    ("hold nosuch", "no_button"),
    ("die 7", "bad_face"),
    ("die 1e3", "bad_face"),
    ("scan", "usage"),
    ("state now", "usage"),
    ("stop please", "usage"),
    ("frobnicate", "unknown_command"),
    ("", "empty"),
    ("\x00\x01", "unknown_command"),
]


def test_every_bad_command_gets_an_error_line_and_changes_nothing(running: Running) -> None:
    client = running.client()
    before = client.ask("state")
    for line, code in BAD:
        refused(client.ask(line), code)
    refused(client.ask(b"press \xff\xfe horse1"), "not_text")
    after = client.ask("state")
    assert after["handled"] == before["handled"]
    assert after["lcd"] == before["lcd"]
    # The refused presses left no button down: a good press of the same button is seen.
    assert client.ask("press horse1")["ok"]
    wait_for(lambda: client.ask("state")["handled"] > before["handled"], "the press")
    client.close()


def test_a_turn_within_bounds_is_every_detent(running: Running) -> None:
    client = running.client()
    handled = client.ask("state")["handled"]
    assert client.ask("turn 3")["ok"]
    wait_for(lambda: client.ask("state")["handled"] >= handled + 3, "three detents")
    client.close()


def test_an_overlong_line_is_refused_at_once_and_skipped_to_its_end(running: Running) -> None:
    client = running.client()
    client.send(b"x" * (MAX_LINE + 1))
    refused(client.reply(), "line_too_long")  # no newline sent yet: the answer comes anyway
    for _ in range(64):
        client.send(b"y" * 65536)  # 4 MB more of the same line
    client.send(b"\nstate\n")
    assert client.reply()["ok"] is True  # the rest of the long line got no reply of its own
    client.close()


def test_connections_are_bounded_and_the_backlog_holds_a_burst(running: Running) -> None:
    threads = threading.active_count()
    burst = []
    for _ in range(BACKLOG):
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        connection.setblocking(False)
        connection.connect(str(running.path))  # raises BlockingIOError if the backlog is full
        burst.append(connection)
    for number, connection in enumerate(burst):  # accepted in order: the first ones served
        connection.settimeout(10)
        if number < MAX_CONNECTIONS:
            connection.sendall(b"state\n")
            assert json.loads(connection.makefile("rb").readline())["ok"] is True
        else:
            refused(json.loads(connection.makefile("rb").readline()), "busy")
            assert connection.recv(1) == b"", "a connection over the limit stayed open"
    assert threading.active_count() <= threads + MAX_CONNECTIONS
    for connection in burst:
        connection.close()

    def served_again() -> bool:
        client = running.client()
        try:
            return bool(client.ask("state")["ok"])
        finally:
            client.close()

    wait_for(served_again, "a connection served once the others closed")


def test_idle_connections_are_closed_and_free_their_slots(tmp_path: Path, folder: Path) -> None:
    served = Running(tmp_path / "state", folder / "control.sock", idle_s=0.2)
    try:
        idle = [served.client() for _ in range(MAX_CONNECTIONS)]  # connect, then say nothing
        for client in idle:
            refused(client.reply(), "idle")
            assert client.socket.recv(1) == b"", "an idle connection stayed open"
        talking = served.client()
        assert talking.ask("state")["ok"] is True  # a slot is free again
        talking.close()
        for client in idle:
            client.close()
    finally:
        served.stop()


def test_a_client_trickling_a_line_that_never_ends_is_closed(tmp_path: Path, folder: Path) -> None:
    served = Running(tmp_path / "state", folder / "control.sock", idle_s=0.5)
    try:
        client = served.client()
        deadline = time.monotonic() + 10.0
        while not select.select([client.socket], [], [], 0.1)[0]:  # until the server speaks
            assert time.monotonic() < deadline, "a client trickling bytes was never closed"
            try:
                client.send(b"s")  # a byte every tenth of a second, never a newline
            except BrokenPipeError:  # it spoke and closed between the look and this byte:
                break  # its answer is still there to read
        refused(client.reply(), "idle")
        try:
            closed = client.socket.recv(1) == b""
        except ConnectionResetError:  # closed with the client's last byte unread (a busy
            closed = True  # machine let one more through after the server's last read)
        assert closed, "the trickling connection stayed open"
        client.close()
        talking = served.client()
        assert talking.ask("state")["ok"] is True  # its slot is free again
        talking.close()
    finally:
        served.stop()


# -- the fuzz --------------------------------------------------------------------------------

WORDS = ["press", "hold", "turn", "scan", "die", "state", "horse1", "horse5", "push", "undo"]
#: Numbers that are bad for every command, or a press short enough not to slow the next one.
ARGUMENTS = ["0", "-0", "-3", "0.01", "13", "101", "1e9", "inf", "-inf", "nan", "QS", "é"]
no_digits = st.text(alphabet=st.characters(blacklist_categories=["Nd", "Cs"]), max_size=8)
text_lines = st.lists(st.sampled_from(WORDS + ARGUMENTS) | no_digits, max_size=4).map(" ".join)
raw_lines = st.binary(max_size=MAX_LINE + 40)


def one_each(lines: list[bytes]) -> list[bytes]:
    """The lines as sent: a newline inside one would make two."""
    return [line.replace(b"\n", b" ") for line in lines]


def test_random_lines_get_one_reply_each_and_never_break_the_socket(running: Running) -> None:
    client = running.client()

    @settings(
        max_examples=150,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.lists(text_lines.map(str.encode) | raw_lines, min_size=1, max_size=5).map(one_each))
    def lines_in_replies_out(lines: list[bytes]) -> None:
        client.send(b"".join(line + b"\n" for line in lines))
        for _ in lines:
            reply = client.reply()
            assert isinstance(reply["ok"], bool)
            if not reply["ok"]:
                assert reply["code"].replace("_", "").isalpha(), reply
                assert fits_display(reply["error"]), reply
        last = client.ask("state")
        assert last["ok"], last

    lines_in_replies_out()
    client.close()
