"""Simulated presses reach the real control-panel classes as a player's presses would."""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.base import (
    ButtonHeld,
    ButtonPressed,
    DieRolled,
    EncoderTurned,
    Event,
)
from companion.devices.config import default_config
from companion.devices.gpio import ControlPanel
from companion.devices.simulated import SimulatedControls


@pytest.fixture
def rig() -> Iterator[tuple[SimulatedControls, queue.Queue[Event]]]:
    config = default_config()
    assert config.die is not None and config.undo is not None
    config = dataclasses.replace(
        config,
        die=dataclasses.replace(config.die, roll_ms=50),
        undo=dataclasses.replace(config.undo, hold_s=0.2),
    )
    factory = MockFactory()
    controls = SimulatedControls(config, factory)
    panel = ControlPanel.from_config(config, pin_factory=factory, roll=controls.roll)
    controls.watch(panel.is_down)
    events: queue.Queue[Event] = queue.Queue()
    panel.start(events.put)
    yield controls, events
    panel.close()
    factory.reset()


def next_event(events: queue.Queue[Event]) -> Event:
    return events.get(timeout=2)


def test_a_die_press_rolls_once(rig: tuple[SimulatedControls, queue.Queue[Event]]) -> None:
    controls, events = rig
    controls.press("die")
    assert next_event(events) == ButtonPressed("die")
    rolled = next_event(events)
    assert isinstance(rolled, DieRolled) and 1 <= rolled.value <= 6


def test_horse_buttons_and_push_are_named(
    rig: tuple[SimulatedControls, queue.Queue[Event]],
) -> None:
    controls, events = rig
    controls.press("horse3")
    assert next_event(events) == ButtonPressed("horse3")
    controls.press("push")
    assert next_event(events) == ButtonPressed("push")


def test_the_encoder_turns_both_ways(rig: tuple[SimulatedControls, queue.Queue[Event]]) -> None:
    controls, events = rig
    controls.turn(2)
    controls.turn(-1)
    turns = [next_event(events) for _ in range(3)]
    assert turns == [EncoderTurned(1), EncoderTurned(1), EncoderTurned(-1)]


def test_holding_undo_confirms_and_a_touch_does_not(
    rig: tuple[SimulatedControls, queue.Queue[Event]],
) -> None:
    controls, events = rig
    controls.press("undo")
    with pytest.raises(queue.Empty):
        events.get(timeout=0.4)
    controls.hold("undo")
    assert next_event(events) == ButtonHeld("undo")


def test_an_unknown_button_is_refused(rig: tuple[SimulatedControls, queue.Queue[Event]]) -> None:
    controls, _ = rig
    with pytest.raises(KeyError, match="horse9"):
        controls.press("horse9")


def test_a_loaded_die_lands_on_the_faces_given_in_order(
    rig: tuple[SimulatedControls, queue.Queue[Event]],
) -> None:
    controls, events = rig
    controls.load_die(6)
    controls.load_die(2)
    faces = []
    for _ in range(2):
        controls.press("die")
        assert next_event(events) == ButtonPressed("die")
        rolled = next_event(events)
        assert isinstance(rolled, DieRolled)
        faces.append(rolled.value)
        time.sleep(0.15)  # the contact opens before the next press
    assert faces == [6, 2]
    with pytest.raises(ValueError, match=r"1\.\.6"):
        controls.load_die(7)


def test_pressing_again_before_the_release_is_never_lost(
    rig: tuple[SimulatedControls, queue.Queue[Event]],
) -> None:
    controls, events = rig
    for _ in range(3):
        controls.press("horse2", seconds=0.1)
    presses = [next_event(events) for _ in range(3)]
    assert presses == [ButtonPressed("horse2")] * 3


class LateScheduler:
    """A scheduler on a machine so busy that every timer fires well after its time."""

    def __init__(self, late_s: float) -> None:
        self.late_s = late_s

    def call_later(self, delay_s: float, action: Callable[[], None]) -> None:
        timer = threading.Timer(delay_s + self.late_s, action)
        timer.daemon = True
        timer.start()


def test_presses_are_seen_when_the_debouncer_runs_late() -> None:
    # The debouncer's timers fire 0.2 s late, longer than a whole simulated press: the
    # simulated finger keeps each button down until the panel has seen it, then lets go.
    config = default_config()
    factory = MockFactory()
    controls = SimulatedControls(config, factory)
    panel = ControlPanel.from_config(config, pin_factory=factory, scheduler=LateScheduler(0.2))
    controls.watch(panel.is_down)
    events: queue.Queue[Event] = queue.Queue()
    panel.start(events.put)
    try:
        for _ in range(3):
            controls.press("horse1")
        presses = [next_event(events) for _ in range(3)]
        assert presses == [ButtonPressed("horse1")] * 3
    finally:
        panel.close()
        factory.reset()
