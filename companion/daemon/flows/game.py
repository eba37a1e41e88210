"""What every game flow shares: the inputs' dispatch, undo, back to the menu, result pages.

UI decision: once a game is over, the evening's standings (every game finished this evening,
kept in the journal) are one more of its pages, right after the game's first page (a second
"Evening" page for every three people past the third); the page marks count them. A game
says nothing of it: its pages are its own end pages (``end_pages``) or its one end screen.
A table without a journal has no evening, and its end pages stay the game's.
"""

from __future__ import annotations

from abc import abstractmethod

from companion.daemon.flows.base import HORSE_BUTTONS, Context, Flow, Reply, notice, refused
from companion.daemon.flows.cards import UNKNOWN_CARD
from companion.daemon.flows.dial import Knob
from companion.devices.base import ButtonPressed, CardScanned, EncoderTurned, InputEvent, Tone
from companion.games.text import N_
from companion.render.evening import evening_oled, evening_pages
from companion.render.language import _, say
from companion.render.screen import Cue, OledScreen, Screen
from companion.render.text import buttons_row, card_dial_rows, numbered
from companion.session.log import NewGame, NextRace
from companion.session.session import Game
from companion.session.view import View


class GameFlow(Flow):
    """A game in progress: local steps of an entry first, then the session's undo.

    After a race, push starts the next one and the encoder turns the result pages; once the
    game is over, push goes back to the menu. Every other input goes to the game's own step:
    ``on_turn``, ``on_push``, ``on_horse`` (with the horse its button stands for),
    ``on_card``.
    """

    #: The phase of a game that is over (after the last race).
    OVER = "game_over"

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        #: The result page shown (the encoder turns pages after a race).
        self.page = 0
        #: How fast the knob turns (a number dialled fast steps by 5, 10, 50).
        self.knob = Knob(ctx.clock)
        #: The prompt the entry in progress was begun at (see ``follow_prompt``).
        self.prompt: tuple[object, ...] | None = None

    @property
    def table(self) -> Game:
        """The session's game (a game flow only exists while there is one)."""
        table = self.ctx.session.table
        assert table is not None, "a game flow runs only while a game is on"
        return table

    @property
    @abstractmethod
    def button_horses(self) -> tuple[str, ...]:
        """The horses the horse buttons stand for, button 1 first."""

    # -- inputs ----------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> Reply:
        """Apply one device input."""
        view = self.ctx.view()
        if not isinstance(event, EncoderTurned):
            self.knob.reset()  # a turn after another input starts slow again
        if isinstance(event, CardScanned):
            return self.on_card(view, event.card)
        if isinstance(event, EncoderTurned):
            if view.phase in ("race_over", self.OVER):
                return self.turn_page(event.steps)
            return self.on_turn(view, event.steps)
        if isinstance(event, ButtonPressed):
            if event.button == "push":
                return self._push(view)
            if event.button in HORSE_BUTTONS:
                index = HORSE_BUTTONS.index(event.button)
                if index < len(self.button_horses):
                    return self.on_horse(view, self.button_horses[index])
        return Reply()

    def _push(self, view: View) -> Reply:
        """Push: the next race after a race, the menu after the game, else the game's step."""
        if view.phase == "race_over":
            outcome, reply = self.ctx.submit(NextRace())
            if outcome.accepted:
                self.page = 0
                return self.race_started(outcome.view)
            return reply
        if view.phase == self.OVER:
            return Reply(goto=self.menu())
        return self.on_push(view)

    @abstractmethod
    def on_turn(self, view: View, steps: int) -> Reply:
        """The encoder turned by ``steps`` while no result pages are shown."""

    @abstractmethod
    def on_push(self, view: View) -> Reply:
        """Push was pressed during a race (or before it)."""

    @abstractmethod
    def on_horse(self, view: View, horse: str) -> Reply:
        """The button of ``horse`` was pressed."""

    @abstractmethod
    def race_started(self, view: View) -> Reply:
        """Forget what was being entered and announce the race that ``view`` shows."""

    def on_card(self, view: View, name: str | None) -> Reply:
        """A card was scanned (its enrolled name, None for an unknown tag): ignored here."""
        return Reply()

    # -- taking back -------------------------------------------------------------------------

    def follow_prompt(self) -> None:
        """A horse pressed, a stake dialled or a card picked belongs to the person and the
        question the panel asked when it was chosen: once the table asks someone else or
        something else (another door made that input, the turn moved, a race ended), what
        was half made is dropped, never handed to the next person."""
        view = self.ctx.view()
        prompt = (view.game_id, view.race, view.phase, self.ctx.offers().asked)
        if prompt != self.prompt:
            if self.prompt is not None:
                self.forget_entry()
            self.prompt = prompt

    def forget_entry(self) -> None:
        """Drop the whole entry in progress (every step ``take_back_step`` would take back)."""
        while self.take_back_step():
            pass

    @abstractmethod
    def take_back_step(self) -> bool:
        """Take back the last step of an entry in progress; False when there is none."""

    def undo(self) -> Reply:
        """Take back a step of the entry in progress, else the last accepted input.

        With nothing left to take back (only the game's start), the game is abandoned and
        the menu comes back with the same choices, so a mistaken start costs one hold.
        """
        if self.take_back_step():
            return notice(_("Taken back."), tone=None)
        table = self.table
        if len(table.in_force()) <= 1:
            start = table.start
            self.ctx.session.abandon()
            return Reply(flash=notice(_("Game cancelled.")).flash, goto=self.menu(start))
        outcome = self.ctx.session.undo()
        if not outcome.accepted:
            said = say(outcome.message) if outcome.message else _("Nothing to undo.")
            return notice(said, tone=Tone.REFUSED)
        self.page = 0
        reply = notice(_("Undone."))
        reply.undone = outcome.undone
        self.after_undo()
        return reply

    def after_undo(self) -> None:
        """Fix up after an undo (e.g. undo an automatic input with the one that caused it)."""

    def menu(self, start: NewGame | None = None) -> Flow:
        """Return the menu, preset with ``start``'s choices when given."""
        factory = self.ctx.menu_flow
        assert factory is not None
        flow = factory(self.ctx)
        if start is not None:
            flow.preset(start)
        return flow

    def turn_page(self, steps: int) -> Reply:
        """Turn the result pages by ``steps``."""
        self.page += steps
        return Reply()

    # -- the end of the game --------------------------------------------------------------

    def end_pages(self, view: View) -> list[list[str]] | None:
        """The game's own pages once it is over, not numbered (None: its one end screen)."""
        return None

    def closing(self, shown: Screen) -> Screen:
        """Once the game is over: its pages with the evening's after the first, numbered
        together, the knob's page among them (``shown`` is the game's own picture)."""
        view = self.ctx.view()
        if not view.finished:
            return shown
        ranking = self.ctx.standings()
        if not ranking:
            return shown
        own = self.end_pages(view) or [list(shown.lcd)]
        evening = evening_pages(ranking)
        pages = numbered([own[0], *evening, *own[1:]])
        index = self.page % len(pages)
        if 1 <= index <= len(evening):
            return Screen(pages[index], evening_oled(ranking), shown.leds)
        return Screen(pages[index], shown.oled, shown.leds)


