"""Stand-in for the micropython module: records the keyboard-interrupt character set."""

from __future__ import annotations

kbd_intr_calls: list[int] = []


def kbd_intr(char: int) -> None:
    kbd_intr_calls.append(char)


def const(value: int) -> int:
    return value
