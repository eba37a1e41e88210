"""USB "keyboard" RFID readers through evdev: the reader types a UID and Enter."""

from __future__ import annotations

import select
from collections.abc import Callable, Sequence
from typing import Any, Protocol, Unpack

from companion.devices.readers.base import ConnectedOptions, ConnectedReader

#: evdev's event type for keys, and the value of a key going down.
EV_KEY = 1
KEY_DOWN = 1

#: Linux input key codes → the character a keyboard reader types (digits and letters).
_DIGITS = {2: "1", 3: "2", 4: "3", 5: "4", 6: "5", 7: "6", 8: "7", 9: "8", 10: "9", 11: "0"}
_KEYPAD = {79: "1", 80: "2", 81: "3", 75: "4", 76: "5", 77: "6", 71: "7", 72: "8", 73: "9", 82: "0"}
_LETTERS = dict(
    zip(
        (16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 30, 31, 32, 33, 34, 35, 36, 37, 38, 44, 45, 46,
         47, 48, 49, 50),
        "QWERTYUIOPASDFGHJKLZXCVBNM",
        strict=True,
    )
)  # fmt: skip
KEY_CHARACTERS = {**_DIGITS, **_KEYPAD, **_LETTERS}
#: KEY_ENTER and KEY_KPENTER end a UID.
ENTER_KEYS = frozenset({28, 96})


class KeyEvent(Protocol):
    """An input event as evdev gives it (type, code, value)."""

    @property
    def type(self) -> int: ...

    @property
    def code(self) -> int: ...

    @property
    def value(self) -> int: ...


class KeySource(Protocol):
    """An opened keyboard device: wait briefly for events, then close it."""

    def read(self, timeout_s: float) -> Sequence[KeyEvent]:
        """Return the events that arrived within ``timeout_s`` (maybe none).

        Raises OSError when the device is gone.
        """

    def close(self) -> None:
        """Release the device (ungrab it)."""


class KeyboardDecoder:
    """Turn key-down events into UIDs: characters up to Enter make one UID.

    Key releases, repeats, Shift and other keys are ignored; more than :attr:`MAX_KEYS`
    characters without an Enter are dropped and counted in :attr:`bad`.
    """

    MAX_KEYS = 64

    def __init__(self) -> None:
        self.bad = 0
        self._typed: list[str] = []

    def reset(self) -> None:
        self._typed.clear()

    def feed(self, event: KeyEvent) -> str | None:
        """Take one event; return the UID it completes, if any."""
        if event.type != EV_KEY or event.value != KEY_DOWN:
            return None
        if event.code in ENTER_KEYS:
            typed, self._typed = "".join(self._typed), []
            return typed or None
        character = KEY_CHARACTERS.get(event.code)
        if character is not None:
            self._typed.append(character)
            if len(self._typed) > self.MAX_KEYS:
                self.bad += 1
                self._typed.clear()
        return None


class _EvdevSource:
    """An evdev InputDevice, grabbed so that the UIDs it types reach no console."""

    def __init__(self, device: Any) -> None:
        self._device = device

    def read(self, timeout_s: float) -> Sequence[KeyEvent]:
        ready, _, _ = select.select([self._device.fd], [], [], timeout_s)
        if not ready:
            return []
        try:
            return list(self._device.read())
        except BlockingIOError:
            return []

    def close(self) -> None:
        try:
            self._device.ungrab()
        except OSError:
            pass
        self._device.close()


def open_evdev(path: str) -> KeySource:
    """Open and grab an input device (the evdev library loads here).

    Raises OSError when the device is missing or another program holds it, ImportError
    when evdev is not installed (pip install 'companion[usbhid]').
    """
    import evdev

    device = evdev.InputDevice(path)
    try:
        device.grab()
    except OSError as error:
        device.close()
        raise OSError(f"{path} is held by another program ({error})") from error
    return _EvdevSource(device)


class EvdevReader(ConnectedReader[KeySource]):
    """A USB reader that types each UID followed by Enter; read through evdev, grabbed."""

    kind = "evdev"
    INSTALL_HINT = "sudo apt install python3-evdev, or pip install 'companion[usbhid]'"

    def __init__(
        self,
        device: str,
        *,
        open_device: Callable[[str], KeySource] | None = None,
        **options: Unpack[ConnectedOptions],
    ) -> None:
        super().__init__(**options)
        self.device = device
        self.decoder = KeyboardDecoder()
        self._open_device = open_device or open_evdev

    @property
    def bad_reads(self) -> int:
        return super().bad_reads + self.decoder.bad

    def _connect(self) -> KeySource:
        source = self._open_device(self.device)
        self.decoder.reset()
        return source

    def _poll(self, link: KeySource) -> list[str]:
        uids = []
        for event in link.read(0.1):
            uid = self.decoder.feed(event)
            if uid is not None:
                uids.append(uid)
        return uids

    def _disconnect(self, link: KeySource) -> None:
        link.close()
