"""Petits chevaux at the table: a horse button seals a pick or moves a horse; the die rolls.

Everything the flow needs is in the session (who has not picked, whose turn, the die
waiting), so after a restart it goes on where the game stood; nothing is entered step by step.

UI decisions:

- Before a race the LCD asks each player in seat order, the others looking away; their
  horse button seals their pick at once ("Anna: sealed ***"), never shown.
- After a roll the LCD names the roller and the face ("Anna: die 4"); any horse button
  moves its horse. The move that wins a race says "Race over!" with the finish tone; the
  one that ends the game plays the tone and shows the game's pages at once.
- After a race the knob turns its pages (the winner and the points, then every pick) and
  push starts the next one; once the game is over the knob turns the ranking.
"""

from __future__ import annotations

from companion.daemon.flows.base import Context, Reply, notice
from companion.daemon.flows.die import DieGameFlow
from companion.devices.base import Tone
from companion.render.language import _
from companion.render.screen import Cue, Screen
from companion.render.text import SEALED, named
from companion.session.log import MoveEntry, Predict
from companion.session.view import View
from tests.fixture_game import render
from tests.fixture_game.engine import HORSES


class ChevauxFlow(DieGameFlow):
    """The horse buttons stand for the four horses: a pick before the race, a move after a roll."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.layout = ctx.layouts.track(self.table.kind)

    @property
    def button_horses(self) -> tuple[str, ...]:
        """The four horses, in button order."""
        return HORSES

    def expects_roll(self, view: View) -> bool:
        """A roll is awaited once every pick is sealed and no die waits for a move."""
        return view.phase == "roll"

    def on_turn(self, view: View, steps: int) -> Reply:
        """The knob does nothing during a race."""
        return Reply()

    def on_push(self, view: View) -> Reply:
        """Push does nothing during a race."""
        return Reply()

    def on_horse(self, view: View, horse: str) -> Reply:
        """Seal the asked player's pick, or move ``horse`` by the die."""
        if view.phase == "pick":
            player = view.waiting_for[0]
            outcome, reply = self.ctx.submit(Predict(player, (horse,)))
            if not outcome.accepted:
                return reply
            return notice(named(player, _(": sealed {sealed}").format(sealed=SEALED)))
        outcome, reply = self.ctx.submit(MoveEntry(horse, view.turn))
        if not outcome.accepted:
            return reply
        if outcome.view.phase == "race_over":
            return notice(_("Race over!"), tone=Tone.FINISH)
        if outcome.view.phase == self.OVER:  # its pages say so at once
            return Reply([Cue(tone=Tone.FINISH)])
        return reply

    def race_started(self, view: View) -> Reply:
        """Ask for the new race's picks."""
        return notice(_("Race {number}: predict!").format(number=view.race))

    def take_back_step(self) -> bool:
        """Nothing is entered step by step."""
        return False

    def end_pages(self, view: View) -> list[list[str]]:
        """The game's pages once it is over: the winners, the ranking, the last race's picks."""
        return render.end_pages(view)

    def screen(self) -> Screen:
        """The game as it stands, or the real die being keyed in."""
        view = self.ctx.view()
        return render.screen(view, self.layout, self.page, self.keyed_value(view))


#: The table flow of this game, found by the controller through the registry.
FLOW = ChevauxFlow
