"""Debounced presses of the Pico's buttons (wired to ground with pull-ups: pressed = low)."""

# MicroPython subset. Times are milliseconds from a clock that does not wrap.


class Debouncer:
    """Report a press when a button's level has been steadily pressed for ``debounce_ms``.

    Bounces shorter than ``debounce_ms`` are ignored; releasing re-arms the button.
    """

    def __init__(self, names, debounce_ms=30):
        self.names = list(names)
        self.debounce_ms = debounce_ms
        self.stable = [False] * len(self.names)
        self.raw = [False] * len(self.names)
        self.since = [0] * len(self.names)

    def update(self, pressed, now):
        """Take each button's raw level (True = pressed) at time ``now``; return new presses."""
        presses = []
        for index in range(len(self.names)):
            level = bool(pressed[index])
            if level != self.raw[index]:
                self.raw[index] = level
                self.since[index] = now
            elif level != self.stable[index] and now - self.since[index] >= self.debounce_ms:
                self.stable[index] = level
                if level:
                    presses.append(self.names[index])
        return presses
