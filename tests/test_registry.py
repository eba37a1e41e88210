"""Every registered game has every part, from its engine's face to its pages and benchmarks."""

from __future__ import annotations

import importlib
import random

import pytest

from companion.benchmarks import glass
from companion.benchmarks.glass import opening
from companion.daemon.flows import menu
from companion.daemon.flows.base import Flow
from companion.daemon.table import TableController
from companion.games.errors import Refusal
from companion.games.info import GameInfo
from companion.games.registry import GAMES, KINDS, find_game, part
from companion.render.layout import LaneLeds, Layouts, TrackLeds, load_layout
from companion.session.autoplay import random_log
from companion.session.binding import Binding, binding_module
from companion.session.log import TYPES
from companion.session.session import Session
from companion.web.games import GamePages, pages_of
from companion.web.host import host_options
from companion.web.inputs import seat_request
from companion.web.state import private_state, public_state
from tests.registered import board_file, rules_page


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
    engine = importlib.import_module(part(kind, "engine"))
    assert engine.GAME is game
    assert game.title and 1 <= game.low <= game.high and game.horses
    assert game.entries <= set(TYPES), "a game takes only entries of the table log"
    assert all(option.values for option in game.options)
    session_part = binding_module(kind)
    assert issubclass(session_part.BINDING, Binding) and kind == session_part.BINDING.KIND
    players, options = session_part.SET_UP
    log = random_log(kind, random.Random(1), length=60, players=players, options=options)
    assert len(log) >= min(60, game.shortest)
    flow = importlib.import_module(part(kind, "flow")).FLOW
    assert issubclass(flow, Flow)
    screens = importlib.import_module(part(kind, "render"))
    assert not hasattr(screens, "LAYOUT"), "the board file alone says where the LEDs are"
    board = board_file(kind)
    layout = load_layout(board.read_text(encoding="utf-8"), str(board), kind)
    assert isinstance(layout, TrackLeds | LaneLeds) and Layouts.default().of(kind) == layout
    bench = importlib.import_module(part(kind, "bench"))
    assert kind == bench.NAME
    players, options = bench.SESSION  # the session benchmark's game of this kind
    log = random_log(kind, random.Random(2), length=30, players=players, options=options)
    assert len(log) >= min(30, game.shortest)
    assert rules_page(kind).exists()


#: The table-log entries of cards: dealt, turned, held in a hand or played.
CARD_ENTRIES = {"deal_card", "deal_course", "turn_card", "hand", "play_card"}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.kind)
def test_a_game_declares_what_it_has_as_its_entries_say(game: GameInfo) -> None:
    assert game.uses_die == ("roll" in game.entries)
    assert game.uses_cards == bool(game.entries & CARD_ENTRIES)
    assert game.has_secret == any(TYPES[entry].SECRET for entry in game.entries)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.kind)
def test_every_random_game_is_at_least_as_long_as_its_game_declares(game: GameInfo) -> None:
    players, options = binding_module(game.kind).SET_UP
    for seed in range(40):
        rng = random.Random(seed)
        log = random_log(game.kind, rng, length=400, players=players, options=options)
        assert len(log) >= game.shortest, f"seed {seed} gives a game of {len(log)} entries"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.kind)
def test_a_registered_game_has_its_part_of_the_pages(game: GameInfo) -> None:
    kind = game.kind
    pages = pages_of(kind)
    assert isinstance(pages, GamePages)
    players, options = binding_module(kind).SET_UP
    session = Session.in_memory()
    session.new_game(kind, list(players), dict(options))
    state = public_state(session)
    assert "<" in pages.board(state), "the public part shows the game's board"
    assert "<" in pages.seat(players[0], private_state(session, players[0]).details, state)
    unit, lines = pages.chart(state.view["players"], state.board, options)
    assert unit and [line.player for line in lines] == list(players)
    assert all(option.values for option in pages.phone_options)
    played = Session.in_memory()
    for entry in random_log(kind, random.Random(4), length=300, players=players, options=options):
        played.submit(entry)
        phase = played.view().to_json()["phase"]
        assert phase in pages.phases, f"the pages name every phase: {phase}"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.kind)
def test_the_glass_benchmark_starts_and_plays_every_registered_game(game: GameInfo) -> None:
    kind = game.kind
    bench = importlib.import_module(part(kind, "bench"))
    assert 0 < bench.GLASS_SHARE < 0.8, "the game's own inputs leave room for the shared ones"
    table = TableController(Session.in_memory(), player_names=("Anna", "Ben", "Chloé"))
    for event in opening(kind):
        table.handle(event)
    started = table.session.table
    assert started is not None and started.kind == kind
    assert len(started.entries) == 1 + len(bench.GLASS_OPENING), "every opening entry taken"
    board = table.session.view().board
    labels = [label for label, _ in bench.glass_inputs(random.Random(3), lambda: board)]
    assert labels and set(labels) <= {"die", "roll", "horse", "card"}, "inputs glass measures"


def test_the_web_benchmark_taps_inputs_a_phone_may_make() -> None:
    bench = importlib.import_module(part(KINDS[0], "bench"))  # the game it plays
    assert bench.WEB_TAPS
    for tap in bench.WEB_TAPS:
        assert seat_request("A", tap)["type"] in find_game(KINDS[0]).entries
    for kind in KINDS:
        page = getattr(importlib.import_module(part(kind, "bench")), "WEB_PAGE", None)
        if page is not None:  # a heavy page of the game: its players, options and name
            players, options, label = page
            assert 1 <= find_game(kind).low <= len(players) and label
            assert set(options) <= {o.key for o in host_options(kind)}


def test_the_glass_benchmark_reaches_a_game_past_the_horse_buttons_with_the_knob(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    last = GAMES[-1]
    seven = (*[g for g in GAMES if g is not last] * 3, last)[-7:]  # the last game seventh
    monkeypatch.setattr(menu, "GAMES", seven)
    monkeypatch.setattr(glass, "KINDS", tuple(g.kind for g in seven))
    table = TableController(Session.in_memory(), player_names=("Anna", "Ben", "Chloé"))
    for event in opening(last.kind):
        table.handle(event)
    started = table.session.table
    assert started is not None and started.kind == last.kind
