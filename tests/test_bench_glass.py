"""The press-to-glass bench's models: the SD card's flush, and the strip kept ahead of it."""

from __future__ import annotations

import statistics

import pytest

from companion.benchmarks import _sd_card, glass
from companion.benchmarks._sd_card import SdCard


def test_the_sd_card_model_fits_the_cited_flushes() -> None:
    card = SdCard(seed=3)
    flushes = sorted(card.flush_s() * 1000 for _ in range(20_000))
    assert flushes[0] >= 0.758, "never faster than the fastest flush measured"
    assert flushes[len(flushes) // 5] == pytest.approx(0.807, abs=0.02), "the 20th percentile"
    assert statistics.mean(flushes) == pytest.approx(1.298, rel=0.08), "the measured mean"
    assert _sd_card.mean_ms() == pytest.approx(1.33, abs=0.01)


def test_a_legal_horse_press_lights_the_strip_before_the_sd_card_has_flushed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow = 0.15
    monkeypatch.setattr(SdCard, "flush_s", lambda self: slow)
    samples = glass.Samples()
    rig = glass.build(glass.wired(100_000, 400_000, True))
    try:
        glass.measure_game(rig, "jumpy_jack", 6, samples, seed=1)
    finally:
        rig.close()
    lit = samples.by["horse leds"]
    assert lit and max(lit) < slow, "each move's strip was lit while its commit was flushing"
    assert samples.steps["horse leds"], "each lit strip was traced"
