"""Every output device behind one face: send only what changed, survive a missing device."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.devices.base import OFF, Buzzer, LedStrip, PixelDisplay, TextDisplay
from companion.devices.resilience import Resilient
from companion.render.screen import Cue, Oled, Screen

log = logging.getLogger("companion.outputs")


@dataclass
class Panel:
    """The output devices the configuration names; any of them may be None."""

    lcd: TextDisplay | None = None
    oled: PixelDisplay | None = None
    strip: LedStrip | None = None
    buzzer: Buzzer | None = None
    #: Devices that reopen themselves after a failure; they need a tick now and then.
    guards: list[Resilient[Any]] = field(default_factory=list)

    #: How often to retry a failed device while one is down (seconds).
    RETRY_EVERY = 1.0

    def __post_init__(self) -> None:
        self._last: Screen | None = None

    def maintain(self) -> float | None:
        """Give failed devices their chance to come back; say when to call again (or None)."""
        for guard in self.guards:
            guard.tick()
        return self.RETRY_EVERY if any(not g.up for g in self.guards) else None

    def show(self, screen: Screen) -> None:
        """Send each part of ``screen`` that differs from the last one sent."""
        last = self._last
        if self.lcd is not None and (last is None or last.lcd != screen.lcd):
            self.lcd.show(fit_rows(screen.lcd, self.lcd.rows))
        if self.oled is not None and (last is None or last.oled != screen.oled):
            draw_oled(self.oled, screen.oled)
        if self.strip is not None and (last is None or last.leds != screen.leds):
            self.strip.show(fit_frame(screen.leds, self.strip.count))
        self._last = screen

    def cue(self, cue: Cue, screen: Screen) -> None:
        """Play a tone and animate a move on the strip."""
        if cue.tone is not None and self.buzzer is not None:
            self.buzzer.play(cue.tone)
        if cue.rolling and self.oled is not None:
            roll = getattr(self.oled, "roll", None)  # OLEDs that can animate a roll
            if callable(roll):
                roll()
        if cue.move is not None and self.strip is not None:
            path = [i for i in cue.move.path if 0 <= i < self.strip.count]
            if path:
                self.strip.animate_move(
                    fit_frame(screen.leds, self.strip.count), path, cue.move.colour
                )
                # The animation ends on the new position: force the next show() to resend.
                self._last = None

    def goodbye(self) -> None:
        """Say bye on the displays, turn the LEDs off and silence the buzzer."""
        lcd, oled, strip, buzzer = self.lcd, self.oled, self.strip, self.buzzer
        if lcd is not None:
            _quietly("lcd", lambda: lcd.show(fit_rows(("", "bye".center(lcd.cols)), lcd.rows)))
        if oled is not None:
            _quietly("oled", lambda: oled.show_text(["bye"]))
        if strip is not None:
            _quietly("strip", strip.close)
        if buzzer is not None:
            _quietly("buzzer", buzzer.close)


def _quietly(name: str, action: Callable[[], object]) -> None:
    """Run one shutdown step; a failing device must not keep the others lit."""
    try:
        action()
    except Exception:
        log.exception("%s failed while shutting down", name)


def fit_rows(rows: tuple[str, ...], count: int) -> list[str]:
    """Return exactly ``count`` rows: cut extra ones, pad with blank rows."""
    return (list(rows) + [""] * count)[:count]


def fit_frame(leds: tuple[tuple[int, int, int], ...], count: int) -> list[tuple[int, int, int]]:
    """Return exactly ``count`` LED colours: cut or pad with dark LEDs."""
    return (list(leds) + [OFF] * count)[:count]


def draw_oled(oled: PixelDisplay, content: Oled) -> None:
    """Draw a die face or lines of text on the OLED."""
    if content.die is not None:
        oled.show_die(content.die)
    else:
        oled.show_text(list(content.lines))
