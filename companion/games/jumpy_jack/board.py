"""The Jumpy Jack board as data: the lap length, the four hurdles, the horses, house rules.

A board comes from a TOML file (``Board.from_toml``) or the default board shipped in the
package (``Board.default``). Everything about an impossible board is a ``DataError`` naming
the file, the key and the reason. The board also precomputes, for every square and die
value, the squares a move crosses, so that checking a move is one bit test.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from companion.games.colours import COLOURS, rgb_of
from companion.games.errors import DataError

#: The default board file, shipped in the package beside this module.
DEFAULT_BOARD_FILE = "jumpy_jack_board.toml"

#: Faces of the ordinary die.
DIE_FACES = (1, 2, 3, 4, 5, 6)

#: The game is played with exactly this many horses (places 1 to 5 on the podium).
HORSE_COUNT = 5

MIN_SQUARES = 8
MAX_SQUARES = 200

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,9}\Z")


class Hurdle(Enum):
    """The four hurdles of the track."""

    STOP = "stop"
    DOUBLE = "double"
    OUT = "out"
    RESTART = "restart"


class Kind:
    """How a move ends, as small integers for the precomputed path table."""

    ADVANCE = 0
    STOP = 1
    OUT = 2
    RESTART = 3
    FINISH = 4


#: Capacity of the start square: it never fills up.
UNLIMITED = 1 << 30


@dataclass(frozen=True)
class Horse:
    """One horse: its name at the table and its colour."""

    name: str
    colour: str

    @property
    def rgb(self) -> tuple[int, int, int]:
        """Return the colour as red, green, blue (0..255)."""
        rgb = rgb_of(self.colour)
        if rgb is None:
            raise DataError(f"horse {self.name}: {self.colour!r} is neither a colour nor #rrggbb")
        return rgb


#: One precomputed move: (mask of the squares it crosses or lands on, final progress, kind).
PathEntry = tuple[int, int, int]


@dataclass(frozen=True)
class Board:
    """A Jumpy Jack track: ``squares`` squares per lap, hurdle squares, horses, house rules.

    Square 0 is the start square; a horse's square is its progress since its (re)start, and
    progress ``squares`` or more means it has crossed the line. Raises ``DataError`` when the
    board cannot be raced on (too short, a hurdle off the track or missing, two hurdles on
    one square, not five well-named horses).
    """

    squares: int
    stop: int
    double: int
    out: int
    restart: int
    horses: tuple[Horse, ...]
    exact_finish: bool = False
    name: str = "Jumpy Jack"
    source: str = field(default="<board>", compare=False)
    #: capacity[s]: how many horses square s holds before it blocks (1 on STOP, 2 elsewhere).
    capacity: tuple[int, ...] = field(init=False, compare=False, repr=False)
    #: path_table[p * 7 + d]: the move of a horse on square p with die d, None if impossible.
    path_table: tuple[PathEntry | None, ...] = field(init=False, compare=False, repr=False)
    _index: Mapping[str, int] = field(init=False, compare=False, repr=False)
    #: The hurdle on each hurdle square (``hurdle_at`` is asked for every horse of a position).
    _hurdles: Mapping[int, Hurdle] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._validate()
        object.__setattr__(self, "_hurdles", {self.square_of(h): h for h in Hurdle})
        capacity = [2] * self.squares
        capacity[0] = UNLIMITED
        capacity[self.stop] = 1
        object.__setattr__(self, "capacity", tuple(capacity))
        object.__setattr__(self, "path_table", self._build_paths())
        object.__setattr__(self, "_index", {h.name: i for i, h in enumerate(self.horses)})

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_toml(cls, text: str, source: str = "<board>") -> Board:
        """Read a board from the text of a TOML board file; ``source`` names it in errors.

        Raises ``DataError`` for bad TOML, unknown or missing keys, wrong types and
        impossible boards.
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise DataError(f"{source}: not valid TOML: {error}") from None
        return cls.from_mapping(data, source)

    @classmethod
    def default(cls) -> Board:
        """Return the default board shipped with the companion."""
        return _default_board()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<board>") -> Board:
        """Build a board from the mapping a board file holds (also the JSON of a saved game).

        Raises ``DataError`` naming ``source`` and the key at fault.
        """
        reader = _Reader(source)
        reader.keys(data, "", required={"squares", "hurdles", "horses"}, optional={"name", "rules"})
        squares = reader.integer(data["squares"], "squares")
        hurdles = reader.table(data["hurdles"], "hurdles")
        reader.keys(hurdles, "hurdles.", required={h.value for h in Hurdle}, optional=set())
        where = {h: reader.integer(hurdles[h.value], f"hurdles.{h.value}") for h in Hurdle}
        horses_data = data["horses"]
        if not isinstance(horses_data, list):
            raise DataError(f"{source}: horses: expected a list of horses")
        horses = []
        for number, item in enumerate(horses_data, start=1):
            key = f"horses[{number}]"
            entry = reader.table(item, key)
            reader.keys(entry, f"{key}.", required={"name", "colour"}, optional=set())
            horses.append(
                Horse(
                    reader.text(entry["name"], f"{key}.name"),
                    reader.text(entry["colour"], f"{key}.colour"),
                )
            )
        rules = reader.table(data.get("rules", {}), "rules")
        reader.keys(rules, "rules.", required=set(), optional={"exact_finish"})
        exact = rules.get("exact_finish", False)
        if not isinstance(exact, bool):
            raise DataError(f"{source}: rules.exact_finish: expected true or false")
        name = reader.text(data.get("name", "Jumpy Jack"), "name")
        return cls(
            squares=squares,
            stop=where[Hurdle.STOP],
            double=where[Hurdle.DOUBLE],
            out=where[Hurdle.OUT],
            restart=where[Hurdle.RESTART],
            horses=tuple(horses),
            exact_finish=exact,
            name=name,
            source=source,
        )

    def to_mapping(self) -> dict[str, Any]:
        """Return the board as the mapping a board file holds (``from_mapping`` reads it)."""
        return {
            "name": self.name,
            "squares": self.squares,
            "hurdles": {h.value: self.square_of(h) for h in Hurdle},
            "horses": [{"name": h.name, "colour": h.colour} for h in self.horses],
            "rules": {"exact_finish": self.exact_finish},
        }

    # -- queries --------------------------------------------------------------------------

    @property
    def horse_names(self) -> tuple[str, ...]:
        """Return the horses' names in board order."""
        return tuple(h.name for h in self.horses)

    def horse_index(self, name: str) -> int | None:
        """Return the index of the horse called ``name``, or None if there is none."""
        return self._index.get(name)

    def square_of(self, hurdle: Hurdle) -> int:
        """Return the square a hurdle sits on."""
        return {
            Hurdle.STOP: self.stop,
            Hurdle.DOUBLE: self.double,
            Hurdle.OUT: self.out,
            Hurdle.RESTART: self.restart,
        }[hurdle]

    def hurdle_at(self, square: int) -> Hurdle | None:
        """Return the hurdle on ``square``, or None for an ordinary square."""
        return self._hurdles.get(square)

    # -- internals ------------------------------------------------------------------------

    def _validate(self) -> None:
        where = f"{self.source}: "
        if isinstance(self.squares, bool) or not isinstance(self.squares, int):
            raise DataError(f"{where}squares: expected a whole number")
        if not MIN_SQUARES <= self.squares <= MAX_SQUARES:
            raise DataError(
                f"{where}squares: {self.squares} squares; a track has "
                f"{MIN_SQUARES} to {MAX_SQUARES} squares"
            )
        seen: dict[int, Hurdle] = {}
        for hurdle in Hurdle:
            square = self.square_of(hurdle)
            if isinstance(square, bool) or not isinstance(square, int):
                raise DataError(f"{where}hurdles.{hurdle.value}: expected a square number")
            if not 1 <= square < self.squares:
                raise DataError(
                    f"{where}hurdles.{hurdle.value}: square {square} is off the track "
                    f"(hurdles sit on squares 1 to {self.squares - 1})"
                )
            if square in seen:
                raise DataError(
                    f"{where}hurdles.{hurdle.value}: square {square} already holds "
                    f"the {seen[square].value} hurdle"
                )
            seen[square] = hurdle
        if len(self.horses) != HORSE_COUNT:
            raise DataError(
                f"{where}horses: {len(self.horses)} horses; the game needs {HORSE_COUNT}"
            )
        names: set[str] = set()
        for number, horse in enumerate(self.horses, start=1):
            if not _NAME.match(horse.name):
                raise DataError(
                    f"{where}horses[{number}].name: {horse.name!r} is not one word of "
                    "1 to 10 letters, digits, '-' or '_' starting with a letter"
                )
            if horse.name.lower() in names:
                raise DataError(f"{where}horses[{number}].name: {horse.name!r} is used twice")
            names.add(horse.name.lower())
            if rgb_of(horse.colour) is None:
                raise DataError(
                    f"{where}horses[{number}].colour: {horse.colour!r} is neither a colour "
                    f"word ({', '.join(sorted(COLOURS))}) nor #rrggbb"
                )

    def _build_paths(self) -> tuple[PathEntry | None, ...]:
        n = self.squares
        kinds = {self.stop: Kind.STOP, self.out: Kind.OUT, self.restart: Kind.RESTART}
        table: list[PathEntry | None] = [None] * (n * 7)
        for start in range(n):
            for die in DIE_FACES:
                landing = start + die
                final = landing + die if landing == self.double else landing
                if self.exact_finish and final > n:
                    continue
                last = min(final, n - 1)
                mask = 0
                for square in range(start + 1, last + 1):
                    mask |= 1 << square
                kind = Kind.FINISH if final >= n else kinds.get(final, Kind.ADVANCE)
                table[start * 7 + die] = (mask, final, kind)
        return tuple(table)


@functools.cache
def _default_board() -> Board:
    resource = importlib.resources.files("companion.games").joinpath("data", DEFAULT_BOARD_FILE)
    return Board.from_toml(resource.read_text(encoding="utf-8"), source=DEFAULT_BOARD_FILE)


class _Reader:
    """Type checks for the values of a board file, with errors naming file and key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def keys(
        self, data: Mapping[str, Any], prefix: str, required: set[str], optional: set[str]
    ) -> None:
        for key in sorted(required - set(data)):
            raise DataError(f"{self.source}: {prefix}{key}: missing")
        for key in sorted(set(data) - required - optional):
            raise DataError(f"{self.source}: {prefix}{key}: unknown key")

    def table(self, value: object, key: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise DataError(f"{self.source}: {key}: expected a table")
        return value

    def integer(self, value: object, key: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DataError(f"{self.source}: {key}: expected a whole number, got {value!r}")
        return value

    def text(self, value: object, key: str) -> str:
        if not isinstance(value, str):
            raise DataError(f"{self.source}: {key}: expected text, got {value!r}")
        return value
