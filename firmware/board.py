"""The Pico's hardware set-up and main loop: USB serial, WS2812 strips, MFRC522 and buttons."""

import json
import select
import sys
import time

import config
import machine
import micropython
from app import Firmware
from buttons import Debouncer
from cards import CardWindow, uid_text
from protocol import Codec
from rc522 import MFRC522
from strip_anim import Track

TABLE_FILE = "pico_messages.json"
MISSING_TABLE = "companion firmware: " + TABLE_FILE + " is missing, see firmware/README.md"
LEAVING = "companion firmware: BOOTSEL pressed, leaving for the REPL until the next reset"


class Clock:
    """Milliseconds since start-up that never wrap (time.ticks_ms wraps after some days)."""

    def __init__(self):
        self.last = time.ticks_ms()
        self.now = 0

    def read(self):
        ticks = time.ticks_ms()
        self.now += time.ticks_diff(ticks, self.last)
        self.last = ticks
        return self.now


def bootsel_held():
    """Return True while the BOOTSEL button is pressed (the way back to the REPL)."""
    try:
        import rp2

        return bool(rp2.bootsel_button())
    except (ImportError, AttributeError):
        return False


def load_table():
    """Return the message table, or None (after saying so on the serial line) if it is missing."""
    try:
        with open(TABLE_FILE) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        print(MISSING_TABLE)
        return None


def make_strips():
    import neopixel

    return [neopixel.NeoPixel(machine.Pin(pin), count) for pin, count in config.STRIPS]


def make_reader():
    """Return the MFRC522's read function, or None if no reader is configured or answers."""
    wiring = config.READER
    if not wiring:
        return None
    pin = machine.Pin
    spi = machine.SPI(
        wiring["spi"],
        baudrate=wiring["baudrate"],
        polarity=0,
        phase=0,
        sck=pin(wiring["sck"]),
        mosi=pin(wiring["mosi"]),
        miso=pin(wiring["miso"]),
    )
    cs = pin(wiring["cs"], pin.OUT, value=1)
    rst = pin(wiring["rst"], pin.OUT, value=1)
    reader = MFRC522(spi, cs, rst, sleep_ms=time.sleep_ms)
    if not reader.init():
        return None

    def read_uid():
        uid = reader.read_uid()
        return None if uid is None else uid_text(uid)

    return read_uid


def make_buttons():
    """Return the button names and a function giving their levels (True = pressed)."""
    pins = []
    for _name, number in config.BUTTONS:
        pins.append(machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP))

    def read_buttons():
        return [pin.value() == 0 for pin in pins]

    return [name for name, _number in config.BUTTONS], read_buttons


def writer():
    """Return a function writing raw bytes to the USB serial line."""
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        return out.write

    def write(data):
        sys.stdout.write(data.decode())

    return write


def build(table, write):
    """Make the Firmware for this board from the table and the configured hardware."""
    track = Track(make_strips(), config.BRIGHTNESS)
    track.clear()
    read_uid = make_reader()
    names, read_buttons = make_buttons()
    return Firmware(
        Codec(table, "pico"),
        track,
        write,
        window=CardWindow(config.CARD_WINDOW_MS),
        read_uid=read_uid,
        debouncer=Debouncer(names, config.DEBOUNCE_MS),
        read_buttons=read_buttons,
        card_poll_ms=config.CARD_POLL_MS,
    )


def serve(firmware, clock, stdin, poller, max_bytes=1100):
    """Run the firmware until the Pi sends REPL or BOOTSEL is pressed: read what arrived, then
    poll the devices."""
    chunk = bytearray()
    next_bootsel = 0
    while not firmware.leaving:
        now = clock.read()
        if now >= next_bootsel:
            next_bootsel = now + 250
            if bootsel_held():
                print(LEAVING)
                break
        while len(chunk) < max_bytes and poller.poll(0):
            chunk.extend(stdin.read(1))
        if chunk:
            try:
                firmware.receive(bytes(chunk), now)
            except Exception as exc:
                firmware.send("ERR", [0, "internal", "receive failed: " + str(exc)])
            chunk = bytearray()
        try:
            firmware.poll(clock.read())
        except Exception as exc:
            firmware.send("ERR", [0, "internal", "poll failed: " + str(exc)])
            time.sleep_ms(10)


def run(stdin=None, write=None, poller=None):
    """Start the firmware; return to the REPL when BOOTSEL is pressed or the Pi sends REPL.

    ``stdin`` (bytes source with read(1)), ``write`` and ``poller`` default to USB serial.
    """
    if bootsel_held():
        print("companion firmware: BOOTSEL held, staying at the REPL")
        return
    table = load_table()
    while table is None:
        time.sleep_ms(5000)
        table = load_table()
    if stdin is None:
        stdin = sys.stdin.buffer
        poller = select.poll()
        poller.register(sys.stdin, select.POLLIN)
    clock = Clock()
    firmware = build(table, write or writer())
    micropython.kbd_intr(-1)
    try:
        firmware.boot()
        serve(firmware, clock, stdin, poller)
    finally:
        micropython.kbd_intr(3)
