"""Joining never covers what the table waits on: every screen of the 12 scripted games, with a
phone's request pending (a player's, the host's) or the code shown to a table with no host."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from typing import Any

import pytest

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.render.language import speaking
from companion.render.screen import Screen
from companion.render.text import COLS
from companion.web.hub import Hub
from companion.web.joins import Joins
from companion.web.seats import HOST, SeatBook
from companion.web.side import QR, TableSide, asking
from tests.golden.test_golden import HERE, played
from tests.quiet import Quiet


def scripts() -> list[dict[str, Any]]:
    with gzip.open(HERE / "table_scripts.jsonl.gz", "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def side_of(table: TableController) -> TableSide:
    daemon = Daemon(table, Panel(), [], Quiet())
    return TableSide(daemon, table, SeatBook(None), Joins(table.clock), Hub(), "10.0.0.2:8080")


def untouched(plain: Screen, shown: Screen) -> None:
    """Every row the table uses, and a die on the OLED, are shown as the table drew them."""
    for row, (mine, theirs) in enumerate(zip(plain.lcd, shown.lcd, strict=True)):
        if mine.strip():
            assert theirs == mine, f"row {row} {mine!r} covered by {theirs!r}"
    if plain.oled.die is not None:
        assert shown.oled == plain.oled, "the die covered"
    assert all(len(row) <= COLS for row in shown.lcd)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_no_join_display_covers_a_row_the_table_waits_on(language: str) -> None:
    counts: Counter[str] = Counter()
    assert len(scripts()) == 12
    for script in scripts():
        sides: tuple[TableSide, TableSide] | None = None
        for table, _cues in played(script, language):
            if sides is None:
                sides = (side_of(table), side_of(table))  # no host yet; a host seated
                sides[1].seats.issue(HOST)
            plain = table.screen()
            with speaking(language):
                free, hosted = sides
                free.joins.renew()
                shown, asked = free.overlay(plain)  # the code, where room is left
                untouched(plain, shown)
                assert asked is None
                if free.joins.code in " ".join(shown.lcd) or shown.oled.lines[:1] == (QR,):
                    counts["code shown"] += 1
                for side, seat in ((free, HOST), (hosted, "Player 1")):
                    side.joins.renew()
                    request = side.joins.ask(seat)
                    shown, asked = side.overlay(plain)
                    untouched(plain, shown)
                    counts["screens"] += 1
                    if asked is None:
                        assert shown == plain  # nothing asked where there was no room
                        continue
                    assert asked == getattr(request, "key", None)
                    question = asking(seat)
                    on_lcd = all(row in shown.lcd for row in question)
                    assert on_lcd or shown.oled.lines == question
                    counts["asked on the LCD" if on_lcd else "asked on the OLED"] += 1
    # Not a vacuous walk: the table asks on most screens, in both places, and shows the code.
    assert counts["asked on the LCD"] > 0 and counts["asked on the OLED"] > 0
    assert counts["asked on the LCD"] + counts["asked on the OLED"] > counts["screens"] // 2
    assert counts["code shown"] > 0
    print(language, dict(counts))
