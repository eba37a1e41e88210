"""What every game ranked by points shows: the totals on one row, the leaders, the ranking
(the winners' row is ``winners_row`` of ``render/text.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.render.language import _, ngettext
from companion.render.text import COLS, name_list, name_score_row, named

#: Who competes with what total (a player, or a team), in the table's order.
Totals = Sequence[tuple[str, int]]


def leaders(totals: Totals) -> list[str]:
    """The names holding the best total (all of them on a tie)."""
    best = max((score for _, score in totals), default=0)
    return [name for name, score in totals if score == best]


def scores_row(totals: Totals) -> str:
    """Every total in one row; when they cannot all fit, who leads."""
    best = max((score for _, score in totals), default=0)
    ahead = leaders(totals)
    prefix = _("Lead {score}: ").format(score=best)
    lead = name_list(ahead, COLS - len(prefix), lines=1)
    if len(ahead) == len(totals):
        fallback = _("All level on {score}").format(score=best)
    elif lead is not None:
        fallback = prefix + lead[0]
    else:
        fallback = prefix + ngettext("{count} player", "{count} players", len(ahead)).format(
            count=len(ahead)
        )
    return name_score_row(totals, fallback=fallback)


def ranking_pages(totals: Totals) -> list[list[str]]:
    """The ranking, best first, three a page under its title ("2. Bob 6", ties sharing)."""
    lines = []
    for name, score in sorted(totals, key=lambda pair: -pair[1]):
        place = 1 + sum(1 for _, other in totals if other > score)
        lines.append(f"{place}. " + named(name, f" {score}", COLS - len(f"{place}. ")))
    return [[_("Ranking"), *lines[start : start + 3]] for start in range(0, len(lines), 3)]
