"""Petits chevaux at the table: the die (electronic or keyed in) is the only input."""

from __future__ import annotations

from companion.daemon.flows.base import Context, Reply
from companion.daemon.flows.die import DieGameFlow
from companion.render.screen import Screen
from companion.session.view import View
from tests.fixture_game import render


class ChevauxFlow(DieGameFlow):
    """Every roll moves the roller's horse; the horse buttons and the knob have nothing to do."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.layout = ctx.layouts.track(self.table.kind)

    @property
    def button_horses(self) -> tuple[str, ...]:
        """No horse is moved by its button: the roll moves the roller's own."""
        return ()

    def expects_roll(self, view: View) -> bool:
        """A roll is awaited until a horse has won."""
        return view.phase == "racing"

    def on_turn(self, view: View, steps: int) -> Reply:
        """The knob does nothing during the race."""
        return Reply()

    def on_push(self, view: View) -> Reply:
        """Push does nothing during the race."""
        return Reply()

    def on_horse(self, view: View, horse: str) -> Reply:
        """No horse button has a horse here."""
        return Reply()

    def race_started(self, view: View) -> Reply:
        """There is one race: no next one to announce."""
        return Reply()

    def take_back_step(self) -> bool:
        """Nothing is entered step by step."""
        return False

    def screen(self) -> Screen:
        """The race as it stands, or the real die being keyed in."""
        view = self.ctx.view()
        return render.screen(view, self.layout, self.keyed_value(view))


#: The table flow of this game, found by the controller through the registry.
FLOW = ChevauxFlow
