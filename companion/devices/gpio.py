"""The control panel's GPIO inputs: the die, horse, push and undo buttons and the encoder.

Every button is wired to GND with the Pi's pull-up (pressed = low) and debounced here, in
software, so that it behaves the same on every gpiozero backend (``bounce_time`` does
nothing on mock pins and differs between lgpio and RPi.GPIO). Timers run on an injected
scheduler (see :mod:`companion.devices.scheduling`), so tests never sleep.
"""

from __future__ import annotations

import functools
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from companion.devices.base import (
    PUSH_HOLD_S,
    ButtonHeld,
    ButtonPressed,
    DieIgnored,
    DieRolled,
    EncoderTurned,
    Event,
    EventSink,
    InputDevice,
)
from companion.devices.scheduling import Scheduler, ThreadScheduler

if TYPE_CHECKING:
    from companion.devices.config import Config

#: A gpiozero pin factory (gpiozero ships no type hints).
PinFactory = Any


class GpioUnavailable(RuntimeError):
    """The chosen pin factory cannot drive the GPIO here (library missing, not a Pi...)."""


_FACTORY_HINTS = {
    "lgpio": "on the Pi: sudo apt install python3-lgpio (or pip install 'companion[pi]')",
    "rpigpio": "pip install 'companion[rpigpio]' (the rpi-lgpio shim); never on a Pi 5",
}


def make_pin_factory(name: str) -> PinFactory:
    """Return a new gpiozero pin factory: "lgpio", "rpigpio" or "mock".

    The hardware library is imported here, only for the factory asked for. Raises
    GpioUnavailable (with what to install) when it cannot be loaded or cannot open the
    GPIO, and ValueError for an unknown name.
    """
    if name == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)  # PWM too: the buzzer needs it
    if name not in _FACTORY_HINTS:
        raise ValueError(f"unknown pin factory {name!r}: use lgpio, rpigpio or mock")
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    except ImportError as error:
        raise GpioUnavailable(
            f"the {name} pin factory needs a library that is missing ({error}): "
            f"{_FACTORY_HINTS[name]}"
        ) from error
    except Exception as error:  # each backend raises its own errors off a Pi
        raise GpioUnavailable(f"the {name} pin factory cannot open the GPIO: {error}") from error


def use_pin_factory(name: str) -> PinFactory:
    """Make a pin factory gpiozero's default for every device (``Device.pin_factory``).

    Raises what :func:`make_pin_factory` raises.
    """
    from gpiozero import Device

    factory = make_pin_factory(name)
    Device.pin_factory = factory
    return factory


def roll_die() -> int:
    """Draw a die face, 1..6, from the operating system's randomness."""
    return secrets.randbelow(6) + 1


class Debouncer:
    """Turn a contact's raw levels into clean changes: a level counts once it holds still.

    Each raw level is fed as it is seen; the steady level changes (and ``on_change`` is
    called) only when no other edge came for a whole ``window_s``. A press of a bouncing
    contact is reported once, between one and two windows after it settled; a glitch
    shorter than the window is never reported. A window of 0 reports every change at once.
    """

    def __init__(
        self,
        window_s: float,
        scheduler: Scheduler,
        on_change: Callable[[bool], None],
        *,
        initial: bool = False,
        lock: threading.RLock | None = None,
    ) -> None:
        self.window_s = window_s
        self.level = initial
        self._raw = initial
        self._scheduler = scheduler
        self._on_change = on_change
        self._lock = lock or threading.RLock()
        self._edges = 0
        self._waiting = False

    def feed(self, level: bool) -> None:
        """Record the contact's level as just seen (any thread)."""
        with self._lock:
            self._raw = level
            self._edges += 1
            if self.window_s <= 0:
                self._accept()
            elif not self._waiting:
                self._wait()

    def _wait(self) -> None:
        self._waiting = True
        edges = self._edges
        self._scheduler.call_later(self.window_s, lambda: self._settle(edges))

    def _settle(self, edges: int) -> None:
        with self._lock:
            self._waiting = False
            if edges != self._edges:
                self._wait()
            else:
                self._accept()

    def _accept(self) -> None:
        if self._raw != self.level:
            self.level = self._raw
            self._on_change(self.level)


#: Encoder (previous, new) state, with state = A << 1 | B, → +1 clockwise / -1 anticlockwise.
_QUADRATURE_STEP: Mapping[tuple[int, int], int] = {
    (3, 1): 1, (1, 0): 1, (0, 2): 1, (2, 3): 1,
    (1, 3): -1, (0, 1): -1, (2, 0): -1, (3, 2): -1,
}  # fmt: skip
#: The states an encoder rests in at a detent, by steps per detent (both lines high = 3).
_DETENT_STATES: Mapping[int, frozenset[int]] = {
    1: frozenset({0, 1, 2, 3}),
    2: frozenset({0, 3}),
    4: frozenset({3}),
}


