"""This Pico's build: pins (GP numbers) and sizes. Edit to match the wiring, then copy it over."""

#: One (data pin, LED count) pair per WS2812 strip, in track order: LED indexes run along the
#: first strip, then the second. A count larger than the strip is harmless.
STRIPS = ((2, 100),)

#: Brightness (0..255) from power-up until the Pi sends its own: a quarter, to spare the supply.
BRIGHTNESS = 64

#: The MFRC522 on SPI0. Set READER = None when no reader is wired.
READER = {"spi": 0, "sck": 18, "mosi": 19, "miso": 16, "cs": 17, "rst": 20, "baudrate": 1000000}

#: Buttons wired from a pin to ground (internal pull-up): (name reported to the Pi, pin).
#: Rename them to "die", "horse1".."horse5", "push" or "undo" to give them a job at the table.
BUTTONS = (("spare1", 10), ("spare2", 11), ("spare3", 12), ("spare4", 13))

DEBOUNCE_MS = 30
CARD_WINDOW_MS = 1500
CARD_POLL_MS = 60
