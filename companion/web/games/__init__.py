"""Each game's part of the pages: one module per game, named by its kind, declaring ``PAGES``.

The shared pages (``companion/web/fragments.py``, ``state.py``, ``inputs.py``, ``host.py``)
find a game's part by the kind of the game on the table, as the table controller finds its
flow; a game's module is imported the first time a page shows a table of that game.

A game's part completes a seat's input from a ``SeatSight``: the public view and that seat's
own private view, never the session, so nothing a seat is told can depend on what another
player holds.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.games.info import Option
from companion.games.registry import part
from companion.session.offers import Offers
from companion.session.view import PrivateDetails, PrivateView, PublicBoard, View
from companion.web.shared import Chart, ExtraWork, Finisher, Public

if TYPE_CHECKING:  # the session brings in the engines: a page module imports it on use
    from companion.session.session import Session


@dataclass(frozen=True)
class SeatSight:
    """All a seat's input may be judged by: what the whole table sees, the game's options,
    and that seat's own private view (its hand, its sealed inputs), and nothing else."""

    #: The public view (board, phase, turn, who has sealed a secret...).
    view: View
    #: The options the game was started with (public: the whole table chose them).
    options: Mapping[str, Any]
    #: What only the seat making the input sees.
    own: PrivateView

    @property
    def player(self) -> str:
        """The seat making the input."""
        return self.own.player


def sight_of(session: Session, player: str) -> SeatSight:
    """What ``player``'s input may be judged by now (read on the loop's thread)."""
    table = session.table
    options = dict(table.start.options) if table is not None else {}
    return SeatSight(session.view(), options, session.private_view(player))


def as_entered(fields: dict[str, Any], sight: SeatSight) -> dict[str, Any]:
    """A phone's fields as they are: the game needs nothing more to make the entry."""
    return fields


def as_viewed(view: Mapping[str, Any], offers: Offers) -> tuple[str, str | None]:
    """The phase and turn as the view has them: the game's table shows them the same way.
    While the table waits for sealed inputs (predictions before the first roll), nobody has a
    turn: the players waited for are named instead, and nobody's page says "Your turn"."""
    if view.get("waiting_for"):
        return str(view.get("phase", "")), None
    return str(view.get("phase", "")), view.get("turn") or None


def no_track(state: Public) -> str:
    """No drawing of the track: the game's board part says where the horses are."""
    return ""


def no_finishers(state: Public) -> tuple[Finisher, ...]:
    """No podium of horses between races: the winner screen names the players only."""
    return ()


def no_extras(session: Session) -> ExtraWork | None:
    """No extras beside the view: the game has none to show."""
    return None


@dataclass(frozen=True)
class GamePages:
    """What the pages show and take of one game (``PAGES`` of ``web/games/<kind>.py``)."""

    #: The game's part of the public section (every page): its board, drawn from the state.
    board: Callable[[Public], str]
    #: One seat's part: ``(player, details, state)`` to what only that player sees and enters.
    seat: Callable[[str, PrivateDetails, Public], str]
    #: The race chart from ``(players, board, options)``.
    chart: Callable[[tuple[str, ...], PublicBoard, Mapping[str, Any]], Chart]
    #: Each phase of the game (its code in the view) in the pages' words, marked for ``t``.
    phases: Mapping[str, str]
    #: Options only phones make playable, offered on the host page after the registry's.
    phone_options: tuple[Option, ...] = ()
    #: A phone's checked fields completed on the loop's thread (e.g. a card tapped by kind),
    #: from the seat's sight alone: the public view and that seat's own private view.
    complete: Callable[[dict[str, Any], SeatSight], dict[str, Any]] = as_entered
    #: What the game computes beside the view, for its own parts to show (``Public.extras``;
    #: Course hippique: each horse's chance of winning from here, beside the odds).
    extras: Callable[[Session], ExtraWork | None] = no_extras
    #: The phase and whose turn it is, as the table shows them (from the public view's JSON
    #: and what the table takes now): every page says what the LCD says.
    status: Callable[[Mapping[str, Any], Offers], tuple[str, str | None]] = as_viewed
    #: The TV's drawing of the track from the state (SVG: every horse at its square, the
    #: podium, the last move in words; ``web/track.py`` draws the pieces), or "".
    track: Callable[[Public], str] = no_track
    #: The horses on the podium of the race just over (empty while no race is over, and at
    #: the game's end): the winner screen between races shows them.
    finishers: Callable[[Public], tuple[Finisher, ...]] = no_finishers


def pages_of(kind: str) -> GamePages:
    """Return ``PAGES`` of ``companion.web.games.<kind>``, imported on first use.

    Raises Refusal ``unknown_game`` for a kind the registry does not list.
    """
    pages: GamePages = importlib.import_module(part(kind, "pages")).PAGES
    return pages
