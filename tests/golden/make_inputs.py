"""Draw the golden inputs once: random table logs and scripted table sessions (kept as data).

Run once, before the games were restructured: ``python -m tests.golden.make_inputs``. The
inputs it wrote are stored beside it; the generators may change, the stored inputs do not.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

from companion.daemon.table import TableController
from companion.devices.base import (
    ButtonPressed,
    EncoderTurned,
    Event,
)
from companion.games.registry import GAMES as MENU
from companion.session.autoplay import random_log
from companion.session.log import dumps
from companion.session.session import Session
from tests.daemon.test_table_fuzz import GAMES, LONG_NAMES, random_event, sensible_event

HERE = Path(__file__).resolve().parent
PLAYERS = (("Anna", "Bob"), ("Anna", "Bob", "Chloé"), ("Anna", "Bob", "Chloé", "Zoé", "Éric"))
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "jumpy_jack": [
        {},
        {"guess": True},
        {"target": 6},
        {"teams": [["Anna", "Chloé"], ["Bob", "Zoé"]]},
        {
            "board": {
                "squares": 12,
                "hurdles": {"stop": 3, "double": 5, "out": 8, "restart": 10},
                "horses": [
                    {"name": h, "colour": h} for h in ("red", "blue", "green", "yellow", "white")
                ],
            }
        },
    ],
    "course_hippique": [
        {"rounds": 1},
        {"rounds": 2},
        {"rounds": 1, "setback": "first"},
        {"rounds": 1, "setback": "all", "course_length": 5},
        {"rounds": 1, "course_length": 7, "starting_chips": 30},
    ],
    "jockey": [{"hands": True}, {"hands": False}, {"hands": True, "track_length": 40}],
}
PER_GAME = 300


def junk_line(rng: random.Random, lines: list[str]) -> str:
    """A line the game will most likely refuse: an earlier line again, or a broken one."""
    roll = rng.random()
    if roll < 0.8 and len(lines) > 1:
        return rng.choice(lines[1:])
    if roll < 0.9:
        return '{"type": "roll", "value": 9}'
    return '{"type": "undo"'


def replay_logs() -> list[dict[str, Any]]:
    logs = []
    for kind, option_sets in OPTIONS.items():
        for seed in range(PER_GAME):
            rng = random.Random(f"{kind}-{seed}")
            players = PLAYERS[seed % len(PLAYERS)]
            options = option_sets[seed % len(option_sets)]
            if "teams" in options:
                players = ("Anna", "Bob", "Chloé", "Zoé")
            if kind == "course_hippique" and len(players) < 3:
                players = PLAYERS[1]
            entries = random_log(
                kind,
                rng,
                length=rng.choice((15, 30, 60, 150)),
                undo_rate=0.04,
                players=players,
                options=options,
            )
            lines = [dumps(e) for e in entries]
            if seed % 3 == 0:  # some refusals and unreadable lines too
                for _ in range(3):
                    at = rng.randint(1, len(lines))
                    lines.insert(at, junk_line(rng, lines))
            logs.append({"game": kind, "seed": seed, "lines": lines})
    return logs


def event_data(event: Event) -> dict[str, Any]:
    name = type(event).__name__
    return {"event": name, **{k: v for k, v in vars(event).items()}}


#: The names each table script seats: three short ones, or the longest the LCD may show.
NAMES = ("short", "long")


def table_script(game: str, names: str, seed: int) -> dict[str, Any]:
    rng = random.Random(f"{game}-{names}-{seed}")
    now = [0.0]
    configured = ("Anna", "Ben", "Chloé") if names == "short" else LONG_NAMES
    table = TableController(Session.in_memory(), player_names=configured, clock=lambda: now[0])
    button, players, option = GAMES[game]
    steps: list[dict[str, Any]] = []

    def send(event: Event) -> None:
        steps.append(event_data(event))
        table.handle(event)

    send(ButtonPressed(button))
    send(EncoderTurned(-20))
    low = next(g.low for g in MENU if g.title == table.screen().lcd[0])
    send(EncoderTurned(players - low))
    send(ButtonPressed("push"))
    for index in option:
        send(EncoderTurned(-20))
        send(EncoderTurned(index))
        send(ButtonPressed("push"))
        send(EncoderTurned(20))
    send(ButtonPressed("push"))
    for _ in range(400):
        step = rng.choice((0.1, 0.5, 5.0))
        now[0] += step
        steps.append({"event": "tick", "seconds": step})
        table.tick(now[0])
        noise = rng.random() < 0.1
        for event in [random_event(rng)] if noise else sensible_event(rng, table):
            send(event)
    return {"name": f"{game}-{names}-{seed}", "names": list(configured), "steps": steps}


def table_scripts() -> list[dict[str, Any]]:
    return [table_script(game, names, 11) for game in sorted(GAMES) for names in NAMES]


def main() -> None:
    with gzip.open(HERE / "replay_logs.jsonl.gz", "wt", encoding="utf-8", compresslevel=9) as out:
        for log in replay_logs():
            out.write(json.dumps(log, ensure_ascii=False) + "\n")
    with gzip.open(HERE / "table_scripts.jsonl.gz", "wt", encoding="utf-8", compresslevel=9) as out:
        for script in table_scripts():
            out.write(json.dumps(script, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
