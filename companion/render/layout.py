"""Where each track square lights on the LED strip: one layout per game, from a board file.

The board files (``companion/render/boards/<game>.toml``, or ``board.toml`` in an added
game's own folder: ``registry.board_file``) give the LED of every place a horse can be, and
are the only place a layout is written. ``load_layout`` reads one; ``Layouts`` gives the
layout of each registered game, a game's file read when a game of its kind is first lit. A square a
layout does not know is simply not lit.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from companion.games.registry import KINDS, board_file, find_game


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
    """Lanes side by side (Course hippique): ``lanes[horse][p]`` is the LED of position p.

    ``keys`` names each horse's lane as a board file does (its key under ``[leds]``).
    """

    count: int
    lanes: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict)

    def led(self, lane: str, position: int) -> int | None:
        """Return the LED of ``position`` in ``lane``, or None."""
        leds = self.lanes.get(lane, ())
        return leds[position] if 0 <= position < len(leds) else None


#: The layout of one game's strip: a track of squares or lanes side by side.
Layout = TrackLeds | LaneLeds


@cache
def default_layout(kind: str) -> Layout:
    """Return the layout of a game's board file of the default build; KeyError if none."""
    if kind not in KINDS:
        raise KeyError(f"no layout for {kind!r}: the registry lists {', '.join(KINDS)}")
    board = board_file(kind)
    return load_layout(board.read_text(encoding="utf-8"), str(board), kind)


@dataclass(frozen=True)
class Layouts:
    """The layout of each registered game's strip, by the game's kind: the one ``given`` for
    it (read from a board file of another folder), else the game's own board file, read when
    a game of that kind is first lit (a start reads none)."""

    given: Mapping[str, Layout] = field(default_factory=dict)

    @classmethod
    def default(cls) -> Layouts:
        """Return the layouts of the default build (the games' own board files)."""
        return cls()

    @classmethod
    def from_folder(cls, folder: str | Path) -> Layouts:
        """Read ``<game>.toml`` for each game from ``folder``; a missing file keeps the default.

        Raises LayoutError for a file that is there but wrong.
        """
        found: dict[str, Layout] = {}
        for kind in KINDS:
            path = Path(folder) / f"{kind}.toml"
            if path.exists():
                found[kind] = load_layout(path.read_text(encoding="utf-8"), str(path), kind)
        return cls(found)

    def of(self, kind: str) -> Layout:
        """Return the layout of a game's strip; KeyError for a kind the registry does not list."""
        layout = self.given.get(kind)
        return layout if layout is not None else default_layout(kind)

    def track(self, kind: str) -> TrackLeds:
        """Return the layout of a game of numbered squares. Raises LayoutError for lanes."""
        layout = self.of(kind)
        if not isinstance(layout, TrackLeds):
            raise LayoutError(f"{kind}: the strip is laid out in lanes, not as a track")
        return layout

    def lanes(self, kind: str) -> LaneLeds:
        """Return the layout of a game of lanes. Raises LayoutError for a track."""
        layout = self.of(kind)
        if not isinstance(layout, LaneLeds):
            raise LayoutError(f"{kind}: the strip is laid out as a track, not in lanes")
        return layout


def load_layout(text: str, source: str, game: str | None = None) -> Layout:
    """Read the layout of a board file's text; ``game`` (if given) must match its ``game``.

    A file whose ``[track]`` names ``lanes`` (one word per horse, in the game's horse order)
    lays out lanes, each under its word in ``[leds]``; any other a track of ``squares``.
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
    track = data.get("track", {})
    words = track.get("lanes") if isinstance(track, dict) else None
    if words is not None:
        horses = find_game(kind).horses
        if not (isinstance(words, list) and len(words) == len(horses)):
            raise LayoutError(f"{source}: track.lanes: expected {len(horses)} names, one a horse")
        keys = {horse: str(word) for horse, word in zip(horses, words, strict=True)}
        lanes = {
            horse: _leds(leds.get(key), source, f"leds.{key}", count) for horse, key in keys.items()
        }
        return LaneLeds(count, lanes, keys)
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
