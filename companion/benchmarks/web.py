"""The pages as a table feels them: a phone's tap to the scoreboards, memory, idle cost, bytes.

A real daemon (`companion simulate --headless`) serves its pages on a free loopback port; a
host joins (the panel's push confirms it) and starts a two-player game of the menu's first
game (Jumpy Jack), one phone joins, and ten scoreboards keep a socket open each. The phone
taps the inputs the game's benchmark module gives (``WEB_TAPS``), each undone by the host.

Each tap is also traced: the CPU time of every thread of the daemon from the tap to the tenth
scoreboard's frame, the time its threads waited for a core of this machine, and the rest of
that time (the phone, the scoreboards and the sockets, which are other machines on a table).
With ``COMPANION_BENCH_TRACE_SHARE`` set (``companion bench --cpu`` sets it), the tap is given
again as that board would take it, labelled ``trace: ...`` (the CPU time divided by the
share, the waits for a core dropped, the rest as it was).
"""

from __future__ import annotations

import importlib
import json
import queue
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.benchmarks import Figure, compiled, percentile
from companion.benchmarks._cgroup import joiner_from_env
from companion.benchmarks._model import Span, process_cpu, queued, trace_share
from companion.benchmarks.daemon import IDLE_QUICK_S, IDLE_S, _rss_mb, idle_cpu
from companion.games.registry import KINDS, part

NAME = "web"
#: Under `--cpu`, only the daemon goes in the CPU cgroup (the phones are not the Pi).
CPU_MODEL = "daemon"
#: On a board too small for the quota, the tap's figures come from each tap's own trace.
TRACE_PART = True
SCOREBOARDS = 10
#: A phone taps at most this often here (its seat's rate limit allows five a second).
PACE_S = 0.25
#: The files every live page loads beside itself (a page's weight counts them).
ASSETS = ("app.js", "style.css", "tv.js", "tv.css")
CONFIG = (
    '[gpio]\npin_factory = "mock"\n[die]\n[horse_buttons]\n[encoder]\n[undo]\n[lcd]\n[oled]\n'
    '[web]\nbind = "127.0.0.1"\nport = 0\n'
)


class PhoneClient:
    """HTTP with one cookie jar, as a phone's browser would send it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookies: dict[str, str] = {}

    def send(self, path: str, data: dict[str, Any] | None = None) -> tuple[bytes, Any]:
        headers = {"Origin": self.url, "Content-Type": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(self.url + path, data=body, headers=headers)
        with urllib.request.urlopen(request, timeout=10) as answer:
            for header in answer.headers.get_all("set-cookie") or []:
                name, value = header.split(";", 1)[0].split("=", 1)
                self.cookies[name] = value.strip('"')
            return answer.read(), answer


class DaemonChild:
    """The daemon with its control socket."""

    def __init__(self, folder: Path) -> None:
        (folder / "companion.toml").write_text(CONFIG)
        self.control_path = folder / "control.sock"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "simulate", "--headless",
             "--control", str(self.control_path), "--state-dir", str(folder),
             "--config", str(folder / "companion.toml")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            preexec_fn=joiner_from_env(),
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"(http://\S+)/", line)
        if found is None:
            raise RuntimeError(f"the daemon printed no address: {line!r}")
        self.url = found.group(1)
        deadline = time.monotonic() + 120  # a bound: a modelled Pi starts slowly
        while not self.control_path.exists():
            if time.monotonic() > deadline:
                raise RuntimeError("the control socket never came up")
            time.sleep(0.05)
        self.control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.control.connect(str(self.control_path))
        self.stream = self.control.makefile("rw", encoding="utf-8", newline="\n")

    def command(self, line: str) -> dict[str, Any]:
        self.stream.write(line + "\n")
        self.stream.flush()
        reply: dict[str, Any] = json.loads(self.stream.readline())
        return reply

    def wait_shown(self, text: str) -> str:
        """Wait until the LCD or the OLED shows ``text``; return what they show."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            state = self.command("state")
            shown = " ".join(state["lcd"] + state["oled"]["lines"])
            if text in shown:
                return shown
            time.sleep(0.02)
        raise RuntimeError(f"the table never showed {text!r}")

    def close(self) -> None:
        self.control.close()
        self.process.terminate()
        self.process.wait(10)


def join(child: DaemonChild, client: PhoneClient, seat: str, host: PhoneClient | None) -> None:
    """Join ``seat`` with the code the table shows (the host page's once there is a host);
    the knob's long push confirms it."""
    if host is None:
        code = re.search(r"#qr (\d+)", child.wait_shown("#qr"))  # the menu's OLED: QR, code
    else:
        code = re.search(r'class="code">(\d+)<', host.send("/host")[0].decode())
    assert code is not None
    client.send("/api/join", {"code": code.group(1), "seat": seat})
    child.wait_shown("Phone for")
    child.command("hold push")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        answer = json.loads(client.send("/api/join")[0])
        if not answer.get("waiting"):
            return
        time.sleep(0.02)
    raise RuntimeError(f"{seat} was never seated")