class QuadratureDecoder:
    """Count the detents of a rotary encoder from the levels of its A (CLK) and B (DT) lines.

    A turn clockwise (A falls before B) counts +1 per detent, anticlockwise -1. Transitions
    that skip a state are ignored, and contact bounce cancels itself (+1 then -1), so no
    debouncing is needed. ``steps_per_detent`` is 4 for a KY-040 (one full cycle a click).
    """

    def __init__(self, steps_per_detent: int = 4, a: bool = True, b: bool = True) -> None:
        if steps_per_detent not in _DETENT_STATES:
            raise ValueError(f"steps per detent must be 1, 2 or 4, not {steps_per_detent}")
        self.steps_per_detent = steps_per_detent
        self._state = int(a) << 1 | int(b)
        self._count = 0

    def update(self, a: bool, b: bool) -> int:
        """Take the lines' levels after an edge; return the detents completed (usually 0)."""
        state = int(a) << 1 | int(b)
        if state == self._state:
            return 0
        self._count += _QUADRATURE_STEP.get((self._state, state), 0)
        self._state = state
        if state not in _DETENT_STATES[self.steps_per_detent]:
            return 0
        count, self._count = self._count, 0
        half = self.steps_per_detent // 2
        steps = (abs(count) + half) // self.steps_per_detent
        return steps if count > 0 else -steps


class _Line:
    """One GPIO input with the Pi's pull-up: active (pressed) when pulled to GND."""

    def __init__(self, pin: int, pin_factory: PinFactory) -> None:
        from gpiozero import DigitalInputDevice

        self.pin = pin
        self.device = DigitalInputDevice(
            pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
        )

    @property
    def active(self) -> bool:
        return bool(self.device.is_active)

    def listen(self, on_level: Callable[[bool], None]) -> None:
        """Call ``on_level(active)`` on every edge, from the backend's thread."""
        self.device.when_activated = lambda: on_level(True)
        self.device.when_deactivated = lambda: on_level(False)

    def close(self) -> None:
        self.device.when_activated = None
        self.device.when_deactivated = None
        self.device.close()


class _GpioDevice:
    """What every GPIO input shares: a sink once started, a lock, its lines, clean closing."""

    def __init__(self, scheduler: Scheduler | None) -> None:
        self._lock = threading.RLock()
        self._sink: EventSink | None = None
        self._closed = False
        self._lines: list[_Line] = []
        self._scheduler: Scheduler = scheduler if scheduler is not None else ThreadScheduler()

    def _open(self, pins: Sequence[int], pin_factory: PinFactory) -> list[_Line]:
        """Claim every pin, releasing those already claimed if one fails."""
        try:
            for pin in pins:
                self._lines.append(_Line(pin, pin_factory))
        except Exception:
            self.close()
            raise
        return list(self._lines)

    def start(self, sink: EventSink) -> None:
        """Begin delivering events to ``sink``; presses before this are not reported."""
        with self._lock:
            self._sink = sink

    def _emit(self, event: Event) -> None:
        if self._sink is not None and not self._closed:
            self._sink(event)

    def close(self) -> None:
        """Stop reporting and release the pins (safe to call twice)."""
        with self._lock:
            self._closed = True
            self._sink = None
            lines, self._lines = self._lines, []
        for line in lines:
            line.close()


class _Buttons(_GpioDevice):
    """Named buttons, each debounced; subclasses say what a press and a release mean."""

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        debounce_ms: int,
        scheduler: Scheduler | None,
        pin_factory: PinFactory,
    ) -> None:
        super().__init__(scheduler)
        self.pins = dict(pins)
        self._holds = 0
        lines = self._open(list(pins.values()), pin_factory)
        self._debouncers: dict[str, Debouncer] = {}
        for name, line in zip(pins, lines, strict=True):
            debouncer = Debouncer(
                debounce_ms / 1000,
                self._scheduler,
                functools.partial(self._changed, name),
                initial=line.active,
                lock=self._lock,
            )
            self._debouncers[name] = debouncer
            line.listen(debouncer.feed)

    def is_pressed(self, name: str) -> bool:
        """Whether the named button is down (after debouncing)."""
        return self._debouncers[name].level

    def _changed(self, name: str, down: bool) -> None:
        if self._closed or self._sink is None:
            return
        if down:
            self._pressed(name)
        else:
            self._released(name)

    def _pressed(self, name: str) -> None:
        self._emit(ButtonPressed(name))

    def _released(self, name: str) -> None:
        """A button came back up; plain buttons say nothing."""

    def _hold_from(self, name: str, hold_s: float) -> None:
        """Emit ButtonHeld(name) once if the button is still down ``hold_s`` after it closed."""
        self._holds += 1
        hold = self._holds
        # The press is seen one debounce window after the contact closed: count from there.
        delay = max(0.0, hold_s - self._debouncers[name].window_s)
        self._scheduler.call_later(delay, lambda: self._held(name, hold))

    def _held(self, name: str, hold: int) -> None:
        with self._lock:
            if hold == self._holds and self.is_pressed(name):
                self._emit(ButtonHeld(name))


