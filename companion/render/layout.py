"""Where each track square lights on the LED strip: one layout per game, from a board file.

The board files (``hardware/boards/<game>.toml``) give the LED of every place a horse can be.
``load_layout`` reads one; ``Layouts.default()`` holds the same layouts as the files of the
default build, so the companion lights the strip without them. A square a layout does not
know is simply not lit.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games.registry import KINDS, find_game

#: The Course hippique lanes, in the engine's horse order (spades, hearts, diamonds, clubs).
LANES = find_game("course_hippique").horses
_LANE_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}


class LayoutError(ValueError):
    """A board file that does not describe a layout: names the file, the key and why."""


@dataclass(frozen=True)
class TrackLeds:
    """A track of numbered squares (Jumpy Jack, Jockey): ``squares[s]`` is the LED of square s.

    ``finish`` lists the LEDs past the finish line (the first one is lit for a finisher);
    ``start``, one LED per horse in button order, where each horse shows while every horse
    still waits at the start (so the table sees which button is which colour).
    """

    count: int
    squares: tuple[int, ...]
    finish: tuple[int, ...] = ()
    start: tuple[int, ...] = ()

    def led(self, square: int) -> int | None:
        """Return the LED of ``square`` (past the last square: the finish LED), or None."""
        if 0 <= square < len(self.squares):
            return self.squares[square]
        if square >= len(self.squares) and self.finish:
            return self.finish[0]
        return None

    def path(self, squares: Sequence[int]) -> tuple[int, ...]:
        """Return the LEDs of ``squares`` in order, each LED once in a row (shared LEDs)."""
        out: list[int] = []
        for square in squares:
            led = self.led(square)
            if led is not None and (not out or out[-1] != led):
                out.append(led)
        return tuple(out)


@dataclass(frozen=True)
class LaneLeds:
    """Lanes side by side (Course hippique): ``lanes[letter][p]`` is the LED of position p."""

    count: int
    lanes: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def led(self, lane: str, position: int) -> int | None:
        """Return the LED of ``position`` in ``lane``, or None."""
        leds = self.lanes.get(lane, ())
        return leds[position] if 0 <= position < len(leds) else None


@dataclass(frozen=True)
class Layouts:
    """The layout of each game's strip."""

    jumpy_jack: TrackLeds
    course_hippique: LaneLeds
    jockey: TrackLeds

    @classmethod
    def default(cls) -> Layouts:
        """Return the layouts of the default build (the board files in hardware/boards/)."""
        jumpy = TrackLeds(60, tuple(2 * s for s in range(30)), (59,), (0, 1, 3, 5, 7))
        lanes = LaneLeds(
            36,
            {
                "S": tuple(range(0, 9)),
                "H": tuple(range(17, 8, -1)),
                "D": tuple(range(18, 27)),
                "C": tuple(range(35, 26, -1)),
            },
        )
        jockey = TrackLeds(42, (0, *((s + 1) // 2 for s in range(1, 81))), (41,))
        return cls(jumpy, lanes, jockey)

    @classmethod
    def from_folder(cls, folder: str | Path) -> Layouts:
        """Read ``<game>.toml`` for each game from ``folder``; a missing file keeps the default.

        Raises LayoutError for a file that is there but wrong.
        """
        base = cls.default()
        found: dict[str, TrackLeds | LaneLeds] = {}
        for game in KINDS:
            path = Path(folder) / f"{game}.toml"
            if path.exists():
                found[game] = load_layout(path.read_text(encoding="utf-8"), str(path), game)
        jumpy, lanes, jockey = (
            found.get("jumpy_jack", base.jumpy_jack),
            found.get("course_hippique", base.course_hippique),
            found.get("jockey", base.jockey),
        )
        assert isinstance(jumpy, TrackLeds) and isinstance(jockey, TrackLeds)
        assert isinstance(lanes, LaneLeds)
        return cls(jumpy, lanes, jockey)


def load_layout(text: str, source: str, game: str | None = None) -> TrackLeds | LaneLeds:
    """Read the layout of a board file's text; ``game`` (if given) must match its ``game``.

    Raises LayoutError naming ``source`` and the key.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LayoutError(f"{source}: not valid TOML: {error}") from None
    kind = data.get("game")
    if kind not in KINDS or (game is not None and kind != game):
        raise LayoutError(f"{source}: game: expected {game or ' or '.join(KINDS)}, got {kind!r}")
    count = _int(data.get("strip_leds"), source, "strip_leds")
    leds = data.get("leds")
    if not isinstance(leds, dict):
        raise LayoutError(f"{source}: leds: missing table")
    if kind == "course_hippique":
        lanes: dict[str, tuple[int, ...]] = {}
        for word, letter in _LANE_WORDS.items():
            lanes[letter] = _leds(leds.get(word), source, f"leds.{word}", count)
        return LaneLeds(count, lanes)
    squares = _leds(leds.get("squares"), source, "leds.squares", count)
    finish = _leds(leds.get("finish", []), source, "leds.finish", count)
    start = _leds(leds.get("start", []), source, "leds.start", count)
    return TrackLeds(count, squares, finish, start)


def _int(value: Any, source: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise LayoutError(f"{source}: {key}: expected a whole number of LEDs, got {value!r}")
    return value


def _leds(value: Any, source: str, key: str, count: int) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise LayoutError(f"{source}: {key}: expected a list of LED indexes")
    for index in value:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise LayoutError(f"{source}: {key}: LED {index!r} is not one of 0..{count - 1}")
    return tuple(value)
