"""LED colours the renderers use: horse colours by name, markers, and frames built from them."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import repeat

from companion.devices.base import OFF
from companion.games.colours import COLOURS, rgb_of
from companion.games.colours import RGB as RGB  # the renderers' colour type, from here

#: Course hippique horses (the aces): one colour per suit.
SUIT_COLOURS: Mapping[str, RGB] = {
    "S": COLOURS["blue"],
    "H": COLOURS["red"],
    "D": COLOURS["orange"],
    "C": COLOURS["green"],
}

#: Markers on the track (dim, so a horse on top of one still stands out).
STOP_MARK: RGB = (48, 16, 0)
DOUBLE_MARK: RGB = (24, 0, 40)
OUT_MARK: RGB = (48, 0, 0)
RESTART_MARK: RGB = (0, 32, 32)
FINISH_MARK: RGB = (16, 16, 16)
START_MARK: RGB = (10, 10, 10)
LANE_MARK: RGB = (4, 4, 4)
#: Two horses sharing a square block it: the square flashes this colour instead.
BARRAGE: RGB = (255, 0, 160)


def colour(word: str) -> RGB:
    """Return the RGB of a colour word or ``#rrggbb`` (grey for anything else).

    The colour words are the one colour table's (``companion.games.colours.COLOURS``): the
    board file's, and the Jockey horses' names.
    """
    return rgb_of(word) or COLOURS["grey"]


def dim(rgb: RGB, factor: float = 0.15) -> RGB:
    """Return ``rgb`` dimmed (a lit channel stays lit)."""
    r, g, b = (0 if c == 0 else max(1, round(c * factor)) for c in rgb)
    return (r, g, b)


def frame(count: int, lit: Mapping[int, RGB]) -> tuple[RGB, ...]:
    """Return ``count`` LED colours: ``lit[i]`` on LED i, dark elsewhere."""
    return tuple(map(lit.get, range(count), repeat(OFF)))
