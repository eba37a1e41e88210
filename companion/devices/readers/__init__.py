"""Card readers behind one interface: USB keyboard (evdev), RDM6300, UID lines, MFRC522.

Each reader is an InputDevice that emits CardScanned(uid, card, reader) once per card
presented (a tag read again within ``repeat_window_s`` is the same scan) and DeviceStatus
when its device vanishes or comes back. An unknown tag has ``card=None``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.devices.config import ReaderSection
from companion.devices.readers.base import (
    CardReader,
    ConnectedReader,
    FakeCardReader,
    Lookup,
    RepeatFilter,
    normalize_uid,
)
from companion.devices.readers.keyboard import EvdevReader, KeyboardDecoder, KeySource
from companion.devices.readers.rc522 import Mfrc522Reader, TagPoller
from companion.devices.readers.serial_port import (
    LineDecoder,
    LineReader,
    Rdm6300Decoder,
    Rdm6300Reader,
    SerialCardReader,
    open_serial,
    rdm6300_frame,
)

__all__ = [
    "CardReader",
    "ConnectedReader",
    "EvdevReader",
    "FakeCardReader",
    "KeySource",
    "KeyboardDecoder",
    "LineDecoder",
    "LineReader",
    "Lookup",
    "Mfrc522Reader",
    "Rdm6300Decoder",
    "Rdm6300Reader",
    "RepeatFilter",
    "SerialCardReader",
    "TagPoller",
    "normalize_uid",
    "open_serial",
    "rdm6300_frame",
    "reader_from_config",
]


def reader_from_config(
    section: ReaderSection,
    *,
    lookup: Lookup | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> CardReader | None:
    """Build the reader a [reader] section names; None for kind "pico".

    The Pico's reader arrives through the Pico link (companion.devices.pico). Nothing is
    opened here: a missing device is reported by the reader once started.
    """
    window = section.repeat_window_s
    if section.kind == "evdev":
        return EvdevReader(section.device, lookup=lookup, repeat_window_s=window, clock=clock)
    if section.kind in ("rdm6300", "lines"):
        serial_kind = Rdm6300Reader if section.kind == "rdm6300" else LineReader
        return serial_kind(
            section.device,
            baudrate=section.serial_baudrate,
            lookup=lookup,
            repeat_window_s=window,
            clock=clock,
        )
    if section.kind == "mfrc522":
        return Mfrc522Reader(lookup=lookup, repeat_window_s=window, clock=clock)
    return None
