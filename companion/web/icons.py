"""Draw the pages' home-screen icons from the favicon's horse: ``python -m companion.web.icons``.

The PNGs are committed beside the favicon (``static/icon-192.png``, ``static/icon-512.png``)
so that installing needs no network and no drawing; run this again after changing the
favicon. Pillow comes with the OLED's driver (luma.oled).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parent / "static"
#: The favicon's horse head, on its 32-unit grid (see static/favicon.svg).
HORSE = ((8, 24), (12, 12), (18, 9), (24, 11), (22, 15), (18, 14), (20, 24))
GREEN, WHITE = (0, 187, 85), (255, 255, 255)
SIZES = (192, 512)
#: Drawn this many times larger, then scaled down: smooth edges.
OVER = 4


def icon(size: int) -> Image.Image:
    """The icon at ``size`` pixels: the horse on the whole green square (a phone rounds or
    masks the corners itself), kept inside the middle 80% a maskable icon must show."""
    big = size * OVER
    picture = Image.new("RGB", (big, big), GREEN)
    unit = big * 0.8 / 32
    margin = big * 0.1
    points = [(margin + x * unit, margin + y * unit) for x, y in HORSE]
    ImageDraw.Draw(picture).polygon(points, fill=WHITE)
    return picture.resize((size, size), Image.Resampling.LANCZOS)


def main(folder: Path = STATIC) -> list[Path]:
    """Write every icon into ``folder``; return their paths."""
    written = []
    for size in SIZES:
        path = folder / f"icon-{size}.png"
        icon(size).save(path, optimize=True)
        written.append(path)
    return written


if __name__ == "__main__":
    for made in main(Path(sys.argv[1]) if len(sys.argv) > 1 else STATIC):
        print(made.name)
