"""The buzzer: a short tune for each Tone, played without blocking, on a gpiozero PWM pin.

Tunes are data (:data:`TUNES`). ``GpioBuzzer`` drives a passive piezo through gpiozero's
``PWMOutputDevice`` (imported only when built), the pitch being the PWM frequency;
``MemoryBuzzer`` records what it played. Notes are timed by a scheduler, so tests step a
pretend clock instead of sleeping.
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from companion.devices.base import Tone
from companion.devices.scheduling import Scheduler, Step, Steps


@dataclass(frozen=True)
class Note:
    """One note: a pitch in hertz (None for a rest) held for ``seconds``."""

    hz: float | None
    seconds: float


#: The tunes. A piezo is loudest around 2-4 kHz, so the happy sounds sit high, the refusal low.
TUNES: Mapping[Tone, tuple[Note, ...]] = {
    Tone.ACCEPTED: (Note(2093, 0.06),),
    Tone.REFUSED: (Note(392, 0.12), Note(None, 0.04), Note(262, 0.25)),
    Tone.FINISH: (Note(1047, 0.1), Note(1319, 0.1), Note(1568, 0.1), Note(2093, 0.35)),
    Tone.JUMPY_JACK: (
        Note(1568, 0.08),
        Note(None, 0.03),
        Note(1568, 0.08),
        Note(None, 0.03),
        Note(2093, 0.12),
        Note(1760, 0.08),
        Note(2093, 0.3),
    ),
}


def tune_seconds(tone: Tone) -> float:
    """How long a tone's tune lasts."""
    return sum(note.seconds for note in TUNES[tone])


class TunePlayer:
    """Plays tunes note by note on a scheduler; a new tone cuts the one playing.

    Subclasses only set the pitch (``_sound``). A failure while a tune plays is raised by the
    next call.
    """

    def __init__(self, *, scheduler: Scheduler | None = None) -> None:
        self._steps = Steps(scheduler)

    @property
    def playing(self) -> bool:
        """Whether a tune is still sounding."""
        return self._steps.running

    def play(self, tone: Tone) -> None:
        """Start ``tone``'s tune and return at once (the previous tune, if any, stops)."""
        steps: list[Step] = [(partial(self._sound, note.hz), note.seconds) for note in TUNES[tone]]
        steps.append((partial(self._sound, None), 0.0))
        with self._steps.lock:
            self._steps.raise_failure()
            self._steps.start(steps)

    def close(self) -> None:
        """Silence the buzzer and release it."""
        with self._steps.lock:
            self._steps.cancel()
            try:
                self._sound(None)
            finally:
                self._release()

    def _sound(self, hz: float | None) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        """Release the hardware (nothing by default)."""


class GpioBuzzer(TunePlayer):
    """A passive piezo on a PWM-capable GPIO (GPIO18 by default), through gpiozero.

    ``volume`` (0..1) sets the duty cycle, 50 % being the loudest a piezo gets.
    """

    def __init__(
        self,
        pin: int = 18,
        *,
        pin_factory: Any = None,
        scheduler: Scheduler | None = None,
        volume: float = 1.0,
    ) -> None:
        if not 0.0 < volume <= 1.0:
            raise ValueError(f"volume is above 0 and at most 1, not {volume!r}")
        from gpiozero import GPIOZeroError, PWMOutputDevice  # only a real buzzer needs them

        super().__init__(scheduler=scheduler)
        self.duty = volume / 2
        try:
            self.device: Any = PWMOutputDevice(
                pin, initial_value=0, frequency=1000, pin_factory=pin_factory
            )
        except GPIOZeroError as error:  # a pin that cannot do PWM is a device that is not there
            raise OSError(
                errno.ENODEV, f"buzzer on GPIO{pin}: {type(error).__name__} {error}"
            ) from error

    def _sound(self, hz: float | None) -> None:
        if hz is None:
            self.device.value = 0
        else:
            self.device.frequency = hz
            self.device.value = self.duty

    def _release(self) -> None:
        self.device.close()


class MemoryBuzzer(TunePlayer):
    """A buzzer that remembers: ``played`` tones, ``pitches`` set, ``hz`` sounding now."""

    def __init__(self, *, scheduler: Scheduler | None = None) -> None:
        super().__init__(scheduler=scheduler)
        self.played: list[Tone] = []
        self.pitches: list[float | None] = []
        self.hz: float | None = None
        self.closed = False

    def play(self, tone: Tone) -> None:
        """Record ``tone``, then play its tune on the pretend pin."""
        self.played.append(tone)
        super().play(tone)

    def _sound(self, hz: float | None) -> None:
        self.hz = hz
        self.pitches.append(hz)

    def _release(self) -> None:
        self.closed = True
