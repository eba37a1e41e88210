"""A hostile guest on the table's network: can it take the pages and the control socket away,
fill the log, or guess the join code?

A real daemon (`companion simulate --headless`) runs with systemd's default soft limit of
1,024 open files. For ten seconds, guests' devices at 250 loopback addresses (127.0.0.2 to
127.0.0.251) hold 1,100 idle TCP connections and 300 that trickle a request head byte by byte,
opening each again whenever the companion closes it; meanwhile a fresh phone fetches
/scoreboard and a fresh control connection asks for `state`, five times a second each. Then
the same 250 addresses send wrong join codes as fast as they are answered, four-digit ones
until the table says it shows a longer code, then codes of that length. Everything goes to
127.0.0.0/8 and stops by itself.
"""

from __future__ import annotations

import errno
import http.client
import json
import resource
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from companion.benchmarks import Figure, percentile

NAME = "hostile"
#: Idle connections, and connections trickling a head that never ends, the guests hold.
IDLE = 1100
SLOW = 300
#: Guests' addresses, 127.0.0.2 and on.
GUESTS = 250
#: The daemon's limit on open files: systemd's default soft limit.
FILES = 1024
#: A fresh page counts as answered within this many seconds.
PAGE_S = 2.0
#: A control command not answered in this many seconds counts as this long.
CONTROL_S = 5.0
#: The guests open at most this many connections a second (their devices are not infinite).
OPENS_PER_S = 1000
#: The digits of the join code the guessers try first, and of the table's long code.
SHORT, LONG = 4, 9
#: The answers to a join code that show it was compared with the table's.
EVALUATED = ("wrong_code", "ok")
CONFIG = (
    '[gpio]\npin_factory = "mock"\n[die]\n[horse_buttons]\n[encoder]\n[undo]\n[lcd]\n[oled]\n'
    '[web]\nbind = "127.0.0.1"\nport = 0\n'
)
#: A slow connection's head, sent one byte a second (it never ends).
HEAD = b"GET /scoreboard HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Slow: " + b"z" * 4000


def guest(number: int) -> str:
    """The address of the ``number``-th guest's device."""
    return f"127.0.0.{2 + number % GUESTS}"


def _limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


class Besieged:
    """The daemon as a child allowed FILES open files; its log written to a file."""

    def __init__(self, folder: Path) -> None:
        (folder / "companion.toml").write_text(CONFIG)
        self.control = folder / "control.sock"
        self.log = folder / "companion.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion", "simulate", "--headless",
                 "--control", str(self.control), "--state-dir", str(folder),
                 "--config", str(folder / "companion.toml")],
                stdout=log, stderr=subprocess.STDOUT, preexec_fn=_limit_files,
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while "pages are at" not in self.log.read_text() or not self.control.exists():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the daemon did not start:\n{self.log.read_text()}")
            time.sleep(0.05)
        address = self.log.read_text().split("pages are at http://", 1)[1].split("/", 1)[0]
        self.port = int(address.rsplit(":", 1)[1])

    def logged(self) -> int:
        return self.log.stat().st_size

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


