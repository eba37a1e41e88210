"""Press the control panel's buttons like a player would, on gpiozero's mock pins."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.devices.base import PUSH_HOLD_S
from companion.devices.config import Config
from companion.devices.gpio import roll_die

#: The contact closes this long before it opens again on a simulated press.
PRESS_S = 0.08
#: A button pressed again waits this long after its last release, as a finger would,
#: so that the debouncer sees the contact open before it closes again.
REST_S = 0.05
#: How long a press waits at most for the panel to see the button down, or up again.
SEEN_WAIT_S = 5.0
#: How often a waiting press looks at the panel again.
POLL_S = 0.002
#: The longest a simulated press keeps its contact closed (above the 10 s undo hold allowed).
MAX_PRESS_S = 12.0
#: The most detents one simulated turn of the encoder makes, either way.
MAX_TURN = 100


class SimulatedControls:
    """Drive the mock pins behind the die, the horse buttons, the encoder and undo.

    The very same device classes (debouncing, rolling, hold-to-undo, quadrature decoding)
    see these edges as they would see a real contact. Build the control panel on
    :attr:`factory` first.
    """

    def __init__(
        self,
        config: Config,
        factory: Any = None,
        *,
        later: Callable[[float, Callable[[], None]], None] | None = None,
    ) -> None:
        if factory is None:
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
        self.factory = factory
        self._later = later or _timer
        self.buttons: dict[str, int] = {}
        if config.die is not None:
            self.buttons["die"] = config.die.pin
        if config.horse_buttons is not None:
            for number, pin in enumerate(config.horse_buttons.pins, start=1):
                self.buttons[f"horse{number}"] = pin
        if config.encoder is not None:
            self.buttons["push"] = config.encoder.push
            self._encoder: tuple[int, int] | None = (config.encoder.a, config.encoder.b)
        else:
            self._encoder = None
        if config.undo is not None:
            self.buttons["undo"] = config.undo.pin
            self.hold_s = config.undo.hold_s
        else:
            self.hold_s = 0.0
        self._lock = threading.Lock()
        self._loaded: list[int] = []
        self._free_at: dict[int, float] = {}
        self._down: set[int] = set()
        self._seen: Callable[[int], bool | None] = lambda number: None

    def watch(self, seen: Callable[[int], bool | None]) -> None:
        """Hold each contact until ``seen(pin)`` says the panel has it down, as a finger would.

        ``seen`` gives the panel's debounced level of the button on a pin (None for no such
        button). Without it, a press lasts its given time whatever the panel made of it; with
        it, a busy machine whose debouncer runs late still sees every press and release.
        """
        self._seen = seen

    def load_die(self, face: int) -> None:
        """Make the die's next roll land on ``face`` (for scripted games and tests)."""
        if not 1 <= face <= 6:
            raise ValueError(f"a die face is 1..6, not {face}")
        with self._lock:
            self._loaded.append(face)

    def roll(self) -> int:
        """The die's draw: the next loaded face, else the operating system's randomness."""
        with self._lock:
            if self._loaded:
                return self._loaded.pop(0)
        return roll_die()

    def _pin(self, number: int) -> Any:
        return self.factory.pin(number)

    def press(self, button: str, seconds: float = PRESS_S) -> None:
        """Close the button's contact and open it ``seconds`` later.

        Returns at once, unless the same button is still down from its last press: then it
        first waits for that release (and a short rest), so no press is ever lost. Raises
        KeyError for no such button, ValueError for ``seconds`` outside 0..MAX_PRESS_S.
        """
        if button not in self.buttons:
            raise KeyError(f"no button {button!r} on this panel")
        if not (math.isfinite(seconds) and 0 < seconds <= MAX_PRESS_S):
            raise ValueError(f"a press lasts 0..{MAX_PRESS_S:g} s, not {seconds}")
        number = self.buttons[button]
        pin = self._pin(number)
        deadline = time.monotonic() + SEEN_WAIT_S
        # Still down from the last press, its release not yet seen by the panel, or at rest.
        while time.monotonic() < deadline and (
            number in self._down
            or self._seen(number)
            or self._free_at.get(number, 0.0) > time.monotonic()
        ):
            time.sleep(POLL_S)
        with self._lock:
            pin.drive_low()
            self._down.add(number)
        self._later(seconds, lambda: self._release(number, pin, time.monotonic() + SEEN_WAIT_S))

    def hold(self, button: str = "undo") -> None:
        """Hold a button down past its hold time (undo's, or the knob's long push)."""
        held = PUSH_HOLD_S if button == "push" else self.hold_s
        self.press(button, seconds=held + 0.3)

    def _release(self, number: int, pin: Any, deadline: float) -> None:
        if self._seen(number) is False and time.monotonic() < deadline:
            # The panel has not seen the press yet (its debouncer is late): keep holding.
            self._later(POLL_S, lambda: self._release(number, pin, deadline))
            return
        with self._lock:
            pin.drive_high()
            self._down.discard(number)
            self._free_at[number] = time.monotonic() + REST_S

    def turn(self, steps: int) -> None:
        """Turn the encoder ``steps`` detents: positive clockwise, one full cycle per detent.

        Raises KeyError without an encoder, ValueError beyond MAX_TURN detents either way.
        """
        if self._encoder is None:
            raise KeyError("no encoder on this panel")
        if abs(steps) > MAX_TURN:
            raise ValueError(f"a turn is at most {MAX_TURN} detents, not {steps}")
        a, b = (self._pin(n) for n in self._encoder)
        first, second = (a, b) if steps > 0 else (b, a)
        with self._lock:
            for _ in range(abs(steps)):
                first.drive_low()
                second.drive_low()
                first.drive_high()
                second.drive_high()


def _timer(delay_s: float, action: Callable[[], None]) -> None:
    timer = threading.Timer(delay_s, action)
    timer.daemon = True
    timer.start()
