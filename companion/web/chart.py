"""The race chart: every player's score or balance race by race, as an SVG drawn on the server."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from companion.render.language import figure
from companion.web.shared import Series
from companion.web.words import t

#: Line colours, one per seat (readable on white and told apart without colour by the labels).
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
WIDTH, HEIGHT, PAD = 640, 280, 40
#: The height of an end label's box (13 px text and its leading): labels stand this far apart.
LABEL_HEIGHT = 15


def label_heights(ends: Sequence[float], top: int, bottom: int) -> tuple[int, ...]:
    """The baselines of the end labels (whole pixels), one per line end at height ``ends``.

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


def chart_svg(series: Sequence[Series], unit: str) -> str:
    """Return an SVG line chart of ``series`` (one point per race, the start first)."""
    races = max((len(s.points) for s in series), default=0)
    if races < 2:
        return ""
    values = [v for s in series for v in s.points]
    low, high = min([*values, 0]), max([*values, 1])
    span = high - low or 1

    def x(index: int) -> float:
        return PAD + index * (WIDTH - 2 * PAD) / (races - 1)

    def y(value: int) -> float:
        return HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span

    said = t(unit)
    named = t("{unit} race by race").format(unit=said)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(named)}" class="chart">',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" '
        'stroke="#888"/>',
        f'<text x="{PAD}" y="{PAD - 12}" font-size="14">{escape(said)}</text>',
    ]
    for index in range(races):
        label = t("start") if index == 0 else t("race {number}").format(number=index)
        parts.append(
            f'<text x="{x(index):.0f}" y="{HEIGHT - PAD + 18}" font-size="12" '
            f'text-anchor="middle">{label}</text>'
        )
    heights = label_heights(
        [y(line.points[-1]) - 6 for line in series], PAD + LABEL_HEIGHT, HEIGHT - PAD - 4
    )
    for number, line in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line.points))
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="3" points="{points}"/>'
        )
        parts.append(
            f'<text x="{WIDTH - PAD + 4}" y="{heights[number]}" font-size="13" '
            f'fill="{colour}" text-anchor="end">'
            f"{escape(line.player)} {figure(line.points[-1])}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
