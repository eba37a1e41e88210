"""What every device adapter promises: the input events it emits and the output interfaces."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

#: A colour for one LED: red, green, blue, each 0..255.
RGB = tuple[int, int, int]
OFF: RGB = (0, 0, 0)
#: How long the knob's push is held to confirm a phone's seat (a held push is no other
#: prompt's answer: every prompt takes a short push).
PUSH_HOLD_S = 1.0


@dataclass(frozen=True)
class ButtonPressed:
    """A debounced press of a named button: "die", "horse1".."horse5", "push", "undo"."""

    button: str


@dataclass(frozen=True)
class ButtonHeld:
    """A button held down long enough to confirm (undo: take back; push: seat a phone)."""

    button: str


@dataclass(frozen=True)
class DieRolled:
    """The electronic die has settled on a face, 1..6 (drawn from the OS's randomness)."""

    value: int


@dataclass(frozen=True)
class DieIgnored:
    """The die was pressed while a roll was still pending: the press is ignored, and said so."""


@dataclass(frozen=True)
class EncoderTurned:
    """The rotary encoder moved ``steps`` detents: positive clockwise, negative anticlockwise."""

    steps: int


@dataclass(frozen=True)
class CardScanned:
    """A tag was read; ``card`` is the enrolled card's name ("QS", "jockey:12"...) or None."""

    uid: str
    card: str | None
    reader: str


@dataclass(frozen=True)
class DeviceStatus:
    """A device failed or came back; ``ok`` False means degraded. ``message`` fits the LCD."""

    device: str
    ok: bool
    message: str


@dataclass(frozen=True)
class ButtonAnswer:
    """What the strip shows once a legal press of ``button`` is taken: its whole new frame, and
    the walk of a horse's move (the LEDs of ``path`` in ``colour``; none when ``path`` is
    empty), worked out before the press comes."""

    button: str
    frame: tuple[RGB, ...]
    path: tuple[int, ...] = ()
    colour: RGB = OFF


@dataclass(frozen=True)
class PressAnswers:
    """The buttons that are legal now and what each one lights: the strip answers their
    press at once, before the table has taken it (an empty hand answers none)."""

    answers: tuple[ButtonAnswer, ...] = ()

    def of(self, button: str) -> ButtonAnswer | None:
        """The answer to a press of ``button``, or None when it has none."""
        for answer in self.answers:
            if answer.button == button:
                return answer
        return None


InputEvent = ButtonPressed | ButtonHeld | DieRolled | DieIgnored | EncoderTurned | CardScanned
Event = InputEvent | DeviceStatus

#: Input devices push their events here; the daemon's queue.put is the usual sink.
EventSink = Callable[[Event], None]


class Tone(enum.Enum):
    """The short sounds the buzzer knows."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    FINISH = "finish"
    JUMPY_JACK = "jumpy_jack"


class InputDevice(Protocol):
    """A device that emits events to a sink once started."""

    def start(self, sink: EventSink) -> None:
        """Begin delivering events to ``sink`` (from any thread)."""

    def close(self) -> None:
        """Stop delivering events and release the hardware."""


class TextDisplay(Protocol):
    """A character display (the 20x4 or 16x2 LCD): rows of text, suits included."""

    cols: int
    rows: int

    def show(self, lines: Sequence[str], first: int | None = None) -> None:
        """Show up to ``rows`` lines, each cut or padded to ``cols``; only changes are sent
        (``first``: that row's before the others')."""

    def close(self) -> None:
        """Clear the display and release it."""


class PixelDisplay(Protocol):
    """The small OLED: die faces, short texts, odds."""

    width: int
    height: int

    def show_die(self, face: int) -> None:
        """Draw a die face (1..6) as pips."""

    def show_text(self, lines: Sequence[str]) -> None:
        """Draw a few short lines of text (card suits allowed)."""

    def close(self) -> None:
        """Blank the display and release it."""


class LedStrip(Protocol):
    """One LED per track square."""

    count: int

    def show(self, frame: Sequence[RGB]) -> None:
        """Light every LED at once: ``frame`` has ``count`` colours."""

    def animate_move(self, frame: Sequence[RGB], path: Sequence[int], colour: RGB) -> None:
        """Show ``frame`` with a light of ``colour`` walking over the LED indexes in ``path``."""

    def close(self) -> None:
        """Turn every LED off and release the strip."""


class Buzzer(Protocol):
    """A piezo buzzer."""

    def play(self, tone: Tone) -> None:
        """Play a short tone without blocking the caller."""

    def close(self) -> None:
        """Silence and release the buzzer."""
