"""The race chart: every player's score or balance race by race, as a dark SVG drawn on the server.

The chart is drawn about one unit a pixel on a 1920x1080 TV (it scales with the column it
stands in): its words are 28 units high, read from the sofa. Each line ends at the plot's
right edge and its label (the player and the figure) stands in a column of its own beyond
it, so no line ever crosses a label; the labels are spread so that none covers another,
whatever the number of players; the races under the axis are named as often as they fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from companion.render.language import figure
from companion.web.shared import Series
from companion.web.words import t

#: Line colours, one per seat: light enough to read on the chart's dark ground (as lines and
#: as their labels), told apart without colour by the labels.
COLOURS = (
    "#58a6ff",
    "#ff7b72",
    "#7ee787",
    "#d2a8ff",
    "#ffa657",
    "#f778ba",
    "#e3d26f",
    "#56d4dd",
    "#c9d1d9",
    "#ffb3a7",
)
#: The chart's ground and axis.
GROUND, AXIS = "#161b22", "#8b949e"
#: The width of the chart, the size of its words, and the space a label's line takes.
WIDTH, FONT = 690, 28
LABEL_HEIGHT = 34
#: The column of end labels on the right; the room above the plot (the unit) and below it
#: (the races).
LABELS_W, TOP, BOTTOM, LEFT = 300, 52, 48, 24
#: How wide a character of the chart's words is, at most, as a share of their size.
GLYPH = 0.64
#: The least height of the plot.
PLOT_LEAST = 200


def label_heights(ends: Sequence[float], top: int, bottom: int) -> tuple[int, ...]:
    """The baselines of the end labels (whole units), one per line end at height ``ends``.

    Each label stands as near its line's end as it can while no two labels' boxes overlap
    (baselines at least ``LABEL_HEIGHT`` apart) and, when there is room, all lie between ``top``
    and ``bottom``: crowded labels are pushed down from the top, then up from the bottom.
    """
    order = sorted(range(len(ends)), key=lambda i: (ends[i], i))
    placed = [0] * len(ends)
    floor = top
    for i in order:
        placed[i] = max(round(ends[i]), floor)
        floor = placed[i] + LABEL_HEIGHT
    ceiling = bottom
    for i in reversed(order):
        placed[i] = min(placed[i], ceiling)
        ceiling = placed[i] - LABEL_HEIGHT
    return tuple(placed)


def _width(text: str) -> float:
    """How wide ``text`` is drawn at most, in the chart's units."""
    return len(text) * FONT * GLYPH


def _fitted(player: str, said: str) -> str:
    """A label, ``player`` and the figure ``said``, within the labels' column: a long name
    is cut (with an ellipsis), never the figure."""
    room = int((LABELS_W - 12) / (FONT * GLYPH)) - len(said) - 1
    name = player if len(player) <= room else player[: max(room - 1, 1)] + "…"
    return f"{name} {said}"


def shown_races(xs: Sequence[float], names: Sequence[str]) -> tuple[int, ...]:
    """The races named under the axis: the first and the last, and between them as many as
    fit with a space between two names (each name centred under its race)."""
    half = [_width(n) / 2 + FONT * 0.4 for n in names]
    last = len(xs) - 1
    shown = [0]
    for index in range(1, last):
        if xs[index] - half[index] >= xs[shown[-1]] + half[shown[-1]] and (
            xs[index] + half[index] <= xs[last] - half[last]
        ):
            shown.append(index)
    if last > 0:
        shown.append(last)
    return tuple(shown)


def chart_svg(series: Sequence[Series], unit: str) -> str:
    """Return an SVG line chart of ``series`` (one point per race, the start first)."""
    races = max((len(s.points) for s in series), default=0)
    if races < 2:
        return ""
    values = [v for s in series for v in s.points]
    low, high = min([*values, 0]), max([*values, 1])
    span = high - low or 1
    plot = max(PLOT_LEAST, len(series) * LABEL_HEIGHT)
    height = TOP + plot + BOTTOM
    names = [t("start"), *(t("race {number}").format(number=n) for n in range(1, races))]
    first = LEFT + _width(names[0]) / 2
    right = WIDTH - LABELS_W  # the lines end here: the labels stand beyond

    def x(index: int) -> float:
        return first + index * (right - first) / (races - 1)

    def y(value: int) -> float:
        return TOP + plot - (value - low) * plot / span

    said = t(unit)
    named = t("{unit} race by race").format(unit=said)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label="{escape(named)}" class="chart" font-size="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="12" fill="{GROUND}"/>',
        f'<line x1="{first:.0f}" y1="{TOP + plot}" x2="{right:.0f}" y2="{TOP + plot}" '
        f'stroke="{AXIS}" stroke-width="2"/>',
        f'<text class="unit" x="{LEFT}" y="{TOP - 16}" fill="#e6edf3">{escape(said)}</text>',
    ]
    xs = [x(i) for i in range(races)]
    for index in shown_races(xs, names):
        parts.append(
            f'<text class="race" x="{xs[index]:.0f}" y="{TOP + plot + FONT + 8}" '
            f'fill="{AXIS}" text-anchor="middle">{escape(names[index])}</text>'
        )
    heights = label_heights(
        [y(line.points[-1]) + FONT * 0.35 for line in series], TOP + FONT - 4, TOP + plot
    )
    for number, line in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line.points))
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="4" '
            f'stroke-linejoin="round" points="{points}"/>'
        )
        label = _fitted(line.player, figure(line.points[-1]))
        parts.append(
            f'<text class="end" x="{right + 14:.0f}" y="{heights[number]}" '
            f'fill="{colour}">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
