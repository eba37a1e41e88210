"""The same inputs give byte-identical output: replays and table screens, as recorded.

The inputs are data kept beside this test (``replay_logs.jsonl.gz``: random legal logs of
every game with undos, refused and unreadable lines mixed into some; ``table_scripts.jsonl.gz``:
button, knob, die and card events driving the table controller through whole games). The
expected output is ``expected.json``: the full ``companion replay --json`` text of each
example log of docs/examples, and a SHA-256 for every other replay and table script.
The inputs were drawn once by ``tests/golden/make_inputs.py`` (random ``autoplay`` logs, and
the table fuzz test's driver). Regenerate the expected output
(``python -m tests.golden.test_golden``) only for a change of output that is meant and named.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import random
import sys
from argparse import Namespace
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.commands import replay
from companion.daemon.table import TableController
from companion.devices.base import (
    ButtonHeld,
    ButtonPressed,
    CardScanned,
    DeviceStatus,
    DieIgnored,
    DieRolled,
    EncoderTurned,
    Event,
)
from companion.games.registry import KINDS
from companion.render.screen import Cue, Screen
from companion.session.autoplay import random_log
from companion.session.log import dumps
from companion.session.session import Session

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.jsonl"))
EXPECTED = HERE / "expected.json"
EVENTS: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        ButtonHeld,
        ButtonPressed,
        CardScanned,
        DeviceStatus,
        DieIgnored,
        DieRolled,
        EncoderTurned,
    )
}


def _read(name: str) -> Iterator[dict[str, Any]]:
    with gzip.open(HERE / name, "rt", encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)


def replay_json(path: Path) -> str:
    """What `companion replay --json` prints for the log at ``path``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        replay.run(Namespace(log=[str(path)], json=True))
    return out.getvalue()


def replay_digest(lines: list[str], scratch: Path) -> str:
    scratch.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return hashlib.sha256(replay_json(scratch).encode("utf-8")).hexdigest()


def _screen_text(screen: Screen) -> str:
    oled = screen.oled
    leds = " ".join(bytes(c).hex() for c in screen.leds)
    return "|".join([*screen.lcd, f"die={oled.die}", *oled.lines, leds])


def _cue_text(cue: Cue) -> str:
    tone = cue.tone.name if cue.tone is not None else "-"
    move = "-" if cue.move is None else f"{cue.move.path}{tuple(cue.move.colour)}"
    return f"{tone} {move} {cue.rolling}"


def played(
    script: dict[str, Any], language: str = "en"
) -> Iterator[tuple[TableController, Sequence[Cue]]]:
    """Play a script of events through a table controller on a pretend clock: the table and
    its cues after each event (a tick only moves the clock)."""
    now = [0.0]
    table = TableController(
        Session.in_memory(), player_names=script["names"], clock=lambda: now[0], language=language
    )
    for step in script["steps"]:
        data = dict(step)
        name = data.pop("event")
        if name == "tick":
            now[0] += data["seconds"]
            table.tick(now[0])
            continue
        yield table, table.handle(EVENTS[name](**data))


def table_digest(script: dict[str, Any]) -> str:
    """The SHA-256 of every screen and cue the table gave for a script of events."""
    digest = hashlib.sha256()
    for table, cues in played(script):
        digest.update("\n".join([_screen_text(table.screen()), *map(_cue_text, cues)]).encode())
        digest.update(b"\0")
    return digest.hexdigest()


def record(scratch: Path) -> dict[str, Any]:
    """Compute every expected output from the stored inputs."""
    replays: dict[str, dict[str, str]] = {game: {} for game in recorded_games()}
    for log in _read("replay_logs.jsonl.gz"):
        replays[log["game"]][str(log["seed"])] = replay_digest(log["lines"], scratch)
    return {
        "examples": {path.name: replay_json(path) for path in EXAMPLES},
        "replays": replays,
        "tables": {s["name"]: table_digest(s) for s in _read("table_scripts.jsonl.gz")},
    }


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_example_logs_replay_as_recorded(path: Path, expected: dict[str, Any]) -> None:
    assert replay_json(path) == expected["examples"][path.name]


def recorded_games() -> tuple[str, ...]:
    """The games of the stored replay logs (the registry's, when the inputs were drawn)."""
    return tuple(sorted({log["game"] for log in _read("replay_logs.jsonl.gz")}))


@pytest.mark.parametrize("game", KINDS)
def test_random_logs_replay_as_recorded(
    game: str, expected: dict[str, Any], tmp_path: Path
) -> None:
    scratch = tmp_path / "log.jsonl"
    if game not in expected["replays"]:  # a game newer than the recording: it replays the same
        for seed in range(20):
            lines = [dumps(e) for e in random_log(game, random.Random(seed), length=60)]
            assert replay_digest(lines, scratch) == replay_digest(lines, scratch), seed
        return
    logs = [log for log in _read("replay_logs.jsonl.gz") if log["game"] == game]
    assert len(logs) >= 300
    changed = [
        log["seed"]
        for log in logs
        if replay_digest(log["lines"], scratch) != expected["replays"][game][str(log["seed"])]
    ]
    assert not changed, f"{len(changed)} logs of {game} replay differently, seeds {changed[:10]}"


def test_the_table_shows_what_it_showed(expected: dict[str, Any]) -> None:
    scripts = list(_read("table_scripts.jsonl.gz"))
    assert {s["name"].split("-")[0] for s in scripts} >= {"jumpy", "course", "jockey"}
    changed = [s["name"] for s in scripts if table_digest(s) != expected["tables"][s["name"]]]
    assert not changed, f"these table scripts show something else now: {changed}"


if __name__ == "__main__":
    scratch = Path(sys.argv[1] if len(sys.argv) > 1 else "golden-scratch.jsonl")
    EXPECTED.write_text(json.dumps(record(scratch), indent=1, ensure_ascii=False) + "\n")
    scratch.unlink()
