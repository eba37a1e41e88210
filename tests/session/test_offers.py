"""What a game offers is what it takes: an offered input is accepted, one not offered refused.

Every door draws its prompts from ``Session.offers()``; these games of every registered game
check the offers against the session itself, step by step: every input the game accepted
was offered to whoever made it, every offer that names its values is accepted as offered,
and an input of a type offered to nobody, or to someone else, is refused.
"""

from __future__ import annotations

import copy
import random

import pytest

from companion.games.registry import GAMES
from companion.session.autoplay import legal_input
from companion.session.binding import binding_module
from companion.session.log import (
    BetEntry,
    Forfeit,
    LogEntry,
    MoveEntry,
    NewGame,
    NextRace,
    PassEntry,
    Predict,
    Roll,
    SetMaxBet,
    Undo,
)
from companion.session.offers import Offer
from companion.session.session import Game, Session

KINDS = [game.kind for game in GAMES]


def made_from(offer: Offer) -> LogEntry | None:
    """The input an offer names all the values of (None where it takes a card or a hand)."""
    player = offer.player
    if offer.type == "roll":
        return Roll(3, player)
    if offer.type == "move" and offer.horses:
        return MoveEntry(offer.horses[-1], player)
    if offer.type == "forfeit":
        return Forfeit(player)
    if offer.type == "predict" and player is not None:
        return Predict(player, offer.horses[: offer.places])
    if offer.type == "bet" and player is not None:
        return BetEntry(player, offer.horses[0], offer.most)
    if offer.type == "pass" and player is not None:
        return PassEntry(player)
    if offer.type == "set_max_bet":
        return SetMaxBet(offer.most, player)
    if offer.type == "next_race":
        return NextRace()
    return None


def misshapen(offer: Offer) -> list[LogEntry]:
    """Predictions naming one horse more or fewer than the places ``offer`` asks for."""
    if offer.type != "predict" or offer.player is None:
        return []
    sizes = (offer.places - 1, offer.places + 1)
    return [Predict(offer.player, offer.horses[:n]) for n in sizes if 0 < n <= len(offer.horses)]


def strangers(table: Game, offered: set[tuple[str, str | None]]) -> list[LogEntry]:
    """Inputs of the types above made by a player the game does not offer them to now."""
    made: list[LogEntry] = []
    for player in table.start.players:
        candidates: list[LogEntry] = [
            Roll(3, player),
            Forfeit(player),
            PassEntry(player),
            SetMaxBet(5, player),
        ]
        for entry in candidates:
            if entry.TYPE not in _types(table):
                continue
            if (entry.TYPE, player) not in offered and (entry.TYPE, None) not in offered:
                made.append(entry)
    return made


def _types(table: Game) -> frozenset[str]:
    """The entry types the game takes at all."""
    return next(g.entries for g in GAMES if g.kind == table.kind)


def accepts(table: Game, entry: LogEntry) -> tuple[bool, str | None]:
    """Whether ``table`` accepts ``entry`` now (tried on a copy)."""
    trial = Session.in_memory()
    trial._table, trial._game_id = copy.deepcopy(table), 1
    outcome = trial.submit(entry)
    return outcome.accepted, outcome.code


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(4))
def test_every_door_may_offer_only_what_the_game_takes(kind: str, seed: int) -> None:
    rng = random.Random(seed)
    players, options = binding_module(kind).SET_UP
    session = Session.in_memory()
    session.submit(NewGame(kind, tuple(players), dict(options)))
    table = session.table
    assert table is not None
    for _step in range(160):
        offers = session.offers()
        offered = {(o.type, o.player) for o in offers.items}
        for offer in offers.items:
            entry = made_from(offer)
            if entry is not None:
                ok, code = accepts(table, entry)
                assert ok, f"offered {offer} but refused ({code}) after {table.entries[-3:]}"
            for wrong in misshapen(offer):
                assert not accepts(table, wrong)[0], f"{wrong} accepted: {offer} asks otherwise"
        for entry in strangers(table, offered):
            ok, _code = accepts(table, entry)
            assert not ok, f"{entry} not offered but accepted after {table.entries[-3:]}"
        assert set(offers.waiting) <= {o.player for o in offers.items}
        if offers.waiting:
            assert offers.asked == offers.waiting[0]
        entry = Undo() if rng.random() < 0.05 and len(table.in_force()) > 1 else None
        entry = entry or legal_input(table, rng)
        if entry is None:
            assert not offers.items
            break
        who = getattr(entry, "player", None)
        if not isinstance(entry, Undo):
            assert offers.takes(entry.TYPE, who), f"{entry} accepted but not offered"
        assert session.submit(entry).accepted
