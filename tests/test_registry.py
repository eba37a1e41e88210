"""Every registered game has every part, from its engine's face to its benchmarks."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest

from companion.daemon.flows.base import Flow
from companion.games.errors import Refusal
from companion.games.info import GameInfo
from companion.games.registry import GAMES, KINDS, find_game
from companion.render.layout import LaneLeds, Layouts, TrackLeds, load_layout
from companion.session.autoplay import random_log
from companion.session.binding import Binding, binding_module
from companion.session.log import TYPES

ROOT = Path(__file__).resolve().parent.parent


def test_the_registry_is_one_list_with_one_lookup() -> None:
    assert tuple(g.kind for g in GAMES) == KINDS and len(set(KINDS)) == len(KINDS)
    for game in GAMES:
        assert find_game(game.kind) is game
    with pytest.raises(Refusal) as refused:
        find_game("chess")
    assert refused.value.code == "unknown_game"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.kind)
def test_a_registered_game_has_every_part(game: GameInfo) -> None:
    kind = game.kind
    engine = importlib.import_module(f"companion.games.{kind}")
    assert engine.GAME is game
    assert game.title and 1 <= game.low <= game.high and game.horses
    assert game.entries <= set(TYPES), "a game takes only entries of the table log"
    assert all(option.values for option in game.options)
    session_part = binding_module(kind)
    assert issubclass(session_part.BINDING, Binding) and kind == session_part.BINDING.KIND
    players, options = session_part.SET_UP
    log = random_log(kind, random.Random(1), length=60, players=players, options=options)
    assert len(log) > 10
    flow = importlib.import_module(f"companion.daemon.flows.{kind}").FLOW
    assert issubclass(flow, Flow)
    screens = importlib.import_module(f"companion.render.{kind}")
    assert isinstance(screens.LAYOUT, TrackLeds | LaneLeds), "the screens declare the strip"
    assert Layouts.default().by_kind[kind] == screens.LAYOUT
    board = ROOT / "hardware" / "boards" / f"{kind}.toml"
    assert load_layout(board.read_text(encoding="utf-8"), str(board), kind) == screens.LAYOUT
    bench = importlib.import_module(f"companion.benchmarks.{kind}")
    assert kind == bench.NAME
    players, options = bench.SESSION  # the session benchmark's game of this kind
    assert len(random_log(kind, random.Random(2), length=30, players=players, options=options)) > 10
    assert (ROOT / "docs" / "rules" / f"{kind.replace('_', '-')}.md").exists()
