"""What the simulator draws: the fakes' LCD rows, OLED pixels and LED colours as terminal text.

Pure helpers (braille for the OLED, full-strength LED colours, the card names the reader
reports for what a user types) and the Textual widgets that show each fake device.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Input

from companion.devices.base import OFF, RGB

if TYPE_CHECKING:
    from PIL.Image import Image

#: The names the reader reports for the Jockey cards ("jockey:1".."jockey:54").

#: Half blocks by (upper module dark, lower module dark): two QR rows in one line of text.
_HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}

#: Braille dot bits by (row, column) inside one 2x4 character cell.
_BRAILLE_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


# -- drawing the fakes as text ---------------------------------------------------------------


def pixels(image: Image) -> list[list[bool]]:
    """Return a 1-bit image as rows of lit (True) and dark pixels."""
    frame = image.convert("1")
    width, height = frame.size
    data = frame.tobytes()
    stride = (width + 7) // 8
    return [
        [bool(data[y * stride + x // 8] & (0x80 >> (x % 8))) for x in range(width)]
        for y in range(height)
    ]


def shrink(grid: Sequence[Sequence[bool]], factor: int) -> list[list[bool]]:
    """Return ``grid`` ``factor`` times smaller: a pixel is lit if any pixel it covers is."""
    height = len(grid)
    width = len(grid[0]) if height else 0
    return [
        [
            any(
                grid[y][x]
                for y in range(top, min(top + factor, height))
                for x in range(left, min(left + factor, width))
            )
            for left in range(0, width, factor)
        ]
        for top in range(0, height, factor)
    ]


def braille(grid: Sequence[Sequence[bool]]) -> list[str]:
    """Return pixel rows as lines of braille characters, 2x4 pixels per character."""
    height = len(grid)
    width = len(grid[0]) if height else 0
    lines = []
    for top in range(0, height, 4):
        chars = []
        for left in range(0, width, 2):
            bits = 0
            for dy, row in enumerate(_BRAILLE_DOTS):
                for dx, bit in enumerate(row):
                    y, x = top + dy, left + dx
                    if y < height and x < width and grid[y][x]:
                        bits |= bit
            chars.append(chr(0x2800 + bits))
        lines.append("".join(chars))
    return lines


def half_blocks(modules: Sequence[Sequence[bool]]) -> list[str]:
    """Draw a QR code's modules (True is dark) two rows to a line, dark on the terminal's
    light; an odd last row is paired with a light one."""
    lines = []
    for top in range(0, len(modules), 2):
        upper = modules[top]
        lower = modules[top + 1] if top + 1 < len(modules) else [False] * len(upper)
        lines.append("".join(_HALF_BLOCKS[pair] for pair in zip(upper, lower, strict=True)))
    return lines


def seen_colour(colour: RGB) -> RGB:
    """Return a lit LED's colour at full strength, so a dimmed strip still reads on a screen."""
    top = max(colour)
    if top == 0:
        return OFF
    r, g, b = (round(c * 255 / top) for c in colour)
    return (r, g, b)


# -- the widgets ------------------------------------------------------------------------------


class LcdPanel(Widget):
    """The character LCD: its rows as the fake controller shows them."""

    def __init__(self, cols: int, rows: int) -> None:
        super().__init__()
        self.rows: list[str] = [" " * cols] * rows
        self.border_title = f"LCD {cols}x{rows}"

    def show(self, rows: list[str]) -> None:
        """Draw these rows if they differ from the ones on show."""
        if rows != self.rows:
            self.rows = rows
            self.refresh()

    def render(self) -> Text:
        return Text("\n".join(self.rows), no_wrap=True)


