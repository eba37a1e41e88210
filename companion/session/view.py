"""What the displays show, as plain data: the public view, a player's private view, outcomes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, Protocol

from companion.games.text import Message
from companion.session.log import LogEntry


class NoGame(StrEnum):
    """The phase of the view while no game is on (each game's phases are its engine's)."""

    NO_GAME = "no_game"


@dataclass(frozen=True)
class NoBoard:
    """The public board while no game is on: nothing to show."""

    def to_json(self) -> dict[str, Any]:
        """Return the empty board as JSON-ready data."""
        return {}


@dataclass(frozen=True)
class NoDetails:
    """The private details of someone who plays no game: nothing to show."""

    def to_json(self) -> dict[str, Any]:
        """Return the empty details as JSON-ready data."""
        return {}


class PublicBoard(Protocol):
    """A game's public board, as the shared layers read it: only its JSON.

    Each game's engine declares its own board, a frozen dataclass of its own value types;
    the game's own modules (its renderer, flow and pages) narrow ``View.board`` to it by
    type and read its attributes. The session, the journal, the pages' shared parts and
    ``companion replay`` only write it with ``to_json`` (the table log's and the pages' form).
    """

    def to_json(self) -> dict[str, Any]:
        """Return the board as JSON-ready data."""
        ...


class PrivateDetails(Protocol):
    """What one player alone may see of a game, as the shared layers read it: only its JSON.

    A game with secrets or hands declares its own (narrowed by its own modules, like its
    board); a game without them gives ``NoDetails``.
    """

    def to_json(self) -> dict[str, Any]:
        """Return the details as JSON-ready data."""
        ...


@dataclass(frozen=True)
class RefusalView:
    """A refused input as the table sees it: what was tried, by whom, and why not.

    ``sentence`` is in English; ``message`` is the same sentence as a template and its
    parameters, for the displays to say in the table's language (never in the JSON).
    """

    type: str
    player: str | None
    code: str
    sentence: str
    message: Message | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class View:
    """Everything the shared displays may show: never a secret before its reveal.

    ``phase`` is the engine's own phase enum (a ``StrEnum``: it compares equal to its word
    and is written as it in JSON). ``board`` holds the game's own public figures (the die,
    the legal horses, positions, podium, odds, balances...; see docs/table-log.md).
    ``sealed`` names the players who have committed a secret (a prediction, a guess, a bet)
    that is not revealed yet, and ``waiting_for`` those whose secret the game still needs
    before it can go on.
    """

    game_id: int | None = None
    game: str | None = None
    players: tuple[str, ...] = ()
    race: int = 0
    phase: StrEnum = field(default_factory=lambda: NoGame.NO_GAME)
    turn: str | None = None
    sealed: tuple[str, ...] = ()
    waiting_for: tuple[str, ...] = ()
    board: PublicBoard = field(default_factory=NoBoard, hash=False)
    finished: bool = False
    winners: tuple[str, ...] = ()
    events: int = 0
    last: str | None = None
    last_refusal: RefusalView | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the view as JSON-ready data (tuples become lists, the board its JSON)."""
        return _fields_json(self)


@dataclass(frozen=True)
class PrivateView:
    """What one player alone may see: their own sealed secrets, their hand, their refusals.

    Only the player is in its ``repr``, so that a private view in a log message gives
    nothing away.
    """

    player: str
    details: PrivateDetails = field(default_factory=NoDetails, hash=False, repr=False)
    last_refusal: RefusalView | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """Return the private view as JSON-ready data."""
        return _fields_json(self)


@dataclass(frozen=True)
class Outcome:
    """What became of one submitted input: accepted, or refused with a code and a sentence.

    ``code`` and ``sentence`` are the real reason, meant for the player who made the input
    (the sentence may quote a sealed input, so it stays out of the ``repr``); ``view`` is the
    public view after it (where a refused secret input shows no reason).
    """

    accepted: bool
    entry: LogEntry
    view: View
    code: str | None = None
    sentence: str | None = field(default=None, repr=False)
    game_id: int | None = None
    message: Message | None = field(default=None, compare=False, repr=False)
    #: The input an accepted undo took back (None for any other input).
    undone: LogEntry | None = field(default=None, compare=False, repr=False)


def _fields_json(view: View | PrivateView) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for f in fields(view):
        value = getattr(view, f.name)
        if f.name in ("board", "details"):
            data[f.name] = value.to_json()
        elif isinstance(value, RefusalView):
            refusal = asdict(value)
            refusal.pop("message")  # its English sentence is in the JSON already
            data[f.name] = refusal
        else:
            data[f.name] = _plain(value)
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
