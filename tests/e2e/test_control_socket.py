"""The headless simulator's control socket under abuse, in the real child process: a huge
line does not grow it, a huge turn is refused, and SIGTERM still stops it at once."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Bytes of one line without a newline: the simulator read such a line whole before.
FLOOD = 32 * 1024 * 1024


def peak_memory_kb(pid: int) -> int:
    """The child's peak resident memory (VmHWM), in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc")


def settled(connection: socket.socket, reader: Any) -> int:
    """How many events the table has handled once its start is over: the devices report
    themselves up a moment after READY (two events), on a busy machine after the first
    `state` too; the count is taken once it has not moved for half a second."""
    handled, since = ask(connection, reader, b"state")["handled"], time.monotonic()
    deadline = since + 10
    while time.monotonic() < deadline:
        now = ask(connection, reader, b"state")["handled"]
        if now != handled:
            handled, since = now, time.monotonic()
        elif time.monotonic() - since >= 0.5:
            return int(handled)
        time.sleep(0.02)
    raise AssertionError("the table never settled after its start")


def ask(connection: socket.socket, reader: Any, line: bytes) -> dict[str, Any]:
    connection.sendall(line + b"\n")
    reply: dict[str, Any] = json.loads(reader.readline())
    return reply


def test_a_flood_and_a_huge_turn_change_nothing_and_sigterm_stops_it(
    daemon: Callable[..., Any],
) -> None:
    child = daemon()
    child.start()
    assert child.process is not None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(20)
    connection.connect(str(child.control))
    reader = connection.makefile("rb")
    handled = settled(connection, reader)
    before = peak_memory_kb(child.process.pid)

    block = b"z" * (1024 * 1024)
    connection.sendall(block)
    assert json.loads(reader.readline())["code"] == "line_too_long"
    for _ in range(FLOOD // len(block) - 1):
        connection.sendall(block)
    connection.sendall(b"\n")  # the end of the long line: refused already, no second reply
    assert ask(connection, reader, b"state")["handled"] == handled
    grown_kb = peak_memory_kb(child.process.pid) - before
    print(f"a {FLOOD >> 20} MB line grew the simulator's peak memory by {grown_kb} kB")
    assert grown_kb < 8 * 1024, f"a {FLOOD >> 20} MB line grew the simulator by {grown_kb} kB"

    assert ask(connection, reader, b"turn 100000000")["code"] == "bad_steps"
    assert ask(connection, reader, b"press horse1 inf")["code"] == "bad_seconds"
    assert ask(connection, reader, b"press horse2 1e9")["code"] == "bad_seconds"
    assert ask(connection, reader, b"\xff\xfe\xfd")["code"] == "not_text"
    assert ask(connection, reader, b"state")["handled"] == handled
    status, took = child.terminate()
    assert status == 0 and took < 5.0
    connection.close()
    assert "Traceback" not in child.output()