class Siege:
    """The guests' devices: hold IDLE idle and SLOW trickling connections, reopening each one
    the companion closes, until stopped."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.kinds: dict[socket.socket, str] = {}
        self.sent: dict[socket.socket, int] = {}
        self.wanted = {"idle": IDLE, "slow": SLOW}
        self.held: Counter[str] = Counter()
        self.closed_by_table = 0
        self.opened = 0
        self._next = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="siege", daemon=True)

    def connected(self) -> int:
        """Connections the companion has accepted or queued, as the guests see them."""
        return sum(1 for made in self.kinds if self.sent.get(made, -1) >= 0)

    def _run(self) -> None:
        tick = 0.05
        trickle = time.monotonic() + 1.0
        try:
            while not self.stop.is_set():
                self._top_up(int(OPENS_PER_S * tick))
                for key, events in self.selector.select(tick):
                    self._event(key.fileobj, events)  # type: ignore[arg-type]
                if time.monotonic() >= trickle:
                    trickle += 1.0
                    self._trickle()
        finally:
            for made in list(self.kinds):
                self._forget(made)
            self.selector.close()

    def _top_up(self, budget: int) -> None:
        for kind, wanted in self.wanted.items():
            while self.held[kind] < wanted and budget > 0:
                budget -= 1
                made = socket.socket()
                made.setblocking(False)
                made.bind((guest(self._next), 0))
                self._next += 1
                error = made.connect_ex(("127.0.0.1", self.port))
                if error not in (0, errno.EINPROGRESS):
                    made.close()
                    continue
                self.kinds[made] = kind
                self.sent[made] = -1  # not connected yet
                self.held[kind] += 1
                self.opened += 1
                self.selector.register(made, selectors.EVENT_WRITE)

    def _event(self, made: socket.socket, events: int) -> None:
        if self.sent.get(made, 0) < 0:  # the connection is made, or failed
            if made.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                self._forget(made)
                return
            self.sent[made] = 0
            self.selector.modify(made, selectors.EVENT_READ)
            return
        try:
            if made.recv(4096):
                return  # an answer (a refusal): wait for the close
        except BlockingIOError:
            return
        except OSError:
            pass
        self.closed_by_table += 1
        self._forget(made)

    def _trickle(self) -> None:
        for made, kind in list(self.kinds.items()):
            sent = self.sent.get(made, -1)
            if kind != "slow" or sent < 0 or sent >= len(HEAD):
                continue
            try:
                made.send(HEAD[sent : sent + 1])
                self.sent[made] = sent + 1
            except OSError:
                continue

    def _forget(self, made: socket.socket) -> None:
        kind = self.kinds.pop(made)
        self.sent.pop(made, None)
        self.held[kind] -= 1
        try:
            self.selector.unregister(made)
        except (KeyError, ValueError):
            pass
        made.close()


def _fresh_page(port: int) -> bool:
    """A phone's GET /scoreboard on a new connection: answered 200, whole, within PAGE_S."""
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PAGE_S)
    try:
        connection.request("GET", "/scoreboard")
        answer = connection.getresponse()
        answer.read()
        return answer.status == 200 and time.monotonic() - began <= PAGE_S
    except OSError:
        return False
    finally:
        connection.close()


def _fresh_state(path: Path) -> float:
    """Seconds a new control connection takes to answer `state` (CONTROL_S if it does not)."""
    began = time.monotonic()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as control:
            control.settimeout(CONTROL_S)
            control.connect(str(path))
            control.sendall(b"state\n")
            reply = b""
            while not reply.endswith(b"\n"):
                chunk = control.recv(65536)
                if not chunk:
                    return CONTROL_S
                reply += chunk
        if not json.loads(reply).get("ok"):
            return CONTROL_S
    except (OSError, ValueError):
        return CONTROL_S
    return min(CONTROL_S, time.monotonic() - began)


def _every(period_s: float, until: float, probe: object) -> list[object]:
    """Call ``probe`` every ``period_s`` until the monotonic time ``until``; its results."""
    results = []
    while time.monotonic() < until:
        began = time.monotonic()
        results.append(probe())  # type: ignore[operator]
        time.sleep(max(0.0, period_s - (time.monotonic() - began)))
    return results


def _siege(table: Besieged, window_s: float) -> dict[str, Figure]:
    siege = Siege(table.port)
    siege.thread.start()
    ready = time.monotonic() + 5.0  # the guests open their connections first
    while siege.opened < IDLE + SLOW and time.monotonic() < ready:
        time.sleep(0.05)
    before = table.logged()
    until = time.monotonic() + window_s
    with ThreadPoolExecutor(2) as pool:
        pages = pool.submit(_every, 0.2, until, lambda: _fresh_page(table.port))
        states = pool.submit(_every, 0.2, until, lambda: _fresh_state(table.control))
        answered = [bool(ok) for ok in pages.result()]
        seconds = [float(s) for s in states.result()]  # type: ignore[arg-type]
    logged = table.logged() - before
    held = siege.connected()
    siege.stop.set()
    siege.thread.join(10)
    return {
        f"control `state` p95, {IDLE} idle + {SLOW} slow connections": Figure(
            percentile(seconds, 0.95) * 1000, "ms"
        ),
        "control `state` answered": Figure(
            100 * sum(s < CONTROL_S for s in seconds) / len(seconds), "%"
        ),
        f"fresh GET /scoreboard answered within {PAGE_S:g} s": Figure(
            100 * sum(answered) / len(answered), "%"
        ),
        f"bytes logged in those {window_s:g} s": Figure(logged / 1024, "KB"),
        "guests' connections open at the end": Figure(held, "connections"),
        "guests' connections the companion closed": Figure(siege.closed_by_table, "connections"),
    }


