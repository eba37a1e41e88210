"""The buzzer as a player hears it: the right pitches, for the right time, never blocking."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.devices.base import Buzzer, Tone
from companion.devices.buzzer import TUNES, GpioBuzzer, MemoryBuzzer, tune_seconds
from companion.devices.scheduling import ManualScheduler, ThreadScheduler


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory(pin_class=MockPWMPin)
    yield mock
    mock.reset()


def heard(buzzer_pin: MockPWMPin, clock: ManualScheduler, seconds: float) -> list[float | None]:
    """Sample the pin every 10 ms: the pitch sounding, or None when silent."""
    samples: list[float | None] = []
    for _ in range(round(seconds / 0.01)):
        samples.append(buzzer_pin.frequency if buzzer_pin.state > 0 else None)
        clock.advance(0.01)
    return samples


def test_accepted_is_one_short_high_blip(factory: MockFactory) -> None:
    clock = ManualScheduler()
    buzzer = GpioBuzzer(18, pin_factory=factory, scheduler=clock)
    pin = factory.pin(18)
    buzzer.play(Tone.ACCEPTED)
    samples = heard(pin, clock, 0.2)
    assert samples[:6] == [2093] * 6
    assert samples[6:] == [None] * 14
    assert pin.state == 0


def test_refused_is_low_and_descending(factory: MockFactory) -> None:
    clock = ManualScheduler()
    buzzer = GpioBuzzer(18, pin_factory=factory, scheduler=clock)
    buzzer.play(Tone.REFUSED)
    samples = heard(factory.pin(18), clock, 0.5)
    pitches = [
        hz for i, hz in enumerate(samples) if hz is not None and (i == 0 or samples[i - 1] != hz)
    ]
    assert pitches == [392, 262]
    assert None in samples[12:16]  # the short gap between the two notes
    assert all(hz is None or hz < 500 for hz in samples)


def test_play_returns_at_once_and_the_tune_plays_on(factory: MockFactory) -> None:
    clock = ManualScheduler()
    buzzer = GpioBuzzer(18, pin_factory=factory, scheduler=clock)
    buzzer.play(Tone.FINISH)
    assert buzzer.playing and clock.pending == 1
    clock.advance(tune_seconds(Tone.FINISH) + 0.01)
    assert not buzzer.playing


def test_volume_sets_the_duty_cycle(factory: MockFactory) -> None:
    clock = ManualScheduler()
    buzzer = GpioBuzzer(18, pin_factory=factory, scheduler=clock, volume=0.5)
    buzzer.play(Tone.ACCEPTED)
    assert factory.pin(18).state == 0.25
    with pytest.raises(ValueError, match="volume"):
        GpioBuzzer(23, pin_factory=factory, volume=0)


def test_a_new_tone_cuts_the_one_playing() -> None:
    clock = ManualScheduler()
    buzzer = MemoryBuzzer(scheduler=clock)
    buzzer.play(Tone.JUMPY_JACK)
    clock.advance(0.05)
    buzzer.play(Tone.ACCEPTED)
    clock.run_all()
    assert buzzer.played == [Tone.JUMPY_JACK, Tone.ACCEPTED]
    assert buzzer.pitches == [1568, 2093, None]
    assert buzzer.hz is None


def test_every_tune_is_short_and_ends_in_silence() -> None:
    for tone in Tone:
        assert 0 < tune_seconds(tone) <= 1.0, tone
        clock = ManualScheduler()
        buzzer = MemoryBuzzer(scheduler=clock)
        buzzer.play(tone)
        clock.run_all()
        assert buzzer.pitches[-1] is None
        assert [hz for hz in buzzer.pitches[:-1]] == [note.hz for note in TUNES[tone]]


def test_the_tunes_sound_different() -> None:
    assert len({TUNES[tone] for tone in Tone}) == len(Tone)


def test_close_silences_and_releases_the_pin(factory: MockFactory) -> None:
    clock = ManualScheduler()
    buzzer = GpioBuzzer(18, pin_factory=factory, scheduler=clock)
    buzzer.play(Tone.FINISH)
    buzzer.close()
    assert factory.pin(18).state == 0
    clock.run_all()
    assert factory.pin(18).state == 0
    GpioBuzzer(18, pin_factory=factory).close()  # the pin is free again


def test_a_failure_while_a_tune_plays_is_raised_by_the_next_play() -> None:
    class Broken(MemoryBuzzer):
        fail = False

        def _sound(self, hz: float | None) -> None:
            if self.fail:
                raise OSError(5, "Input/output error")
            super()._sound(hz)

    clock = ManualScheduler()
    buzzer = Broken(scheduler=clock)
    buzzer.play(Tone.FINISH)
    buzzer.fail = True
    clock.advance(0.1)
    assert not buzzer.playing
    buzzer.fail = False
    with pytest.raises(OSError):
        buzzer.play(Tone.ACCEPTED)
    buzzer.play(Tone.ACCEPTED)
    assert buzzer.hz == 2093


def test_buzzers_are_buzzers(factory: MockFactory) -> None:
    buzzers: list[Buzzer] = [MemoryBuzzer(), GpioBuzzer(18, pin_factory=factory)]
    assert len(buzzers) == 2


def test_the_manual_clock_runs_actions_in_time_order() -> None:
    clock = ManualScheduler()
    ran: list[str] = []
    clock.call_later(0.3, lambda: ran.append("c"))
    clock.call_later(0.1, lambda: ran.append("a"))
    clock.call_later(0.1, lambda: clock.call_later(0.1, lambda: ran.append("b")))
    assert clock.advance(0.25) == 3
    assert ran == ["a", "b"] and clock.now() == 0.25
    clock.run_all()
    assert ran == ["a", "b", "c"] and clock.now() == pytest.approx(0.3)


def test_the_thread_scheduler_runs_actions_without_blocking_the_caller() -> None:
    gate, done = threading.Event(), threading.Event()

    def action() -> None:
        gate.wait(10.0)
        done.set()

    ThreadScheduler().call_later(0.0, action)
    # The caller is back while the action still waits at the gate: it runs on another thread.
    assert not done.is_set()
    gate.set()
    assert done.wait(10.0)


def test_the_timer_thread_runs_actions_in_the_order_they_fall_due() -> None:
    ran: list[str] = []
    now_ran = threading.Event()
    done = threading.Event()
    timer = ThreadScheduler()
    running = threading.Event()
    timer.call_later(0.0, running.set)
    assert running.wait(10.0)  # the timer thread is up: next it waits for the late action
    timer.call_later(0.6, lambda: (ran.append("late"), done.set()))
    timer.call_later(0.0, lambda: (ran.append("now"), now_ran.set()))  # wakes the timer
    timer.call_later(0.3, lambda: ran.append("middle"))  # behind the first: nothing to wake
    assert now_ran.wait(0.3), "the timer slept past an action queued before the one it awaited"
    assert done.wait(10.0)
    assert ran == ["now", "middle", "late"]


def test_a_tune_plays_to_the_end_on_real_timers() -> None:
    buzzer = MemoryBuzzer()
    buzzer.play(Tone.ACCEPTED)
    deadline = time.monotonic() + 2.0
    while buzzer.playing and time.monotonic() < deadline:
        time.sleep(0.005)
    assert buzzer.pitches == [2093, None]
