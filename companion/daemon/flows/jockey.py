"""Jockey at the table: secret bets, each played card scanned, settlements, three races.

Before a race each player in turn enters a bet: its kind with the encoder (win, double,
place, order) and push; its horse(s) with the horse buttons; each stake with the encoder in
hundreds and push. Then each card played is scanned for the player whose turn it is; the
companion moves the horse, or says why the card moved nothing, and settles the bets when
the second horse passes the finish.

The session knows who still has to bet and whose turn it is, so a restart loses only a bet
half entered. Cards are named as the reader names them: ``companion/daemon/flows/cards.py``.

UI decisions:

- Horse buttons 1 to 4 are brown, yellow, blue and red (the order of the positions row,
  "Br Ye Bl Re"). The bottom row says what the kind of bet wants pressed ("Press 1st, then
  2nd"); the limit stays on the bettor's row; stakes go by hundreds.
- A card that moved nothing flashes the engine's whole reason (all four rows when it needs
  them), then the race screen keeps a short one: "No move: lead shared".
- A revealed bet uses the horses' two letters when the full names do not fit one row
  ("order Re 300, Bl 100"); a player's page gives the change, the new balance after an
  arrow ("+800 →1800") and where the three markers go ("10k:0 1k:1 100:8").
"""

from __future__ import annotations

from companion.daemon.flows.base import Context, Flash, Reply, notice
from companion.daemon.flows.cards import jockey_card
from companion.daemon.flows.game import CardGameFlow
from companion.devices.base import Tone
from companion.games.jockey import JockeyOptions
from companion.games.text import N_
from companion.render import jockey as render
from companion.render.language import _, current
from companion.render.screen import Cue, Screen
from companion.render.text import ROWS, fits, sealed
from companion.session.log import Bet, PlayCard
from companion.session.view import View

HORSES = render.HORSES
KINDS = ("win", "double", "place", "order")
#: Horses and stakes each kind of bet names.
SHAPES = {"win": (1, 1), "double": (2, 1), "place": (1, 1), "order": (2, 2)}
UNIT = 100


