"""What every board whose horses are shared reads the same way: the horses by name, in order."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar, runtime_checkable


class NamedHorse(Protocol):
    """A horse as a board holds it: at least its name."""

    @property
    def name(self) -> str: ...


#: A game's own kind of horse on its board.
Horse = TypeVar("Horse", bound=NamedHorse)


class Stable(Generic[Horse]):
    """A board's horses in button order, looked up by name (the board declares ``horses``)."""

    horses: tuple[Horse, ...]

    @property
    def horse_names(self) -> tuple[str, ...]:
        """The horses' names in button order."""
        return tuple(h.name for h in self.horses)

    def standing(self, name: str) -> Horse | None:
        """The horse called ``name``, or None."""
        return next((h for h in self.horses if h.name == name), None)


@runtime_checkable
class MovingBoard(Protocol):
    """A board whose rolls move a horse the player chooses (its phase named ``move``)."""

    @property
    def horse_names(self) -> tuple[str, ...]: ...

    @property
    def legal_horses(self) -> tuple[str, ...]: ...
