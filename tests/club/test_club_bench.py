"""The bench subject `club`: a small evening with a broker restart loses and doubles nothing,
and a flooding table keeps no other waiting."""

from __future__ import annotations

import os

import pytest

from companion.benchmarks import club
from companion.club.broker import MOSQUITTO, BrokerMissing, _tool


def test_a_small_club_evening_reports_every_figure_and_no_loss() -> None:
    try:
        _tool(MOSQUITTO)
    except BrokerMissing:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("Mosquitto is not installed")
    figures = club.run(quick=False, tables=3, games_per_table=2, flood_s=1.5)
    assert figures["results"].value == 6
    assert figures["lost"].value == 0 and figures["stored twice"].value == 0
    assert 0 < figures["league peak memory"].value < 200
    assert figures["result to standings lag p50"].value > 0
    assert figures["flood: another table's result delayed"].value <= 2000
    assert 0 < figures["flood: league memory"].value <= 80
    assert figures["flood: results kept of the flood"].value <= 1000
