"""Random legal table inputs for every game: long logs for tests, benchmarks and examples.

``legal_input`` looks at a game in progress and draws one input the rules accept (a roll
and a legal horse, a prediction, a course card, a bet, a card from a hand...), using only a
seeded ``random.Random``. ``random_log`` plays a whole game that way, with undos mixed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games.cards import full_deck
from companion.session.bind_jockey import JockeyBinding
from companion.session.log import (
    Bet,
    DealCard,
    DealCourse,
    Entry,
    Forfeit,
    Hand,
    Move,
    NewGame,
    NextRace,
    PlayCard,
    Predict,
    Roll,
    SetMaxBet,
    TurnCard,
    Undo,
)
from companion.session.session import Session, Table

Player = Callable[[Table, random.Random], Entry | None]


def _jumpy_jack(table: Table, rng: random.Random) -> Entry | None:
    view = table.view(None)
    board = view.board
    horses = [h["name"] for h in board["horses"]]
    if view.phase == "predict":
        missing = list(view.waiting_for)
        if missing and rng.random() < 0.9:
            return Predict(rng.choice(missing), tuple(rng.sample(horses, 3)))
        if not missing and rng.random() < 0.1:
            return Predict(rng.choice(view.players), tuple(rng.sample(horses, 3)))
        if missing:
            return Predict(missing[0], tuple(rng.sample(horses, 3)))
        return Roll(rng.randint(1, 6), view.turn)
    if view.phase == "roll":
        return Roll(rng.randint(1, 6), view.turn if rng.random() < 0.5 else None)
    if view.phase == "move":
        legal = board["legal_horses"]
        return Move(rng.choice(legal), view.turn) if legal else Forfeit(view.turn)
    if view.phase == "race_over":
        return NextRace()
    return None


_PACK = tuple(c.code for c in full_deck() if not c.is_ace)


def _course_hippique(table: Table, rng: random.Random) -> Entry | None:
    view = table.view(None)
    board = view.board
    seen = {c for c in board["course"] if c} | set(board["turned"])
    unseen = [c for c in _PACK if c not in seen]
    croupier = board["croupier"]
    if view.phase in ("dealing", "redeal"):
        if view.phase == "redeal":
            unseen = [c for c in _PACK if c not in board["turned"]]
        if rng.random() < 0.5:
            return DealCard(rng.choice(unseen), croupier)
        missing = len(board["course"]) if view.phase == "redeal" else board["course"].count(None)
        return DealCourse(tuple(rng.sample(unseen, missing)), croupier)
    if view.phase == "betting":
        if board["max_bet"] is None or rng.random() < 0.05:
            return SetMaxBet(rng.randint(1, 20), croupier)
        bettors = [
            p
            for p in view.players
            if p != croupier and p not in view.sealed and table.binding.private(p)["balance"] > 0
        ]
        if bettors and rng.random() < 0.7:
            player = rng.choice(bettors)
            most = min(board["max_bet"], table.binding.private(player)["balance"])
            horse = rng.choice(["S", "H", "D", "C"])
            return Bet(player, horse, rng.randint(1, most))
        return TurnCard(rng.choice(unseen), croupier)
    if view.phase == "racing":
        return TurnCard(rng.choice(unseen), croupier if rng.random() < 0.5 else None)
    if view.phase == "race_over":
        return NextRace()
    return None


_KINDS = {"win": 1, "place": 1, "double": 2, "order": 2}
_JOCKEY_HORSES = ("brown", "yellow", "blue", "red")


def _jockey_bet(player: str, limit: int, rng: random.Random) -> Bet:
    kind = rng.choice(list(_KINDS))
    horses = rng.sample(_JOCKEY_HORSES, _KINDS[kind])
    units = max(1, limit // 100)
    if kind == "order" and units >= 2:
        first = rng.randint(1, units - 1)
        second = rng.randint(1, units - first)
        return Bet(player, horses[0], first * 100, kind, horses[1], second * 100)
    if kind == "order":
        kind, horses = "win", horses[:1]
    second_horse = horses[1] if kind == "double" else None
    return Bet(player, horses[0], rng.randint(1, units) * 100, kind, second_horse)


def _jockey(table: Table, rng: random.Random) -> Entry | None:
    binding = table.binding
    assert isinstance(binding, JockeyBinding)
    view = table.view(None)
    board = view.board
    game = binding.game
    if view.phase in ("race_over",):
        return NextRace()
    if view.phase == "game_over":
        return None
    waiting = list(view.waiting_for)
    if waiting:
        player = rng.choice(waiting)
        mine = binding.private(player)
        if mine["bet"] is None and (mine["owed"] == 0 or rng.random() < 0.5):
            return _jockey_bet(player, mine["limit"], rng)
        held = {c for p in view.players for c in game.hand(p)}
        free = [c for c in game.options.deck.by_id if c not in held and c not in board["pile"]]
        keepable = [c for c in mine["leftover"] if c not in held]
        kept = tuple(rng.sample(keepable, min(len(keepable), rng.randint(0, 2))))
        free = [c for c in free if c not in kept]
        count = mine["owed"] - len(kept)
        return Hand(player, tuple(rng.sample(free, count)), kept)
    if board["hands"]:
        playable = binding.private(view.turn or "")["playable"]
        return PlayCard(rng.choice(playable), view.turn if rng.random() < 0.5 else None)
    unplayed = [c for c in game.options.deck.by_id if c not in board["pile"]]
    return PlayCard(rng.choice(unplayed), view.turn if rng.random() < 0.5 else None)


PLAYERS: dict[str, Player] = {
    "jumpy_jack": _jumpy_jack,
    "course_hippique": _course_hippique,
    "jockey": _jockey,
}

#: A table of players and options each game can be started with.
SET_UPS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "jumpy_jack": (("Anna", "Bob", "Chloé"), {}),
    "course_hippique": (("Anna", "Bob", "Chloé"), {"rounds": 2}),
    "jockey": (("Anna", "Bob", "Chloé"), {"hands": True}),
}


def legal_input(table: Table, rng: random.Random) -> Entry | None:
    """Draw an input the game accepts now, or None when the game is over."""
    return PLAYERS[table.kind](table, rng)


def random_log(
    kind: str,
    rng: random.Random,
    *,
    length: int = 200,
    undo_rate: float = 0.05,
    players: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Entry]:
    """Play a game of ``kind`` with random legal inputs and some undos; return its log.

    The log has at most ``length`` entries (fewer when the game ends first); every entry
    in it is accepted when applied in order.
    """
    default_players, default_options = SET_UPS[kind]
    start = NewGame(
        kind,
        tuple(default_players if players is None else players),
        dict(default_options if options is None else options),
    )
    session = Session.in_memory()
    session.submit(start)
    table = session.table
    assert table is not None
    while len(table.entries) < length:
        if len(table.in_force()) > 1 and rng.random() < undo_rate:
            entry: Entry | None = Undo()
        else:
            entry = legal_input(table, rng)
        if entry is None:
            break
        outcome = session.submit(entry)
        if not outcome.accepted:
            raise AssertionError(f"autoplay drew a refused input {entry!r}: {outcome.code}")
    return list(table.entries)
