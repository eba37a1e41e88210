"""Stand-in for MicroPython's rp2 module: the BOOTSEL button, held when ``BOOTSEL`` is True."""

BOOTSEL = False


def bootsel_button() -> int:
    return 1 if BOOTSEL else 0
