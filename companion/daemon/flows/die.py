"""What every game played with one die shares at the table: the electronic or the real die.

The die is electronic (the die button rolls it; ``[die] mode = "electronic"``) or a real one
whose value is keyed in (``[die] mode = "manual"``): turned on the knob and pushed, or keyed
with a horse button (1 to 5) or the die button (6). Undo never buys a new roll: a roll taken
back comes back before any new electronic value, and the table says so.
"""

from __future__ import annotations

from abc import abstractmethod

from companion.daemon.flows.base import HORSE_BUTTONS, Context, Flash, Reply, notice
from companion.daemon.flows.game import GameFlow
from companion.devices.base import (
    ButtonPressed,
    DieIgnored,
    DieRolled,
    EncoderTurned,
    InputEvent,
    Tone,
)
from companion.render.language import _
from companion.render.screen import Cue
from companion.session.log import Roll
from companion.session.view import View


class DieGameFlow(GameFlow):
    """A game whose turns start with a roll of one die, electronic or keyed in.

    A game says when it awaits a roll (``expects_roll``), whether something else is being
    entered meanwhile (``entering``: the die is then not keyed) and what an accepted roll
    allows (``rolled``: e.g. forget a half-entered secret); the rest is here.
    """

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        #: A real die's value being dialled (``[die] mode = "manual"``).
        self.die_dial = 1

    @abstractmethod
    def expects_roll(self, view: View) -> bool:
        """Whether the game awaits a roll now."""

    def entering(self, view: View) -> bool:
        """Whether something else is being entered now (a real die is then not keyed)."""
        return False

    def rolled(self, view: View) -> None:
        """What an accepted roll allows or ends (``view``: the game after it)."""

    # -- inputs ----------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> Reply:
        """Apply one device input: the die's here, the others as every game does."""
        if self.ctx.die == "manual":
            return self._keyed(event)
        if isinstance(event, DieIgnored):
            return Reply(flash=Flash.sentence(_("Wait for the die."), 2.0))
        if isinstance(event, DieRolled):
            return self.roll(self.ctx.view(), event.value)
        if isinstance(event, ButtonPressed) and event.button == "die":
            return Reply([Cue(rolling=True)]) if self.expects_roll(self.ctx.view()) else Reply()
        return super().handle(event)

    def keying(self, view: View) -> bool:
        """Whether a real die's value is awaited (manual die, nothing else being entered)."""
        return self.ctx.die == "manual" and self.expects_roll(view) and not self.entering(view)

    def keyed_value(self, view: View) -> int | None:
        """The real die's value being dialled now, or None when none is awaited."""
        return self.die_dial if self.keying(view) else None

    def _keyed(self, event: InputEvent) -> Reply:
        """A real die: its value is dialled and pushed, or keyed (horse 1 to 5, the die: 6)."""
        view = self.ctx.view()
        if isinstance(event, (DieRolled, DieIgnored)):
            return Reply()  # the die button is a key here, not a die
        if not self.keying(view):
            if isinstance(event, ButtonPressed) and event.button == "die":
                return Reply()
            return super().handle(event)
        if isinstance(event, EncoderTurned):
            self.die_dial = (self.die_dial - 1 + event.steps) % 6 + 1
            return Reply()
        if not isinstance(event, ButtonPressed):
            return super().handle(event)
        if event.button == "die":
            return self.roll(view, 6)
        if event.button == "push":
            return self.roll(view, self.die_dial)
        if event.button in HORSE_BUTTONS:
            return self.roll(view, HORSE_BUTTONS.index(event.button) + 1)
        return Reply()

    def roll(self, view: View, value: int) -> Reply:
        """Roll ``value`` for the player whose turn it is (a roll taken back comes first)."""
        kept = self.table.kept_rolls()
        if kept and self.ctx.die == "electronic":
            value = kept[0]  # an undone roll comes back before any new random value
        outcome, reply = self.ctx.submit(Roll(value, view.turn))
        if not outcome.accepted:
            return reply
        self.rolled(outcome.view)
        self.die_dial = 1
        if self.ctx.die == "manual":
            return Reply([Cue(tone=Tone.ACCEPTED)])
        return reply

    # -- taking back -------------------------------------------------------------------------

    def undo(self) -> Reply:
        """Undo as every game does; an electronic roll taken back says it will come back."""
        before = len(self.table.kept_rolls())
        reply = super().undo()
        table = self.ctx.session.table
        if table is None or self.ctx.die != "electronic":
            return reply
        kept = table.kept_rolls()
        if len(kept) > before:
            said = _("Roll taken back: the die stays {die}.").format(die=kept[0])
            reply.flash = notice(said).flash
        return reply
