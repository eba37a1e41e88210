"""Jumpy Jack at the table: sealed predictions, guesses, rolls, moves, forfeits, race after race.

Everything the flow needs to know is in the session (who still has to predict, whose turn,
the die waiting), so after a restart it goes on where the game stood. Only an entry in
progress is kept here: the number of horses pressed so far and, for a guess, the opponent
being chosen. The horses themselves are only held until the third press, then sealed.

UI decisions:

- A secret is three horse presses in order, drawn as stars; the third press seals it. The
  bottom row names the next player to enter one (players can get ready), and says "Others
  look away" for the last. A refused prediction says only that it was refused.
- In the guess variant the guesser turns the knob through the opponents (never a teammate)
  and "no guess", pushes, then presses three horses.
- After a roll the top row names the roller and the face ("Anna: die 4"); the next row says
  "Move any horse" or "Move one of:" above the horses that may move (dimmed on the strip
  otherwise). A roll no horse can use is given up at once, with the refused tone.
- Totals go on one row; when the names cannot fit it, the row says who leads. With teams,
  the totals are the teams' ("Team 1 6 Team 2 4").
- After a race the knob turns pages marked "2/6": the podium and what each player (or
  team) gained, the teams, then one page per player with the prediction revealed.
"""

from __future__ import annotations

from companion.daemon.flows.base import HORSE_BUTTONS, Context, Flash, Reply, notice
from companion.daemon.flows.die import DieGameFlow
from companion.devices.base import OFF, RGB, ButtonAnswer, PressAnswers, Tone
from companion.games.jumpy_jack import JumpyJackPrivate, Landing, MatchOptions, Move
from companion.render import jumpy_jack as render
from companion.render.language import _, ngettext
from companion.render.screen import Cue, Screen
from companion.render.text import ROWS, SEALED, fits, named, ordinal
from companion.session.log import Forfeit, GuessEntry, MoveEntry, Predict
from companion.session.view import PrivateView, View


