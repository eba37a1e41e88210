"""One Jockey race: the horses' squares, their positions with ties, and what each card does."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from companion.games.errors import DataError, Refusal
from companion.games.jockey.deck import HORSES, CardKind, JockeyCard, JockeyHorse
from companion.games.text import N_, Message

#: The last square of the standard board; a horse beyond it has passed the finish.
TRACK_LENGTH = 80

#: The race ends the moment this many horses have passed the finish.
FINISHERS = 2

_ORDINALS = ("1st", "2nd")


@dataclass(frozen=True, slots=True)
class Place:
    """Positions ``first``..``last`` (1 = No. 1), held together by the horses on one square.

    A position is determined only when exactly one horse holds it.
    """

    first: int
    last: int
    horses: tuple[JockeyHorse, ...]
    square: int

    @property
    def determined(self) -> bool:
        """Tell whether a single horse holds this position."""
        return len(self.horses) == 1


class Blocked(StrEnum):
    """Why a played card moved nothing (the card is spent all the same)."""

    FINISHED = "horse_finished"
    NOT_ALONE_IN_LEAD = "not_alone_in_lead"
    CLOSE_TO_LEADER = "close_to_leader"
    POSITION_SHARED = "position_shared"
    AT_LIMIT = "at_limit"


#: What a card that moved its horse did, before and past the finish.
MOVED = N_("{label}: {horse} {start} to {end}.")
MOVED_PAST = N_("{label}: {horse} {start} to {end}, past the finish.")
#: Why a card moved nothing, as a sentence for the table.
BLOCKED_SAID = {
    Blocked.FINISHED: N_("{label} moved nothing: {horse} has finished."),
    Blocked.NOT_ALONE_IN_LEAD: N_("{label} moved nothing: {horse} does not lead alone."),
    Blocked.CLOSE_TO_LEADER: N_("{label} moved nothing: {horse} is already close to the leader."),
    Blocked.POSITION_SHARED: N_("{label} moved nothing: {place} is shared."),
    Blocked.AT_LIMIT: N_("{label} moved nothing: {horse} is already at its limit."),
}


@dataclass(frozen=True, slots=True)
class CardEffect:
    """What one played card did: the horse it moved from ``start`` to ``end``, or why not.

    ``horse`` is None only when a neutral card found its position shared. ``forfeited``
    counts the squares a capped card could not use; ``finished`` is set when this move took
    the horse past the finish.
    """

    card: str
    label: str
    horse: JockeyHorse | None
    start: int
    end: int
    blocked: Blocked | None = None
    forfeited: int = 0
    finished: bool = False

    @property
    def moved(self) -> bool:
        """Tell whether the card moved a horse."""
        return self.blocked is None

    def message(self) -> Message:
        """What happened, as a sentence for the table (``red +7: red 34 to 41.``, or why
        nothing moved), its card label, horse and squares kept as parameters."""
        horse = str(self.horse or "")
        if self.blocked is None:
            template = MOVED_PAST if self.finished else MOVED
            return Message.of(
                template, label=self.label, horse=horse, start=self.start, end=self.end
            )
        if self.blocked is Blocked.POSITION_SHARED:
            return Message.of(
                BLOCKED_SAID[self.blocked], label=self.label, place=self.label.split()[0]
            )
        return Message.of(BLOCKED_SAID[self.blocked], label=self.label, horse=horse)

    def sentence(self) -> str:
        """Say what happened in a line for the table, in English (journals and logs)."""
        return self.message().english

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> CardEffect:
        """Rebuild an effect from ``to_data`` output. Raises DataError when it does not fit."""
        try:
            horse, blocked = data["horse"], data["blocked"]
            start, end, forfeited = (data[key] for key in ("start", "end", "forfeited"))
            if type(start) is not int or type(end) is not int or type(forfeited) is not int:
                raise TypeError("squares must be whole numbers")
            return cls(
                card=str(data["card"]),
                label=str(data["label"]),
                horse=None if horse is None else JockeyHorse(str(horse)),
                start=start,
                end=end,
                blocked=None if blocked is None else Blocked(str(blocked)),
                forfeited=forfeited,
                finished=data["finished"] is True,
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(f"saved card effect: {error}") from None

    def to_data(self) -> dict[str, object]:
        """Return the effect as plain JSON-ready data."""
        return {
            "card": self.card,
            "label": self.label,
            "horse": None if self.horse is None else str(self.horse),
            "start": self.start,
            "end": self.end,
            "blocked": None if self.blocked is None else str(self.blocked),
            "forfeited": self.forfeited,
            "finished": self.finished,
        }


@dataclass(frozen=True, slots=True)
class Race:
    """The board during one race: each horse's square and the order they passed the finish.

    ``progress`` follows the order of HORSES (brown, yellow, blue, red). Progress is never
    capped at the finish. A Race is a value: ``apply`` returns a new one.
    """

    track_length: int = TRACK_LENGTH
    progress: tuple[int, ...] = (0, 0, 0, 0)
    finish_order: tuple[JockeyHorse, ...] = ()

    @classmethod
    def at(
        cls,
        squares: Mapping[JockeyHorse, int] | Mapping[str, int],
        finish_order: tuple[JockeyHorse, ...] = (),
        track_length: int = TRACK_LENGTH,
    ) -> Race:
        """Set up a race with the horses on these squares (horses not named are on 0).

        Raises DataError when the squares and the finish order disagree.
        """
        progress = [0, 0, 0, 0]
        for name, square in squares.items():
            progress[HORSES.index(JockeyHorse(name))] = square
        race = cls(track_length, tuple(progress), tuple(finish_order))
        race.check()
        return race

    @classmethod
    def from_text(cls, text: str) -> Race:
        """Read a race from its text form, e.g. ``brown 34, yellow 34, red 83 1st, track 80``.

        Horses not named are on square 0. A horse past the finish is marked ``1st`` or
        ``2nd`` (a lone finished horse may go unmarked). Raises DataError on bad text.
        """
        squares: dict[JockeyHorse, int] = {}
        ranks: dict[str, JockeyHorse] = {}
        track = TRACK_LENGTH
        for part in (p.split() for p in text.split(",") if p.strip()):
            try:
                if part[0] == "track" and len(part) == 2:
                    track = int(part[1])
                    continue
                horse = JockeyHorse(part[0])
                squares[horse] = int(part[1])
            except (ValueError, IndexError):
                raise DataError(f"race text: cannot read {' '.join(part)!r}") from None
            if len(part) == 3 and part[2] in _ORDINALS:
                ranks[part[2]] = horse
            elif len(part) != 2:
                raise DataError(f"race text: cannot read {' '.join(part)!r}")
        order = tuple(ranks[o] for o in _ORDINALS if o in ranks)
        if not order:
            order = tuple(h for h, square in squares.items() if square > track)
            if len(order) > 1:
                raise DataError("race text: mark the finished horses 1st and 2nd")
        return cls.at(squares, order, track)

    def __str__(self) -> str:
        parts = []
        for horse, square in zip(HORSES, self.progress, strict=True):
            rank = self.finish_order.index(horse) if horse in self.finish_order else None
            parts.append(f"{horse} {square}" + ("" if rank is None else f" {_ORDINALS[rank]}"))
        return ", ".join([*parts, f"track {self.track_length}"])

    def check(self) -> None:
        """Raise DataError unless the squares and the finish order fit together."""
        if self.track_length < 1 or len(self.progress) != len(HORSES):
            raise DataError("race: needs four horses and a track of at least 1 square")
        if any(square < 0 for square in self.progress):
            raise DataError("race: a horse is behind the start")
        past = {h for h, s in zip(HORSES, self.progress, strict=True) if s > self.track_length}
        if past != set(self.finish_order) or len(self.finish_order) > FINISHERS:
            raise DataError("race: the finish order does not match the horses past the finish")

    def square(self, horse: JockeyHorse) -> int:
        """Return the square the horse is on."""
        return self.progress[HORSES.index(horse)]

    @property
    def over(self) -> bool:
        """Tell whether the race has ended (a second horse has passed the finish)."""
        return len(self.finish_order) >= FINISHERS

    @property
    def leader_square(self) -> int:
        """Return the highest square of any horse, finished or not."""
        return max(self.progress)

    def standings(self) -> tuple[Place, ...]:
        """Return the positions No. 1 to No. 4, horses on one square sharing theirs.

        Finished horses come first, in finishing order; the others follow by square,
        highest first. The places cover positions 1 to 4 exactly once, in order.
        """
        places: list[Place] = []
        taken = 0
        for horse in self.finish_order:
            taken += 1
            places.append(Place(taken, taken, (horse,), self.square(horse)))
        running = [
            (square, horse)
            for horse, square in zip(HORSES, self.progress, strict=True)
            if horse not in self.finish_order
        ]
        for square in sorted({s for s, _ in running}, reverse=True):
            group = tuple(h for s, h in running if s == square)
            places.append(Place(taken + 1, taken + len(group), group, square))
            taken += len(group)
        return tuple(places)

    def holder(self, position: int) -> JockeyHorse | None:
        """Return the horse holding ``position`` alone, or None when it is shared."""
        order = self.finish_order
        if position <= len(order):
            return order[position - 1] if position >= 1 else None
        running = sorted(
            (s for h, s in zip(HORSES, self.progress, strict=True) if h not in order), reverse=True
        )
        index = position - len(order) - 1
        if index >= len(running) or running.count(running[index]) > 1:
            return None
        square = running[index]
        return next(
            h for h, s in zip(HORSES, self.progress, strict=True) if s == square and h not in order
        )

    def apply(self, card: JockeyCard) -> tuple[Race, CardEffect]:
        """Play ``card``: return the race after it and what it did.

        A card whose effect moves nothing still counts as played; the race is then
        returned unchanged. Raises Refusal ``race_over`` once two horses have finished.
        """
        if self.over:
            raise Refusal("race_over", "The race is over: start the next race.")
        horse = card.colour
        if card.kind is CardKind.POSITION:
            horse = self.holder(card.position)
        if horse is None:
            return self, CardEffect(card.id, card.label, None, 0, 0, Blocked.POSITION_SHARED)
        start = self.progress[HORSES.index(horse)]
        if horse in self.finish_order:
            return self, CardEffect(card.id, card.label, horse, start, start, Blocked.FINISHED)
        reach = card.steps
        limit: int | None = None
        blocked = Blocked.AT_LIMIT
        if card.kind is CardKind.LEAD:
            if self.holder(1) is not horse:
                blocked = Blocked.NOT_ALONE_IN_LEAD
                reach = 0
            else:
                runner_up = max(s for h, s in zip(HORSES, self.progress, strict=True) if h != horse)
                reach = (card.factor - 1) * (start - runner_up)
        elif card.kind is CardKind.CHASE:
            limit = self.leader_square - card.behind
            blocked = Blocked.CLOSE_TO_LEADER
        elif card.ahead is not None:
            limit = self.leader_square + card.ahead
        end = start + reach if limit is None else min(start + reach, limit)
        if end <= start:
            return self, CardEffect(card.id, card.label, horse, start, start, blocked)
        return self._moved(card, horse, start, end, start + reach - end)

    def _moved(
        self, card: JockeyCard, horse: JockeyHorse, start: int, end: int, lost: int
    ) -> tuple[Race, CardEffect]:
        index = HORSES.index(horse)
        progress = (*self.progress[:index], end, *self.progress[index + 1 :])
        finished = end > self.track_length
        order = (*self.finish_order, horse) if finished else self.finish_order
        race = Race(self.track_length, progress, order)
        return race, CardEffect(card.id, card.label, horse, start, end, None, lost, finished)

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Race:
        """Rebuild a race from ``to_data`` output. Raises DataError when it does not fit."""
        try:
            squares = data["progress"]
            order = data["finish_order"]
            track = data["track_length"]
            if not isinstance(squares, Mapping) or not isinstance(order, list):
                raise TypeError("progress must be a mapping, finish_order a list")
            if type(track) is not int or any(type(s) is not int for s in squares.values()):
                raise TypeError("squares and the track length must be whole numbers")
            return cls.at(squares, tuple(JockeyHorse(h) for h in order), track)
        except (KeyError, TypeError, ValueError) as error:
            raise DataError(f"saved race: {error}") from None

    def to_data(self) -> dict[str, object]:
        """Return the race as plain JSON-ready data."""
        return {
            "track_length": self.track_length,
            "progress": {str(h): s for h, s in zip(HORSES, self.progress, strict=True)},
            "finish_order": [str(h) for h in self.finish_order],
        }
