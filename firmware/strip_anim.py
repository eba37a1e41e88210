"""The LED track on the Pico: the held frame, its brightness and the horse-move animation."""

# MicroPython subset. An output is a NeoPixel-like object: len(o), o[i] = (r, g, b), o.write().
# Several outputs (strips on different pins) form one track, indexed in the order given.


def scale(channel, level):
    """Return ``channel`` (0..255) dimmed to ``level``/255, rounded; a lit channel stays >= 1."""
    if channel == 0 or level == 0:
        return 0
    return max(1, (channel * level + 127) // 255)


class Track:
    """The frame the Pi asked for, and what the strips show (scaled, maybe with a moving light)."""

    def __init__(self, outputs, brightness=64):
        self.outputs = outputs
        self.count = 0
        for output in outputs:
            self.count += len(output)
        self.frame = bytearray(3 * self.count)
        self.brightness = brightness
        self.move = None
        self.step = -1

    def colour(self, index):
        """Return the held (unscaled) colour of LED ``index`` as 0xRRGGBB."""
        at = 3 * index
        frame = self.frame
        return (frame[at] << 16) | (frame[at + 1] << 8) | frame[at + 2]

    def paint(self, start, runs, clear_rest):
        """Put colour ``runs`` ([0xRRGGBB, count] pairs) from LED ``start``; LEDs past the end
        of the track are ignored. ``clear_rest`` darkens every other LED. A running move goes
        on over the new frame."""
        frame = self.frame
        if clear_rest:
            for at in range(len(frame)):
                frame[at] = 0
        index = start
        count = self.count
        for run in runs:
            if index >= count:
                break
            rgb = run[0]
            red = (rgb >> 16) & 255
            green = (rgb >> 8) & 255
            blue = rgb & 255
            stop = min(count, index + run[1])
            while index < stop:
                at = 3 * index
                frame[at] = red
                frame[at + 1] = green
                frame[at + 2] = blue
                index += 1
        self.refresh()

    def clear(self):
        """Stop a move and darken every LED."""
        self.move = None
        self.paint(0, [], True)

    def set_brightness(self, level):
        """Scale every colour by ``level``/255 (0..255) from now on; a lit channel stays lit."""
        self.brightness = level
        self.refresh()

    def refresh(self):
        """Write the held frame again, with the moving light where it stands."""
        if self.move is None:
            self.render()
        else:
            self.render(self.move[0][self.step], self.move[1])

    def start_move(self, path, rgb, step_ms, now):
        """Walk a light of colour ``rgb`` over LED indexes ``path``, one every ``step_ms``."""
        self.move = (path, rgb, step_ms, now)
        self.step = -1
        self.tick(now)

    def tick(self, now):
        """Advance a running move to time ``now`` (ms); return True if the LEDs changed."""
        move = self.move
        if move is None:
            return False
        path, rgb, step_ms, started = move
        step = (now - started) // step_ms
        if step >= len(path):
            self.move = None
            self.render()
            return True
        if step == self.step:
            return False
        self.step = step
        self.render(path[step], rgb)
        return True

    def render(self, lit=-1, lit_rgb=0):
        """Write the held frame, scaled, to every output; LED ``lit`` shows ``lit_rgb``."""
        frame = self.frame
        level = self.brightness
        index = 0
        for output in self.outputs:
            for local in range(len(output)):
                if index == lit:
                    red = (lit_rgb >> 16) & 255
                    green = (lit_rgb >> 8) & 255
                    blue = lit_rgb & 255
                else:
                    at = 3 * index
                    red = frame[at]
                    green = frame[at + 1]
                    blue = frame[at + 2]
                output[local] = (scale(red, level), scale(green, level), scale(blue, level))
                index += 1
            output.write()
