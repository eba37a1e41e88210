"""QR codes of the join address: SVG for a page, a bitmap for the 128x64 OLED."""

from __future__ import annotations

import io
import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

# segno and PIL are imported where a code is drawn: a table without an OLED starts without
# them, and its first host page loads segno.

log = logging.getLogger("companion.web")

#: Pixels per QR module on the OLED (a version-3 code with its quiet zone is 58 px high).
OLED_MODULE = 2
#: The file beside the journal that keeps the join address's code between starts.
KEPT_NAME = "join-qr.txt"

#: A QR code as rows of modules, True is dark, quiet zone included.
Rows = tuple[tuple[bool, ...], ...]


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


def qr_rows(text: str) -> Rows:
    """Return ``text``'s QR code as rows of modules (True is dark), quiet zone included."""
    import segno

    code = segno.make(text, error="l", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=2))


class KeptRows:
    """QR codes worked out once and kept: the last one in memory, and in a file between starts.

    The join address seldom changes, and working its code out loads segno, which the OLED's
    first picture (drawn before the table says it is ready) would wait for at every start;
    with no code kept, that picture shows the join code alone until the pages' thread has
    worked the QR code out (``WebOutputs``).
    The file holds the text on its first line, then one row per line, ``#`` dark and ``.``
    light; a file for another text, or one that is not a square of those, is worked out
    again and written anew. A file that cannot be written is done without.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._last: tuple[str, Rows] | None = None

    def __call__(self, text: str) -> Rows:
        """``text``'s QR code (``qr_rows``), worked out if it is not kept."""
        rows = self.known(text)
        if rows is None:
            rows = qr_rows(text)
            self._write(text, rows)
            self._last = (text, rows)
        return rows

    def known(self, text: str) -> Rows | None:
        """``text``'s QR code if it is kept (in memory or in the file), else None."""
        last = self._last  # one read: the pages' thread may set it meanwhile
        if last is None or last[0] != text:
            rows = self._read(text)
            if rows is None:
                return None
            last = self._last = (text, rows)
        return last[1]

    def _read(self, text: str) -> Rows | None:
        if self.path is None:
            return None
        try:
            kept = self.path.read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError):
            return None
        lines = [line for line in kept[1:] if line]
        if kept[0] != text or not lines or any(len(line) != len(lines) for line in lines):
            return None
        if set("".join(lines)) - {"#", "."}:
            return None
        return tuple(tuple(mark == "#" for mark in line) for line in lines)

    def _write(self, text: str, rows: Rows) -> None:
        if self.path is None:
            return
        drawn = "".join("".join("#" if dark else "." for dark in row) + "\n" for row in rows)
        fresh = self.path.with_name(self.path.name + ".new")
        try:
            fresh.write_text(f"{text}\n{drawn}", encoding="utf-8")
            os.replace(fresh, self.path)
        except OSError as error:
            log.info("the join code's picture cannot be kept in %s: %s", self.path, error)


def oled_image(modules: Rows, code: str, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """Return the OLED's join picture: the QR code ``modules`` on the left, the join code
    beside it."""
    from PIL import Image, ImageDraw

    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
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
