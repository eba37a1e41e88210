"""A guest's devices open connections and keep them: idle, trickling, dropped halfway, more than
the daemon may open files for. The pages and the control socket go on answering, the log gets
a line a second at most, and no connection is held for long without a whole request."""

from __future__ import annotations

import os
import resource
import select
import socket
import time
import urllib.error
from collections.abc import Iterator

import pytest

from companion.web.gate import PER_ADDRESS
from tests.web.hostile.limited import FILES, PATIENCE_S, LimitedTable, guest, limited_table

#: Idle connections opened: more than the child has files for.
FLOOD = FILES + 50
#: Connections closed by the gate within this many seconds (it allows five for a request).
CLOSED_WITHIN_S = 20.0


@pytest.fixture(scope="module")
def limited() -> Iterator[LimitedTable]:
    yield from limited_table()


def flood(table: LimitedTable, count: int, *, first: int = 0) -> list[socket.socket]:
    """``count`` TCP connections that send nothing, each from a guest's address in turn."""
    opened = []
    for number in range(first, first + count):
        try:
            opened.append(table.connect(guest(number)))
        except OSError:  # the kernel's queue is full: the guest's device tries the next one
            continue
    return opened


def answered(table: LimitedTable, path: str = "/scoreboard") -> bool:
    """Whether a fresh GET of ``path`` is answered 200 within PATIENCE_S."""
    try:
        return table.get(path)[0] == 200
    except (OSError, urllib.error.URLError):
        return False


def close_all(sockets: list[socket.socket]) -> None:
    for made in sockets:
        made.close()


def test_more_idle_connections_than_files_leave_the_pages_and_control_answering(
    limited: LimitedTable,
) -> None:
    before = limited.mark()
    sockets = flood(limited, FLOOD)
    try:
        assert len(sockets) >= FILES, "the guest could not even open its connections"
        assert all(answered(limited) for _ in range(5)), "a fresh page was not answered"
        assert limited.control_state()["ok"] is True
        logged = limited.log_since(before)
        assert len(logged.encode()) <= 10_000, f"{len(logged)} bytes logged:\n{logged[-2000:]}"
    finally:
        close_all(sockets)
    assert limited.control_state()["ok"] is True, "the control socket stopped accepting"


def test_one_address_holds_a_few_dozen_connections_and_takes_none_of_the_others(
    limited: LimitedTable,
) -> None:
    others = flood(limited, 20)  # twenty guests' devices, one connection each
    greedy = [limited.connect(guest(99)) for _ in range(PER_ADDRESS + 50)]
    try:
        deadline = time.monotonic() + PATIENCE_S
        while sum(not gone(made) for made in greedy) > PER_ADDRESS:
            assert time.monotonic() < deadline, "one address holds more than its share"
            time.sleep(0.05)
        assert not any(gone(made) for made in others), "another guest's connection was closed"
        assert answered(limited)
    finally:
        close_all(others + greedy)


def gone(made: socket.socket) -> bool:
    """Whether the server closed ``made`` (without waiting if it did not)."""
    readable, _, _ = select.select([made], [], [], 0)
    if not readable:
        return False
    try:
        return made.recv(4096) == b""
    except OSError:
        return True


def test_idle_half_sent_and_trickling_requests_are_closed_without_a_traceback(
    limited: LimitedTable,
) -> None:
    before = limited.mark()
    idle = flood(limited, 20)
    heads = flood(limited, 20, first=20)
    for made in heads:
        made.sendall(b"GET /scoreboard HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the head never ends
    bodies = flood(limited, 20, first=40)
    head = (
        f"POST /api/input HTTP/1.1\r\nHost: 127.0.0.1:{limited.port}\r\n"
        f"Origin: {limited.url}\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n"
    )
    for made in bodies:
        made.sendall(head.encode() + b'{"type": ')  # the body never ends
    trickling = heads + bodies
    everyone = idle + trickling
    deadline = time.monotonic() + CLOSED_WITHIN_S
    try:
        while not all(gone(made) for made in everyone):
            assert time.monotonic() < deadline, (
                f"{sum(not gone(made) for made in everyone)} of {len(everyone)} connections "
                f"still open after {CLOSED_WITHIN_S:g} s"
            )
            for made in trickling:
                try:
                    made.send(b"x")  # one byte at a time keeps no connection open
                except OSError:
                    continue
            time.sleep(0.5)
        assert answered(limited)
        text = limited.log_since(before)
        assert "Traceback" not in text and "ClientDisconnect" not in text, text[-2000:]
    finally:
        close_all(everyone)


def test_requests_dropped_halfway_leave_no_traceback(limited: LimitedTable) -> None:
    head = (
        f"POST /api/input HTTP/1.1\r\nHost: 127.0.0.1:{limited.port}\r\n"
        f"Origin: {limited.url}\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n"
    )
    for number in range(30):
        with limited.connect(guest(number)) as made:
            made.sendall(head.encode() + b'{"type": "roll"')  # then the phone walks away
    assert all(answered(limited) for _ in range(3))  # the server has seen every one go
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:  # what the server logged reaches the test
        text = limited.log_since()
        assert "Traceback" not in text and "ClientDisconnect" not in text, text[-2000:]
        time.sleep(0.1)


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_with_no_file_left_accept_errors_are_a_line_a_second_and_both_sockets_recover(
    limited: LimitedTable,
) -> None:
    process = limited.child.process
    assert process is not None
    assert answered(limited) and limited.control_state()["ok"] is True  # everything is loaded
    before = limited.mark()
    soft, hard = resource.prlimit(process.pid, resource.RLIMIT_NOFILE)
    resource.prlimit(process.pid, resource.RLIMIT_NOFILE, (open_files(process.pid), hard))
    waiting = flood(limited, 30)  # queued by the kernel: the daemon cannot accept them
    controls = []
    for _ in range(3):  # the control socket's accept() fails too
        control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        control.connect(str(limited.child.control))
        controls.append(control)
    began = time.monotonic()
    time.sleep(3.0)  # the starved daemon keeps trying to accept, for three seconds
    logged = limited.log_since(before)
    seconds = time.monotonic() - began
    resource.prlimit(process.pid, resource.RLIMIT_NOFILE, (soft, hard))
    close_all(waiting + controls)
    lines = [line for line in logged.splitlines() if "accept" in line]
    assert lines, "the failed accept() calls were not logged at all"
    assert len(lines) <= 2 * (seconds + 2), f"{len(lines)} lines in {seconds:.1f} s"
    assert len(logged.encode()) <= 4_000, logged[-2000:]
    assert "Traceback" not in logged, logged[-2000:]
    assert answered(limited), "the pages did not accept connections again"
    assert limited.control_state()["ok"] is True, "the control socket stopped accepting"


def test_a_stream_of_malformed_requests_is_a_line_a_second_in_the_log(
    limited: LimitedTable,
) -> None:
    before = limited.mark()
    began = time.monotonic()
    for number in range(200):
        with limited.connect(guest(number)) as made:
            made.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            assert made.recv(4096).startswith(b"HTTP/1.1 400")  # refused, one by one
    assert answered(limited)
    seconds = time.monotonic() - began
    lines = limited.log_since(before).splitlines()
    assert len(lines) <= seconds + 2, f"{len(lines)} lines in {seconds:.1f} s"
