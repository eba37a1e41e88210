"""The TV's track: the SVG pieces every game's drawing shares (horses, squares, podium, cheer).

A game's own module (``web/games/<kind>.py``) places its squares and horses; this module draws
them the same way for every game, with the attributes the TV's script (``static/tv.js``)
reads to walk a horse square by square: ``data-horse`` (a stable name), ``data-x``/``data-y``
(where it stands) and, on the horse the last move took, ``data-from`` and ``data-path`` (the
points it passed). The test of each game reads the same attributes (``data-square``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.colours import COLOURS, rgb_of
from companion.web.html import e

#: A point of a track's drawing, in its viewBox's units.
Point = tuple[float, float]

#: The radius of a horse's disc (the drawings are 1000 units or so across, drawn about one
#: unit a pixel on a 1920x1080 TV: a disc of 48 px or more, read from the sofa).
HORSE_R = 30


@dataclass(frozen=True)
class Runner:
    """One horse as the TV draws it: where it stands and, after its move, what it passed."""

    #: Its stable name (an id of the page: a colour word, a suit letter).
    name: str
    #: Its name in the table's language (its tooltip, and the letter on its disc).
    label: str
    #: Its colour: a colour word of the one colour table, or ``#rrggbb``.
    colour: str
    at: Point
    #: Where it is, as the tests and the script read it: a square's number, ``podium-1``, ``out``.
    where: str
    #: The points the last move passed after its origin, where it rests last (empty unless it
    #: made the last move).
    path: tuple[Point, ...] = ()
    #: Where the last move took it from (as ``where`` says it; empty unless it made it).
    origin: str = ""


def hex_of(colour: str) -> str:
    """A colour word (or ``#rrggbb``) as ``#rrggbb``; grey for a word the table does not know."""
    red, green, blue = rgb_of(colour) or COLOURS["grey"]
    return f"#{red:02x}{green:02x}{blue:02x}"


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    red, green, blue = rgb_of(colour) or COLOURS["grey"]
    return "#000" if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "#fff"


def _point(point: Point) -> str:
    return f"{point[0]:.0f},{point[1]:.0f}"


def marks(labels: Sequence[str]) -> tuple[str, ...]:
    """The letters on each horse's disc: the shortest start of its name no other horse's
    name shares (``rouge``: R; ``gelb`` and ``grün``: Ge, Gr; ``bleu`` and ``blanc``: Ble,
    Bla), so that the letters, not only the colour, tell the horses apart."""
    folded = [label.casefold() for label in labels]

    def mark(index: int) -> str:
        label = labels[index]
        for size in range(1, len(label) + 1):
            start = folded[index][:size]
            if not any(o.startswith(start) for j, o in enumerate(folded) if j != index):
                return label[:1].upper() + label[1:size].lower()
        return label[:1].upper() + label[1:].lower()

    return tuple(mark(i) for i in range(len(labels)))


def runners_svg(runners: Sequence[Runner], radius: int = HORSE_R) -> str:
    """Every horse, each with its mark (see ``marks``)."""
    shown = marks([r.label for r in runners])
    return "".join(runner_svg(r, radius, m) for r, m in zip(runners, shown, strict=True))


def runner_svg(runner: Runner, radius: int = HORSE_R, mark: str = "") -> str:
    """A horse: a disc of its colour in a white ring and a black halo (so white and yellow
    read on any background), its mark on it (its initial unless told), at ``runner.at``."""
    x, y = runner.at
    moved = ""
    if runner.path:
        passed = " ".join(_point(p) for p in runner.path)
        moved = f' data-from="{e(runner.origin)}" data-path="{passed}"'
    letters = mark or runner.label[:1].upper()
    initial = e(letters)
    size = radius * (1.1, 0.9, 0.72, 0.6)[min(len(letters), 4) - 1]
    return (
        f'<g class="horse" id="horse-{e(runner.name)}" data-horse="{e(runner.name)}" '
        f'data-square="{e(runner.where)}" data-x="{x:.0f}" data-y="{y:.0f}"{moved} '
        f'transform="translate({x:.0f} {y:.0f})"><title>{e(runner.label)}</title>'
        f'<circle r="{radius + 2.75}" fill="none" stroke="#000" stroke-width="2.5"/>'
        f'<circle r="{radius}" fill="{hex_of(runner.colour)}" stroke="#fff" stroke-width="3"/>'
        f'<text y="{size * 0.36:.0f}" text-anchor="middle" font-size="{size:.0f}" '
        f'font-weight="bold" fill="{ink_on(runner.colour)}">{initial}</text></g>'
    )


#: The podium's steps' heights, from the left: 2nd, 1st, 3rd (room for their numbers).
STEPS = (60.0, 84.0, 46.0)


def podium_svg(x: float, y: float, places: Sequence[str], width: float = 240) -> str:
    """The podium's three steps (2nd, 1st, 3rd from the left) under ``(x, y)``, the middle of the
    top step's top; ``places`` are the steps' numbers as said."""
    step = width / 3
    numbers = (1, 0, 2)
    parts = []
    for column, (number, height) in enumerate(zip(numbers, STEPS, strict=True)):
        left = x - width / 2 + column * step
        top = y + STEPS[1] - height
        parts.append(
            f'<rect class="step" data-place="podium-{number + 1}" x="{left:.0f}" '
            f'y="{top:.0f}" width="{step - 4:.0f}" height="{height:.0f}" rx="4"/>'
            f'<text class="step-n" x="{left + step / 2 - 2:.0f}" y="{top + height - 10:.0f}" '
            f'text-anchor="middle">{e(places[number])}</text>'
        )
    return '<g class="podium">' + "".join(parts) + "</g>"


def podium_spot(x: float, y: float, place: int, width: float = 240) -> Point:
    """Where a horse stands on the podium drawn by ``podium_svg(x, y)`` for ``place`` (1..3);
    a horse placed after the third stands beside the podium, on its right, in a row."""
    step = width / 3
    if place not in (1, 2, 3):
        return (x + width / 2 + 30 + max(place - 4, 0) * 2 * (HORSE_R + 6), y + 50)
    column = {1: 1, 2: 0, 3: 2}[place]
    height = STEPS[column]
    return (x - width / 2 + column * step + step / 2 - 2, y + STEPS[1] - height - HORSE_R - 6)


def track_html(
    kind: str, view_box: str, label: str, drawing: str, said: str, cheer: str, beneath: str = ""
) -> str:
    """The line that narrates the last move above the track's SVG, and ``beneath`` it what the
    game shows under its track (HTML); ``cheer``, when not empty, keys a short celebration (the
    reveal, the end of a game) shown once per key."""
    cheered = (
        f'<div class="cheer" data-cheer="{e(cheer)}" aria-hidden="true"></div>' if cheer else ""
    )
    return (
        f'<div class="tv-track" data-game="{e(kind)}">'
        f'<p class="narration" aria-live="polite">{e(said)}</p>'
        f'<svg class="track-svg" viewBox="{view_box}" role="img" aria-label="{e(label)}">'
        f"{drawing}</svg>{beneath}{cheered}</div>"
    )
