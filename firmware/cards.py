"""Which card reads to report: each new card once, with a re-read window against repeats."""

# MicroPython subset. Times are milliseconds from a clock that does not wrap.


class CardWindow:
    """Decide, read by read, whether a card UID is news for the Pi.

    A card is reported when it differs from the last card read, or when the last card has not
    been read for more than ``window_ms``. Every read of the same card restarts the window, so a
    card left on the reader is reported once, and one lifted and put back at once is not.
    """

    def __init__(self, window_ms=1500):
        self.window_ms = window_ms
        self.last_uid = None
        self.last_seen = 0

    def read(self, uid, now):
        """Record one poll of the reader (``uid`` a hex string, or None for no card).

        Return the UID to report, or None.
        """
        if uid is None:
            return None
        news = uid != self.last_uid or now - self.last_seen > self.window_ms
        self.last_uid = uid
        self.last_seen = now
        return uid if news else None


def uid_text(uid_bytes):
    """Return a UID as upper-case hexadecimal, two digits per byte."""
    return "".join([f"{byte:02X}" for byte in uid_bytes])
