"""The control panel as a player feels it: presses, rolls, turns and the undo hold, on mock pins."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices import gpio
from companion.devices.base import (
    ButtonHeld,
    ButtonPressed,
    DieIgnored,
    DieRolled,
    EncoderTurned,
    Event,
)
from companion.devices.config import default_config, parse_config
from companion.devices.gpio import (
    ControlPanel,
    Debouncer,
    Die,
    Encoder,
    GpioUnavailable,
    HorseButtons,
    PushButton,
    QuadratureDecoder,
    UndoButton,
)
from companion.devices.scheduling import ManualScheduler

DEBOUNCE = 0.030


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory()
    Device.pin_factory = mock
    yield mock
    mock.reset()
    Device.pin_factory = None


@pytest.fixture
def clock() -> ManualScheduler:
    return ManualScheduler()


class Sink(list[Event]):
    """Collects what a device reports, in order."""

    def __call__(self, event: Event) -> None:
        self.append(event)


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


def tap(factory: MockFactory, clock: ManualScheduler, pin: int, hold: float = 0.1) -> None:
    """A clean press held ``hold`` seconds, then a clean release left to settle."""
    press(factory, pin)
    clock.advance(hold)
    release(factory, pin)
    clock.advance(0.1)


def bounce(factory: MockFactory, clock: ManualScheduler, pin: int, low_last: bool) -> None:
    """A contact that chatters for 6 ms, then rests low (pressed) or high."""
    for step in range(7):
        if step % 2 == 0:
            press(factory, pin)
        else:
            release(factory, pin)
        clock.advance(0.001)
    if low_last:
        press(factory, pin)
    else:
        release(factory, pin)


# --- the die ---


def test_a_press_gives_exactly_one_roll_from_1_to_6(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    die = Die(17, roll_ms=600, scheduler=clock)
    die.start(sink)
    press(factory, 17)
    clock.advance(DEBOUNCE)
    assert sink == [ButtonPressed("die")]
    clock.advance(0.599)
    assert sink == [ButtonPressed("die")], "the face shows only when the roll settles"
    clock.advance(0.002)
    release(factory, 17)
    clock.advance(5.0)
    assert len(sink) == 2
    rolled = sink[1]
    assert isinstance(rolled, DieRolled) and 1 <= rolled.value <= 6


def test_the_face_is_drawn_from_the_operating_system_s_randomness(
    factory: MockFactory, clock: ManualScheduler, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []

    def randbelow(n: int) -> int:
        drawn.append(n)
        return 4

    monkeypatch.setattr(secrets, "randbelow", randbelow)
    sink = Sink()
    Die(17, scheduler=clock).start(sink)
    tap(factory, clock, 17)
    clock.advance(1.0)
    assert drawn == [6]
    assert sink[-1] == DieRolled(5)


def test_every_face_comes_up_over_many_rolls(factory: MockFactory, clock: ManualScheduler) -> None:
    sink = Sink()
    Die(17, roll_ms=100, scheduler=clock).start(sink)
    for _ in range(300):
        tap(factory, clock, 17, hold=0.05)
        clock.advance(0.1)
    faces = [e.value for e in sink if isinstance(e, DieRolled)]
    assert len(faces) == 300
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_a_bouncing_contact_gives_one_press_and_one_roll(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    Die(17, scheduler=clock).start(sink)
    bounce(factory, clock, 17, low_last=True)
    clock.advance(0.3)
    bounce(factory, clock, 17, low_last=False)
    clock.advance(2.0)
    assert [type(e) for e in sink] == [ButtonPressed, DieRolled]


def test_a_glitch_shorter_than_the_debounce_is_no_press(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    Die(17, scheduler=clock).start(sink)
    press(factory, 17)
    clock.advance(0.005)
    release(factory, 17)
    clock.advance(2.0)
    assert sink == []


def test_a_press_while_the_roll_is_pending_is_ignored_and_said_so(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    die = Die(17, roll_ms=600, scheduler=clock)
    die.start(sink)
    tap(factory, clock, 17, hold=0.1)
    assert die.rolling
    tap(factory, clock, 17, hold=0.1)
    clock.advance(1.0)
    assert [type(e) for e in sink] == [ButtonPressed, DieIgnored, DieRolled]
    assert not die.rolling
    tap(factory, clock, 17)
    clock.advance(1.0)
    assert [type(e) for e in sink].count(DieRolled) == 2


def test_a_roll_of_0_ms_gives_the_face_with_the_press(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    Die(17, roll_ms=0, scheduler=clock).start(sink)
    press(factory, 17)
    clock.advance(DEBOUNCE)
    assert [type(e) for e in sink] == [ButtonPressed, DieRolled]


def test_nothing_is_reported_before_start_or_after_close(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    die = Die(17, scheduler=clock)
    tap(factory, clock, 17)
    clock.advance(1.0)
    die.start(sink)
    press(factory, 17)
    clock.advance(DEBOUNCE)
    die.close()
    clock.advance(1.0)
    assert sink == [ButtonPressed("die")], "the pending roll dies with the device"
    again = Die(17, scheduler=clock)  # the pin was released
    again.close()


# --- buttons ---


def test_each_horse_button_names_its_horse(factory: MockFactory, clock: ManualScheduler) -> None:
    sink = Sink()
    buttons = HorseButtons([5, 6, 13, 19], scheduler=clock)
    buttons.start(sink)
    for pin in (13, 5, 19, 6):
        tap(factory, clock, pin)
    assert sink == [ButtonPressed(f"horse{n}") for n in (3, 1, 4, 2)]
    assert not buttons.is_pressed("horse1")


def test_holding_a_button_is_one_press(factory: MockFactory, clock: ManualScheduler) -> None:
    sink = Sink()
    PushButton(27, scheduler=clock).start(sink)
    press(factory, 27)
    clock.advance(10.0)
    release(factory, 27)
    clock.advance(1.0)
    assert sink == [ButtonPressed("push")]


def test_a_button_held_at_start_up_is_no_press(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    press(factory, 27)
    sink = Sink()
    PushButton(27, scheduler=clock).start(sink)
    clock.advance(1.0)
    release(factory, 27)
    clock.advance(1.0)
    assert sink == []
    tap(factory, clock, 27)
    assert sink == [ButtonPressed("push")]


# --- the undo button ---


def test_holding_undo_half_a_second_does_nothing(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    UndoButton(24, hold_s=1.0, scheduler=clock).start(sink)
    tap(factory, clock, 24, hold=0.5)
    tap(factory, clock, 24, hold=0.95)
    clock.advance(5.0)
    assert sink == []


def test_holding_undo_one_second_undoes_once(factory: MockFactory, clock: ManualScheduler) -> None:
    sink = Sink()
    UndoButton(24, hold_s=1.0, scheduler=clock).start(sink)
    press(factory, 24)
    clock.advance(1.0)
    assert sink == [ButtonHeld("undo")], "the undo comes while the button is still held"
    clock.advance(4.0)
    release(factory, 24)
    clock.advance(1.0)
    assert sink == [ButtonHeld("undo")], "holding on does not undo again"
    tap(factory, clock, 24, hold=1.2)
    assert sink == [ButtonHeld("undo")] * 2


def test_a_chattering_brush_of_undo_never_undoes(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    UndoButton(24, hold_s=1.0, scheduler=clock).start(sink)
    for _ in range(5):
        bounce(factory, clock, 24, low_last=True)
        clock.advance(0.4)
        bounce(factory, clock, 24, low_last=False)
        clock.advance(0.2)
    clock.advance(3.0)
    assert sink == []


def test_a_long_push_of_the_knob_is_a_push_then_one_hold(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    PushButton(27, hold_s=1.0, scheduler=clock).start(sink)
    tap(factory, clock, 27, hold=0.5)  # a short push is a push, nothing more
    clock.advance(2.0)
    assert sink == [ButtonPressed("push")]
    press(factory, 27)
    clock.advance(0.1)
    assert sink == [ButtonPressed("push")] * 2, "the push comes at once, as ever"
    clock.advance(0.9)
    assert sink == [ButtonPressed("push")] * 2 + [ButtonHeld("push")]
    clock.advance(3.0)
    release(factory, 27)
    clock.advance(1.0)
    assert sink == [ButtonPressed("push")] * 2 + [ButtonHeld("push")], "held on: one hold"


# --- the encoder ---

A, B = 22, 23


def turn(factory: MockFactory, detents: int, chatter: bool = False) -> None:
    """Turn the KY-040 by whole detents (positive = clockwise: A falls first)."""
    first, second = (A, B) if detents > 0 else (B, A)
    for _ in range(abs(detents)):
        factory.pin(first).drive_low()
        if chatter:
            factory.pin(first).drive_high()
            factory.pin(first).drive_low()
        factory.pin(second).drive_low()
        factory.pin(first).drive_high()
        if chatter:
            factory.pin(first).drive_low()
            factory.pin(first).drive_high()
        factory.pin(second).drive_high()


def test_each_detent_clockwise_is_one_step_up(factory: MockFactory) -> None:
    sink = Sink()
    Encoder(A, B).start(sink)
    turn(factory, 3)
    assert sink == [EncoderTurned(1)] * 3
    turn(factory, -2)
    assert sink[3:] == [EncoderTurned(-1)] * 2


def test_a_chattering_contact_does_not_add_steps(factory: MockFactory) -> None:
    sink = Sink()
    Encoder(A, B).start(sink)
    turn(factory, 4, chatter=True)
    turn(factory, -1, chatter=True)
    assert sink == [EncoderTurned(1)] * 4 + [EncoderTurned(-1)]


def test_half_a_detent_and_back_is_no_step(factory: MockFactory) -> None:
    sink = Sink()
    Encoder(A, B).start(sink)
    factory.pin(A).drive_low()
    factory.pin(B).drive_low()
    factory.pin(B).drive_high()
    factory.pin(A).drive_high()
    assert sink == []


def test_swapping_a_and_b_reverses_the_direction(factory: MockFactory) -> None:
    sink = Sink()
    Encoder(B, A).start(sink)
    turn(factory, 2)
    assert sink == [EncoderTurned(-1)] * 2


CLOCKWISE = [(True, True), (False, True), (False, False), (True, False)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([1, -1]), max_size=30), st.data())
def test_the_decoder_counts_every_detent_through_any_chatter(
    moves: list[int], data: st.DataObject
) -> None:
    decoder = QuadratureDecoder(4)
    total, index = 0, 0
    for move in moves:
        for _ in range(4):
            previous = CLOCKWISE[index % 4]
            index += move
            state = CLOCKWISE[index % 4]
            for _ in range(data.draw(st.integers(0, 2))):  # chatter back and forth
                total += decoder.update(*state)
                total += decoder.update(*previous)
            total += decoder.update(*state)
    assert total == sum(moves)


def test_encoders_with_two_steps_a_detent_count_each_half_cycle() -> None:
    decoder = QuadratureDecoder(2)
    seen = [decoder.update(*state) for state in CLOCKWISE[1:] + CLOCKWISE[:1]]
    assert seen == [0, 1, 0, 1]


# --- the debouncer on its own ---


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(0.0001, 0.0299), min_size=1, max_size=20),
    st.booleans(),
)
def test_a_burst_of_chatter_is_at_most_one_change(gaps: list[float], start_high: bool) -> None:
    clock = ManualScheduler()
    changes: list[tuple[float, bool]] = []
    debouncer = Debouncer(DEBOUNCE, clock, lambda level: changes.append((clock.now(), level)))
    debouncer.level = start_high
    level = start_high
    for gap in gaps:
        level = not level
        debouncer.feed(level)
        clock.advance(gap)
    last_edge = clock.now() - gaps[-1]
    clock.advance(1.0)
    if level == start_high:
        assert changes == []
    else:
        assert [c[1] for c in changes] == [level]
        assert changes[0][0] <= last_edge + 2 * DEBOUNCE + 1e-9


def test_a_debounce_window_of_0_reports_every_change() -> None:
    seen: list[bool] = []
    debouncer = Debouncer(0, ManualScheduler(), seen.append)
    for level in (True, False, True):
        debouncer.feed(level)
    assert seen == [True, False, True]


# --- the panel from the configuration, and pin factories ---


def test_the_default_build_panel_reports_every_control(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    panel = ControlPanel.from_config(default_config(), pin_factory=factory, scheduler=clock)
    panel.start(sink)
    for pin in (5, 6, 13, 19, 26, 27):
        tap(factory, clock, pin)
    tap(factory, clock, 17)
    clock.advance(1.0)
    turn(factory, 1)
    press(factory, 24)
    clock.advance(1.5)
    assert sink[:6] == [ButtonPressed(f"horse{n}") for n in range(1, 6)] + [ButtonPressed("push")]
    assert sink[6] == ButtonPressed("die") and isinstance(sink[7], DieRolled)
    assert sink[8:] == [EncoderTurned(1), ButtonHeld("undo")]
    panel.close()
    again = ControlPanel.from_config(default_config(), pin_factory=factory, scheduler=clock)
    again.close()


def test_a_panel_that_cannot_claim_a_pin_releases_the_others(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    blocker = PushButton(24, scheduler=clock)
    config = parse_config("[die]\n[horse_buttons]\n[undo]\n", "x.toml")
    with pytest.raises(Exception, match="24"):
        ControlPanel.from_config(config, pin_factory=factory, scheduler=clock)
    blocker.close()
    ControlPanel.from_config(config, pin_factory=factory, scheduler=clock).close()


def test_the_panel_uses_the_configured_factory_when_none_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    config = parse_config('[gpio]\npin_factory = "mock"\n[die]\n', "x.toml")
    panel = ControlPanel.from_config(config, scheduler=ManualScheduler())
    try:
        assert isinstance(Device.pin_factory, MockFactory)
        assert len(panel.devices) == 1
    finally:
        panel.close()
        Device.pin_factory.reset()


def test_pin_factories_are_chosen_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    assert isinstance(gpio.make_pin_factory("mock"), MockFactory)
    chosen = gpio.use_pin_factory("mock")
    assert Device.pin_factory is chosen
    with pytest.raises(ValueError, match="unknown pin factory"):
        gpio.make_pin_factory("pigpio")


@pytest.mark.parametrize(("name", "hint"), [("lgpio", "python3-lgpio"), ("rpigpio", "rpi-lgpio")])
def test_a_missing_gpio_library_says_what_to_install(name: str, hint: str) -> None:
    pytest.importorskip("gpiozero")
    try:
        factory = gpio.make_pin_factory(name)
    except GpioUnavailable as error:
        assert name in str(error)
        if "missing" in str(error):
            assert hint in str(error)
    else:  # pragma: no cover - only on a real Pi
        factory.close()


def test_a_panel_without_gpio_inputs_loads_no_pin_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    config = parse_config('[gpio]\npin_factory = "lgpio"\n[lcd]\n', "x.toml")
    panel = ControlPanel.from_config(config)
    assert panel.devices == ()
    assert Device.pin_factory is None


def test_a_manual_die_button_is_a_key_that_rolls_nothing(
    factory: MockFactory, clock: ManualScheduler
) -> None:
    sink = Sink()
    config = parse_config('[die]\nmode = "manual"\n', "manual.toml")
    panel = ControlPanel.from_config(config, pin_factory=factory, scheduler=clock)
    panel.start(sink)
    tap(factory, clock, 17)
    tap(factory, clock, 17)  # a second press is a second key, not an ignored roll
    clock.advance(2.0)
    assert sink == [ButtonPressed("die"), ButtonPressed("die")]
    panel.close()
