"""A minimal MFRC522 driver for the Pico: read the UID of the ISO 14443-A tag on the reader."""

# MicroPython subset. ``spi`` is a machine.SPI (mode 0, MSB first, up to 10 MHz); ``cs`` and
# ``rst`` are machine.Pin outputs. Only what a card scan needs: wake-up, anticollision and select
# over up to three cascade levels (4, 7 or 10 byte UIDs), then halt.

COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

WUPA = 0x52
HLTA = 0x50
SELECT = (0x93, 0x95, 0x97)
CASCADE_BIT = 0x04

#: Version register values of MFRC522 chips and their common clones.
KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0x12, 0xB2)


def crc_a(data):
    """Return the ISO 14443-A CRC of ``data`` as two bytes, low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


class MFRC522:
    """One MFRC522 on SPI; ``read_uid()`` returns the UID bytes of the tag present, or None."""

    def __init__(self, spi, cs, rst=None, sleep_ms=None, max_polls=2000):
        self.spi = spi
        self.cs = cs
        self.rst = rst
        self.sleep_ms = sleep_ms
        self.max_polls = max_polls
        self.version = 0

    def _write(self, register, value):
        self.cs.value(0)
        self.spi.write(bytes([(register << 1) & 0x7E, value]))
        self.cs.value(1)

    def _read(self, register):
        self.cs.value(0)
        self.spi.write(bytes([((register << 1) & 0x7E) | 0x80]))
        value = self.spi.read(1)[0]
        self.cs.value(1)
        return value

    def _set_bits(self, register, mask):
        self._write(register, self._read(register) | mask)

    def _clear_bits(self, register, mask):
        self._write(register, self._read(register) & ~mask & 0xFF)

    def _pause(self, ms):
        if self.sleep_ms is not None:
            self.sleep_ms(ms)

    def init(self):
        """Reset and configure the chip; return True if an MFRC522 answered.

        The timer gives up on a silent tag after 10 ms (400 ticks of 25 us).
        """
        self.cs.value(1)
        if self.rst is not None:
            self.rst.value(0)
            self._pause(2)
            self.rst.value(1)
            self._pause(50)
        self._write(COMMAND, SOFT_RESET)
        for _ in range(100):
            if not self._read(COMMAND) & 0x10:
                break
            self._pause(1)
        self.version = self._read(VERSION)
        if self.version not in KNOWN_VERSIONS:
            return False
        self._write(T_MODE, 0x80)
        self._write(T_PRESCALER, 0xA9)
        self._write(T_RELOAD_H, 0x01)
        self._write(T_RELOAD_L, 0x90)
        self._write(TX_ASK, 0x40)
        self._write(MODE, 0x3D)
        self._set_bits(TX_CONTROL, 0x03)
        return True

    def transceive(self, data, last_bits=0):
        """Send ``data`` to the tag and return its answer (bytes), or None on silence or error."""
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, 0x7F)
        self._write(FIFO_LEVEL, 0x80)
        for byte in data:
            self._write(FIFO_DATA, byte)
        self._write(BIT_FRAMING, last_bits)
        self._write(COMMAND, TRANSCEIVE)
        self._set_bits(BIT_FRAMING, 0x80)
        irq = 0
        for _ in range(self.max_polls):
            irq = self._read(COM_IRQ)
            if irq & 0x31:
                break
        self._clear_bits(BIT_FRAMING, 0x80)
        if not irq & 0x30 or irq & 0x01:
            return None
        if self._read(ERROR) & 0x1B:
            return None
        count = self._read(FIFO_LEVEL)
        return bytes([self._read(FIFO_DATA) for _ in range(count)])

    def read_uid(self):
        """Wake the tag on the reader and return its UID bytes, or None if there is none.

        Two tags at once (a collision) read as none.
        """
        answer = self.transceive(bytes([WUPA]), 7)
        if answer is None or len(answer) != 2:
            return None
        uid = bytearray()
        for select in SELECT:
            part = self.transceive(bytes([select, 0x20]))
            if part is None or len(part) != 5:
                return None
            if part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                return None
            frame = bytes([select, 0x70]) + part
            sak = self.transceive(frame + crc_a(frame))
            if sak is None or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            if sak[0] & CASCADE_BIT:
                uid.extend(part[1:4])
            else:
                uid.extend(part[0:4])
                self.transceive(bytes([HLTA, 0]) + crc_a(bytes([HLTA, 0])))
                return bytes(uid)
        return None
