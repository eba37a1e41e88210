"""A phone as a plain HTTP client: its own cookies, the pages' own routes, seated by the panel."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from typing import Any

from tests.web.conftest import Table


class Pad:
    """One phone's pages, over HTTP: its own cookies, the pages' own routes."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.cookies: dict[str, str] = {}

    def call(self, path: str, data: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        headers = {"Origin": self.table.url, "Content-Type": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = json.dumps(data).encode() if data is not None else None
        sent = urllib.request.Request(self.table.url + path, data=body, headers=headers)
        try:
            with urllib.request.urlopen(sent, timeout=10) as answer:
                self._keep(answer.headers.get_all("Set-Cookie") or [])
                text = answer.read()
                status = answer.status
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"{}")
        try:
            return status, json.loads(text or b"{}")
        except json.JSONDecodeError:
            return status, {"html": text.decode()}

    def _keep(self, cookies: list[str]) -> None:
        for cookie in cookies:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]

    def join(self, seat: str, code: str) -> None:
        """Ask for ``seat`` with ``code``; once the table asks about this phone (its displays
        change, whatever the table's language), the panel's long push gives it."""
        child = self.table.child
        shown = child.send("state")
        status, answer = self.call("/api/join", {"code": code, "seat": seat})
        assert status == 200, answer
        child.wait_until(
            lambda s: (s["lcd"], s["oled"]) != (shown["lcd"], shown["oled"]), f"asking for {seat}"
        )
        child.send("hold push")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            status, answer = self.call("/api/join")
            if answer.get("go"):
                return
            time.sleep(0.05)  # as the join page polls, a little more often
        raise AssertionError(f"{seat} was never seated: {answer}")

    def enter(self, entry: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self.call("/api/input", entry)

    def page(self) -> str:
        return str(self.call("/play")[1]["html"])

    def code(self) -> str:
        """The join code the host page shows."""
        found = re.search(r'class="code">(\d+)<', str(self.call("/host")[1]["html"]))
        assert found is not None
        return found.group(1)


def seat_everyone(
    table: Table, game: str, players: tuple[str, ...], **options: Any
) -> dict[str, Pad]:
    """The host's phone (seated by the panel's long push) starts ``game``; each player's phone
    asks for its seat with the host page's code and the panel confirms it."""
    host = Pad(table)
    host.join("#host", table.join_code())
    start: dict[str, Any] = {"do": "new_game", "game": game, "players": "\n".join(players)}
    if options:
        start[game] = {k: json.dumps(v) for k, v in options.items()}
    status, answer = host.call("/api/host", start)
    assert status == 200, answer
    seated = {"host": host}
    for name in players:
        seated[name] = Pad(table)
        seated[name].join(name, host.code())
    return seated