class JockeyFlow(CardGameFlow):
    """Turn the encoder, the horse buttons, push and card scans into a game of Jockey."""

    NOT_OUR_CARD = N_("Not a Jockey card: scan a card of the Jockey deck.")

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        options = JockeyOptions.from_data(self.table.start.options)
        self.deck = options.deck
        self.track = options.track_length
        self.layout = ctx.layouts.track("jockey")
        self._clear()

    def _clear(self) -> None:
        """Forget the bet being entered."""
        self.kind = 0
        self.step = "kind"
        self.horses: list[str] = []
        self.stakes: list[int] = []
        self.dial = UNIT

    # -- the bet being entered ---------------------------------------------------------------

    def _bettor(self, view: View) -> str | None:
        if view.phase != "betting":
            return None
        owed = render.board_of(view).owed
        missing = [p for p in view.waiting_for if p not in view.sealed and not owed.get(p)]
        return missing[0] if missing else None

    def _limit(self, view: View, player: str) -> int:
        return render.board_of(view).limits.get(player, 0)

    def _dial_limit(self, view: View, player: str) -> int:
        """The most the stake being dialled may be, leaving 100 for a second stake to come."""
        kind = KINDS[self.kind % len(KINDS)]
        to_come = SHAPES[kind][1] - len(self.stakes) - 1
        return self._limit(view, player) - sum(self.stakes) - UNIT * to_come

    def _entry(self, view: View) -> render.Entry | None:
        bettor = self._bettor(view)
        if bettor is None:
            return None
        kind = KINDS[self.kind % len(KINDS)]
        needed = SHAPES[kind][0] if self.step == "horses" else SHAPES[kind][1]
        return render.Entry(
            bettor,
            kind,
            self.step,
            len(self.horses),
            needed,
            tuple(self.stakes),
            self.dial,
            self._limit(view, bettor),
        )

    # -- inputs ----------------------------------------------------------------------------

    @property
    def button_horses(self) -> tuple[str, ...]:
        """Brown, yellow, blue and red."""
        return HORSES

    def card(self, name: str) -> str | None:
        """Return the engine id of the Jockey card the reader named ``name``."""
        return jockey_card(name, self.deck)

    def play(self, view: View, card: str) -> Reply:
        """Play ``card`` for the player whose turn it is: move, settle, or say why not."""
        outcome, reply = self.ctx.submit(PlayCard(card, view.turn))
        if not outcome.accepted:
            return reply
        board = render.board_of(outcome.view)
        effect = board.last_effect
        sentence = "" if effect is None else effect.sentence()
        cues: list[Cue] = []
        animation = None if effect is None else render.move_cue(effect, self.layout, self.track)
        if animation is not None:
            cues.append(Cue(move=animation))
        self.page = 0
        if outcome.view.phase in ("race_over", "game_over"):
            result = board.results[-1]
            cues.insert(0, Cue(tone=Tone.FINISH))
            text = _("{first} 1st, {second} 2nd!").format(
                first=_(str(result.first)), second=_(str(result.second))
            )
            oled = (_(str(result.first)), _("wins"))
            return Reply(cues, Flash.sentence(text, 4.0, oled))
        cues.insert(0, Cue(tone=Tone.ACCEPTED))
        if effect is not None and effect.finished:
            cues[0] = Cue(tone=Tone.FINISH)
        if effect is None or effect.blocked is None:
            return Reply(cues)
        if not fits(sentence, ROWS) or current() != "en":
            sentence = _("{label} moved nothing.").format(label=effect.label)
        return Reply(cues, Flash.sentence(sentence, 4.0))

    def on_turn(self, view: View, steps: int) -> Reply:
        """Choose the kind of bet, or dial a stake."""
        bettor = self._bettor(view)
        if bettor is None:
            return Reply()
        if self.step == "kind":
            self.kind = (self.kind + steps) % len(KINDS)
        elif self.step == "stakes":
            most = max(UNIT, self._dial_limit(view, bettor) // UNIT * UNIT)
            self.dial = max(UNIT, min(most, self.dial + steps * UNIT))
        return Reply()

    def on_horse(self, view: View, horse: str) -> Reply:
        """Add ``horse`` to the bet being entered."""
        if self._bettor(view) is None or self.step != "horses":
            return Reply()
        kind = KINDS[self.kind]
        self.horses.append(horse)
        if len(self.horses) >= SHAPES[kind][0]:
            self.step, self.dial = "stakes", UNIT
        return Reply([Cue(tone=Tone.ACCEPTED)])

    def race_started(self, view: View) -> Reply:
        """Start the bets of the new race afresh."""
        self._clear()
        return notice(f"Race {view.race}: bets!")

    def on_push(self, view: View) -> Reply:
        """Confirm the kind of bet, or a stake (the last one seals the bet)."""
        bettor = self._bettor(view)
        if bettor is None:
            return Reply()
        kind = KINDS[self.kind]
        if self.step == "kind":
            self.step = "horses"
            return Reply([Cue(tone=Tone.ACCEPTED)])
        if self.step != "stakes":
            return Reply()
        self.stakes.append(self.dial)
        if len(self.stakes) < SHAPES[kind][1]:
            self.dial = UNIT
            return Reply([Cue(tone=Tone.ACCEPTED)])
        return self._seal(bettor, kind)

    def _seal(self, bettor: str, kind: str) -> Reply:
        horses, stakes = self.horses, self.stakes
        second = horses[1] if len(horses) > 1 else None
        stake2 = stakes[1] if len(stakes) > 1 else None
        entry = Bet(bettor, horses[0], stakes[0], kind, second, stake2)
        self._clear()
        outcome, reply = self.ctx.submit(entry)
        if outcome.accepted:
            return notice(sealed(bettor))
        return reply

    def take_back_step(self) -> bool:
        """Step back in the bet being entered: a stake, a horse, the kind chosen."""
        if self.stakes:
            self.dial = self.stakes.pop()
            return True
        if self.step == "stakes" or self.horses:
            if self.horses:
                self.horses.pop()
            self.step = "horses"
            return True
        if self.step == "horses":
            self.step = "kind"
            return True
        return False

    def after_undo(self) -> None:
        """An undo changes whose bet it is: start that entry afresh."""
        self._clear()

    # -- picture ---------------------------------------------------------------------------

    def screen(self) -> Screen:
        """Return the picture of the race as it stands."""
        view = self.ctx.view()
        return render.screen(view, self._entry(view), self.layout, self.page)


#: The table flow of this game, found by the controller through the game's kind.
FLOW = JockeyFlow
