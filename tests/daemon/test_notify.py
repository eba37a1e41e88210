"""systemd's notification protocol: the same datagrams as systemd's own `systemd-notify`."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.daemon.notify import Notifier, NotifySocket
from tests.units import needs


@pytest.fixture(params=["path", "abstract"])
def listener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, socket.socket]]:
    """A datagram socket as systemd binds it, and the $NOTIFY_SOCKET value that names it."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if request.param == "path":
        value = str(tmp_path / "notify.sock")
        server.bind(value)
    else:
        name = f"companion-test-{uuid.uuid4().hex}"
        server.bind("\0" + name)
        value = "@" + name
    server.settimeout(5)
    yield value, server
    server.close()


#: What the daemon says, and how the same is said with systemd-notify.
SAID: list[tuple[Callable[[Notifier], None], list[str]]] = [
    (lambda n: n.ready("table up"), ["--ready", "--status=table up"]),
    (lambda n: n.status("Jockey, race 2"), ["--status=Jockey, race 2"]),
    (lambda n: n.stopping(), ["STOPPING=1"]),
]


@needs("systemd-notify")
@pytest.mark.parametrize(("say", "arguments"), SAID)
def test_each_message_is_the_datagram_systemd_notify_sends(
    listener: tuple[str, socket.socket],
    say: Callable[[Notifier], None],
    arguments: list[str],
) -> None:
    value, server = listener
    say(Notifier(send=NotifySocket(value), watchdog_usec="0"))
    ours = server.recv(4096)
    env = dict(os.environ, NOTIFY_SOCKET=value)
    subprocess.run(["systemd-notify", "--no-block", *arguments], env=env, check=True, timeout=10)
    assert ours == server.recv(4096)


def test_the_watchdog_is_pinged_through_the_socket_systemd_names(
    listener: tuple[str, socket.socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    value, server = listener
    monkeypatch.setenv("NOTIFY_SOCKET", value)
    now = [0.0]
    notifier = Notifier(watchdog_usec="10000000", clock=lambda: now[0])
    notifier.ready()
    for now[0] in (1.0, 4.9, 5.0, 6.0):  # due at half the 10 s interval after READY
        notifier.alive()
    notifier.stopping()
    sent = [server.recv(4096) for _ in range(3)]
    assert sent == [b"READY=1\nSTATUS=ready", b"WATCHDOG=1", b"STOPPING=1"]


def test_outside_systemd_nothing_is_sent_and_nothing_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    send = NotifySocket()
    assert send.address is None
    send("READY=1")


def test_a_socket_that_is_gone_is_said_once_and_the_table_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    send = NotifySocket(str(tmp_path / "gone.sock"))
    with caplog.at_level(logging.WARNING, logger="companion.notify"):
        send("READY=1")
        send("WATCHDOG=1")
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1
    assert "notification socket cannot be reached" in warnings[0]
