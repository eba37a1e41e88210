"""The game is a pure function of its accepted inputs: replaying any prefix equals playing live."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.registry import GAMES, KINDS
from companion.session import autoplay
from companion.session.binding import binding_module
from companion.session.log import (
    BetEntry,
    DealCard,
    Forfeit,
    GuessEntry,
    Hand,
    LogEntry,
    MoveEntry,
    NewGame,
    NextRace,
    PlayCard,
    Predict,
    Roll,
    SetMaxBet,
    TurnCard,
    Undo,
)
from companion.session.session import Game, Session

PEOPLE = ("Anna", "Bob", "Chloé", "Zoé")
HORSES = ("red", "blue", "green", "yellow", "white", "brown", "S", "H", "D", "C", "pink")
CARDS = ("7H", "QS", "AD", "10C", "2S", "KH", "joker", "red+7#1", "no3+18#2", "blue-lead#1")


def junk(rng: random.Random) -> LogEntry:
    """An input drawn without looking at the game: often refused, sometimes not."""
    who = rng.choice(PEOPLE)
    maybe = rng.choice([None, who])
    horses = tuple(rng.sample(HORSES, 3))
    choices: list[LogEntry] = [
        Roll(rng.randint(0, 7), maybe),
        MoveEntry(rng.choice(HORSES), maybe),
        Forfeit(maybe),
        Predict(who, horses),
        GuessEntry(who, rng.choice(PEOPLE), horses),
        NextRace(),
        DealCard(rng.choice(CARDS), maybe),
        SetMaxBet(rng.randint(-1, 30), maybe),
        BetEntry(who, rng.choice(HORSES), rng.choice([0, 5, 100, 300, 5000])),
        TurnCard(rng.choice(CARDS), maybe),
        Hand(who, (rng.choice(CARDS),)),
        PlayCard(rng.choice(CARDS), maybe),
        NewGame("jumpy_jack", ("X", "X")),
    ]
    return rng.choice(choices)


def state(table: Game) -> dict[str, Any]:
    """Everything the table knows: the public view (no refusal banner), private views, engine."""
    view = table.view(1).to_json()
    view.pop("last_refusal")
    return {
        "view": view,
        "private": {p: table.binding.private(p) for p in table.start.players},
        "engine": table.binding.engine_state(),
    }


@settings(max_examples=45, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    seed=st.integers(0, 2**32 - 1),
    cuts=st.lists(st.floats(0, 1), min_size=1, max_size=4),
)
def test_replaying_any_prefix_of_the_log_equals_the_live_game(
    kind: str, seed: int, cuts: list[float]
) -> None:
    rng = random.Random(seed)
    players, options = binding_module(kind).SET_UP
    session = Session.in_memory()
    assert session.submit(NewGame(kind, players, options)).accepted
    table = session.table
    assert table is not None
    live = [state(table)]
    while len(table.entries) < 150:
        roll = rng.random()
        if roll < 0.25:
            entry: LogEntry | None = junk(rng)
        elif roll < 0.32:
            entry = Undo()
        else:
            entry = autoplay.legal_input(table, rng)
        if entry is None:
            break
        before = len(table.entries)
        outcome = session.submit(entry)
        assert session.table is table
        if outcome.accepted:
            assert len(table.entries) == before + 1
            live.append(state(table))
        else:
            assert len(table.entries) == before
            assert state(table) == live[-1], f"refused {entry!r} changed the game"
    log = table.entries
    for cut in cuts:
        length = 1 + round(cut * (len(log) - 1))
        assert state(Game.from_entries(log[:length])) == live[length - 1]


#: The games with a secret input (a prediction, a guess, a bet or a hand).
SECRET_KINDS = [game.kind for game in GAMES if game.has_secret]


@settings(max_examples=30, deadline=None)
@given(kind=st.sampled_from(SECRET_KINDS), seed=st.integers(0, 2**32 - 1))
def test_a_sealed_input_shows_the_table_only_who_committed(kind: str, seed: int) -> None:
    """After a prediction, guess, bet or hand, the board is as before (a hand adds counts)."""
    rng = random.Random(seed)
    players, options = binding_module(kind).SET_UP
    session = Session.in_memory()
    session.submit(NewGame(kind, players, options))
    table = session.table
    assert table is not None
    sealed_seen = 0
    while len(table.entries) < 200:
        entry = autoplay.legal_input(table, rng)
        if entry is None:
            break
        before = session.view()
        assert session.submit(entry).accepted
        after = session.view()
        if not entry.SECRET:
            continue
        sealed_seen += 1
        player = entry.player  # type: ignore[attr-defined]
        assert after.last == f"{entry.TYPE} by {player} (sealed)"
        counts = {"hand_sizes", "owed"} if entry.TYPE == "hand" else set()
        changed = {
            f.name
            for f in dataclasses.fields(after.board)
            if getattr(after.board, f.name) != getattr(before.board, f.name)
        }
        assert changed <= counts, f"{entry.TYPE} changed {changed}"
        if entry.TYPE != "hand":
            assert player in after.sealed
    assert sealed_seen > 0