class PushButton(_Buttons):
    """One button to GND: each press emits ButtonPressed(name) ("push" by default).

    With ``hold_s``, a press held that long also emits ButtonHeld(name) once (the knob's
    long push, which seats a phone); the press itself is emitted at once all the same.
    """

    def __init__(
        self,
        pin: int,
        name: str = "push",
        *,
        debounce_ms: int = 30,
        hold_s: float | None = None,
        scheduler: Scheduler | None = None,
        pin_factory: PinFactory = None,
    ) -> None:
        self.hold_s = hold_s
        super().__init__(
            {name: pin}, debounce_ms=debounce_ms, scheduler=scheduler, pin_factory=pin_factory
        )

    def _pressed(self, name: str) -> None:
        self._emit(ButtonPressed(name))
        if self.hold_s is not None:
            self._hold_from(name, self.hold_s)


class HorseButtons(_Buttons):
    """One button per horse: a press emits ButtonPressed("horse1") .. ("horse5")."""

    def __init__(
        self,
        pins: Sequence[int] = (5, 6, 13, 19, 26),
        *,
        debounce_ms: int = 30,
        scheduler: Scheduler | None = None,
        pin_factory: PinFactory = None,
    ) -> None:
        if not 1 <= len(pins) <= 5:
            raise ValueError(f"one button per horse, 1 to 5 of them, not {len(pins)}")
        named = {f"horse{number}": pin for number, pin in enumerate(pins, start=1)}
        super().__init__(
            named, debounce_ms=debounce_ms, scheduler=scheduler, pin_factory=pin_factory
        )


class Die(_Buttons):
    """The die button: a press rolls, and the face arrives ``roll_ms`` later.

    A press emits ButtonPressed("die") at once (the displays start the roll animation),
    then DieRolled(face) when the roll settles, the face drawn with ``secrets`` (or by
    ``roll``: the simulator's loaded die). A press while a roll is pending changes nothing
    and emits DieIgnored.
    """

    def __init__(
        self,
        pin: int = 17,
        *,
        debounce_ms: int = 30,
        roll_ms: int = 600,
        scheduler: Scheduler | None = None,
        pin_factory: PinFactory = None,
        roll: Callable[[], int] = roll_die,
    ) -> None:
        self.roll_s = roll_ms / 1000
        self._roll = roll
        self._rolling = False
        self._rolls = 0
        super().__init__(
            {"die": pin}, debounce_ms=debounce_ms, scheduler=scheduler, pin_factory=pin_factory
        )

    @property
    def rolling(self) -> bool:
        """Whether a roll is pending."""
        return self._rolling

    def _pressed(self, name: str) -> None:
        if self._rolling:
            self._emit(DieIgnored())
            return
        face = self._roll()
        self._rolling = True
        self._rolls += 1
        roll = self._rolls
        self._emit(ButtonPressed("die"))
        if self.roll_s <= 0:
            self._settle(roll, face)
        else:
            self._scheduler.call_later(self.roll_s, lambda: self._settle(roll, face))

    def _settle(self, roll: int, face: int) -> None:
        with self._lock:
            if self._closed or not self._rolling or roll != self._rolls:
                return
            self._rolling = False
            self._emit(DieRolled(face))


class UndoButton(_Buttons):
    """The undo button: held ``hold_s`` seconds, it emits ButtonHeld("undo") once.

    A shorter touch emits nothing, so an accidental brush never undoes; holding on emits
    nothing more until the button is released and held again.
    """

    def __init__(
        self,
        pin: int = 24,
        *,
        hold_s: float = 1.0,
        debounce_ms: int = 30,
        name: str = "undo",
        scheduler: Scheduler | None = None,
        pin_factory: PinFactory = None,
    ) -> None:
        self.hold_s = hold_s
        super().__init__(
            {name: pin}, debounce_ms=debounce_ms, scheduler=scheduler, pin_factory=pin_factory
        )

    def _pressed(self, name: str) -> None:
        self._hold_from(name, self.hold_s)


