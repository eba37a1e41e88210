"""Whole games of the fixture game, Petits chevaux, as table-log entries: for the tests that
need a finished game of a game kept outside the package (the evening, the league, the pages).

Every race of these is to square 8 and won by the brown horse (horse button 1): it moves 5,
then 3. Who scores is who picked it.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.session.log import LogEntry, MoveEntry, NewGame, NextRace, Predict, Roll
from tests.fixture_game.engine import GAME

#: The horse that wins every race here, and the rolls that take it to square 8.
WINNER, ROLLS = "brown", (5, 3)


def race(players: Sequence[str], picks: Sequence[str]) -> list[LogEntry]:
    """One race: each player's pick in seat order, then the winner moved home."""
    chosen = [Predict(p, (h,)) for p, h in zip(players, picks, strict=True)]
    return [*chosen, *(e for value in ROLLS for e in (Roll(value), MoveEntry(WINNER)))]


def game(players: Sequence[str], *races: Sequence[str]) -> list[LogEntry]:
    """A whole game to square 8 of one round a race, ``races`` the picks of each."""
    entries: list[LogEntry] = [
        NewGame(GAME.kind, tuple(players), {"finish": 8, "rounds": len(races)})
    ]
    for number, picks in enumerate(races):
        entries += [NextRace()] if number else []
        entries += race(players, picks)
    return entries
