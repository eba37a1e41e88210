"""Jumpy Jack: the board, a race, and a whole match — the names the rest of the companion uses.

The engine lives in seven modules: ``board`` (the board file), ``moves`` (a move, its
outcome, the podium), ``race`` (a position, its legal moves, the race notation, fast random
play), ``scoring`` (options, predictions, guesses, points, race results), ``state`` (a
snapshot of the match and its saved form), ``match`` (turns, the match to the target,
saving) and ``public`` (the public board and a player's private view, typed). This module
is the engine's public face: the rest of the companion imports from it only. It loads the
board at once (``GAME`` names its horses) and each other module when one of its names is
first used (``companion/games/face.py``).

Race notation (one line that round-trips a race position; the empty line is the start)::

    position   = [ entry *( 1*SP entry ) ]
    entry      = horse "=" ( square / "F" place / "X" place )
    square     = 1*DIGIT      ; 0 .. squares-1: the horse races there (0 = start square)
    place      = DIGIT        ; F: crossed the line and took this podium place
                              ; X: eliminated on OUT and took this podium place

A horse left out stands on the start square; ``Position.to_text`` writes every horse in
board order, e.g. ``red=12 blue=F1 green=0 yellow=12 white=X5``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.face import names_from
from companion.games.info import GameInfo, Measure, Option
from companion.games.jumpy_jack.board import DIE_FACES, Board, Horse, Hurdle
from companion.games.text import N_

if TYPE_CHECKING:
    from companion.games.jumpy_jack.match import JumpyJackMatch, JumpyPhase
    from companion.games.jumpy_jack.moves import HorseState, Landing, Move, Podium
    from companion.games.jumpy_jack.public import (
        HorseStanding,
        JumpyJackBoard,
        JumpyJackPrivate,
        TeamScore,
    )
    from companion.games.jumpy_jack.race import (
        Position,
        place_chances,
        play_out,
        random_race,
    )
    from companion.games.jumpy_jack.scoring import (
        Guess,
        JumpyRaceResult,
        MatchOptions,
        Prediction,
        guess_points,
        prediction_points,
    )
else:
    __getattr__ = names_from(
        __name__,
        {
            "match": ("JumpyJackMatch", "JumpyPhase"),
            "moves": ("HorseState", "Landing", "Move", "Podium"),
            "public": ("HorseStanding", "JumpyJackBoard", "JumpyJackPrivate", "TeamScore"),
            "race": ("Position", "place_chances", "play_out", "random_race"),
            "scoring": (
                "Guess",
                "JumpyRaceResult",
                "MatchOptions",
                "Prediction",
                "guess_points",
                "prediction_points",
            ),
        },
    )

__all__ = [
    "DIE_FACES",
    "GAME",
    "Board",
    "Guess",
    "Horse",
    "HorseStanding",
    "HorseState",
    "Hurdle",
    "JumpyJackBoard",
    "JumpyJackMatch",
    "JumpyJackPrivate",
    "JumpyPhase",
    "JumpyRaceResult",
    "Landing",
    "MatchOptions",
    "Move",
    "Podium",
    "Position",
    "Prediction",
    "TeamScore",
    "guess_points",
    "place_chances",
    "play_out",
    "prediction_points",
    "random_race",
]

#: Jumpy Jack as the registry lists it. It has no upper limit of players in its rules;
#: eight is what one LCD page of scores can show.
#: How many horses a prediction (and a guess) names, in order: places 1, 2 and 3.
PREDICTION_PLACES = 3

GAME = GameInfo(
    kind="jumpy_jack",
    title="Jumpy Jack",
    low=1,
    high=8,
    horses=Board.default().horse_names,
    options=(
        Option("target", N_("Target"), (16, 8, 4, 2, 24, 32)),
        Option("guess", N_("Guess variant"), (False, True)),
    ),
    entries=frozenset({"roll", "move", "forfeit", "predict", "guess"}),
    teams=True,
    has_secret=True,
    uses_die=True,
    measure=Measure("points", "scores"),
)