class OledPanel(Widget):
    """The OLED: the last frame sent to it, in braille (full or half resolution)."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.border_title = f"OLED {width}x{height}"
        self.grid: list[list[bool]] = [[False] * width for _ in range(height)]
        self.compact = False
        self.lines: list[str] = braille(self.grid)

    def show(self, grid: list[list[bool]]) -> None:
        """Draw this frame if it differs from the one on show."""
        if grid != self.grid:
            self.grid = grid
            self._redraw()

    def set_compact(self, compact: bool) -> None:
        """Draw at half resolution (small terminals) or full resolution."""
        if compact != self.compact:
            self.compact = compact
            self._redraw(layout=True)

    def _redraw(self, layout: bool = False) -> None:
        self.lines = braille(shrink(self.grid, 2) if self.compact else self.grid)
        self.refresh(layout=layout)

    def render(self) -> Text:
        return Text("\n".join(self.lines), no_wrap=True)


#: What the panel says when the pages answer this computer only (bound to loopback).
LOOPBACK_HINT = ("this computer only: phones need", "--web-bind 0.0.0.0")


class PagesPanel(Widget):
    """Where the phone pages are: their address, the join page's QR code to scan (beside the
    addresses), and the room's people seated with a phone. Pages bound to this computer
    alone (loopback) show no QR code, which no phone could open, but the option that opens
    them to the phones of the network."""

    def __init__(self, url: str, join_url: str, qr: list[str], loopback: bool = False) -> None:
        super().__init__()
        self.border_title = "Phones"
        self.url = url
        self.join_url = join_url
        self.qr = [] if loopback else qr
        self.loopback = loopback
        self.with_qr = True
        self.seated: tuple[str, ...] = ()
        #: The join code while the table shows it (it has no host): the OLED's QR code and
        #: its digits are drawn too small to read in braille, so the panel says it in words.
        self.code: str | None = None

    def show_seated(self, seated: tuple[str, ...]) -> None:
        """The room's people with a phone, in seat order."""
        if seated != self.seated:
            self.seated = seated
            self.refresh(layout=True)

    def show_code(self, code: str | None) -> None:
        """The join code the table shows now, or None once it has a host."""
        if code != self.code:
            self.code = code
            self.refresh(layout=True)

    def set_qr(self, shown: bool) -> None:
        """Draw the QR code (wide terminals) or only the addresses."""
        if shown != self.with_qr:
            self.with_qr = shown
            self.refresh(layout=True)

    def said(self) -> list[str]:
        """The panel's lines of words: the addresses, the hint, who is seated."""
        lines = [f"pages: {self.url}", f"join:  {self.join_url}"]
        if self.code is not None:
            lines.append(f"code:  {self.code} (the host types it)")
        if self.loopback:
            lines.extend(LOOPBACK_HINT)
        lines.append("seated: " + (", ".join(self.seated) or "nobody yet"))
        return lines

    def render(self) -> Text:
        text = Text(no_wrap=True)
        said = self.said()
        if not (self.with_qr and self.qr):
            text.append("\n".join(said))
            return text
        for index, line in enumerate(self.qr):  # dark modules on a light square, words beside
            if index:
                text.append("\n")
            text.append(line, style="#000000 on #ffffff")
            if index < len(said):
                text.append("  " + said[index])
        return text

    def width_needed(self, qr: bool) -> int:
        """How many columns the panel takes (its border and padding included)."""
        words = max(len(line) for line in self.said())
        drawn = (len(self.qr[0]) + 2 + words) if qr and self.qr else words
        return drawn + 4


class StripPanel(Widget):
    """The LED strip: one cell per LED in its colour, with its index every ten LEDs."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.border_title = f"LED strip ({count})"
        self.leds: list[RGB] = [OFF] * count

    def show(self, leds: list[RGB]) -> None:
        """Draw these colours if they differ from the ones on show."""
        if leds != self.leds:
            self.leds = leds
            self.refresh()

    def lit(self) -> dict[int, RGB]:
        """The LEDs drawn lit, by index, in the colour shown."""
        return {i: seen_colour(c) for i, c in enumerate(self.leds) if c != OFF}

    def render(self) -> Text:
        width = max(10, self.content_size.width or len(self.leds))
        text = Text(no_wrap=True)
        for start in range(0, len(self.leds), width):
            chunk = self.leds[start : start + width]
            if start:
                text.append("\n")
            for colour in chunk:
                if colour == OFF:
                    text.append("·", style="#4a4a4a")
                else:
                    r, g, b = seen_colour(colour)
                    text.append("●", style=f"bold rgb({r},{g},{b})")
            ruler = [" "] * len(chunk)
            for index in range(start, start + len(chunk)):
                if index % 10 == 0:
                    for offset, digit in enumerate(str(index)):
                        if index - start + offset < len(ruler):
                            ruler[index - start + offset] = digit
            text.append("\n" + "".join(ruler), style="#808080")
        return text


class CardInput(Input):
    """Where a card is typed; Enter lays it on the reader, Escape goes back to the buttons."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "back to the buttons")]

    def action_leave(self) -> None:
        """Give the keys back to the buttons."""
        self.value = ""
        self.screen.set_focus(None)
