"""The LED track on the Pico: frames over several strips, brightness, the horse-move animation."""

from __future__ import annotations

from typing import Any

import pytest

from companion.devices.fake_pico import RecordingStrip

RED, GREEN, BLUE, WHITE = 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF


@pytest.fixture
def strips() -> list[RecordingStrip]:
    return [RecordingStrip(6), RecordingStrip(4)]


@pytest.fixture
def track(fw: Any, strips: list[RecordingStrip]) -> Any:
    return fw.strip_anim.Track(strips, 255)


def shown(strips: list[RecordingStrip]) -> list[tuple[int, int, int]]:
    return [pixel for strip in strips for pixel in strip.shown]


def test_a_frame_runs_across_the_strips_in_order(track: Any, strips: list[Any]) -> None:
    track.paint(0, [[RED, 5], [GREEN, 2], [BLUE, 1]], True)
    assert track.count == 10
    assert shown(strips) == [(255, 0, 0)] * 5 + [(0, 255, 0)] * 2 + [(0, 0, 255)] + [(0, 0, 0)] * 2
    assert strips[1].writes == strips[0].writes == 1


def test_set_keeps_the_other_leds_and_leds_past_the_end_are_ignored(track: Any) -> None:
    track.paint(0, [[RED, 10]], True)
    track.paint(8, [[BLUE, 5]], False)
    assert [track.colour(i) for i in range(10)] == [RED] * 8 + [BLUE] * 2
    track.paint(0, [[GREEN, 1]], True)
    assert [track.colour(i) for i in range(10)] == [GREEN] + [0] * 9


def test_brightness_scales_what_is_shown_not_the_frame(track: Any, strips: list[Any]) -> None:
    track.paint(0, [[0xFF8001, 1], [0x010203, 1]], True)
    track.set_brightness(64)
    assert shown(strips)[:2] == [(64, 32, 1), (1, 1, 1)]
    assert track.colour(0) == 0xFF8001
    track.set_brightness(0)
    assert shown(strips)[:2] == [(0, 0, 0), (0, 0, 0)]
    track.set_brightness(255)
    assert shown(strips)[0] == (255, 128, 1)


def test_a_move_walks_one_led_per_step_then_shows_the_frame(track: Any, strips: list[Any]) -> None:
    track.paint(0, [[0, 7], [RED, 1]], True)
    track.start_move([4, 5, 6, 7], WHITE, 100, 1000)
    walk = []
    for now in range(1000, 1500, 10):
        if track.tick(now):
            lit = [i for i, p in enumerate(shown(strips)) if p == (255, 255, 255)]
            walk.append((now, lit))
    assert walk == [(1100, [5]), (1200, [6]), (1300, [7]), (1400, [])]
    assert shown(strips)[4] == (0, 0, 0) and shown(strips)[7] == (255, 0, 0)
    assert track.move is None and not track.tick(2000)


def test_a_new_frame_during_a_move_lets_the_move_finish_over_it(track: Any) -> None:
    track.start_move([1, 2, 3], WHITE, 50, 0)
    track.paint(0, [[BLUE, 10]], True)
    assert track.move is not None
    track.tick(60)
    assert track.outputs[0].shown[2] == (255, 255, 255)
    assert track.outputs[0].shown[1] == (0, 0, 255)


def test_clear_stops_a_move_and_a_new_move_replaces_the_old(track: Any, strips: list[Any]) -> None:
    track.start_move([1, 2, 3], WHITE, 50, 0)
    track.start_move([8, 9], GREEN, 50, 10)
    assert shown(strips)[8] == (0, 255, 0) and shown(strips)[1] == (0, 0, 0)
    track.clear()
    assert track.move is None
    assert shown(strips) == [(0, 0, 0)] * 10


def test_a_path_off_the_strip_lights_nothing_and_breaks_nothing(
    track: Any, strips: list[Any]
) -> None:
    track.start_move([9, 500, 1023], RED, 10, 0)
    track.tick(15)
    assert (255, 0, 0) not in shown(strips)
    track.tick(100)
    assert track.move is None
