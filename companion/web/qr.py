"""QR codes of the join address: SVG for a page, a bitmap for the 128x64 OLED."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

# segno and PIL are imported where a code is drawn: a table without an OLED starts without
# them, and its first host page loads segno.

#: Pixels per QR module on the OLED (a version-3 code with its quiet zone is 58 px high).
OLED_MODULE = 2


@lru_cache(maxsize=4)
def qr_svg(text: str) -> str:
    """Return ``text`` as an inline SVG QR code (black on white, 4 px a module).

    Kept once made: the host page is drawn again after every input, its code seldom changes.
    """
    import segno

    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, xmldecl=False, svgns=True, nl=False)
    return out.getvalue().decode()


def qr_rows(text: str) -> tuple[tuple[bool, ...], ...]:
    """Return ``text``'s QR code as rows of modules (True is dark), quiet zone included."""
    import segno

    code = segno.make(text, error="l", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=2))


def oled_image(text: str, code: str, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """Return the OLED's join picture: ``text``'s QR code on the left, the join code beside it."""
    from PIL import Image, ImageDraw

    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    modules = qr_rows(text)
    top = max(0, (size[1] - len(modules) * OLED_MODULE) // 2)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if not dark:  # light modules are lit: the code reads as dark on a bright square
                left, upper = x * OLED_MODULE, top + y * OLED_MODULE
                draw.rectangle(
                    (left, upper, left + OLED_MODULE - 1, upper + OLED_MODULE - 1), fill=1
                )
    right = len(modules) * OLED_MODULE + 6
    draw.text((right, 12), "Join", fill=1)
    draw.text((right, 32), code, fill=1)
    return image
