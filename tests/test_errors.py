"""Refusals carry a reason code and a sentence that fits the 20x4 LCD."""

from __future__ import annotations

import pytest

from companion.games.errors import GameError, Refusal, display_lines, fits_display


def test_a_refusal_keeps_its_code_and_sentence() -> None:
    refusal = Refusal("barrage", "Barrage on square 12: no horse may pass.")
    assert refusal.code == "barrage"
    assert isinstance(refusal, GameError) and isinstance(refusal, ValueError)
    assert all(len(row) <= 20 for row in display_lines(refusal.sentence))


def test_a_sentence_that_overflows_the_lcd_is_a_bug() -> None:
    long = "This sentence is far too long to ever fit on four rows of a small twenty column LCD."
    assert not fits_display(long)
    with pytest.raises(ValueError, match="does not fit"):
        Refusal("too_long", long)
