"""What the table takes now, and from whom: the one answer every door asks before it offers.

The panel's flows, every phone's pad, the host page and the card paths do not keep their own
copy of a game's phase rules: each game's binding describes, from its engine's state, the
inputs it would accept now (``Binding.offers``), and every door draws its prompts, buttons
and pickers from that description. ``waiting`` is the people the table waits for, in the
order the panel asks them: the first is the one the LCD names, and every page names the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Offer:
    """One input the table takes now: a table-log entry type, who makes it, and its range.

    ``player`` is the seat that makes it (None: whoever is at the table, such as the next race
    or a card scanned in the race). ``horses`` are the horses it may name, in the table's
    order (empty when it names none, or any horse of the game); ``places``, for an input that
    names horses in order (a prediction: 3 places, or a pick of 1), how many it names, 0 for
    any other; ``least`` and ``most`` bound its amount (a stake, a maximum bet), both 0 when
    it takes none.
    """

    type: str
    player: str | None = None
    horses: tuple[str, ...] = ()
    least: int = 0
    most: int = 0
    places: int = 0

    def to_json(self) -> dict[str, Any]:
        """Return the offer as JSON-ready data (what the pages' API gives a program)."""
        data: dict[str, Any] = {"type": self.type, "player": self.player}
        if self.horses:
            data["horses"] = list(self.horses)
        if self.places:
            data["places"] = self.places
        if self.most:
            data["least"], data["most"] = self.least, self.most
        return data


@dataclass(frozen=True)
class Offers:
    """Every input the table takes now, and the people it waits for (the panel's order)."""

    items: tuple[Offer, ...] = ()
    #: Who the table waits for now, the one the panel asks first: every surface names them.
    waiting: tuple[str, ...] = ()

    @classmethod
    def of(cls, items: Iterable[Offer], waiting: Iterable[str] = ()) -> Offers:
        """Return the offers of ``items``, waiting for ``waiting`` in that order."""
        return cls(tuple(items), tuple(waiting))

    @property
    def asked(self) -> str | None:
        """The person the panel asks now (the first the table waits for), or None."""
        return self.waiting[0] if self.waiting else None

    def find(self, kind: str, player: str | None = None) -> Offer | None:
        """The offer of an input of type ``kind`` made by ``player``, or None when the table
        does not take it from them now. An offer to the table is everyone's, and an input
        that names nobody (a die rolled, a card scanned at the panel) counts as made by the
        person it is offered to."""
        for offer in self.items:
            if offer.type == kind and (player is None or offer.player in (None, player)):
                return offer
        return None

    def takes(self, kind: str, player: str | None = None) -> bool:
        """Whether the table takes an input of type ``kind`` from ``player`` now."""
        return self.find(kind, player) is not None

    def mine(self, player: str) -> tuple[Offer, ...]:
        """What ``player`` may enter now: their own offers (not the table's)."""
        return tuple(o for o in self.items if o.player == player)

    def to_json(self) -> dict[str, Any]:
        """Return the offers as JSON-ready data."""
        return {"offers": [o.to_json() for o in self.items], "waiting": list(self.waiting)}


#: Nothing is taken: no game is on, or it is over.
NOTHING = Offers()
#: A race is over: anyone at the table starts the next one.
NEXT_RACE = Offers((Offer("next_race"),))
