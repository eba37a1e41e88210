"""What a game whose players seal a secret before each race shares: who holds one, who is
awaited (the ``sealed`` and ``waiting_for`` every surface shows)."""

from __future__ import annotations

from abc import abstractmethod

from companion.session.binding import Binding


class SealedRace(Binding):
    """A binding whose players seal a secret for each race (a prediction, a pick), kept from
    the table until the race is over.

    The game says whether the race's secrets are out (``revealed``), whether a player holds
    one (``holds``) and whose the race still needs before it goes on (``missing``, in the
    order the panel asks); the table's view is drawn from these.
    """

    @abstractmethod
    def revealed(self) -> bool:
        """Whether the race's secrets are out (its end, or the game's)."""

    @abstractmethod
    def holds(self, player: str) -> bool:
        """Whether ``player`` holds a secret for this race."""

    @abstractmethod
    def missing(self) -> tuple[str, ...]:
        """The players whose secret the race needs before it goes on, in the panel's order."""

    def sealed(self) -> tuple[str, ...]:
        """The players holding a secret for a race not over yet."""
        if self.revealed():
            return ()
        return tuple(p for p in self.players if self.holds(p))

    def waiting_for(self) -> tuple[str, ...]:
        """The players the table waits for to seal theirs."""
        return self.missing()
