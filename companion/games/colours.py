"""The one colour table: the colour words a board file or a configuration may name, as LED RGB."""

from __future__ import annotations

import re
from collections.abc import Mapping

#: A colour for one LED: red, green, blue, each 0..255.
RGB = tuple[int, int, int]

#: Every colour word, with the RGB the LED strip shows for it. The horses of every game take
#: theirs from here: Jumpy Jack's from its board file, Course hippique's suits and the Jockey
#: horses (named by their colours) through the renderers.
COLOURS: Mapping[str, RGB] = {
    "red": (255, 0, 0),
    "blue": (0, 64, 255),
    "green": (0, 200, 0),
    "yellow": (255, 200, 0),
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "orange": (255, 110, 0),
    "purple": (140, 0, 200),
    "pink": (255, 80, 160),
    "brown": (120, 60, 10),
    "grey": (128, 128, 128),
    "gray": (128, 128, 128),
    "cyan": (0, 220, 220),
    "magenta": (230, 0, 230),
}

_HEX = re.compile(r"#[0-9A-Fa-f]{6}\Z")


def rgb_of(text: str) -> RGB | None:
    """Return the RGB of a colour word (any case) or of ``#rrggbb``; None for anything else."""
    if _HEX.match(text):
        value = int(text[1:], 16)
        return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
    return COLOURS.get(text.lower())
