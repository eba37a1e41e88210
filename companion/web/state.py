"""Read the session for the pages: the public and private views, the race chart's data and
the extras a game's pages module computes beside the view (Course hippique's chances).

Everything here runs on the daemon loop's thread (the only one that may read the session),
except the work of slow extras, which reads a snapshot of the game on a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from companion.session.session import Session
from companion.session.view import PrivateView
from companion.web.games import pages_of
from companion.web.shared import ExtraWork, Public, Series, running

__all__ = ["Public", "RaceOdds", "Series", "private_state", "public_state", "running"]


def public_state(session: Session, odds: RaceOdds | None = None) -> Public:
    """Return the public state of the table now (``odds`` keeps the last extras computed)."""
    view = session.view()
    board = view.board
    data = view.to_json()
    data.pop("board", None)
    table = session.table
    start = table.start.options if table is not None else {}
    unit, chart = (
        pages_of(table.kind).chart(view.players, board, start)
        if table is not None
        else ("points", ())
    )
    extras = (odds or RaceOdds()).of(session)
    offers = session.offers()
    return Public(data, board, chart, unit, dict(start), extras, view.last_refusal, offers)


class RaceOdds:
    """The extras of the game in progress, as its pages module computes them (Course
    hippique's chances of winning: exact, or in the setback variant a seeded estimate):
    computed again only when the game's key for them changes (a card laid or turned).

    Slow extras are computed by ``later`` (a worker thread in the daemon) while the pages
    go on without them; ``arrived`` is then called with a step to run on the loop's thread,
    after which the pages are drawn again with them. Without ``later``, they are computed at
    once.
    """

    def __init__(
        self,
        later: Callable[[Callable[[], None]], object] | None = None,
        arrived: Callable[[Callable[[], None]], object] | None = None,
    ) -> None:
        self._later = later
        self._arrived = arrived
        self._key: Hashable = ()
        self._extras: object = None

    def of(self, session: Session) -> object:
        """The extras now; None when the game has none now (no course yet, a game without
        extras, or the race is won), or while slow ones are being computed."""
        table = session.table
        work = pages_of(table.kind).extras(session) if table is not None else None
        if work is None:
            return None
        if work.key != self._key:
            self._key = work.key
            if work.slow and self._later is not None and self._arrived is not None:
                self._extras = None
                self._later(lambda: self._compute(work))
            else:
                self._extras = work.compute()
        return self._extras

    def _compute(self, work: ExtraWork) -> None:
        """On the worker: compute, unless the game moved on meanwhile; hand the result over."""
        if work.key != self._key:
            return
        found = work.compute()
        assert self._arrived is not None
        self._arrived(lambda: self._keep(work.key, found))

    def _keep(self, key: Hashable, found: object) -> None:
        if key == self._key:
            self._extras = found


def private_state(session: Session, player: str) -> PrivateView:
    """Return what only ``player`` may see (their sealed inputs, hand, balance, last refusal)."""
    return session.private_view(player)
