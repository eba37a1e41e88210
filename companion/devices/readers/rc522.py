"""An MFRC522 13.56 MHz reader wired to the Pi's SPI0 (optional: the `mfrc522` library)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, Unpack

from companion.devices.readers.base import ConnectedOptions, ConnectedReader


class TagPoller(Protocol):
    """An opened MFRC522: ask once whether a tag is in the field."""

    def read_id_no_block(self) -> int | None:
        """Return the UID of the tag in the field as a number, or None."""

    def close(self) -> None:
        """Release SPI and the reset line."""


class _SimpleMfrc522:
    """The `mfrc522` library's SimpleMFRC522 (RST on GPIO25, SPI0 CE0)."""

    def __init__(self) -> None:
        from mfrc522 import SimpleMFRC522

        self._reader: Any = SimpleMFRC522()

    def read_id_no_block(self) -> int | None:
        uid = self._reader.read_id_no_block()
        return None if uid is None else int(uid)

    def close(self) -> None:
        closer = getattr(getattr(self._reader, "READER", None), "Close_MFRC522", None)
        if callable(closer):
            closer()


def open_mfrc522() -> TagPoller:
    """Open the MFRC522 (the `mfrc522` library and RPi.GPIO's API load here).

    Raises ImportError when the optional extra is missing (pip install 'companion[rc522]').
    """
    return _SimpleMfrc522()


class Mfrc522Reader(ConnectedReader[TagPoller]):
    """Poll an MFRC522 every ``poll_s``; the UID is reported in upper-case hex."""

    kind = "mfrc522"
    INSTALL_HINT = "pip install 'companion[rc522]' (mfrc522, spidev and the rpi-lgpio shim)"

    def __init__(
        self,
        *,
        open_device: Callable[[], TagPoller] | None = None,
        poll_s: float = 0.1,
        **options: Unpack[ConnectedOptions],
    ) -> None:
        super().__init__(**options)
        self.poll_s = poll_s
        self._open_device = open_device or open_mfrc522

    def _connect(self) -> TagPoller:
        return self._open_device()

    def _poll(self, link: TagPoller) -> list[str]:
        uid = link.read_id_no_block()
        if uid is None:
            self._stopping.wait(self.poll_s)
            return []
        return [f"{uid:X}"]

    def _disconnect(self, link: TagPoller) -> None:
        link.close()
