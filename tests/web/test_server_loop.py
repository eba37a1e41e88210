"""The pages' server sleeps while nothing happens, and still stops at once when asked."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from typing import Any

import pytest
import uvicorn

from companion.web import serving as web_serving


async def _hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hello"})


@pytest.fixture
def serving(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A server with a one-minute tick, serving on a free port of its own thread."""
    monkeypatch.setattr(web_serving, "TICK_S", 60.0)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    config = uvicorn.Config(_hello, lifespan="off", log_level="warning", access_log=False)
    server = web_serving.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.started
    yield server, thread, listener.getsockname()[1]
    server.exit()
    thread.join(10)
    listener.close()


def test_a_server_between_ticks_answers_and_stops_without_waiting_for_its_tick(
    serving: Any,
) -> None:
    server, thread, port = serving
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
        assert answer.read() == b"hello"
        assert answer.headers["date"]  # the date a tick renews is there from the start
    began = time.monotonic()
    server.exit()
    thread.join(20)
    assert not thread.is_alive()
    assert time.monotonic() - began < 20  # far below the minute its next tick would take
