"""Course hippique: the croupier's course, the bets, the race of the four aces — its public face.

The engine lives in six modules: ``track`` (the four lanes and the setback variant),
``table`` (options, phases, bets, turns, race results), ``odds`` (announced odds and exact or
estimated chances), ``rules`` (the state machine), ``game`` (the game a table plays) and
``public`` (the public board and a player's private view, typed). The rest of the companion
imports from this module only.
It loads what ``GAME`` is made of at once (``variants``: the setback variants, the seats, the
horses' letters, light enough for the command line), each other module when one of its
names is first used (``companion/games/face.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.course_hippique.variants import (
    DEFAULT_SAMPLES,
    HORSE_LETTERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Setback,
)
from companion.games.face import names_from
from companion.games.info import GameInfo, Measure, Option
from companion.games.text import N_

if TYPE_CHECKING:
    from companion.games.course_hippique.game import Action, CourseHippiqueGame
    from companion.games.course_hippique.odds import (
        HorseChance,
        RaceChances,
        fair_odds,
        house_margin,
        win_probabilities,
    )
    from companion.games.course_hippique.public import (
        CourseHippiqueBoard,
        CourseHippiquePrivate,
    )
    from companion.games.course_hippique.table import (
        COURSE_LENGTHS,
        CourseBet,
        CoursePhase,
        CourseRaceResult,
        CourseStanding,
        HippiqueOptions,
        Turn,
    )
    from companion.games.course_hippique.track import CARDS_PER_SUIT, HORSES, CourseTrack
else:
    __getattr__ = names_from(
        __name__,
        {
            "track": ("CARDS_PER_SUIT", "HORSES", "CourseTrack"),
            "table": (
                "COURSE_LENGTHS",
                "CourseBet",
                "CoursePhase",
                "CourseRaceResult",
                "CourseStanding",
                "HippiqueOptions",
                "Turn",
            ),
            "game": ("Action", "CourseHippiqueGame"),
            "odds": (
                "HorseChance",
                "RaceChances",
                "fair_odds",
                "house_margin",
                "win_probabilities",
            ),
            "public": ("CourseHippiqueBoard", "CourseHippiquePrivate"),
        },
    )

__all__ = [
    "CARDS_PER_SUIT",
    "COURSE_LENGTHS",
    "DEFAULT_SAMPLES",
    "GAME",
    "HORSES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Action",
    "CourseBet",
    "CourseHippiqueBoard",
    "CourseHippiqueGame",
    "CourseHippiquePrivate",
    "CoursePhase",
    "CourseRaceResult",
    "CourseStanding",
    "CourseTrack",
    "HippiqueOptions",
    "HorseChance",
    "RaceChances",
    "Setback",
    "Turn",
    "fair_odds",
    "house_margin",
    "win_probabilities",
]

#: Course hippique as the registry lists it: the horses are the four aces, by suit letter.
GAME = GameInfo(
    kind="course_hippique",
    title="Course hippique",
    low=MIN_PLAYERS,
    high=MAX_PLAYERS,
    horses=HORSE_LETTERS,
    options=(
        Option("starting_chips", N_("Chips"), (100, 200, 500, 50)),
        Option("rounds", N_("Rounds"), (1, 2, 3)),
        Option("course_length", N_("Course cards"), (7, 6, 5)),
        Option(
            "setback", N_("Setback"), (None, "first", "all"), (N_("off"), N_("first"), N_("all"))
        ),
    ),
    entries=frozenset({"deal_card", "deal_course", "set_max_bet", "bet", "pass", "turn_card"}),
    has_secret=True,
    uses_cards=True,
    measure=Measure("chips", "balances", since_start=True),
)