class Encoder(_GpioDevice):
    """A KY-040 style rotary encoder: each detent emits EncoderTurned(+1) or (-1).

    Clockwise (A = CLK falls before B = DT) is positive; swap ``a`` and ``b`` to reverse.
    The push switch is a separate :class:`PushButton` named "push".
    """

    def __init__(
        self,
        a: int = 22,
        b: int = 23,
        *,
        steps_per_detent: int = 4,
        pin_factory: PinFactory = None,
    ) -> None:
        super().__init__(scheduler=None)
        line_a, line_b = self._open([a, b], pin_factory)
        # The lines idle high (the KY-040 has its own pull-ups too); active means low.
        self._a, self._b = not line_a.active, not line_b.active
        self._decoder = QuadratureDecoder(steps_per_detent, self._a, self._b)
        line_a.listen(lambda active: self._edge(a_level=not active))
        line_b.listen(lambda active: self._edge(b_level=not active))

    def _edge(self, a_level: bool | None = None, b_level: bool | None = None) -> None:
        with self._lock:
            if a_level is not None:
                self._a = a_level
            if b_level is not None:
                self._b = b_level
            steps = self._decoder.update(self._a, self._b)
            if steps:
                self._emit(EncoderTurned(steps))


class _Wiring(TypedDict):
    """What every debounced button of one panel shares: the timers and the pins' backend."""

    scheduler: Scheduler
    pin_factory: PinFactory


class ControlPanel:
    """Every GPIO input a configuration names, behind one InputDevice face."""

    def __init__(self, devices: Sequence[InputDevice]) -> None:
        self.devices = tuple(devices)

    @classmethod
    def from_config(
        cls,
        config: Config,
        *,
        pin_factory: PinFactory = None,
        scheduler: Scheduler | None = None,
        roll: Callable[[], int] = roll_die,
    ) -> ControlPanel:
        """Build the die, horse buttons, encoder (with its push) and undo that ``config`` has.

        Without ``pin_factory``, gpiozero's default is used, first set from
        ``config.gpio.pin_factory`` if nothing set it yet (only when the configuration has a
        GPIO input: a panel without one loads no GPIO library). Raises GpioUnavailable when
        the pin factory cannot be loaded, and gpiozero's errors when a pin cannot be claimed
        (every pin claimed so far is released first).
        """
        wired = _Wiring(
            scheduler=scheduler if scheduler is not None else ThreadScheduler(),
            pin_factory=pin_factory,
        )
        made: list[InputDevice] = []
        builders: list[Callable[[], InputDevice]] = []
        if (die := config.die) is not None and die.mode == "manual":
            # A real die is rolled: the button is a key (6), it draws no face.
            builders.append(
                lambda: PushButton(die.pin, "die", debounce_ms=die.debounce_ms, **wired)
            )
        elif die is not None:
            builders.append(
                lambda: Die(
                    die.pin, debounce_ms=die.debounce_ms, roll_ms=die.roll_ms, roll=roll, **wired
                )
            )
        if (horses := config.horse_buttons) is not None:
            builders.append(
                lambda: HorseButtons(horses.pins, debounce_ms=horses.debounce_ms, **wired)
            )
        if (encoder := config.encoder) is not None:
            builders.append(
                lambda: Encoder(
                    encoder.a,
                    encoder.b,
                    steps_per_detent=encoder.steps_per_detent,
                    pin_factory=pin_factory,
                )
            )
            builders.append(
                lambda: PushButton(
                    encoder.push,
                    "push",
                    debounce_ms=encoder.debounce_ms,
                    hold_s=PUSH_HOLD_S,
                    **wired,
                )
            )
        if (undo := config.undo) is not None:
            builders.append(
                lambda: UndoButton(
                    undo.pin, hold_s=undo.hold_s, debounce_ms=undo.debounce_ms, **wired
                )
            )
        if builders and pin_factory is None:
            from gpiozero import Device

            if Device.pin_factory is None:
                use_pin_factory(config.gpio.pin_factory)
        try:
            for build in builders:
                made.append(build())
        except Exception:
            for device in made:
                device.close()
            raise
        return cls(made)

    def is_down(self, pin: int) -> bool | None:
        """Whether the button on ``pin`` is down after debouncing; None if no button uses it."""
        for device in self.devices:
            if isinstance(device, _Buttons):
                for name, number in device.pins.items():
                    if number == pin:
                        return device.is_pressed(name)
        return None

    def start(self, sink: EventSink) -> None:
        """Start every input, all reporting to ``sink``."""
        for device in self.devices:
            device.start(sink)

    def close(self) -> None:
        """Release every pin."""
        for device in self.devices:
            device.close()
