"""What the session needs from each game: one binding per engine, found by game kind."""

from __future__ import annotations

import copy
import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from enum import StrEnum
from types import ModuleType
from typing import Any, ClassVar

from companion.games.registry import part
from companion.session.log import LogEntry
from companion.session.offers import Offers
from companion.session.view import NoDetails, PrivateDetails, PublicBoard


class Binding(ABC):
    """One game in progress: forwards table-log entries to its engine, reads it back.

    A binding holds all the state of a game (the engine and anything the session adds), so
    a copy of a binding is a snapshot. ``apply`` raises Refusal before changing anything.
    ``board`` and ``sealed`` are shown to the whole table: they must not give away a
    prediction, a guess, a bet or a hand before its reveal.
    """

    KIND: ClassVar[str]

    def __init__(self, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        self.players = players

    @abstractmethod
    def apply(self, entry: LogEntry) -> None:
        """Apply one input to the game; raises Refusal (and changes nothing) if it is refused."""

    def order(self, entry: LogEntry) -> None:
        """Refuse an input the game's rules would take but the table's order of play does not
        yet (a card turned before every bet is in): raises Refusal, changes nothing.

        Checked for a new input only, never when a game is rebuilt from its journal, so a
        journal written before an order was kept still replays. A game whose engine keeps
        its whole order itself keeps this: nothing more.
        """
        return None

    def snapshot(self) -> Binding:
        """Return a copy of the game that an input applied to leaves this one as it is (what a
        legal press would show is worked out on one). A binding whose engine keeps its state
        in values nobody changes may copy less than everything."""
        return copy.deepcopy(self)

    @abstractmethod
    def offers(self) -> Offers:
        """Return every input the game takes now, from whom, and who the table waits for.

        Every door draws what it offers from this (see ``companion/session/offers.py``): an
        offered input is accepted (its values within the offer's range), and an input of a
        type and player not offered is refused. Public: it never depends on a sealed input.
        """

    @abstractmethod
    def turn(self) -> str | None:
        """Return the player whose turn it is for the turn-bound inputs, or None."""

    @abstractmethod
    def phase(self) -> StrEnum:
        """Return where the game stands: the engine's own phase (a word such as ``racing``)."""

    @abstractmethod
    def race(self) -> int:
        """Return the number of the current race, from 1."""

    @abstractmethod
    def sealed(self) -> tuple[str, ...]:
        """Return the players who hold a committed secret not revealed yet."""

    @abstractmethod
    def waiting_for(self) -> tuple[str, ...]:
        """Return the players whose secret input the game needs before it goes on."""

    @abstractmethod
    def finished(self) -> bool:
        """Tell whether the game is over."""

    @abstractmethod
    def winners(self) -> tuple[str, ...]:
        """Return the winners of a finished game (ties share the win), else ()."""

    @abstractmethod
    def board(self) -> PublicBoard:
        """Return the public figures of the game as plain data."""

    def private(self, player: str) -> PrivateDetails:
        """Return what only ``player`` may see, as plain data (a game without secrets or
        hands keeps this: nothing)."""
        return NoDetails()

    @abstractmethod
    def engine_state(self) -> Any:
        """Return the engine's own saved form, JSON-ready (for diagnosis, `companion replay
        --json` and exact comparisons)."""


def binding_module(kind: str) -> ModuleType:
    """Return the session's module of a game kind (its binding and its random input).

    Raises Refusal ``unknown_game`` for a kind the registry does not list.
    """
    return importlib.import_module(part(kind, "binding"))


def binding_class(kind: str) -> type[Binding]:
    """Return the binding of a game kind; raises Refusal for a kind the companion lacks."""
    cls: type[Binding] = binding_module(kind).BINDING
    return cls
