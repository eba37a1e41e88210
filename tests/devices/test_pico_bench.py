"""`companion bench --only pico` reports its figures, and they show why moves run on the Pico.

The speeds are this machine's at this moment (a busy machine measures less), so the test checks
that they are measured and reported, not how high they are; the sizes are the protocol's own
and are checked exactly.
"""

from __future__ import annotations

import math

from companion.benchmarks import pico


def test_the_pico_bench_reports_sizes_speeds_and_round_trips() -> None:
    figures = pico.run(quick=True)
    worst = figures["100-LED frame, every LED different"]
    typical = figures["100-LED frame, five horses on a dark track"]
    move = figures["one-horse move of 6 squares (FRAME + MOVE)"]
    streamed = figures["same move sent as 6 frames instead"]
    assert worst.unit == "bytes" and typical.value < worst.value <= 1025
    assert move.value < streamed.value / 2
    speeds = {
        "frames encoded, 100 LEDs all different": "frames/s",
        "frames encoded, five horses": "frames/s",
        "acknowledged 100-LED frames, fake Pico": "frames/s",
        "PING round trip to the fake Pico (median)": "ms",
    }
    for label, unit in speeds.items():
        figure = figures[label]
        assert figure.unit == unit and figure.value > 0 and math.isfinite(figure.value), label
    link_idle = figures["link idle CPU (one core)"]
    assert link_idle.unit == "%" and 0 <= link_idle.value < 100
    assert "fake Pico idle CPU (one core, simulator only)" in figures
