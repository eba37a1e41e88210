"""Course hippique's setback variants and default sample count, light for the command line."""

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
