"""What the three game flows share: undo through the session, back to the menu, result pages."""

from __future__ import annotations

from abc import abstractmethod

from companion.daemon.flows.base import Context, Flow, Reply, notice
from companion.devices.base import Tone
from companion.session.log import NewGame
from companion.session.session import Table


class GameFlow(Flow):
    """A game in progress: local steps of an entry first, then the session's undo."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        #: The result page shown (the encoder turns pages after a race).
        self.page = 0

    @property
    def table(self) -> Table:
        """The session's game (a game flow only exists while there is one)."""
        table = self.ctx.session.table
        assert table is not None, "a game flow runs only while a game is on"
        return table

    @abstractmethod
    def take_back_step(self) -> bool:
        """Take back the last step of an entry in progress; False when there is none."""

    def undo(self) -> Reply:
        """Take back a step of the entry in progress, else the last accepted input.

        With nothing left to take back (only the game's start), the game is abandoned and
        the menu comes back with the same choices, so a mistaken start costs one hold.
        """
        if self.take_back_step():
            return notice("Taken back.", tone=None)
        table = self.table
        if len(table.in_force()) <= 1:
            start = table.start
            self.ctx.session.abandon()
            return Reply(flash=notice("Game cancelled.").flash, goto=self.menu(start))
        outcome = self.ctx.session.undo()
        if not outcome.accepted:
            return notice(outcome.sentence or "Nothing to undo.", tone=Tone.REFUSED)
        self.page = 0
        reply = notice("Undone.")
        self.after_undo()
        return reply

    def after_undo(self) -> None:
        """Fix up after an undo (e.g. undo an automatic input with the one that caused it)."""

    def menu(self, start: NewGame | None = None) -> Flow:
        """Return the menu, preset with ``start``'s choices when given."""
        factory = self.ctx.menu_flow
        assert factory is not None
        flow = factory(self.ctx)
        preset = getattr(flow, "preset", None)
        if start is not None and callable(preset):
            preset(start)
        return flow

    def turn_page(self, steps: int) -> Reply:
        """Turn the result pages by ``steps``."""
        self.page += steps
        return Reply()