class CardGameFlow(GameFlow):
    """A game played with scanned cards: a tag that is no card of its deck is refused first.

    Without a card reader (``ctx.cards`` is "dial"), a card is dialled whenever the game
    awaits one: a horse button chooses a group of cards (a suit, a Jockey horse's cards...),
    the knob turns through the group, push plays the card the knob is on. A scan still
    counts (the simulator types cards even without a reader).
    """

    #: What the table says when an enrolled card of another deck is scanned.
    NOT_OUR_CARD = N_("Not a card of this game.")

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        #: The card being dialled: the group chosen (a horse button's index) and the card.
        self.dial_group: int | None = None
        self.dial_index = 0

    def handle(self, event: InputEvent) -> Reply:
        """Dial a card when one is awaited and there is no reader; else as every game."""
        if self.ctx.cards == "dial" and isinstance(event, ButtonPressed | EncoderTurned):
            view = self.ctx.view()
            if self.wants_card(view):
                reply = self._dial(view, event)
                if reply is not None:
                    return reply
        return super().handle(event)

    def _dial(self, view: View, event: ButtonPressed | EncoderTurned) -> Reply | None:
        groups = self.card_groups(view)
        if isinstance(event, EncoderTurned):
            if self.dial_group is None:
                return None
            self.dial_index = (self.dial_index + event.steps) % len(groups[self.dial_group])
            return Reply()
        if event.button in HORSE_BUTTONS[: len(groups)]:
            self.dial_group, self.dial_index = HORSE_BUTTONS.index(event.button), 0
            return Reply([Cue(tone=Tone.ACCEPTED)])
        if event.button == "push" and self.dial_group is not None:
            card = groups[self.dial_group][self.dial_index][0]
            self.dial_group = None
            return self.play(view, card)
        return None

    def dialled(self, view: View, screen: Screen) -> Screen:
        """``screen`` with the card being dialled over its bottom rows (when there is one)."""
        if not self.dialling(view):
            return screen
        lcd = list(screen.lcd)
        choice = None
        if self.dial_group is not None:
            choice = self.card_groups(view)[self.dial_group][self.dial_index][1]
        shown = card_dial_rows(buttons_row(self.group_names()), choice)
        lcd[len(lcd) - len(shown) :] = shown
        oled = OledScreen(lines=(_("Card"), choice)) if choice is not None else screen.oled
        return Screen(tuple(lcd), oled, screen.leds)

    def dialling(self, view: View) -> bool:
        """Whether a card is dialled now (no card reader, a card awaited): the screens then
        ask to dial it where they would ask to scan it."""
        return self.ctx.cards == "dial" and self.wants_card(view)

    def undo(self) -> Reply:
        """Drop the group of a card being dialled first, then as every game."""
        if self.dial_group is not None:
            self.dial_group = None
            return notice(_("Taken back."), tone=None)
        return super().undo()

    @abstractmethod
    def wants_card(self, view: View) -> bool:
        """Whether a card is awaited now (dealt, turned or played), nothing else being entered."""

    @abstractmethod
    def group_names(self) -> list[str]:
        """What each horse button chooses when a card is dialled, button 1 first."""

    @abstractmethod
    def card_groups(self, view: View) -> list[list[tuple[str, str]]]:
        """For each horse button, the cards it dials: (the game's card id, as shown)."""

    def on_card(self, view: View, name: str | None) -> Reply:
        """Refuse an unknown tag or another deck's card, else play the card."""
        if name is None:
            return refused(_(UNKNOWN_CARD))
        card = self.card(name)
        if card is None:
            return refused(_(self.NOT_OUR_CARD))
        return self.play(view, card)

    @abstractmethod
    def card(self, name: str) -> str | None:
        """Return the game's id of the card the reader named ``name``, or None."""

    @abstractmethod
    def play(self, view: View, card: str) -> Reply:
        """Apply the scanned ``card`` (a game's card id)."""
