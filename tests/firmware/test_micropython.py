"""The firmware on real MicroPython (the unix port): a legal press lights its answer from the
prepared buffer, is reported once, and its path is short enough for an RP2040."""

from __future__ import annotations

import statistics

import pytest

from companion.benchmarks import _pico_press as pico
from companion.devices.pico_protocol import Codec

pytestmark = pytest.mark.skipif(
    pico.micropython() is None, reason="MicroPython's unix port is not installed"
)


def grb(frame: list[tuple[int, int, int]], level: int) -> bytes:
    """What MicroPython's neopixel holds for ``frame`` at brightness ``level``."""

    def scale(channel: int) -> int:
        return 0 if channel == 0 else max(1, (channel * level + 127) // 255)

    return b"".join(bytes((scale(g), scale(r), scale(b))) for r, g, b in frame)


def test_a_legal_press_lights_its_answer_and_is_reported_on_micropython() -> None:
    run = pico.run_presses(5, leds=100, brightness=64)
    _frame, answer, path, colour = pico.race_frames(100)
    walking = list(answer)
    walking[path[0]] = colour
    assert run.lit == grb(walking, 64), "the answer with its walk's first step"
    message = Codec(side="pi").decode(run.said.strip().encode())
    assert (message.name, message.fields) == ("ANSWERED", {"hand": 1, "name": "horse1"})


def test_the_answer_is_lit_within_5_ms_on_an_rp2040() -> None:
    model = pico.model(21)
    assert statistics.median(model.path_ms) < 1.0, "the firmware's own path, on an RP2040"
    assert model.median <= 5.0, f"press to lit strip {model.median:.2f} ms with the wire"
