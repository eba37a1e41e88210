"""Whole games through the real daemon: buttons and card scans only, a power cut mid-race.

Each registered game is played twice by the script it brings (``tests/e2e/scripts.py``):
once without interruption, once with the daemon killed (SIGKILL) in the middle of a race and
started again on the same journal. The script decides only from what the companion shows, so
both runs must end the same way.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.registry import KINDS
from tests.e2e.scripts import Script, Start, script_of

GAMES = [pytest.param(kind, marks=pytest.mark.slow(script_of(kind).SLOW)) for kind in KINDS]


@pytest.mark.parametrize("kind", GAMES)
def test_a_whole_game_survives_a_power_cut_mid_race(daemon: Start, kind: str) -> None:
    game = script_of(kind)
    straight = game.play(Script(daemon, None), game.SEED)
    cut = Script(daemon, game.CUT)
    again: dict[str, Any] = game.play(cut, game.SEED)
    assert cut.killed
    assert again["view"]["winners"] == straight["view"]["winners"]
    for key in game.SAME:
        assert again["view"]["board"][key] == straight["view"]["board"][key], key
    assert again["lcd"] == straight["lcd"]
