"""What a page sends, read strictly: JSON of bounded depth with no lone surrogates, whole
numbers that are ints (never bools) or ASCII digits."""

from __future__ import annotations

import json
from typing import Any

#: The deepest nesting of lists and objects a page's request ever needs.
MAX_DEPTH = 8
#: Digits a whole number may be typed with: ASCII only ("²" or "٣" are not numbers here).
_DIGITS = frozenset("0123456789")


class Malformed(ValueError):
    """A request that is not JSON a page sends: too deep, unreadable or not text."""


def read_json(raw: bytes) -> Any:
    """Return the JSON value in ``raw``; raise Malformed when it cannot be a page's request.

    The nesting is counted before parsing (the parser never recurses past ``MAX_DEPTH``), and
    every string, key or value, must be text that can be written down (no lone surrogate).
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Malformed("not UTF-8") from None
    if _depth(text) > MAX_DEPTH:
        raise Malformed("nested too deep")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise Malformed("not JSON") from None
    if not _writable(value):
        raise Malformed("a string that is not text")
    return value


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings in JSON ``text``."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _writable(value: object) -> bool:
    """Whether every string in ``value`` is encodable text (JSON's "\\ud800" is not)."""
    if isinstance(value, str):
        return text_ok(value)
    if isinstance(value, list):
        return all(_writable(item) for item in value)
    if isinstance(value, dict):
        return all(text_ok(key) and _writable(item) for key, item in value.items())
    return True


def text_ok(text: str) -> bool:
    """Whether ``text`` has no lone surrogate (it can be written as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def whole(value: object) -> int | None:
    """``value`` as a whole number ≥ 0: an int that is not a bool, or a string of ASCII digits
    (spaces around allowed); None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str):
        digits = value.strip()
        if digits and len(digits) <= 9 and set(digits) <= _DIGITS:
            return int(digits)
    return None


def is_int(value: object) -> bool:
    """Whether ``value`` is a JSON integer (``true`` is not 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool)
