"""`companion bench --only jumpy_jack` reports its figures (it measures; it never fails)."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_the_jumpy_jack_bench_reports_races_per_second_and_move_listing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--quick", "--json", "--only", "jumpy_jack"]) == 0
    figures = json.loads(capsys.readouterr().out)["jumpy_jack"]
    assert figures["random races, one core"]["unit"] == "races/s"
    assert figures["random races, one core"]["value"] > 0
    assert figures["legal moves for one die value"]["unit"] == "µs/call"
    assert all(f["value"] > 0 for f in figures.values())