class JumpyJackFlow(DieGameFlow):
    """Turn die rolls, horse buttons, the encoder and push into a Jumpy Jack match."""

    OVER = "match_over"

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        options = MatchOptions.parse(self.table.start.options)
        board = options.board
        self.guess_variant = options.guess
        self.teams = options.teams
        self.horses = board.horse_names
        self.track = render.TrackShape(
            board.squares,
            {
                "stop": board.stop,
                "double": board.double,
                "out": board.out,
                "restart": board.restart,
            },
        )
        self.layout = ctx.layouts.track("jumpy_jack")
        #: Horses pressed for the secret being entered (never shown).
        self.pressed: list[str] = []
        #: Guess variant: the guesser's chosen opponent (index into the choices), and whether
        #: the opponent is chosen; players who guessed or passed this race.
        self.target_index = 0
        self.target_chosen = False
        self.guess_done: set[str] = set()
        self.guess_race = 0
        self._learn_guesses()

    # -- whose secret is being entered -----------------------------------------------------

    def _learn_guesses(self) -> None:
        """After a restart: players who already hold a guess, and those seated before the last
        of them (they passed), are done guessing."""
        view = self.ctx.view()
        self.guess_race = view.race
        self.guess_done = set()
        if not self.guess_variant or view.phase != "predict" or view.waiting_for:
            return
        guessed = [p for p in view.players if _guess_held(self.ctx.session.private_view(p))]
        if guessed:
            last = view.players.index(guessed[-1])
            self.guess_done = set(view.players[: last + 1])

    def _guesser(self, view: View) -> str | None:
        if not self.guess_variant or view.phase != "predict" or view.waiting_for:
            return None
        if self.guess_race != view.race:
            self.guess_race, self.guess_done = view.race, set()
        return next((p for p in view.players if p not in self.guess_done), None)

    def _choices(self, view: View, guesser: str) -> list[str | None]:
        """The opponents a guesser may choose (never a teammate), then "no guess"."""
        mates = {guesser}
        for team in self.teams:
            if guesser in team:
                mates.update(team)
        return [*(p for p in view.players if p not in mates), None]

    def _entry(self, view: View) -> render.SecretDraft | None:
        if view.phase == "predict" and view.waiting_for:
            return render.SecretDraft(view.waiting_for[0], "prediction", len(self.pressed))
        guesser = self._guesser(view)
        if guesser is None:
            return None
        choices = self._choices(view, guesser)
        target = choices[self.target_index % len(choices)]
        return render.SecretDraft(
            guesser, "guess", len(self.pressed), target, not self.target_chosen
        )

    # -- inputs ----------------------------------------------------------------------------

    @property
    def button_horses(self) -> tuple[str, ...]:
        """The board's horses, in its order."""
        return self.horses

    def expects_roll(self, view: View) -> bool:
        """A roll is awaited in the roll phase, and after the last secret of a race."""
        return view.phase == "roll" or (view.phase == "predict" and not view.waiting_for)

    def entering(self, view: View) -> bool:
        """A secret (a prediction, a guess) is being entered."""
        return self._entry(view) is not None

    def rolled(self, view: View) -> None:
        """A roll forgets any secret or guess left half-entered."""
        self.pressed, self.target_chosen, self.target_index = [], False, 0

    def on_turn(self, view: View, steps: int) -> Reply:
        """Turn through the opponents a guesser may choose."""
        entry = self._entry(view)
        if entry is not None and entry.what == "guess" and entry.choosing:
            self.target_index += steps
        return Reply()

    def race_started(self, view: View) -> Reply:
        """Ask for the predictions of the new race."""
        self.pressed = []
        return notice(_("Race {number}: predict!").format(number=view.race))

    def on_push(self, view: View) -> Reply:
        """Choose the guesser's opponent, or no guess."""
        entry = self._entry(view)
        if entry is not None and entry.what == "guess" and entry.choosing:
            if entry.target is None:
                self.guess_done.add(entry.player)
                self.target_index = 0
                return notice(named(entry.player, _(": no guess.")), tone=None)
            self.target_chosen = True
            return Reply()
        return Reply()

    def on_horse(self, view: View, horse: str) -> Reply:
        """Press ``horse`` for the secret being entered, else move it."""
        entry = self._entry(view)
        if entry is not None:
            if entry.what == "guess" and entry.choosing:
                return Reply()
            self.pressed.append(horse)
            if len(self.pressed) < 3:
                return Reply([Cue(tone=Tone.ACCEPTED)])
            return self._seal(entry)
        return self._move(view, horse)

    def _seal(self, entry: render.SecretDraft) -> Reply:
        horses, self.pressed = tuple(self.pressed), []
        if entry.what == "prediction":
            outcome, reply = self.ctx.submit(Predict(entry.player, horses))
        else:
            assert entry.target is not None
            outcome, reply = self.ctx.submit(GuessEntry(entry.player, entry.target, horses))
            if outcome.accepted:
                self.guess_done.add(entry.player)
                self.target_index, self.target_chosen = 0, False
        if outcome.accepted:
            return notice(named(entry.player, _(": sealed {sealed}").format(sealed=SEALED)))
        return reply

    def _move(self, view: View, horse: str) -> Reply:
        outcome, reply = self.ctx.submit(MoveEntry(horse, view.turn))
        if not outcome.accepted:
            return reply
        board = render.board_of(outcome.view)
        cues: list[Cue] = []
        animation = render.move_cue(board, self.track, self.layout)
        if animation is not None:
            cues.append(Cue(move=animation))
        move = board.last_move
        text, tone = self._announce(move, outcome.view)
        cues.insert(0, Cue(tone=tone))
        flash = Flash.sentence(text, 3.0) if text else None
        return Reply(cues, flash)

    def _announce(self, move: Move | None, view: View) -> tuple[str, Tone]:
        """Say what the move did, and with which tone."""
        horse = None if move is None else _(str(move.horse))
        effect = None if move is None else move.effect
        place = None if move is None else move.place
        parts: list[str] = []
        tone = Tone.ACCEPTED
        if move is not None and move.bounce is not None:
            parts.append(_("DOUBLE: {horse} bounces.").format(horse=horse))
        if effect is Landing.FINISH and isinstance(place, int):
            parts.append(_("{horse} finishes {place}!").format(horse=horse, place=ordinal(place)))
            tone = Tone.FINISH
        elif effect is Landing.OUT and isinstance(place, int):
            parts.append(_("{horse} is out: {place}.").format(horse=horse, place=ordinal(place)))
        elif effect is Landing.RESTART:
            parts.append(_("RESTART: {horse} back to start.").format(horse=horse))
        elif effect is Landing.STOP:
            parts.append(_("{horse} holds the STOP.").format(horse=horse))
        elif move is not None and move.barrage:
            parts.append(_("Barrage on {square}.").format(square=move.landing))
        if view.phase in ("race_over", "match_over"):
            results = render.board_of(view).results
            points = results[-1].points if results else {}
            jacks = [p for p, v in points.items() if v == 10]
            if jacks:
                said = _("Jumpy Jack! {players}").format(players=", ".join(jacks))
                many = ngettext(
                    "Jumpy Jack! {count} player", "Jumpy Jack! {count} players", len(jacks)
                )
                parts = [said if fits(said, ROWS) else many.format(count=len(jacks))]
                tone = Tone.JUMPY_JACK
            else:
                parts.append(_("Race over!"))
                tone = Tone.FINISH
        return " ".join(parts), tone

    def settle(self) -> Reply:
        """Forfeit a roll no horse can use (only then), and say so."""
        view = self.ctx.view()
        if view.phase != "move" or not render.board_of(view).must_forfeit:
            return Reply()
        die = render.board_of(view).die
        outcome, reply = self.ctx.submit(Forfeit(view.turn))
        if not outcome.accepted:
            return reply
        return notice(
            _("No horse can move {die}: {player}'s roll is lost.").format(
                die=die, player=view.turn
            ),
            tone=Tone.REFUSED,
        )

    def hand(self) -> PressAnswers:
        """In a move, each legal horse's button lights that horse's move: the strip after it
        and its walk, drawn from the game as the move would leave it (the offers name the
        horses; a copy of the game is moved, never the game)."""
        offer = self.ctx.offers().find("move")
        if offer is None:
            return PressAnswers()
        view = self.ctx.view()
        answers = []
        for horse in offer.horses:
            index = self.horses.index(horse) if horse in self.horses else len(HORSE_BUTTONS)
            after = self.ctx.session.preview(MoveEntry(horse, view.turn))
            if index >= len(HORSE_BUTTONS) or after is None:
                continue
            walk = render.move_cue(render.board_of(after), self.track, self.layout)
            frame = render.track_leds(after, self.track, self.layout)
            path, colour = (walk.path, walk.colour) if walk is not None else ((), OFF)
            answers.append(ButtonAnswer(HORSE_BUTTONS[index], frame, path, colour))
        return PressAnswers(tuple(answers))

    def after_undo(self) -> None:
        """An undone forfeit brings back the roll it lost: take the roll back too."""
        self.pressed, self.target_chosen, self.target_index = [], False, 0
        view = self.ctx.view()
        if view.phase == "move" and render.board_of(view).must_forfeit:
            self.ctx.session.undo()
        self._learn_guesses()

    def take_back_step(self) -> bool:
        """Drop the last horse pressed, or the guesser's chosen opponent."""
        if self.pressed:
            self.pressed.pop()
            return True
        if self.target_chosen:
            self.target_chosen = False
            return True
        return False

    # -- picture ---------------------------------------------------------------------------

    def end_pages(self, view: View) -> list[list[str]]:
        """The match's pages once it is over (the winners, the ranking, the last race)."""
        return render.end_pages(view, self.guess_variant)

    def screen(self) -> Screen:
        """Return the picture of the match as it stands."""
        view = self.ctx.view()
        return render.screen(
            view,
            self._entry(view),
            self.track,
            self.layout,
            self.page,
            self.keyed_value(view),
            self.guess_variant,
        )

    def leds(self) -> tuple[RGB, ...]:
        """Return the strip as ``screen()`` draws it (the same drawing, kept)."""
        return render.leds(self.ctx.view(), self.track, self.layout)


def _guess_held(private: PrivateView) -> bool:
    details = private.details
    return isinstance(details, JumpyJackPrivate) and details.guess is not None


#: The table flow of this game, found by the controller through the game's kind.
FLOW = JumpyJackFlow
