"""The companion: a Raspberry Pi that runs the table of a horse-racing board game."""

__version__ = "0.1.0"
