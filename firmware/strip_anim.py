"""The LED track on the Pico: the held frame, its brightness, the horse-move animation, and the
answers the Pi prepared for presses (lit from buffers made ready beforehand)."""

# MicroPython subset. An output is a NeoPixel-like object: len(o), o[i] = (r, g, b), o.write();
# one whose ``buf`` is a bytearray (MicroPython's neopixel) is filled from a prepared buffer in
# one copy, in its own byte order (``ORDER``, ``bpp``). Several outputs (strips on different
# pins) form one track, indexed in the order given.


def scale(channel, level):
    """Return ``channel`` (0..255) dimmed to ``level``/255, rounded; a lit channel stays >= 1."""
    if channel == 0 or level == 0:
        return 0
    return max(1, (channel * level + 127) // 255)


def fill(frame, start, runs, clear_rest):
    """Put colour ``runs`` ([0xRRGGBB, count] pairs) into ``frame`` (3 bytes an LED) from LED
    ``start``; LEDs past its end are ignored. ``clear_rest`` darkens every other LED."""
    if clear_rest:
        for at in range(len(frame)):
            frame[at] = 0
    index = start
    count = len(frame) // 3
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


def _fast(output):
    """Whether ``output`` keeps its pixels in a bytearray ``buf`` (MicroPython's neopixel)."""
    return isinstance(getattr(output, "buf", None), bytearray)


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
        fill(self.frame, start, runs, clear_rest)
        self.refresh()

    def frame_of(self, runs):
        """Return a frame of this track (3 bytes an LED) holding ``runs`` from LED 0."""
        frame = bytearray(3 * self.count)
        fill(frame, 0, runs, True)
        return frame

    def clear(self):
        """Stop a move and darken every LED."""
        self.move = None
        self.paint(0, [], True)

    def stop(self):
        """Stop a move; the held frame alone stays."""
        self.move = None
        self.step = -1
        self.render()

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
        self.write(self.prepare(self.frame, lit, lit_rgb))

    def prepare(self, frame, lit=-1, lit_rgb=0):
        """Return what ``frame`` (3 bytes an LED) scaled, with LED ``lit`` showing ``lit_rgb``,
        puts on each output: a bytearray in the output's own order, or a list of colours."""
        level = self.brightness
        prepared = []
        index = 0
        for output in self.outputs:
            fast = _fast(output)
            if fast:
                data = bytearray(len(output.buf))
                bpp = output.bpp
                order = output.ORDER
                first, second, third = order[0], order[1], order[2]
            else:
                data = []
            for local in range(len(output)):
                if index == lit:
                    red = scale((lit_rgb >> 16) & 255, level)
                    green = scale((lit_rgb >> 8) & 255, level)
                    blue = scale(lit_rgb & 255, level)
                else:
                    at = 3 * index
                    red = scale(frame[at], level)
                    green = scale(frame[at + 1], level)
                    blue = scale(frame[at + 2], level)
                if fast:
                    offset = local * bpp
                    data[offset + first] = red
                    data[offset + second] = green
                    data[offset + third] = blue
                else:
                    data.append((red, green, blue))
                index += 1
            prepared.append(data)
        return prepared

    def write(self, prepared):
        """Put ``prepared`` (from ``prepare``) on the outputs and send it down the wires."""
        for index, output in enumerate(self.outputs):
            data = prepared[index]
            if isinstance(data, bytearray):
                output.buf[:] = data
            else:
                for local in range(len(data)):
                    output[local] = data[local]
            output.write()

    def show_answer(self, frame, walk, prepared, now):
        """Light an answer made ready beforehand: hold ``frame``, start ``walk`` (path, rgb,
        step_ms, or None) at its first LED, and write ``prepared`` (that very picture)."""
        self.frame[:] = frame
        if walk is None:
            self.move = None
            self.step = -1
        else:
            self.move = (walk[0], walk[1], walk[2], now)
            self.step = 0
        self.write(prepared)
