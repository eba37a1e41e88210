"""The parts drawn on the server: names typed on a phone cannot inject markup; the chart."""

from __future__ import annotations

import subprocess
import sys

from companion.session.session import Session
from companion.web.chart import chart_svg
from companion.web.fragments import private_html, public_html
from companion.web.state import Series, private_state, public_state

HOSTILE = '<img src=x onerror="alert(1)">'


def test_a_hostile_name_is_shown_as_text_everywhere() -> None:
    session = Session.in_memory()
    session.new_game("course_hippique", [HOSTILE, "Bob", "Chloé"])
    public = public_state(session)
    drawn = public_html(public) + private_html(HOSTILE, private_state(session, HOSTILE), public)
    drawn += chart_svg((Series(HOSTILE, (100, 90)),), "chips")
    assert "<img" not in drawn and "&lt;img src=x" in drawn


def test_the_chart_draws_every_player_race_by_race() -> None:
    svg = chart_svg((Series("Anna", (0, 2, 5)), Series("Bob", (0, 3, 3))), "points")
    assert svg.count("<polyline") == 2
    assert "race 2" in svg and "Anna 5" in svg and "Bob 3" in svg
    assert chart_svg((Series("Anna", (0,)),), "points") == ""  # nothing to draw before a race


def test_a_games_part_of_the_pages_is_loaded_only_when_a_table_of_it_is_shown() -> None:
    shown = """
import sys
from companion.session.session import Session
from companion.web.fragments import public_html
from companion.web.side import TableSide
from companion.web.state import public_state
parts = lambda: sorted(m for m in sys.modules if m.startswith("companion.web.games."))
print(parts())
session = Session.in_memory()
session.new_game("course_hippique", ["Anna", "Bob", "Chloé"])
public_html(public_state(session))
print(parts())
"""
    run = subprocess.run([sys.executable, "-c", shown], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines() == ["[]", "['companion.web.games.course_hippique']"]
