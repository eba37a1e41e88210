"""What the firmware does, as pure logic: answer the Pi, hold the LED frame, report cards and
buttons, and light the answer the Pi prepared for a legal press at once. The hardware arrives as
arguments (board.py on the Pico, the fake Pico on a PC)."""

# MicroPython subset. Times are milliseconds from a clock that does not wrap.

FIRMWARE_VERSION = "1.1.0"


class Answer:
    """What a press of one button lights while its hand is armed: the whole frame (3 bytes an
    LED), the walk that goes with it (path, rgb, step_ms, or None), and that picture made ready
    for the outputs (when the hand is armed, and again when the brightness changes)."""

    def __init__(self, hand, frame):
        self.hand = hand
        self.frame = frame
        self.walk = None
        self.prepared = None


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
        #: The hand armed (0: none) and the answers the Pi sent, by button.
        self.hand = 0
        self.answers = {}

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
            self.drop_hand()  # a Pi that starts again offers its own hand
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
            self.drop_hand()
            track.clear()
        elif name == "STOP":
            track.stop()
        elif name == "BRIGHT":
            track.set_brightness(values[0])
            self.prepare_hand()
        elif name == "MOVE":
            track.start_move(values[2], values[1], values[0], now)
        elif name == "ANSWER":
            self.take_answer(values[0], values[1], values[2])
        elif name == "WALK":
            answer = self.answers.get(values[1])
            if answer is not None and answer.hand == values[0]:
                answer.walk = (values[4], values[3], values[2])
                if self.hand == values[0]:
                    self.prepare_hand()
        elif name == "HAND":
            self.arm(values[0])
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

    def take_answer(self, hand, button, runs):
        """Keep what a press of ``button`` lights under hand ``hand`` (a button not wired here
        is nobody's press: its answer is not kept)."""
        if self.debouncer is not None and button not in self.debouncer.names:
            return
        self.answers[button] = Answer(hand, self.track.frame_of(runs))

    def arm(self, hand):
        """Arm the answers numbered ``hand`` (0: none); the others are dropped."""
        self.hand = hand
        for button in list(self.answers):
            if self.answers[button].hand != hand:
                del self.answers[button]
        self.prepare_hand()

    def prepare_hand(self):
        """Make each armed answer's picture ready for the outputs, at the brightness of now."""
        track = self.track
        for answer in self.answers.values():
            walk = answer.walk
            if walk is None:
                answer.prepared = track.prepare(answer.frame)
            else:
                answer.prepared = track.prepare(answer.frame, walk[0][0], walk[1])

    def drop_hand(self):
        """Forget the hand: every press waits for the Pi's own answer."""
        self.hand = 0
        self.answers = {}

    def press(self, name, now):
        """A debounced press: light its answer first when the armed hand has one, then say so
        (ANSWERED, the hand spent); else report it as BUTTON for the Pi to answer."""
        answer = self.answers.get(name) if self.hand else None
        if answer is None or answer.prepared is None:
            self.send("BUTTON", [name])
            return
        self.track.show_answer(answer.frame, answer.walk, answer.prepared, now)
        hand = self.hand
        self.drop_hand()
        self.send("ANSWERED", [hand, name])

    def poll(self, now):
        """Run the animation, read the buttons and the card reader when due."""
        self.track.tick(now)
        if self.debouncer is not None and now >= self.next_buttons:
            self.next_buttons = now + self.button_poll_ms
            for name in self.debouncer.update(self.read_buttons(), now):
                self.press(name, now)
        if self.window is not None and self.read_uid is not None and now >= self.next_card:
            self.next_card = now + self.card_poll_ms
            try:
                uid = self.read_uid()
            except Exception:
                uid = None
            news = self.window.read(uid, now)
            if news is not None:
                self.send("CARD", [news])
