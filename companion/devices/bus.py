"""A model of the time transfers take on the I2C, SPI and serial wires, on an injected clock.

The fakes of the displays and of the strip hold a ``Bus`` for the wire they sit on: every
transaction occupies it for as long as the real one would at the configured speed (bits on
the wire, the start, address and stop of each I2C transaction, the pauses a controller needs).
Devices that share a bus share its time: a transfer waits until the bus is free.

The caller of a transfer is held up as on real hardware, through the clock's ``sleep``: a
``ManualClock`` (tests) only moves its pretend time, a ``WallClock`` (the benchmarks) really
sleeps, so the real code and its threads run against real time plus the modelled wire.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

#: Raspberry Pi OS runs its I2C buses at this speed unless config.txt says otherwise.
DEFAULT_I2C_HZ = 100_000
#: The WS2812 latch: the data line held low this long shows the frame.
WS2812_RESET_S = 300e-6
#: One WS2812 bit on the wire (800 kHz).
WS2812_BIT_S = 1.25e-6
#: The Pico's serial link is USB full speed whatever baud rate is set: 12 Mbit/s, and a
#: line waits for the host's next 1 ms frame at worst.
USB_FULL_SPEED_HZ = 12_000_000
USB_FRAME_S = 0.001


class BusClock(Protocol):
    """Where modelled time comes from, and how a caller waits for a transfer."""

    def now(self) -> float:
        """Return the time in seconds."""

    def sleep(self, seconds: float) -> None:
        """Hold the caller ``seconds`` (a pretend clock only moves its time)."""


class ManualClock:
    """A pretend clock: ``sleep`` moves the time forward at once (tests never wait)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def now(self) -> float:
        """Return the pretend time."""
        return self._now

    def sleep(self, seconds: float) -> None:
        """Move the pretend time ``seconds`` forward."""
        with self._lock:
            self._now += max(0.0, seconds)


class WallClock:
    """Real time: a transfer holds its caller by sleeping (for the benchmarks)."""

    def now(self) -> float:
        """Return ``time.perf_counter()``."""
        return time.perf_counter()

    def sleep(self, seconds: float) -> None:
        """Sleep ``seconds`` (other threads run meanwhile, as during a real bus transfer)."""
        if seconds > 0:
            time.sleep(seconds)


def i2c_bits(payload: int) -> int:
    """Bit times of one I2C write of ``payload`` bytes: start, address + ack, bytes + acks, stop."""
    return 1 + 9 + 9 * payload + 1


def uart_bits(payload: int) -> int:
    """Bit times of ``payload`` bytes on a serial line (8N1: start, 8 data bits, stop)."""
    return 10 * payload


def ws2812_s(leds: int) -> float:
    """Time the LEDs take to receive a frame of ``leds`` colours and latch it."""
    return leds * 24 * WS2812_BIT_S + WS2812_RESET_S


@dataclass
class Bus:
    """One wire (an I2C bus, an SPI bus, a serial line) at ``hz`` bit times per second.

    Transactions are serialised: one starts when the clock says now or when the bus is free,
    whichever is later, and its caller is held until it ends. With ``slack_s`` the caller runs
    ahead of the wire by up to that much before it sleeps, so that hundreds of tiny writes do
    not pay a real sleep each; ``busy_until`` is when the last transaction accepted ends.
    """

    name: str
    hz: int
    clock: BusClock = field(default_factory=ManualClock)
    slack_s: float = 0.0
    busy_until: float = 0.0
    #: Totals since the bus was made: seconds occupied, transactions, bits.
    busy_s: float = 0.0
    transactions: int = 0
    bits: int = 0

    def __post_init__(self) -> None:
        if self.hz <= 0:
            raise ValueError(f"a bus speed is a positive number of Hz, not {self.hz}")
        self._lock = threading.Lock()

    def transfer(self, bits: int, extra_s: float = 0.0) -> None:
        """Occupy the bus for ``bits`` bit times plus ``extra_s`` (a device's own delay)."""
        self._occupy((bits / self.hz + extra_s,), bits)

    def i2c_writes(self, payloads: Sequence[int]) -> list[float]:
        """I2C write transactions of these payloads, one after the other, made in one call
        that holds its caller once until the last has ended (as Linux's ``I2C_RDWR`` does);
        return when each ends."""
        bits = [i2c_bits(payload) for payload in payloads]
        return self._occupy([b / self.hz for b in bits], sum(bits))

    def _occupy(self, durations: Sequence[float], bits: int) -> list[float]:
        """Occupy the bus for transactions of these ``durations`` back to back (``bits`` in
        all), hold the caller once; return when each ends."""
        ends: list[float] = []
        with self._lock:
            now = self.clock.now()
            end = start = max(now, self.busy_until)
            for seconds in durations:
                end += seconds
                ends.append(end)
            self.busy_until = end
            self.busy_s += end - start
            self.transactions += len(durations)
            self.bits += bits
            ahead = end - now
            if ahead > self.slack_s:
                self.clock.sleep(ahead)
        return ends

    def hold(self, seconds: float) -> None:
        """Keep the bus for ``seconds`` without sending (a controller executing an instruction)."""
        self.transfer(0, seconds)

    def i2c_write(self, payload: int) -> None:
        """One I2C write transaction of ``payload`` bytes (register or control byte included)."""
        self.transfer(i2c_bits(payload))

    def done_at(self) -> float:
        """When everything handed to the bus so far is on the wire's far side."""
        with self._lock:
            return max(self.clock.now(), self.busy_until)

    def settle(self) -> None:
        """Hold the caller until the transactions accepted so far have ended."""
        with self._lock:
            ahead = self.busy_until - self.clock.now()
        if ahead > 0:
            self.clock.sleep(ahead)
