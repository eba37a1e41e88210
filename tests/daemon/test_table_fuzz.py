"""Random presses, turns, rolls and scans: the table never fails and every row fits the LCD."""

from __future__ import annotations

import logging
import random

import pytest

from companion.daemon.flows.cards import jockey_number
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
from companion.games.jockey_deck import default_deck
from companion.session.session import Session

BUTTONS = ("die", "horse1", "horse2", "horse3", "horse4", "horse5", "push", "push", "undo")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PLAYING = [r + s for s in "SHDC" for r in RANKS]
JOCKEY = [f"jockey:{n}" for n in range(1, 55)]


def sensible_event(rng: random.Random, table: TableController) -> list[Event]:
    """An input that makes sense at this point of the game (a legal move, an unseen card)."""
    view = table.session.view()
    board = view.board
    if view.phase == "move" and board.get("legal_horses"):
        horses = [h["name"] for h in board["horses"]]
        return [ButtonPressed(f"horse{horses.index(rng.choice(board['legal_horses'])) + 1}")]
    if view.phase in ("roll", "predict") and rng.random() < 0.5:
        return [ButtonPressed("die"), DieRolled(rng.randint(1, 6))]
    if view.game == "course_hippique" and view.phase in ("dealing", "redeal", "racing"):
        seen = {*(c for c in board.get("course", []) if c), *board.get("turned", [])}
        unseen = [c for c in PLAYING if c not in seen and not c.startswith("A")]
        return [CardScanned("04", rng.choice(unseen), "reader")] if unseen else []
    if view.game == "jockey" and view.phase == "racing":
        pile = {f"jockey:{jockey_number(c, default_deck())}" for c in board.get("pile", [])}
        return [CardScanned("04", rng.choice([c for c in JOCKEY if c not in pile]), "reader")]
    return [ButtonPressed(rng.choice(("horse1", "horse2", "horse3", "push", "push")))]


def random_event(rng: random.Random) -> Event:
    roll = rng.random()
    if roll < 0.45:
        return ButtonPressed(rng.choice(BUTTONS))
    if roll < 0.55:
        return EncoderTurned(rng.choice((-3, -1, 1, 1, 2, 5)))
    if roll < 0.65:
        return DieRolled(rng.randint(1, 6))
    if roll < 0.85:
        card = rng.choice(PLAYING + JOCKEY + [None, "junk"])  # type: ignore[list-item]
        return CardScanned(f"{rng.getrandbits(32):08X}", card, "reader")
    if roll < 0.88:
        return ButtonHeld("undo")
    if roll < 0.96:
        return DieIgnored()
    return DeviceStatus("LED strip", rng.random() < 0.5, "LED strip not responding")


@pytest.mark.parametrize("game", ["horse1", "horse2", "horse3"])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_inputs_never_break_the_table(
    game: str, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(seed)
    now = [0.0]
    table = TableController(
        Session.in_memory(), player_names=("Anna", "Ben", "Chloé"), clock=lambda: now[0]
    )
    for event in (ButtonPressed(game), ButtonPressed("push"), ButtonPressed("push")):
        table.handle(event)
    reached: set[tuple[str | None, str]] = set()
    with caplog.at_level(logging.ERROR, logger="companion.table"):
        for _ in range(1500):
            now[0] += rng.choice((0.1, 0.5, 5.0))
            table.tick(now[0])
            noise = rng.random() < 0.08
            for event in [random_event(rng)] if noise else sensible_event(rng, table):
                table.handle(event)
            view = table.session.view()
            reached.add((view.game, view.phase))
            screen = table.screen()
            assert len(screen.lcd) == 4
            for row in screen.lcd:
                assert len(row) <= 20, row
            assert len(screen.oled.lines) <= 5
            for line in screen.oled.lines:
                assert len(line) <= 21, line
            assert all(len(c) == 3 and all(0 <= v <= 255 for v in c) for c in screen.leds)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    over = {"race_over", "match_over", "game_over"}
    assert any(phase in over for _, phase in reached), reached