def _guess(port: int, guest_number: int, code: int, digits: int) -> str:
    """One join code of ``digits`` digits from a guest's address; the answer's reason code
    ("ok" for a right one, which is evaluated too)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(guest(guest_number), 0)
    )
    body = json.dumps({"code": f"{code * 7919 % 10**digits:0{digits}d}", "seat": "#host"})
    headers = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json"}
    try:
        connection.request("POST", "/api/join", body, headers)
        answer = connection.getresponse()
        return str(json.loads(answer.read()).get("code", "ok"))
    except (OSError, ValueError):
        return "no_answer"
    finally:
        connection.close()


class Guessers:
    """The guests guessing the join code, eight requests at a time, counting the answers."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.lock = threading.Lock()
        self.codes = 0
        #: The length of the codes tried: the long one once the table says it shows it.
        self.digits = SHORT

    def guess(self, guest_number: int) -> str:
        with self.lock:
            self.codes += 1
            code, digits = self.codes, self.digits
        answer = _guess(self.port, guest_number, code, digits)
        if answer == "long_code":
            with self.lock:
                self.digits = LONG
        return answer

    def burst(self, most_s: float) -> tuple[int, float]:
        """Each address guesses until it is refused (at most ``most_s``): codes evaluated, and
        the seconds it took."""
        fresh = deque(range(GUESTS))
        evaluated = 0
        began = time.monotonic()

        def guesser() -> None:
            nonlocal evaluated
            while time.monotonic() < began + most_s:
                with self.lock:
                    if not fresh:
                        return
                    number = fresh.popleft()
                answer = self.guess(number)
                with self.lock:
                    if answer in EVALUATED:
                        evaluated += 1
                        fresh.append(number)

        with ThreadPoolExecutor(8) as pool:
            for _ in range(8):
                pool.submit(guesser)
        return evaluated, time.monotonic() - began

    def steady(self, seconds: float) -> Counter[str]:
        """Every address in turn for ``seconds``: the answers' reason codes."""
        answers: Counter[str] = Counter()
        turn = iter(range(10**9))
        until = time.monotonic() + seconds

        def guesser() -> None:
            while time.monotonic() < until:
                with self.lock:
                    number = next(turn)
                answer = self.guess(number)
                with self.lock:
                    answers[answer] += 1

        with ThreadPoolExecutor(8) as pool:
            for _ in range(8):
                pool.submit(guesser)
        return answers


def _guesses(table: Besieged, seconds: float) -> dict[str, Figure]:
    """Wrong codes from GUESTS addresses: first until each is refused, then for ``seconds``."""
    guessers = Guessers(table.port)
    burst, burst_s = guessers.burst(3 * seconds)
    answers = guessers.steady(seconds)
    evaluated = sum(answers[code] for code in EVALUATED)
    per_minute = evaluated / seconds * 60
    codes = 10**guessers.digits
    left = max(0, codes - burst) if guessers.digits == SHORT else codes
    every_code_h = (left / per_minute * 60) / 3600 if per_minute else float("inf")
    return {
        f"join codes evaluated before the limits hold, {GUESTS} addresses": Figure(burst, "codes"),
        "that first burst took": Figure(burst_s, "s"),
        "digits of the code guessed then": Figure(guessers.digits, "digits"),
        f"wrong join codes evaluated per minute then, {GUESTS} addresses": Figure(
            per_minute, "/min"
        ),
        "join tries refused unevaluated then": Figure(sum(answers.values()) - evaluated, "tries"),
        "all codes of that length at that pace": Figure(every_code_h, "h"),
    }


def run(quick: bool) -> dict[str, Figure]:
    """Besiege a real daemon, then guess its join code."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = IDLE + SLOW + 512  # the guests' own sockets
    if soft != resource.RLIM_INFINITY and soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))
    with tempfile.TemporaryDirectory(prefix="cmp-hostile-") as folder:
        table = Besieged(Path(folder))
        try:
            figures = _siege(table, 5.0 if quick else 10.0)
            time.sleep(1.0)  # the guests' connections are gone
            figures.update(_guesses(table, 5.0 if quick else 10.0))
        finally:
            table.close()
    return figures
