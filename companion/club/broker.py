"""A real Mosquitto of our own, for tests and the bench: a free loopback port, a password
file, an ACL, persistence in a folder; started, stopped, killed and started again at will.

Never the packaged system service: each ``LocalBroker`` is a child process with a config
file written to its folder.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterable
from pathlib import Path

#: Where Debian installs the broker and its password tool.
MOSQUITTO = ("/usr/sbin/mosquitto", "mosquitto")
PASSWD = ("/usr/bin/mosquitto_passwd", "mosquitto_passwd")


class BrokerMissing(RuntimeError):
    """Mosquitto is not installed (Debian's package ``mosquitto``)."""


def _tool(names: Iterable[str]) -> str:
    for name in names:
        found = shutil.which(name) or (name if Path(name).is_file() else None)
        if found:
            return found
    raise BrokerMissing("Mosquitto is not installed: apt-get install mosquitto")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def acl_text(club: str) -> str:
    """The ACL the example config documents: each table writes its own topics only (its
    user name is its table name), the league reads everything of the club."""
    return (
        "# The league reads every table of the club, and writes only its requests to send the\n"
        "# results again.\n"
        "user league\n"
        f"topic read companion/{club}/#\n"
        f"topic write companion/{club}/league/resend\n"
        f"topic read homeassistant/#\n"
        "\n"
        "# Each table (user name = table name) writes only its own topics, and reads the\n"
        "# league's requests.\n"
        f"pattern readwrite companion/{club}/%u/#\n"
        f"pattern readwrite homeassistant/+/companion-{club}-%u/#\n"
        f"pattern read companion/{club}/league/resend\n"
    )


class LocalBroker:
    """One Mosquitto on 127.0.0.1 with users and passwords; ``start`` waits until it listens."""

    def __init__(self, folder: Path, users: dict[str, str], club: str = "club") -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "data").mkdir(exist_ok=True)
        passwords = folder / "passwords"
        tool = _tool(PASSWD)
        for number, (user, password) in enumerate(users.items()):
            create = ["-c"] if number == 0 else []
            subprocess.run(
                [tool, "-b", *create, str(passwords), user, password],
                check=True,
                capture_output=True,
            )
        (folder / "acl").write_text(acl_text(club), encoding="utf-8")
        self.config = folder / "mosquitto.conf"
        self.config.write_text(
            f"listener {self.port} 127.0.0.1\n"
            # Run as whoever started it (as root, Mosquitto would switch to its own user,
            # which may not write this folder).
            f"user {pwd.getpwuid(os.getuid()).pw_name}\n"
            "allow_anonymous false\n"
            f"password_file {passwords}\n"
            f"acl_file {folder / 'acl'}\n"
            "persistence true\n"
            f"persistence_location {folder / 'data'}/\n"
            "autosave_interval 1\n"
            "message_size_limit 262144\n"
            "max_queued_messages 100000\n"
            f"log_dest file {folder / 'mosquitto.log'}\n"
            "log_type error\nlog_type warning\nlog_type notice\n",
            encoding="utf-8",
        )

    def start(self, timeout: float = 20.0) -> None:
        """Start the broker and wait (polling, with a deadline) until it takes connections."""
        self.process = subprocess.Popen(
            [_tool(MOSQUITTO), "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited with {self.process.returncode}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.02)
        raise TimeoutError("mosquitto did not start listening")

    def stop(self, *, kill: bool = False, timeout: float = 10.0) -> None:
        """Stop the broker: SIGTERM (it saves its data) or, with ``kill``, SIGKILL."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self, *, kill: bool = False) -> None:
        self.stop(kill=kill)
        self.start()
