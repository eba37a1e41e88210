"""What Course hippique's face declares at once: its variants, sample count, seats, horses.

Light (the standard library only): the registry reads ``GAME`` at every start and the
command line offers the setback variants, neither loading the engine's other modules.
"""

from __future__ import annotations

import enum


class Setback(enum.Enum):
    """The setback variant: when a face-down course card is turned."""

    #: The first time any horse reaches the row.
    FIRST = "first"
    #: Once every horse stands on that row or beyond it.
    ALL = "all"


#: Default number of simulated races behind a setback estimate.
DEFAULT_SAMPLES = 5000

#: The fewest and the most players at a table.
MIN_PLAYERS, MAX_PLAYERS = 3, 10

#: The four horses, the aces of spades, hearts, diamonds and clubs, by suit letter.
HORSE_LETTERS = ("S", "H", "D", "C")
