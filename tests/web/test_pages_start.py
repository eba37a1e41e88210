"""The pages come up beside the table: the table plays before their libraries load, a phone
that connects meanwhile waits and is answered, and pages that cannot be made leave the table
playing."""

from __future__ import annotations

import contextlib
import logging
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.daemon.app import Companion, build
from companion.devices.config import load_config
from tests.e2e.conftest import FAST_CONFIG
from tests.web.conftest import free_port


@contextlib.contextmanager
def built(root: Path) -> Iterator[tuple[Companion, int]]:
    """A companion built in this process with its pages on a free port; stopped afterwards."""
    port = free_port()
    config = root / "companion.toml"
    config.write_text(FAST_CONFIG.replace("enabled = false", f'bind = "127.0.0.1"\nport = {port}'))
    companion = build(load_config(config), simulate=True, state_dir=root / "state")
    try:
        yield companion, port
    finally:
        companion.daemon.stop()


def running(companion: Companion) -> threading.Thread:
    thread = threading.Thread(target=companion.run, kwargs={"handle_signals": False})
    thread.start()
    assert companion.daemon.running.wait(30), "the table never played"
    return thread


def test_the_table_is_ready_before_the_pages_libraries_load(tmp_path: Path) -> None:
    """What READY waits for binds the pages' socket, and loads neither Starlette, uvicorn
    nor asyncio, nor the modules that draw the pages: they load beside the playing table."""
    port = free_port()
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from companion.daemon.app import build\n"
        "from companion.devices.config import parse_config\n"
        f"config = parse_config('[lcd]\\n[web]\\nbind = \"127.0.0.1\"\\nport = {port}\\n')\n"
        "companion = build(config, simulate=True, state_dir=Path(sys.argv[1]))\n"
        "assert companion.web is not None\n"
        "loaded = {name.split('.')[0] for name in sys.modules}\n"
        "print(*sorted(loaded & {'starlette', 'uvicorn', 'click', 'h11', 'anyio', 'asyncio'}))\n"
        "drawing = {f'companion.web.{m}' for m in ('fragments', 'games', 'host', 'state')}\n"
        "print(*sorted(drawing & set(sys.modules)))\n"
        "companion.web.stop()\n"
        "companion.rig.close()\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == []


def test_a_phone_that_connects_before_the_pages_are_up_is_answered(tmp_path: Path) -> None:
    with built(tmp_path) as (companion, port):
        # The socket listens from the build on: the phone's request waits in its queue.
        phone = socket.create_connection(("127.0.0.1", port), timeout=30)
        with phone:
            phone.sendall(
                f"GET /join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                .encode()
            )  # fmt: skip
            thread = running(companion)
            answer = b""
            while chunk := phone.recv(65536):
                answer += chunk
        companion.daemon.stop()
        thread.join(30)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 "), head
    assert b"<html" in body.lower()


def test_pages_that_cannot_be_made_leave_the_table_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no pages today")

    monkeypatch.setattr("companion.web.app.create_app", broken)
    caplog.set_level(logging.ERROR, logger="companion.web")
    with built(tmp_path) as (companion, port):
        thread = running(companion)
        web = companion.web
        assert web is not None and web.thread is not None
        web.thread.join(30)
        assert not web.started
        assert "the pages cannot be served" in caplog.text
        # No phone waits on a socket nobody answers: it is told at once.
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=10).close()
        # The table plays on: its loop still takes what comes, and its screens show the menu.
        assert companion.daemon.call(lambda: "played").result(10) == "played"
        sim = companion.rig.simulation
        assert sim is not None and sim.lcd is not None
        assert any(line.strip() for line in sim.lcd.lines())
        companion.daemon.stop()
        thread.join(30)
    assert not thread.is_alive()
