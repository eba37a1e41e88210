"""Serial card readers: RDM6300 frames and one-UID-per-line devices, via pyserial."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, Unpack, cast

from companion.devices.readers.base import ConnectedOptions, ConnectedReader

STX, ETX = 0x02, 0x03
_HEX = frozenset(b"0123456789ABCDEFabcdef")


class FrameDecoder(Protocol):
    """Turns the bytes a reader sends into raw UIDs; counts what it had to drop."""

    bad: int

    def feed(self, data: bytes) -> list[str]:
        """Take the next bytes; return the UIDs they complete."""

    def reset(self) -> None:
        """Forget a half-received frame (the port was reopened)."""


class Rdm6300Decoder:
    """Decode RDM6300 frames: STX, 10 hex data digits, 2 hex digits of XOR checksum, ETX.

    The UID is the 10 data digits (upper case). A frame with a wrong checksum, a non-hex
    digit or a wrong length is dropped and counted in :attr:`bad`; bytes between frames
    are ignored. Nothing here raises.
    """

    BODY = 12

    def __init__(self) -> None:
        self.bad = 0
        self._frame: bytearray | None = None

    def reset(self) -> None:
        self._frame = None

    def feed(self, data: bytes) -> list[str]:
        uids: list[str] = []
        for byte in data:
            if byte == STX:
                if self._frame is not None:
                    self.bad += 1
                self._frame = bytearray()
            elif self._frame is None:
                continue
            elif byte == ETX:
                uid = self._check(self._frame)
                self._frame = None
                if uid is None:
                    self.bad += 1
                else:
                    uids.append(uid)
            else:
                self._frame.append(byte)
                if len(self._frame) > self.BODY:
                    self.bad += 1
                    self._frame = None
        return uids

    @classmethod
    def _check(cls, body: bytes | bytearray) -> str | None:
        if len(body) != cls.BODY or not set(body) <= _HEX:
            return None
        values = bytes.fromhex(body.decode("ascii"))
        checksum = 0
        for value in values[:5]:
            checksum ^= value
        return body[:10].decode("ascii").upper() if checksum == values[5] else None


def rdm6300_frame(uid: str) -> bytes:
    """Build the frame an RDM6300 sends for a 10-hex-digit tag (what tests and fakes send)."""
    values = bytes.fromhex(uid)
    if len(values) != 5:
        raise ValueError(f"an RDM6300 tag has 10 hex digits, not {uid!r}")
    checksum = 0
    for value in values:
        checksum ^= value
    return bytes([STX]) + f"{uid.upper()}{checksum:02X}".encode("ascii") + bytes([ETX])


class LineDecoder:
    """Split a byte stream into lines (LF, CR or CRLF); each non-blank line is one UID.

    A line longer than :attr:`MAX_LINE` bytes is dropped and counted in :attr:`bad`.
    """

    MAX_LINE = 128

    def __init__(self) -> None:
        self.bad = 0
        self._buffer = bytearray()

    def reset(self) -> None:
        self._buffer.clear()

    def feed(self, data: bytes) -> list[str]:
        self._buffer += data.replace(b"\r", b"\n")
        *lines, rest = self._buffer.split(b"\n")
        self._buffer = bytearray(rest)
        if len(self._buffer) > self.MAX_LINE:
            self.bad += 1
            self._buffer.clear()
        uids: list[str] = []
        for line in lines:
            text = line.decode("ascii", errors="replace").strip()
            if len(line) > self.MAX_LINE:
                self.bad += 1
            elif text:
                uids.append(text)
        return uids


class ReaderPort(Protocol):
    """The part of a pyserial port a reader uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


#: Opens a port (a device path or a pyserial URL such as loop://) at a speed.
PortOpener = Callable[[str, int], ReaderPort]


def open_serial(url: str, baudrate: int) -> ReaderPort:
    """Open a serial port or pyserial URL with a short read timeout (pyserial loads here)."""
    import serial

    return cast(ReaderPort, serial.serial_for_url(url, baudrate=baudrate, timeout=0.1))


class SerialOptions(ConnectedOptions, total=False):
    """The keyword arguments of a serial reader of a known kind (see SerialCardReader)."""

    open_port: PortOpener | None


class SerialCardReader(ConnectedReader[ReaderPort]):
    """A reader on a serial port, decoded by a frame decoder; reopened when it vanishes."""

    def __init__(
        self,
        port: str,
        *,
        baudrate: int,
        decoder: FrameDecoder,
        open_port: PortOpener | None = None,
        **options: Unpack[ConnectedOptions],
    ) -> None:
        super().__init__(**options)
        self.port = port
        self.baudrate = baudrate
        self.decoder = decoder
        self._open_port = open_port or open_serial

    @property
    def bad_reads(self) -> int:
        return super().bad_reads + self.decoder.bad

    def _connect(self) -> ReaderPort:
        link = self._open_port(self.port, self.baudrate)
        self.decoder.reset()
        return link

    def _poll(self, link: ReaderPort) -> list[str]:
        data = link.read(max(1, link.in_waiting))
        return self.decoder.feed(data) if data else []

    def _disconnect(self, link: ReaderPort) -> None:
        link.close()


class Rdm6300Reader(SerialCardReader):
    """An RDM6300 125 kHz reader (9600 baud); it repeats a frame while the card stays."""

    kind = "rdm6300"

    def __init__(
        self, port: str, *, baudrate: int = 9600, **options: Unpack[SerialOptions]
    ) -> None:
        super().__init__(port, baudrate=baudrate, decoder=Rdm6300Decoder(), **options)


class LineReader(SerialCardReader):
    """A serial device that sends one UID per line (a microcontroller, a bridge...)."""

    kind = "lines"

    def __init__(
        self, port: str, *, baudrate: int = 115200, **options: Unpack[SerialOptions]
    ) -> None:
        super().__init__(port, baudrate=baudrate, decoder=LineDecoder(), **options)
