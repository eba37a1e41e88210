"""What the firmware does, as pure logic: answer the Pi, hold the LED frame, report cards and
buttons. The hardware arrives as arguments (board.py on the Pico, the fake Pico on a PC)."""

# MicroPython subset. Times are milliseconds from a clock that does not wrap.

FIRMWARE_VERSION = "1.0.0"


def _error_parts(exc):
    return getattr(exc, "code", "internal"), getattr(exc, "seq", 0), str(exc) or "failed"


class Firmware:
    """The firmware's state machine between the serial line and the devices.

    ``codec`` is a protocol.Codec for the "pico" side; ``track`` a strip_anim.Track; ``write``
    takes each outgoing line (bytes). Optional: ``window`` (cards.CardWindow) with ``read_uid``
    (returns a hex UID string or None), ``debouncer`` (buttons.Debouncer) with ``read_buttons``
    (returns one bool per button, True = pressed), ``on_repl`` called when the Pi asks for the
    REPL.
    """

    def __init__(
        self,
        codec,
        track,
        write,
        window=None,
        read_uid=None,
        debouncer=None,
        read_buttons=None,
        on_repl=None,
        version=FIRMWARE_VERSION,
        card_poll_ms=60,
        button_poll_ms=5,
    ):
        self.codec = codec
        self.track = track
        self.write = write
        self.window = window
        self.read_uid = read_uid
        self.debouncer = debouncer
        self.read_buttons = read_buttons
        self.on_repl = on_repl
        self.version = version
        self.card_poll_ms = card_poll_ms
        self.button_poll_ms = button_poll_ms
        self.lines = codec.line_buffer()
        self.seq = 0
        self.next_card = 0
        self.next_buttons = 0
        self.leaving = False

    def send(self, name, values):
        """Number, frame and write one message to the Pi."""
        self.seq = self.seq % self.codec.max_seq + 1
        self.write(self.codec.encode(self.seq, name, values))

    def boot(self):
        """Announce a fresh start: the Pi shakes hands again and resends its frame.

        A newline first ends whatever the console printed before (an empty line is ignored).
        """
        self.write(b"\n")
        self.send("BOOT", [self.version, self.codec.protocol])

    def receive(self, data, now):
        """Take bytes from the serial line; answer every complete line."""
        for line in self.lines.feed(data):
            if line == b"" or line == b"\r":
                continue
            if line is None:
                self.send("ERR", [0, "too_long", f"line longer than {self.codec.max_line} bytes"])
            else:
                self.handle(line, now)

    def handle(self, line, now):
        """Decode and carry out one line; answer it with its reply or an ERR."""
        try:
            seq, name, values = self.codec.decode(line)
        except Exception as exc:
            code, seq, text = _error_parts(exc)
            self.send("ERR", [seq, code, text])
            return
        try:
            self.carry_out(seq, name, values, now)
        except Exception as exc:
            self.send("ERR", [seq, "internal", name + " failed: " + str(exc)])

    def carry_out(self, seq, name, values, now):
        track = self.track
        if name == "HELLO":
            reader = 1 if self.read_uid is not None else 0
            self.send("WELCOME", [seq, self.version, self.codec.protocol, track.count, reader])
            return
        if name == "PING":
            self.send("PONG", [seq])
            return
        if name == "FRAME":
            track.paint(0, values[0], True)
        elif name == "SET":
            track.paint(values[0], values[1], False)
        elif name == "CLEAR":
            track.clear()
        elif name == "BRIGHT":
            track.set_brightness(values[0])
        elif name == "MOVE":
            track.start_move(values[2], values[1], values[0], now)
        elif name == "WINDOW":
            if self.window is not None:
                self.window.window_ms = values[0]
        elif name == "REPL":
            self.send("ACK", [seq])
            self.leaving = True
            if self.on_repl is not None:
                self.on_repl()
            return
        else:
            self.send("ERR", [seq, "unknown", name + " is not carried out by this firmware"])
            return
        self.send("ACK", [seq])

    def poll(self, now):
        """Run the animation, read the buttons and the card reader when due."""
        self.track.tick(now)
        if self.debouncer is not None and now >= self.next_buttons:
            self.next_buttons = now + self.button_poll_ms
            for name in self.debouncer.update(self.read_buttons(), now):
                self.send("BUTTON", [name])
        if self.window is not None and self.read_uid is not None and now >= self.next_card:
            self.next_card = now + self.card_poll_ms
            try:
                uid = self.read_uid()
            except Exception:
                uid = None
            news = self.window.read(uid, now)
            if news is not None:
                self.send("CARD", [news])
