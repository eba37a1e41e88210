"""The example Mosquitto set-up of docs/club.md: the ACL the tests run, a config it starts."""

from __future__ import annotations

import os
import pwd
import socket
import subprocess
import time
from pathlib import Path

from companion.club.broker import (
    MOSQUITTO,
    PASSWD,
    _tool,
    acl_text,
    free_port,
)

EXAMPLE = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto"


def test_the_example_acl_is_the_one_the_tests_enforce() -> None:
    lines = (EXAMPLE / "companion-club.acl").read_text().splitlines()
    assert "\n".join(lines[1:]) + "\n" == acl_text("myclub")


def test_mosquitto_starts_with_the_example_config_as_debian_includes_it(tmp_path: Path) -> None:
    conf_d = tmp_path / "conf.d"
    conf_d.mkdir()
    port = free_port()
    example = (EXAMPLE / "companion-club.conf").read_text()
    example = example.replace("listener 1883", f"listener {port} 127.0.0.1")
    example = example.replace("/etc/mosquitto/", f"{tmp_path}/")
    (conf_d / "companion-club.conf").write_text(example)
    (tmp_path / "companion-club.acl").write_text(acl_text("myclub"))
    subprocess.run(
        [_tool(PASSWD), "-b", "-c", str(tmp_path / "companion-club.passwords"), "t1", "pw"],
        check=True,
    )
    data = tmp_path / "data"
    data.mkdir()
    main = tmp_path / "mosquitto.conf"
    main.write_text(  # Debian's main file, its paths moved into the test's folder
        f"persistence true\npersistence_location {data}/\n"
        f"user {pwd.getpwuid(os.getuid()).pw_name}\ninclude_dir {conf_d}\n"
    )
    process = subprocess.Popen([_tool(MOSQUITTO), "-c", str(main)], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the example config never listened"
                time.sleep(0.02)
    finally:
        process.terminate()
        process.wait(10)
