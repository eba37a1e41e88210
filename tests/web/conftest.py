"""The real daemon on simulated hardware with its pages on, and Debian's Chromium to open them."""

from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import FAST_CONFIG, Child

CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def free_port() -> int:
    """A port nobody listens on now (the restarted daemon must come back on the same one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Table:
    """One companion child with its pages, restartable on the same journal and port."""

    def __init__(self, root: Path, language: str = "en") -> None:
        self.root = root
        self.port = free_port()
        self.config = root / "companion.toml"
        web = f'bind = "127.0.0.1"\nport = {self.port}'
        config = FAST_CONFIG.replace("enabled = false", web)
        self.config.write_text(config.replace('language = "en"', f'language = "{language}"'))
        self.child = self._start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _start(self) -> Child:
        child = Child(self.root, self.root / "state", self.config)
        child.start()
        assert child.process is not None and child.process.stdout is not None
        printed = child.process.stdout.readline()
        assert f"the pages are at http://127.0.0.1:{self.port}/" in printed, printed
        return child

    def kill_and_restart(self) -> None:
        """SIGKILL the daemon, start it again on the same journal and port."""
        self.child.kill()
        self.child = self._start()

    def join_code(self) -> str:
        """The join code the table shows while it has no host: on a blank LCD row, or with
        the QR code on the OLED in the menu (the simulator reports it as its lines)."""

        def shown(state: dict[str, Any]) -> str | None:
            found = re.search(r"Join code (\d{4,9})", " ".join(state["lcd"]))
            lines = state["oled"]["lines"]
            if found is None and len(lines) == 2 and lines[0] == "#qr":
                return str(lines[1])
            return found.group(1) if found else None

        return str(shown(self.child.wait_until(lambda s: shown(s) is not None, "a join code")))

    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.child.send("state")["view"]
        return view

    def close(self) -> None:
        process = self.child.process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(10)


@pytest.fixture(scope="module")
def table() -> Iterator[Table]:
    root = Path(tempfile.mkdtemp(prefix="cmpw-"))
    made = Table(root)
    yield made
    made.close()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is missing: .ci/run installs it with apt-get")
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield launched
        launched.close()
