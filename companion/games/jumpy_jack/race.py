"""One Jumpy Jack race: where the horses stand, the legal moves for a die, the podium.

A ``Position`` is immutable: ``check`` tells whether a horse may move with a die value (it
returns the full ``Move`` or raises ``Refusal``), ``legal_moves`` lists every legal move,
``after`` applies a move and returns the new position. ``play_out`` finishes a race with
random legal moves, fast, for simulations (it takes a seeded ``random.Random``).

Race notation (one line, round-trips a position; the empty line is the start)::

    position   = [ entry *( 1*SP entry ) ]
    entry      = horse "=" ( square / "F" place / "X" place )
    square     = 1*DIGIT      ; 0 .. squares-1: the horse races there (0 = start square)
    place      = DIGIT        ; F: crossed the line and took this podium place
                              ; X: eliminated on OUT and took this podium place

A horse left out of the line stands on the start square. ``to_text`` writes every horse,
in board order: ``red=12 blue=F1 green=0 yellow=12 white=X5``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.games.errors import DataError, Refusal
from companion.games.jumpy_jack.board import DIE_FACES, Board, Hurdle, Kind
from companion.games.jumpy_jack.moves import EFFECT_OF_KIND, HorseState, Landing, Move, Podium
from companion.games.text import short


@dataclass(frozen=True)
class Position:
    """Where every horse of a race stands: its square while racing, else its podium place.

    ``squares[i]`` is the progress of the board's i-th horse, None once finished or out.
    Raises ``DataError`` for a position no race can reach (two horses on STOP, three on a
    square, a horse resting on DOUBLE, OUT or RESTART, podium places out of order...).
    """

    board: Board
    squares: tuple[int | None, ...]
    podium: Podium = field(default_factory=Podium)
    _full: int = field(init=False, compare=False, repr=False)
    _count: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        count = self._validate()
        full = 0
        for square in range(1, self.board.squares):
            if count[square] >= self.board.capacity[square]:
                full |= 1 << square
        object.__setattr__(self, "_count", tuple(count))
        object.__setattr__(self, "_full", full)

    @classmethod
    def start(cls, board: Board) -> Position:
        """Return the start of a race: every horse on the start square."""
        return cls(board, (0,) * len(board.horses))

    # -- notation -------------------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, board: Board | None = None) -> Position:
        """Read a position in race notation (see the module docstring).

        Raises ``DataError`` naming the entry at fault.
        """
        board = board or Board.default()
        squares: list[int | None] = [0] * len(board.horses)
        seen: set[str] = set()
        finished: dict[int, str] = {}
        out: dict[int, str] = {}
        for entry in text.split():
            name, sign, value = entry.partition("=")
            index = board.horse_index(name)
            if not sign or index is None:
                raise DataError(
                    f"notation: {entry!r}: expected horse=square, horse=F<place> or horse=X<place>"
                )
            if name in seen:
                raise DataError(f"notation: {name} appears twice")
            seen.add(name)
            head, digits = value[:1].upper(), value[1:]
            if value.isdigit():
                squares[index] = int(value)
            elif head in ("F", "X") and digits.isdigit():
                squares[index] = None
                places = finished if head == "F" else out
                if int(digits) in finished or int(digits) in out:
                    raise DataError(f"notation: place {int(digits)} is given twice")
                places[int(digits)] = name
            else:
                raise DataError(
                    f"notation: {entry!r}: expected horse=square, horse=F<place> or horse=X<place>"
                )
        size = len(board.horses)
        if sorted(finished) != list(range(1, len(finished) + 1)):
            raise DataError(f"notation: finishers must hold places 1 to {len(finished)}")
        if sorted(out) != list(range(size - len(out) + 1, size + 1)):
            raise DataError(
                f"notation: eliminated horses must hold places {size} down to {size - len(out) + 1}"
            )
        podium = Podium(
            tuple(finished[p] for p in sorted(finished)),
            tuple(out[p] for p in sorted(out, reverse=True)),
            size,
        )
        return cls(board, tuple(squares), podium)

    def to_text(self) -> str:
        """Write the position in race notation, every horse in board order."""
        entries = []
        for name, square in zip(self.board.horse_names, self.squares, strict=True):
            if square is not None:
                entries.append(f"{name}={square}")
            else:
                letter = "F" if name in self.podium.finishers else "X"
                entries.append(f"{name}={letter}{self.podium.place_of(name)}")
        return " ".join(entries)

    def __str__(self) -> str:
        return self.to_text()

    # -- queries --------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Tell whether the race is over (places 1, 2 and 3 taken)."""
        return self.podium.complete

    def state(self, horse: str) -> HorseState:
        """Return whether ``horse`` races, has finished or is out. Raises KeyError."""
        index = self._index(horse)
        if self.squares[index] is not None:
            return HorseState.RACING
        return HorseState.FINISHED if horse in self.podium.finishers else HorseState.OUT

    def square(self, horse: str) -> int | None:
        """Return the square ``horse`` stands on, None once finished or out. Raises KeyError."""
        return self.squares[self._index(horse)]

    def racing(self) -> tuple[str, ...]:
        """Return the horses still racing, in board order."""
        return tuple(
            name
            for name, sq in zip(self.board.horse_names, self.squares, strict=True)
            if sq is not None
        )

    def occupants(self, square: int) -> tuple[str, ...]:
        """Return the horses on ``square``, in board order."""
        return tuple(
            name
            for name, sq in zip(self.board.horse_names, self.squares, strict=True)
            if sq == square
        )

    def blocked_squares(self) -> tuple[int, ...]:
        """Return the squares nobody may land on or pass: barrages and an occupied STOP."""
        return tuple(s for s in range(1, self.board.squares) if self._full >> s & 1)

    def legal_moves(self, die: int) -> tuple[Move, ...]:
        """Return every legal move for a die value, in board order of the horses."""
        table = self.board.path_table
        full = self._full
        moves = []
        for index, square in enumerate(self.squares):
            if square is None:
                continue
            entry = table[square * 7 + die]
            if entry is not None and not entry[0] & full:
                moves.append(self._move(index, square, die, entry[1], entry[2]))
        return tuple(moves)

    def can_move(self, die: int) -> bool:
        """Tell whether any horse may move with this die value."""
        table = self.board.path_table
        for square in self.squares:
            if square is not None:
                entry = table[square * 7 + die]
                if entry is not None and not entry[0] & self._full:
                    return True
        return False

    def check(self, horse: str, die: int) -> Move:
        """Return the move of ``horse`` for ``die`` with its full outcome.

        Raises ``Refusal``: ``unknown_horse``, ``horse_finished``, ``horse_out``, or the
        first obstacle along the path (``barrage``, ``stop_occupied``, ``overshoot``;
        anything stopping a DOUBLE bounce is ``double_blocked``). Raises ValueError for a
        die value outside 1..6.
        """
        if die not in DIE_FACES:
            raise ValueError(f"die value {die!r} is not 1..6")
        index = self.board.horse_index(horse)
        if index is None:
            raise Refusal(
                "unknown_horse", "There is no horse called {horse}.", horse=short(horse, 10)
            )
        square = self.squares[index]
        if square is None:
            if horse in self.podium.finishers:
                raise Refusal(
                    "horse_finished",
                    "{horse} has finished: move a horse still racing.",
                    horse=horse,
                )
            raise Refusal(
                "horse_out", "{horse} is out of the race: move a horse still racing.", horse=horse
            )
        entry = self.board.path_table[square * 7 + die]
        if entry is None or entry[0] & self._full:
            raise self._obstacle(horse, square, die)
        return self._move(index, square, die, entry[1], entry[2])

    def after(self, move: Move) -> Position:
        """Return the position once ``move`` (from ``check`` or ``legal_moves``) is made."""
        index = self._index(move.horse)
        squares = list(self.squares)
        squares[index] = move.square
        podium = self.podium
        if move.effect is Landing.FINISH:
            podium = Podium((*podium.finishers, move.horse), podium.eliminated, podium.size)
        elif move.effect is Landing.OUT:
            podium = Podium(podium.finishers, (*podium.eliminated, move.horse), podium.size)
        return Position(self.board, tuple(squares), podium)

    def play(self, horse: str, die: int) -> Position:
        """Check and make a move in one step; raises ``Refusal`` as ``check`` does."""
        return self.after(self.check(horse, die))

    # -- internals ------------------------------------------------------------------------

    def _index(self, horse: str) -> int:
        index = self.board.horse_index(horse)
        if index is None:
            raise KeyError(horse)
        return index

    def _move(self, index: int, origin: int, die: int, final: int, kind: int) -> Move:
        landing = origin + die
        effect = EFFECT_OF_KIND[kind]
        place = None
        if effect is Landing.FINISH:
            place = len(self.podium.finishers) + 1
        elif effect is Landing.OUT:
            place = self.podium.size - len(self.podium.eliminated)
        barrage = effect in (Landing.ADVANCE, Landing.STOP) and self._count[final] == 1
        return Move(
            horse=self.board.horses[index].name,
            die=die,
            origin=origin,
            landing=landing,
            bounce=final if final != landing else None,
            effect=effect,
            barrage=barrage,
            place=place,
        )

    def _obstacle(self, horse: str, origin: int, die: int) -> Refusal:
        board = self.board
        last = board.squares - 1
        landing = origin + die
        for square in range(origin + 1, min(landing, last) + 1):
            if self._full >> square & 1:
                if square == board.stop:
                    if square == landing:
                        return Refusal(
                            "stop_occupied",
                            "STOP on square {square} is taken: no horse may land on it.",
                            square=square,
                        )
                    return Refusal(
                        "stop_occupied",
                        "STOP on square {square} is taken: no horse may pass it.",
                        square=square,
                    )
                if square == landing:
                    return Refusal(
                        "barrage",
                        "Barrage on square {square}: no horse may land on it.",
                        square=square,
                    )
                return Refusal(
                    "barrage", "Barrage on square {square}: no horse may pass it.", square=square
                )
        if landing > board.squares:
            return Refusal(
                "overshoot",
                "{horse} must land exactly on the line: {die} is too many.",
                horse=horse,
                die=die,
            )
        if landing == board.double:
            bounce = landing + die
            for square in range(landing + 1, min(bounce, last) + 1):
                if self._full >> square & 1:
                    return Refusal(
                        "double_blocked",
                        "DOUBLE bounce of {horse} is blocked on square {square}.",
                        horse=horse,
                        square=square,
                    )
            return Refusal(
                "double_blocked", "DOUBLE bounce of {horse} would go past the line.", horse=horse
            )
        raise AssertionError(f"no obstacle for {horse} from {origin} with {die}")

    def _validate(self) -> list[int]:
        board = self.board
        size = len(board.horses)
        if len(self.squares) != size:
            raise DataError(f"position: {len(self.squares)} horses given, the board has {size}")
        count = [0] * board.squares
        off_track = set()
        for name, square in zip(board.horse_names, self.squares, strict=True):
            if square is None:
                off_track.add(name)
                continue
            if isinstance(square, bool) or not isinstance(square, int):
                raise DataError(f"position: {name}: square {square!r} is not a number")
            if not 0 <= square < board.squares:
                raise DataError(f"position: {name}: square {square} is not on the track")
            hurdle = board.hurdle_at(square)
            if hurdle in (Hurdle.DOUBLE, Hurdle.OUT, Hurdle.RESTART):
                raise DataError(
                    f"position: {name}: no horse ever rests on {hurdle.name} ({square})"
                )
            count[square] += 1
            if square and count[square] > board.capacity[square]:
                what = "STOP" if square == board.stop else f"square {square}"
                raise DataError(f"position: {what} holds too many horses")
        placed = [*self.podium.finishers, *self.podium.eliminated]
        if self.podium.size != size or len(placed) != len(set(placed)) or set(placed) != off_track:
            raise DataError("position: the podium must hold exactly the horses off the track")
        return count


