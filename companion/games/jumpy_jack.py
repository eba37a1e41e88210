"""Jumpy Jack: the board, a race, and a whole match — the names the rest of the companion uses.

The engine lives in six modules: ``jumpy_board`` (the board file), ``jumpy_moves`` (a move,
its outcome, the podium), ``jumpy_race`` (a position, its legal moves, the race notation,
fast random play), ``jumpy_scoring`` (options, predictions, guesses, points, race results),
``jumpy_state`` (a snapshot of the match and its saved form) and ``jumpy_match`` (turns, the
match to the target, undo, saving). This module gathers their public names so that callers
import from one place.

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

from companion.games.jumpy_board import DIE_FACES, Board, Horse, Hurdle
from companion.games.jumpy_match import JumpyJackMatch, Phase
from companion.games.jumpy_moves import Effect, HorseState, Move, Podium
from companion.games.jumpy_race import Position, place_chances, play_out, random_race
from companion.games.jumpy_scoring import (
    Guess,
    MatchOptions,
    Prediction,
    RaceResult,
    guess_points,
    prediction_points,
)

__all__ = [
    "DIE_FACES",
    "Board",
    "Effect",
    "Guess",
    "Horse",
    "HorseState",
    "Hurdle",
    "JumpyJackMatch",
    "MatchOptions",
    "Move",
    "Phase",
    "Podium",
    "Position",
    "Prediction",
    "RaceResult",
    "guess_points",
    "place_chances",
    "play_out",
    "prediction_points",
    "random_race",
]
