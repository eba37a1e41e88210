"""LED colours the renderers use: horse colours by name, markers, and frames built from them."""

from __future__ import annotations

import re
from collections.abc import Mapping

RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)

#: Colour words a board or deck may give a horse (the Jumpy Jack board file's list).
COLOUR_WORDS: Mapping[str, RGB] = {
    "red": (255, 0, 0),
    "blue": (0, 64, 255),
    "green": (0, 200, 0),
    "yellow": (255, 200, 0),
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "orange": (255, 110, 0),
    "purple": (140, 0, 200),
    "pink": (255, 80, 160),
    "brown": (150, 75, 10),
    "grey": (128, 128, 128),
    "gray": (128, 128, 128),
    "cyan": (0, 220, 220),
    "magenta": (230, 0, 230),
}

#: Course hippique horses (the aces): one colour per suit.
SUIT_COLOURS: Mapping[str, RGB] = {
    "S": (0, 64, 255),
    "H": (255, 0, 0),
    "D": (255, 110, 0),
    "C": (0, 200, 0),
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

_HEX = re.compile(r"#[0-9A-Fa-f]{6}\Z")


def colour(word: str) -> RGB:
    """Return the RGB of a colour word or ``#rrggbb`` (grey for anything else)."""
    if _HEX.match(word):
        value = int(word[1:], 16)
        return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
    return COLOUR_WORDS.get(word.lower(), (128, 128, 128))


def dim(rgb: RGB, factor: float = 0.15) -> RGB:
    """Return ``rgb`` dimmed (a lit channel stays lit)."""
    r, g, b = (0 if c == 0 else max(1, round(c * factor)) for c in rgb)
    return (r, g, b)


def frame(count: int, lit: Mapping[int, RGB]) -> tuple[RGB, ...]:
    """Return ``count`` LED colours: ``lit[i]`` on LED i, dark elsewhere."""
    return tuple(lit.get(i, OFF) for i in range(count))