def play_out(position: Position, rng: random.Random) -> Podium:
    """Finish a race with random legal moves and return its podium.

    Each turn rolls the die with ``rng`` and moves a horse chosen uniformly among those
    that may legally move (a roll with no legal move is forfeited). This is the fast path
    used by simulations and the benchmark: no ``Move`` objects are built.
    """
    board = position.board
    size = len(board.horses)
    table = board.path_table
    capacity = board.capacity
    progress = [-1 if s is None else s for s in position.squares]
    count = list(position._count)
    full = position._full
    racing = [i for i, s in enumerate(progress) if s >= 0]
    names = board.horse_names
    finishers = [position._index(h) for h in position.podium.finishers]
    eliminated = [position._index(h) for h in position.podium.eliminated]
    done = len(finishers)
    placed = done + len(eliminated)
    draw = rng.random
    while done < 3 and placed < size:
        die = int(draw() * 6) + 1
        legal = []
        for horse in racing:
            entry = table[progress[horse] * 7 + die]
            if entry is not None and not entry[0] & full:
                legal.append(horse)
        if not legal:
            continue
        horse = legal[int(draw() * len(legal))]
        origin = progress[horse]
        _, final, kind = table[origin * 7 + die]  # type: ignore[misc]
        if origin:
            count[origin] -= 1
            full &= ~(1 << origin)
        if kind <= Kind.STOP:
            progress[horse] = final
            count[final] += 1
            if count[final] >= capacity[final]:
                full |= 1 << final
        elif kind == Kind.RESTART:
            progress[horse] = 0
        else:
            racing.remove(horse)
            placed += 1
            if kind == Kind.FINISH:
                finishers.append(horse)
                done += 1
            else:
                eliminated.append(horse)
    return Podium(tuple(names[i] for i in finishers), tuple(names[i] for i in eliminated), size)


def random_race(board: Board, rng: random.Random) -> Podium:
    """Race a whole race from the start with random legal moves; return its podium."""
    return play_out(Position.start(board), rng)


def place_chances(
    position: Position, rng: random.Random, races: int
) -> dict[str, tuple[float, ...]]:
    """Estimate, by ``races`` random play-outs, each horse's chance of each podium place.

    Returns ``{horse: (chance of place 1, ..., chance of place 5)}``.
    """
    size = len(position.board.horses)
    tally = {name: [0] * size for name in position.board.horse_names}
    for _ in range(races):
        for place, horse in enumerate(play_out(position, rng).places):
            if horse is not None:
                tally[horse][place] += 1
    return {name: tuple(n / races for n in counts) for name, counts in tally.items()}
