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

from companion.club.assistant import ENTITIES, PREFIX

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


#: What the example config says of the broker's limits and persistence (docs/club.md).
LIMITS = (
    "# Persistence: retained messages and the league's session (with the results queued for it\n"
    "# while it is away) are kept on disk, saved every {autosave} s and at every clean stop.\n"
    "# Debian's /etc/mosquitto/mosquitto.conf says where (persistence_location\n"
    "# /var/lib/mosquitto/); Mosquitto refuses to be told it twice, so a broker started\n"
    "# without Debian's file adds that line here.\n"
    "persistence true\n"
    "autosave_interval {autosave}\n"
    "\n"
    "# Limits: a message is at most 32 KiB (a result is a few KiB, a table's state under\n"
    "# 10 KiB); a client away (the league) has at most 10000 messages or 64 MiB kept for it;\n"
    "# the broker takes at most 256 MiB of memory.\n"
    "max_packet_size 32768\n"
    "max_queued_messages 10000\n"
    "max_queued_bytes 67108864\n"
    "memory_limit 268435456\n"
)


def example_config(
    listener: str = "1883",
    folder: str = "/etc/mosquitto/",
    autosave: int = 10,
) -> str:
    """The example Mosquitto config of docs/club.md (``systemd/mosquitto/companion-club.conf``):
    each client's id is its user name, persistence and limits are stated."""
    return (
        "# Mosquitto for a club night of the companion: see docs/club.md. Copy it to\n"
        "# /etc/mosquitto/conf.d/companion-club.conf, with the ACL beside it, then make the\n"
        "# passwords.\n"
        "\n"
        "# On the club's network: every table, the league and Home Assistant log in with their\n"
        "# own password, and a client's id is its user name: no one takes another's session.\n"
        f"listener {listener}\n"
        "allow_anonymous false\n"
        f"password_file {folder}companion-club.passwords\n"
        f"acl_file {folder}companion-club.acl\n"
        "use_username_as_clientid true\n"
        "\n" + LIMITS.format(autosave=autosave) + "\n"
        "# Off the club's network (a broker on the internet), listen with TLS instead, e.g.:\n"
        "# listener 8883\n"
        "# certfile /etc/mosquitto/certs/broker.crt\n"
        "# keyfile /etc/mosquitto/certs/broker.key\n"
    )


def acl_text(club: str) -> str:
    """The ACL the example config documents: each table (its user name is its table name)
    writes exactly its own topics; the league reads the tables and writes only to them;
    Home Assistant reads the tables and their announcements."""
    tables = "\n".join(
        f"topic read companion/{club}/+/{leaf}" for leaf in ("status", "state", "results")
    )
    own = "\n".join(
        f"pattern write companion/{club}/%u/{leaf}"
        for leaf in ("status", "state", "results", "event")
    )
    announced = "\n".join(
        f"pattern write {PREFIX}/{component}/companion-{club}-%u/{object_id}/config"
        for object_id, component in ENTITIES
    )
    return (
        "# The league reads every table's status, state and results, and writes only to the\n"
        "# tables: its requests to send results again, and the results it refused.\n"
        "user league\n"
        f"{tables}\n"
        f"topic write companion/{club}/league/resend/+\n"
        f"topic write companion/{club}/league/refused/+\n"
        "\n"
        "# Home Assistant reads the tables and their announcements, and writes only its status.\n"
        "user homeassistant\n"
        f"{tables}\n"
        f"topic read companion/{club}/+/event\n"
        f"topic read {PREFIX}/#\n"
        f"topic write {PREFIX}/status\n"
        "\n"
        "# Each table (user name = table name = client id) writes exactly its own topics, no\n"
        "# deeper, and its own Home Assistant announcements; it reads what the league tells it.\n"
        f"{own}\n"
        f"pattern read companion/{club}/league/resend/%u\n"
        f"pattern read companion/{club}/league/refused/%u\n"
        f"{announced}\n"
    )


class LocalBroker:
    """One Mosquitto on 127.0.0.1 with users and passwords; ``start`` waits until it listens.

    Its config is the example's (the same ACL, client ids, limits), on a free port, with its
    files in ``folder``. Beside the club's users, ``watchers`` users that may only read
    everything (``watch1``, ``watch2``...: each client's id is its user name, so each reader
    of a test needs its own).
    """

    def __init__(
        self, folder: Path, users: dict[str, str], club: str = "club", watchers: int = 0
    ) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.watchers = {f"watch{n}": f"watch{n}-pw" for n in range(1, watchers + 1)}
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "data").mkdir(exist_ok=True)
        passwords = folder / "companion-club.passwords"
        tool = _tool(PASSWD)
        for number, (user, password) in enumerate({**users, **self.watchers}.items()):
            create = ["-c"] if number == 0 else []
            subprocess.run(
                [tool, "-b", *create, str(passwords), user, password],
                check=True,
                capture_output=True,
            )
        watching = "".join(f"\nuser {name}\ntopic read #\n" for name in self.watchers)
        (folder / "companion-club.acl").write_text(acl_text(club) + watching, encoding="utf-8")
        self.config = folder / "mosquitto.conf"
        self.config.write_text(
            example_config(f"{self.port} 127.0.0.1", f"{folder}/", autosave=1)
            # Run as whoever started it (as root, Mosquitto would switch to its own user,
            # which may not write this folder).
            + f"user {pwd.getpwuid(os.getuid()).pw_name}\n"
            f"persistence_location {folder / 'data'}/\n"
            f"log_dest file {folder / 'mosquitto.log'}\n"
            "log_type error\nlog_type warning\nlog_type notice\n",
            encoding="utf-8",
        )

    def watcher(self) -> tuple[str, str]:
        """The next watcher's user name and password (each in turn)."""
        names = sorted(self.watchers)
        self._next_watcher = (getattr(self, "_next_watcher", -1) + 1) % len(names)
        name = names[self._next_watcher]
        return name, self.watchers[name]

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
