"""One complete picture of the outputs: LCD rows, OLED content, LED colours, plus one-shot cues."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.devices.base import RGB, Tone


@dataclass(frozen=True)
class OledScreen:
    """What the OLED shows: a die face (1..6) or up to four short lines of text."""

    die: int | None = None
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Screen:
    """The steady state of every output; the loop sends only what changed."""

    lcd: tuple[str, ...] = ()
    oled: OledScreen = field(default_factory=OledScreen)
    leds: tuple[RGB, ...] = ()


@dataclass(frozen=True)
class StripWalk:
    """A horse's move to animate on the strip: the LED indexes it walks over, in its colour."""

    path: tuple[int, ...]
    colour: RGB


@dataclass(frozen=True)
class Cue:
    """Something that happens once: a tone, a move to animate, a die roll to animate."""

    tone: Tone | None = None
    move: StripWalk | None = None
    rolling: bool = False
