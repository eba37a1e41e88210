"""QR codes of the join address: SVG for a page, a bitmap for the 128x64 OLED."""

from __future__ import annotations

import io

import segno


def qr_svg(text: str) -> str:
    """Return ``text`` as an inline SVG QR code (black on white, 4 px a module)."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, xmldecl=False, svgns=True, nl=False)
    return out.getvalue().decode()


def qr_rows(text: str) -> tuple[tuple[bool, ...], ...]:
    """Return ``text``'s QR code as rows of modules (True is dark), quiet zone included."""
    code = segno.make(text, error="l", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=2))
