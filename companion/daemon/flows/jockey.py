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
  2nd"); the limit stays on the bettor's row; stakes go by hundreds, and a fast turn of the
  knob by 500, 1000, 5000. A stake dial starts at the player's last stake in that place this
  game (the first stake, or the second of an order bet), clamped to what is allowed now.
- A card that moved nothing flashes the engine's whole reason (all four rows when it needs
  them), then the race screen keeps a short one: "No move: lead shared".
- Without a card reader, the player dials the card played: horse button 1 to 4 for that
  horse's cards, 5 for the position cards (No.2 +15...), the knob to the card as printed,
  push. The copies of a card are alike: the first copy not yet played this race is taken.
- With the ``hands`` option ("Hands: scan" in the menu), each player's cards are scanned
  (or dialled) one by one as they are dealt, before the bets and again when the hands run
  out: the LCD counts them ("Cards: 4/15") and never names one. A kept card is scanned like
  a dealt one (the hand is the same); hands are dealt in seat order.
- A revealed bet uses the horses' two letters when the full names do not fit one row
  ("order Re 300, Bl 100"); a player's page gives the change, the new balance after an
  arrow ("+800 →1800") and where the three markers go ("10k:0 1k:1 100:8").
"""

from __future__ import annotations

from companion.daemon.flows.base import Context, Flash, Reply, notice
from companion.daemon.flows.cards import jockey_card
from companion.daemon.flows.game import CardGameFlow
from companion.devices.base import RGB, Tone
from companion.games.jockey import BetKind, JockeyOptions
from companion.games.text import N_
from companion.render import jockey as render
from companion.render.language import _, card_label, say
from companion.render.screen import Cue, Screen
from companion.render.text import ROWS, fits, sealed
from companion.session.bindings.jockey import stake_start
from companion.session.log import BetEntry, Hand, PlayCard
from companion.session.view import View

HORSES = render.HORSES
#: The kinds of bet in the rulebook's order, as the knob offers them (the pads too).
KINDS = tuple(kind.value for kind in BetKind)
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

    def _dealee(self, view: View) -> str | None:
        """With the hands tracked: the first player still owed cards (dealt before bets)."""
        if view.phase not in ("betting", "racing"):
            return None
        owed = render.board_of(view).owed
        return next((p for p in view.players if owed.get(p)), None)

    def _bettor(self, view: View) -> str | None:
        if view.phase != "betting" or self._dealee(view) is not None:
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

    def _entry(self, view: View) -> render.BetDraft | None:
        bettor = self._bettor(view)
        if bettor is None:
            return None
        kind = KINDS[self.kind % len(KINDS)]
        needed = SHAPES[kind][0] if self.step == "horses" else SHAPES[kind][1]
        return render.BetDraft(
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
        """Deal ``card`` to a hand being scanned, else play it for the player whose turn it is:
        move, settle, or say why not."""
        dealee = self._dealee(view)
        if dealee is not None:
            outcome, reply = self.ctx.submit(Hand(dealee, (card,)))
            return Reply([Cue(tone=Tone.ACCEPTED)]) if outcome.accepted else reply
        outcome, reply = self.ctx.submit(PlayCard(card, view.turn))
        if not outcome.accepted:
            return reply
        board = render.board_of(outcome.view)
        effect = board.last_effect
        sentence = "" if effect is None else say(effect.message())
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
        if not fits(sentence, ROWS):
            sentence = _("{label} moved nothing.").format(label=card_label(effect.label))
        return Reply(cues, Flash.sentence(sentence, 4.0))

    def on_turn(self, view: View, steps: int) -> Reply:
        """Choose the kind of bet, or dial a stake."""
        bettor = self._bettor(view)
        if bettor is None:
            return Reply()
        if self.step == "kind":
            self.kind = (self.kind + steps) % len(KINDS)
        elif self.step == "stakes":
            self.dial = self.knob.dial(self.dial, steps, UNIT, self._most(view, bettor), UNIT)
        return Reply()

    def _most(self, view: View, bettor: str) -> int:
        """The highest stake the dial offers now, in hundreds."""
        return max(UNIT, self._dial_limit(view, bettor) // UNIT * UNIT)

    def _first_dial(self, view: View, bettor: str) -> int:
        """The stake the dial starts on: the player's last stake in this place this game."""
        second = len(self.stakes) == 1
        return stake_start(render.board_of(view), bettor, second, self._most(view, bettor))

    def on_horse(self, view: View, horse: str) -> Reply:
        """Add ``horse`` to the bet being entered."""
        if self._bettor(view) is None or self.step != "horses":
            return Reply()
        kind = KINDS[self.kind]
        self.horses.append(horse)
        if len(self.horses) >= SHAPES[kind][0]:
            self.step = "stakes"
            self.dial = self._first_dial(view, str(self._bettor(view)))
        return Reply([Cue(tone=Tone.ACCEPTED)])

    def race_started(self, view: View) -> Reply:
        """Start the bets of the new race afresh."""
        self._clear()
        return notice(_("Race {number}: bets!").format(number=view.race))

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
            self.dial = self._first_dial(view, bettor)
            return Reply([Cue(tone=Tone.ACCEPTED)])
        return self._seal(bettor, kind)

    def _seal(self, bettor: str, kind: str) -> Reply:
        horses, stakes = self.horses, self.stakes
        second = horses[1] if len(horses) > 1 else None
        stake2 = stakes[1] if len(stakes) > 1 else None
        entry = BetEntry(bettor, horses[0], stakes[0], kind, second, stake2)
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

    def forget_entry(self) -> None:
        """The prompt moved on: the next bet starts afresh, its dial too."""
        self._clear()

    # -- dialling a card (no card reader) ----------------------------------------------------

    def wants_card(self, view: View) -> bool:
        """A card of a hand being scanned, or a card to play once every bet is in."""
        return view.phase == "racing" or (view.phase == "betting" and self._bettor(view) is None)

    def group_names(self) -> list[str]:
        """The horses' colour cards, button 1 to 4, then (button 5) the position cards."""
        return [*HORSES, "No."]

    def card_groups(self, view: View) -> list[list[tuple[str, str]]]:
        """Each horse's cards, then the position cards: one choice per card as printed, the
        first copy not played this race standing for it (the copies are alike)."""
        pile = set(render.board_of(view).pile)
        groups: list[list[tuple[str, str]]] = [[] for _ in range(len(HORSES) + 1)]
        chosen: dict[str, str] = {}
        for card in self.deck.cards:
            if card.label not in chosen or (chosen[card.label] in pile and card.id not in pile):
                chosen[card.label] = card.id
        for card in self.deck.cards:
            if chosen.get(card.label) != card.id:
                continue
            colour = str(card.colour) if card.colour is not None else None
            group = HORSES.index(colour) if colour in HORSES else len(HORSES)
            groups[group].append((card.id, card.label))
        return groups

    # -- picture ---------------------------------------------------------------------------

    def end_pages(self, view: View) -> list[list[str]]:
        """The game's pages once it is over (the winner, the ranking by balance, the last
        race)."""
        return render.end_pages(view)

    def screen(self) -> Screen:
        """Return the picture of the race as it stands."""
        view = self.ctx.view()
        dealee = self._dealee(view)
        if dealee is not None:
            shown = render.hand_screen(view, dealee, self.layout)
        else:
            entry, played_by = self._entry(view), self._played_by()
            shown = render.screen(
                view, entry, self.layout, self.page, played_by, self.dialling(view)
            )
        return self.dialled(view, shown)

    def leds(self) -> tuple[RGB, ...]:
        """Return the track as ``screen()`` draws it (the same drawing, kept)."""
        return render.leds(self.ctx.view(), self.layout)

    def _played_by(self) -> str | None:
        """Who played the last card in force (the reader's turn when it was scanned)."""
        cards = [e for e in self.table.in_force() if isinstance(e, PlayCard)]
        return cards[-1].player if cards else None


#: The table flow of this game, found by the controller through the game's kind.
FLOW = JockeyFlow