@contextmanager
def scoreboards(url: str, count: int) -> Iterator[queue.Queue[float]]:
    """Open ``count`` scoreboard sockets; yield a queue of the times frames arrive."""
    from websockets.sync.client import connect
    from websockets.typing import Origin

    arrivals: queue.Queue[float] = queue.Queue()
    sockets = [  # each on a screen of its own (one address may hold only a few)
        connect(
            url.replace("http", "ws") + "/live?page=board",
            origin=Origin(url),
            source_address=(f"127.0.0.{2 + number}", 0),
        )
        for number in range(count)
    ]

    def listen(link: Any) -> None:
        try:
            for _ in link:
                arrivals.put(time.perf_counter())
        except Exception:  # closed at the end of the benchmark
            return

    for link in sockets:
        link.recv(timeout=10)  # the first picture
        threading.Thread(target=listen, args=(link,), daemon=True).start()
    try:
        yield arrivals
    finally:
        for link in sockets:
            link.close()


def run(quick: bool) -> dict[str, Figure]:
    """Measure taps, memory, idle CPU and page weights on a real daemon."""
    compiled()
    count = 30 if quick else 100
    with tempfile.TemporaryDirectory(prefix="cmp-web-") as folder:
        child = DaemonChild(Path(folder))
        try:
            host, phone = PhoneClient(child.url), PhoneClient(child.url)
            join(child, host, "#host", None)
            game = KINDS[0]
            taps = importlib.import_module(part(game, "bench")).WEB_TAPS
            host.send("/api/host", {"do": "new_game", "game": game, "players": "A\nB"})
            join(child, phone, "A", host)
            weights = {
                page: len(PhoneClient.send(client, page)[0])
                for page, client in (("/scoreboard", phone), ("/play", phone), ("/host", host))
            }
            assets = sum(len(phone.send(f"/static/{a}")[0]) for a in ASSETS)
            spans: list[Span] = []
            pid = child.process.pid
            with scoreboards(child.url, SCOREBOARDS) as arrivals:
                for number in range(count):
                    time.sleep(PACE_S)
                    cpu, waited = process_cpu(pid), queued(pid)
                    began = time.perf_counter()
                    phone.send("/api/input", taps[number % len(taps)])
                    last = began
                    for _ in range(SCOREBOARDS):
                        last = arrivals.get(timeout=10)
                    cpu, waited = process_cpu(pid) - cpu, queued(pid) - waited
                    spans.append(Span(last - began, cpu, waited))
                    host.send("/api/host", {"do": "undo"})
                    for _ in range(SCOREBOARDS):
                        arrivals.get(timeout=10)
                idle = idle_cpu(child.process.pid, IDLE_QUICK_S if quick else IDLE_S)
                rss = _rss_mb(child.process.pid)
            weights.update(heaviest_pages(child, host))
        finally:
            child.close()
    figures = tap_figures(spans, None)
    share = trace_share()
    if share is not None:
        figures.update(tap_figures(spans, share))
    figures |= {
        f"idle CPU, {SCOREBOARDS} pages open (one core)": Figure(idle, "%"),
        "resident memory, pages on and open": Figure(rss, "MB"),
    }
    for page, size in weights.items():
        figures[f"{page} page with its script and style"] = Figure((size + assets) / 1024, "KB")
    return figures


def tap_figures(spans: list[Span], share: float | None) -> dict[str, Figure]:
    """A tap to the tenth scoreboard as measured here (``share`` None), or on a board with
    ``share`` of this machine's CPU, each tap from its own trace (labelled ``trace: ``); the
    daemon's CPU time in a tap, here or on that board."""
    if share is None:
        prefix, taps, cpu = "", [s.wall * 1000 for s in spans], [s.cpu * 1000 for s in spans]
    else:
        prefix = "trace: "
        taps = [span.on_board(share) * 1000 for span in spans]
        cpu = [span.cpu / share * 1000 for span in spans]
    label = f"tap to {SCOREBOARDS} scoreboards"
    return {
        f"{prefix}{label} (median)": Figure(percentile(taps, 0.5), "ms"),
        f"{prefix}{label} (p99)": Figure(percentile(taps, 0.99), "ms"),
        f"{prefix}CPU per tap, the daemon's threads (median)": Figure(percentile(cpu, 0.5), "ms"),
    }


def heaviest_pages(child: DaemonChild, host: PhoneClient) -> dict[str, int]:
    """Weigh the largest player pages each game's benchmark module names (``WEB_PAGE``): a
    Jockey hand being counted (every kind of card with its stepper), a Course hippique
    croupier laying the course (the pack's cards); and that game's scoreboard (its track)."""
    weights = {}
    for kind in KINDS:
        page = getattr(importlib.import_module(part(kind, "bench")), "WEB_PAGE", None)
        if page is None:
            continue
        players, options, label = page
        host.send(
            "/api/host",
            {"do": "new_game", "game": kind, "players": "\n".join(players), kind: options},
        )
        phone = PhoneClient(child.url)
        join(child, phone, "A", host)
        weights[f"/play, {label}"] = len(phone.send("/play")[0])
        weights[f"/scoreboard, {kind}"] = len(phone.send("/scoreboard")[0])
    return weights
