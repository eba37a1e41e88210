"""Jockey: three races of played cards, sealed bets and balances — its public face.

The engine lives in six modules: ``deck`` (the 54 cards, from a deck file), ``race`` (the
track and what a card does), ``bets`` (bet shapes, payouts, markers, the ledger), ``state``
(options, phases, the saved form), ``game`` (the game a table plays) and ``public`` (the
public board and a player's private view, typed). The rest of the companion imports from
this module only.
It loads what ``GAME`` is made of at once, each other module when one of its names is first
used (``companion/games/face.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.face import names_from
from companion.games.info import GameInfo, Measure, Option
from companion.games.jockey.deck import (
    DECK_SIZE,
    HORSES,
    CardKind,
    Deck,
    JockeyCard,
    JockeyHorse,
    deck_from_data,
    default_deck,
    load_deck,
)
from companion.games.text import N_

if TYPE_CHECKING:
    from companion.games.jockey.bets import (
        BET_SHAPES,
        BetKind,
        JockeyBet,
        JockeyRaceResult,
        JockeyStanding,
        Markers,
        Settlement,
    )
    from companion.games.jockey.game import JockeyGame
    from companion.games.jockey.public import JockeyBoard, JockeyPrivate
    from companion.games.jockey.race import TRACK_LENGTH, Blocked, CardEffect, Place, Race
    from companion.games.jockey.state import JockeyOptions, JockeyPhase
else:
    __getattr__ = names_from(
        __name__,
        {
            "bets": (
                "BET_SHAPES",
                "BetKind",
                "JockeyBet",
                "JockeyRaceResult",
                "JockeyStanding",
                "Markers",
                "Settlement",
            ),
            "game": ("JockeyGame",),
            "public": ("JockeyBoard", "JockeyPrivate"),
            "race": ("TRACK_LENGTH", "Blocked", "CardEffect", "Place", "Race"),
            "state": ("JockeyOptions", "JockeyPhase"),
        },
    )

__all__ = [
    "BET_SHAPES",
    "DECK_SIZE",
    "GAME",
    "HORSES",
    "TRACK_LENGTH",
    "BetKind",
    "Blocked",
    "CardEffect",
    "CardKind",
    "Deck",
    "JockeyBet",
    "JockeyBoard",
    "JockeyCard",
    "JockeyGame",
    "JockeyHorse",
    "JockeyOptions",
    "JockeyPhase",
    "JockeyPrivate",
    "JockeyRaceResult",
    "JockeyStanding",
    "Markers",
    "Place",
    "Race",
    "Settlement",
    "deck_from_data",
    "default_deck",
    "load_deck",
]

#: Jockey as the registry lists it.
GAME = GameInfo(
    kind="jockey",
    title="Jockey",
    low=2,
    high=6,
    horses=tuple(str(horse) for horse in HORSES),
    options=(
        Option("track_length", N_("Last square"), (80, 81, 82)),
        Option("hands", N_("Hands"), (None, True), (N_("off"), N_("scan"))),
    ),
    entries=frozenset({"bet", "hand", "play_card"}),
    has_secret=True,
    uses_cards=True,
    measure=Measure("balance", "balances"),
)
