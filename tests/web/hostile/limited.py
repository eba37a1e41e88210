"""A guest's devices against the real daemon: a child with a small limit on open files (as the
unit's LimitNOFILE= gives it), its log read as it is written, and raw sockets from many
loopback addresses (every one of them in 127.0.0.0/8)."""

from __future__ import annotations

import json
import re
import shutil
import socket
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.e2e.conftest import Child
from tests.web.conftest import Table

#: The child's limit on open files: a quarter of systemd's default soft limit of 1,024, so
#: that a quarter of the connections of the issue's finding exhausts it as quickly.
FILES = 256
#: Seconds a request that should succeed is given (a loaded two-core machine is slow).
PATIENCE_S = 10.0


#: The join code as the LCD or the OLED shows it.
CODE = re.compile(r"(?:Join code|#qr) (\d+)")
#: The table's question about a waiting phone: a long push answers the first, a push the other.
QUESTIONS = ("Phone for", "push: yes")


def shown(state: dict[str, Any]) -> str:
    """Everything the LCD and the OLED show in a `state` reply, as one line."""
    return " ".join(state["lcd"] + state["oled"]["lines"])


def guest(number: int) -> str:
    """The loopback address of the ``number``-th guest device (127.0.0.2, 127.0.0.3, ...)."""
    return f"127.0.0.{2 + number % 250}"


class LimitedTable(Table):
    """The daemon with its pages, allowed ``FILES`` open files, its output kept as it comes."""

    def __init__(self, root: Path, files: int = FILES) -> None:
        self.files = files
        self.lines: list[str] = []
        self._drain: threading.Thread | None = None
        super().__init__(root)

    def _start(self) -> Child:
        child = Child(self.root, self.root / "state", self.config, files=self.files)
        child.start()
        assert child.process is not None and child.process.stdout is not None
        printed = child.process.stdout.readline()
        assert f"the pages are at http://127.0.0.1:{self.port}/" in printed, printed
        self._drain = threading.Thread(target=self._read, args=(child,), daemon=True)
        self._drain.start()
        return child

    def _read(self, child: Child) -> None:
        assert child.process is not None and child.process.stdout is not None
        for line in child.process.stdout:
            self.lines.append(line)

    def mark(self) -> int:
        """A mark in the daemon's output (its log), to read what comes after it."""
        return len(self.lines)

    def log_since(self, mark: int = 0) -> str:
        """What the daemon wrote after ``mark``."""
        return "".join(self.lines[mark:])

    def connect(self, source: str = "127.0.0.1") -> socket.socket:
        """A raw TCP connection to the pages from ``source``."""
        made = socket.socket()
        made.settimeout(PATIENCE_S)
        made.bind((source, 0))
        made.connect(("127.0.0.1", self.port))
        return made

    def get(self, path: str, cookies: dict[str, str] | None = None) -> tuple[int, str]:
        """A fresh GET of ``path`` as a phone's browser sends it: status and body."""
        headers = {"Origin": self.url}
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        request = urllib.request.Request(self.url + path, headers=headers)
        with urllib.request.urlopen(request, timeout=PATIENCE_S) as answer:
            return answer.status, answer.read().decode()

    def post(self, path: str, data: dict[str, Any], cookies: dict[str, str]) -> dict[str, Any]:
        """A POST from a page: the answer's JSON; a Set-Cookie lands in ``cookies``."""
        headers = {"Origin": self.url, "Content-Type": "application/json"}
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        body = json.dumps(data).encode()
        request = urllib.request.Request(self.url + path, data=body, headers=headers)
        with urllib.request.urlopen(request, timeout=PATIENCE_S) as answer:
            for header in answer.headers.get_all("set-cookie") or []:
                name, value = header.split(";", 1)[0].split("=", 1)
                cookies[name] = value.strip('"')
            answer_json: dict[str, Any] = json.loads(answer.read())
            return answer_json

    def seat_host(self) -> dict[str, str]:
        """Join the host's seat as a phone does, confirmed at the panel; the phone's cookies.

        The code and the question are read from the LCD or the OLED, and the panel answers
        the way the question asks (a push, or a long push).
        """
        cookies: dict[str, str] = {}
        self.get("/join?host")
        state = self.child.wait_until(lambda s: CODE.search(shown(s)) is not None, "a join code")
        found = CODE.search(shown(state))
        assert found is not None
        self.post("/api/join", {"code": found.group(1), "seat": "#host"}, cookies)
        asked = self.child.wait_until(
            lambda s: any(question in shown(s) for question in QUESTIONS), "the table's question"
        )
        if "Phone for" in shown(asked):
            self.child.send("hold push")
        else:
            self.child.press("push")
        deadline = time.monotonic() + PATIENCE_S
        while "host" not in cookies:
            assert time.monotonic() < deadline, "the host's seat was never given"
            request = urllib.request.Request(
                self.url + "/api/join", headers={"Cookie": f"join={cookies['join']}"}
            )
            with urllib.request.urlopen(request, timeout=PATIENCE_S) as answer:
                for header in answer.headers.get_all("set-cookie") or []:
                    name, value = header.split(";", 1)[0].split("=", 1)
                    cookies[name] = value.strip('"')
            time.sleep(0.1)
        return {"host": cookies["host"]}

    def control_state(self, timeout: float = PATIENCE_S) -> dict[str, Any]:
        """`state` over a fresh connection to the control socket (not the kept one)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as fresh:
            fresh.settimeout(timeout)
            fresh.connect(str(self.child.control))
            fresh.sendall(b"state\n")
            reply = b""
            while not reply.endswith(b"\n"):
                chunk = fresh.recv(65536)
                assert chunk, "the control socket closed without a reply"
                reply += chunk
        answer: dict[str, Any] = json.loads(reply)
        return answer


def limited_table() -> Iterator[LimitedTable]:
    """A daemon allowed ``FILES`` open files, closed and removed afterwards (for a fixture)."""
    root = Path(tempfile.mkdtemp(prefix="cmph-"))
    made = LimitedTable(root)
    yield made
    made.close()
    shutil.rmtree(root, ignore_errors=True)
