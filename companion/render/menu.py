"""The start menu on the displays: the game list, the number of players, the options list."""

from __future__ import annotations

import re
from collections.abc import Sequence

from companion.render.language import _, ngettext
from companion.render.screen import OledScreen, Screen
from companion.render.text import COLS, name_list, rows, short, spread

#: How many list items fit under the title row.
VISIBLE = 3
#: The OLED's small font: characters a line.
OLED_SMALL = 21


def window(items: Sequence[str], cursor: int, visible: int = VISIBLE) -> list[str]:
    """Return the ``visible`` items around ``cursor``, the cursor's item marked with ``>``."""
    first = max(0, min(cursor - 1, len(items) - visible))
    shown = []
    for index in range(first, min(len(items), first + visible)):
        mark = ">" if index == cursor else " "
        shown.append(f"{mark}{items[index]}")
    return shown


def games(titles: Sequence[str], cursor: int, buttons: int) -> Screen:
    """The game list: one row per game, with the number of its horse button when it has one.

    The first ``buttons`` games are picked by a horse button; the others by the knob only.
    """
    items = [f"{i} {title}" if i <= buttons else f"  {title}" for i, title in enumerate(titles, 1)]
    return Screen(
        rows([_("Choose a game:"), *window(items, cursor)]),
        OledScreen(lines=(_("Choose"), _("a game"))),
    )


def seats(names: Sequence[str]) -> list[str]:
    """The names to list, three or more numbered seats in a row told as one item.

    ``Anna, Ben, Player 3, Player 4, Player 5`` becomes ``Anna, Ben, Players 3 to 5``.
    """
    out: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if len(run) >= 3:
            out.append(_("Players {first} to {last}").format(first=run[0], last=run[-1]))
        else:
            out.extend(_("Player {number}").format(number=n) for n in run)
        run.clear()

    seat_name = re.compile(re.escape(_("Player {number}")).replace(r"\{number\}", r"(\d+)") + r"\Z")
    for name in names:
        seat = seat_name.match(name)
        if seat is not None and (not run or int(seat.group(1)) == run[-1] + 1):
            run.append(int(seat.group(1)))
            continue
        flush()
        if seat is not None:
            run.append(int(seat.group(1)))
        else:
            out.append(name)
    flush()
    return out


def listed_names(names: Sequence[str], lines: int = 2) -> tuple[str, ...]:
    """The players' names on up to ``lines`` rows, shortened only as much as they must."""
    items = seats(names)
    fixed = [item for item in items if item not in names]
    for shown in range(len(items), 0, -1):
        more = [_("+{count} more").format(count=len(items) - shown)] if shown < len(items) else []
        laid = name_list([*items[:shown], *more], lines=lines, fixed=[*fixed, *more])
        if laid is not None:
            return laid
    return (ngettext("{count} player", "{count} players", len(names)).format(count=len(names)),)


def players(title: str, count: int, low: int, high: int, names: Sequence[str]) -> Screen:
    """The number of players (turn the encoder) and the names they will get."""
    left = "<" if count > low else " "
    right = ">" if count < high else " "
    return Screen(
        rows(
            [
                title,
                _("Players: {left} {count} {right}").format(left=left, count=count, right=right),
                *listed_names(names),
            ]
        ),
        OledScreen(lines=(_("Players"), str(count))),
    )


def options(
    title: str,
    count: int,
    items: Sequence[tuple[str, str]],
    cursor: int,
    teams: Sequence[Sequence[str]] = (),
) -> Screen:
    """The options list: each ``(label, value)`` on its row, then "Start".

    ``teams``, when the teams option is on, are listed on the OLED while the cursor is on it.
    """
    shown = [spread(_(label), _(value), COLS - 1) if value else _(label) for label, value in items]
    players = ngettext("{count} player", "{count} players", count).format(count=count)
    label = items[cursor][0] if 0 <= cursor < len(items) else ""
    if label == "Teams" and teams:
        oled = OledScreen(lines=team_lines(teams))
    elif label == "Start":
        oled = OledScreen(lines=(players, _("Push: go")))
    else:
        oled = OledScreen(lines=(players, _("Options")))
    return Screen(rows([title, *window(shown, cursor)]), oled)


def team_lines(teams: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """One small OLED line a team: ``1: Anna, Ben``."""
    lines = []
    for number, members in enumerate(teams, 1):
        prefix = f"{number}: "
        laid = name_list(members, OLED_SMALL - len(prefix), lines=1)
        count = len(members)
        many = ngettext("{count} player", "{count} players", count).format(count=count)
        lines.append(prefix + (laid[0] if laid else many))
    return tuple(short(line, OLED_SMALL) for line in lines)
