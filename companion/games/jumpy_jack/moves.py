"""Value types of a Jumpy Jack race: a horse's state, a move and its outcome, the podium."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any

from companion.games.jumpy_jack.board import HORSE_COUNT, Kind


class HorseState(Enum):
    """Where a horse is in the race."""

    RACING = "racing"
    FINISHED = "finished"
    OUT = "out"


class Landing(Enum):
    """How a move ends for the horse that made it."""

    ADVANCE = "advance"  # rests on an ordinary square
    STOP = "stop"  # rests on the STOP square, blocking it
    OUT = "out"  # eliminated on OUT
    RESTART = "restart"  # back on the start square with progress 0
    FINISH = "finish"  # crossed the line


#: The effect of each kind of precomputed move.
EFFECT_OF_KIND = {
    Kind.ADVANCE: Landing.ADVANCE,
    Kind.STOP: Landing.STOP,
    Kind.OUT: Landing.OUT,
    Kind.RESTART: Landing.RESTART,
    Kind.FINISH: Landing.FINISH,
}


@dataclass(frozen=True)
class Move:
    """A legal move and everything it does.

    ``landing`` is where the die takes the horse (``squares`` or more: over the line);
    ``bounce`` is where the DOUBLE bounce takes it, when it landed on DOUBLE; ``effect`` is
    what happens at the last landing; ``barrage`` tells that it lands beside a lone horse
    and forms a barrage; ``place`` is the podium place it takes (finish or elimination).
    """

    horse: str
    die: int
    origin: int
    landing: int
    bounce: int | None
    effect: Landing
    barrage: bool
    place: int | None

    @property
    def final(self) -> int:
        """Return the progress at the last landing (after the bounce, if any)."""
        return self.landing if self.bounce is None else self.bounce

    @property
    def bounced(self) -> bool:
        """Tell whether the horse bounced on DOUBLE."""
        return self.bounce is not None

    @property
    def finish(self) -> bool:
        """Tell whether the move takes the horse over the line."""
        return self.effect is Landing.FINISH

    @property
    def square(self) -> int | None:
        """Return the square the horse rests on afterwards (None once finished or out)."""
        if self.effect in (Landing.FINISH, Landing.OUT):
            return None
        return 0 if self.effect is Landing.RESTART else self.final

    def to_mapping(self) -> dict[str, Any]:
        """Return the move as plain data."""
        return {
            "horse": self.horse,
            "die": self.die,
            "origin": self.origin,
            "landing": self.landing,
            "bounce": self.bounce,
            "effect": self.effect.value,
            "barrage": self.barrage,
            "place": self.place,
        }

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Move:
        """Read a move written by ``to_mapping``; raises KeyError/ValueError/TypeError."""
        move = cls(
            horse=str(data["horse"]),
            die=int(data["die"]),
            origin=int(data["origin"]),
            landing=int(data["landing"]),
            bounce=None if data["bounce"] is None else int(data["bounce"]),
            effect=Landing(data["effect"]),
            barrage=bool(data["barrage"]),
            place=None if data["place"] is None else int(data["place"]),
        )
        if move.to_mapping() != dict(data):
            raise ValueError(f"not a move: {dict(data)!r}")
        return move


@dataclass(frozen=True)
class Podium:
    """The podium: finishers take places 1, 2, 3... in crossing order, eliminated horses
    take places 5, 4, 3... in elimination order (a value: its places are worked out once)."""

    finishers: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()
    size: int = HORSE_COUNT

    @cached_property
    def places(self) -> tuple[str | None, ...]:
        """Return the horse on each place, place 1 first (None: still free)."""
        holders: list[str | None] = [None] * self.size
        for index, horse in enumerate(self.finishers):
            holders[index] = horse
        for index, horse in enumerate(self.eliminated):
            holders[self.size - 1 - index] = horse
        return tuple(holders)

    @cached_property
    def top3(self) -> tuple[str | None, str | None, str | None]:
        """Return the horses on places 1, 2 and 3."""
        first, second, third = self.places[:3]
        return (first, second, third)

    @property
    def complete(self) -> bool:
        """Tell whether places 1, 2 and 3 are all taken: the race is over."""
        return None not in self.top3

    def at(self, place: int) -> str | None:
        """Return the horse on ``place`` (1..5), or None."""
        return self.places[place - 1]

    def place_of(self, horse: str) -> int | None:
        """Return the place ``horse`` holds, or None while it races."""
        if horse in self.finishers:
            return self.finishers.index(horse) + 1
        if horse in self.eliminated:
            return self.size - self.eliminated.index(horse)
        return None

    def to_mapping(self) -> dict[str, Any]:
        """Return the podium as plain data."""
        return {"finishers": list(self.finishers), "eliminated": list(self.eliminated)}

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Podium:
        """Read a podium written by ``to_mapping``; raises KeyError/ValueError/TypeError."""
        finishers, eliminated = data["finishers"], data["eliminated"]
        if not all(isinstance(h, str) for h in [*finishers, *eliminated]):
            raise ValueError("podium horses must be names")
        return cls(tuple(finishers), tuple(eliminated))
