"""What every table flow shares: the context it runs in, its replies, submitting an entry."""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.devices.base import RGB, InputEvent, PressAnswers, Tone
from companion.games.text import Message
from companion.render.language import _, say
from companion.render.layout import Layouts
from companion.render.screen import Cue, Screen
from companion.render.text import wrap
from companion.session.evening import EveningBook, EveningStanding
from companion.session.log import LogEntry, NewGame
from companion.session.offers import Offers
from companion.session.session import Session
from companion.session.view import Outcome, View

log = logging.getLogger("companion.table")

#: How long a refusal's reason stays on the LCD.
REFUSAL_S = 4.0
#: How long an announcement (a finish, a forfeit, "Undone") stays.
NOTICE_S = 3.0
#: The horse buttons, button 1 first (a flow with fewer choices ignores the rest).
HORSE_BUTTONS = ("horse1", "horse2", "horse3", "horse4", "horse5")


@dataclass(frozen=True)
class Flash:
    """A message shown for a while over the steady picture.

    ``lcd`` rows replace the bottom rows of the LCD (all four when there are four); ``oled``
    lines replace the OLED while the message lasts. ``seconds`` is how long it stays;
    ``text`` is the sentence the rows were wrapped from.
    """

    lcd: tuple[str, ...] = ()
    oled: tuple[str, ...] = ()
    seconds: float = NOTICE_S
    text: str = ""

    @classmethod
    def sentence(cls, text: str, seconds: float = REFUSAL_S, oled: Sequence[str] = ()) -> Flash:
        """Return a flash of ``text`` word-wrapped into the bottom rows of the LCD."""
        lines = wrap(text, rows=4)
        return cls(lines, tuple(oled), seconds, text)


@dataclass
class Reply:
    """What an input caused: cues to play, a message to flash, another flow to switch to."""

    cues: list[Cue] = field(default_factory=list)
    flash: Flash | None = None
    goto: Flow | None = None
    #: The input an undo took back (the host page says which).
    undone: LogEntry | None = None

    def add(self, other: Reply) -> Reply:
        """Merge ``other`` into this reply (its flash and its switch win) and return self."""
        self.cues.extend(other.cues)
        if other.flash is not None:
            self.flash = other.flash
        if other.goto is not None:
            self.goto = other.goto
        if other.undone is not None:
            self.undone = other.undone
        return self


def refused(sentence: str) -> Reply:
    """Return the reply to a refused input: the refused tone and the reason on the LCD."""
    return Reply([Cue(tone=Tone.REFUSED)], Flash.sentence(sentence))


def notice(text: str, oled: Sequence[str] = (), tone: Tone | None = Tone.ACCEPTED) -> Reply:
    """Return a reply announcing ``text`` (with ``tone``) for a few seconds."""
    cues = [Cue(tone=tone)] if tone is not None else []
    return Reply(cues, Flash.sentence(text, NOTICE_S, oled))


@dataclass(frozen=True)
class ClubLine:
    """How the table's connection to the club's broker stands, for the host page: a sentence
    of the table (said in its language) and the broker's address and own words."""

    message: Message
    detail: str = ""


@dataclass
class Context:
    """What every flow needs: the session, the LED layouts, the names and options offered."""

    session: Session
    layouts: Layouts
    player_names: tuple[str, ...] = ()
    #: Options always added to a new game of each kind (a board, a deck...), by game kind.
    game_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Builds the flow of the game in progress (set by the controller).
    game_flow: Callable[[Context], Flow] | None = None
    #: Builds the menu (set by the controller).
    menu_flow: Callable[[Context], StartMenu] | None = None
    #: The language the table speaks (``en``, ``fr`` or ``de``); the menu's options change it.
    language: str = "en"
    #: Keeps a language chosen at the table for the next start (set by the controller).
    remember_language: Callable[[str], None] | None = None
    #: Monotonic seconds (the knob's speed is measured with it).
    clock: Callable[[], float] = time.monotonic
    #: How the die is rolled: "electronic" (the die button) or "manual" (a real die, dialled).
    die: str = "electronic"
    #: How cards come in: "reader" (scanned) or "dial" (knob and horse buttons).
    cards: str = "reader"
    #: Opens the host's seat to a new phone (set when the phone pages are on): the menu then
    #: offers it as a row of its options.
    open_host_seat: Callable[[], Reply] | None = None
    #: Ends the evening, emptying the room of the phone pages (set while the room has
    #: people): the menu then offers it as its last row, below "Start".
    end_evening: Callable[[], Reply] | None = None
    #: The evening's finished games, each worked out once from the journal.
    evenings: EveningBook = field(default_factory=EveningBook)
    #: How the connection to the club's broker stands (None: the table has no [club]).
    club: ClubLine | None = None

    def view(self) -> View:
        """Return the game's public view now, without the last refusal: the flows draw it, and
        a refused input (which the LCD says through its reply) then redraws nothing."""
        return self.session.game_view()

    def offers(self) -> Offers:
        """What the game takes now and from whom: the flows prompt from it, as every door does."""
        return self.session.offers()

    def standings(self) -> tuple[EveningStanding, ...]:
        """The evening's ranking, best first (ties after wins in the order people first
        played this evening, as on the pages); none without a journal."""
        return self.evenings.evening(self.session.journal).ranking()

    def submit(self, entry: LogEntry) -> tuple[Outcome, Reply]:
        """Submit ``entry``; return its outcome and, if refused, the reply saying why.

        The reason shown is the public one: a refused secret input says only that it was
        refused, so the shared LCD never hints at what was entered.
        """
        outcome = self.session.submit(entry)
        if outcome.accepted:
            return outcome, Reply()
        public = outcome.view.last_refusal
        if public is not None:
            sentence = say(public.message) if public.message else public.sentence
        else:
            sentence = say(outcome.message) if outcome.message else _("Refused.")
        log.info("refused %s: %s", entry.TYPE, outcome.code)
        return outcome, refused(sentence)


class Flow(ABC):
    """One mode of the table (the menu, or one game): turns inputs into entries, draws itself."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @abstractmethod
    def handle(self, event: InputEvent) -> Reply:
        """Apply one input (never the undo hold): return what it caused."""

    @abstractmethod
    def undo(self) -> Reply:
        """Take back the last step (the undo button was held)."""

    @abstractmethod
    def screen(self) -> Screen:
        """Return the steady picture of every output."""

    def leds(self) -> tuple[RGB, ...]:
        """Return the strip's part of ``screen()``; a game whose moves walk on the strip
        draws it on its own, so a move's walk goes out before the displays are drawn."""
        return self.screen().leds

    def settle(self) -> Reply:
        """Make any input the rules force (a forfeit); called after every change."""
        return Reply()

    def hand(self) -> PressAnswers:
        """What each button that is legal now lights once its press is taken (the strip's new
        frame and a move's walk), so the strip answers the press at once: the table then
        confirms it or puts the strip back. None by default: every press waits for the table.
        """
        return PressAnswers()

    def follow_prompt(self) -> None:
        """Called after every change, from the panel or any other door: a flow that keeps a
        half-made entry drops it when the table's prompt has moved on."""
        return None

    def closing(self, shown: Screen) -> Screen:
        """The picture ``shown`` with what the table adds at the end of a game (the
        evening's page); as it is for every other moment."""
        return shown


class StartMenu(Flow):
    """The flow that starts a game; it can open on the choices of a game taken back."""

    @abstractmethod
    def preset(self, start: NewGame) -> None:
        """Open on the last step with the game, players and options of ``start``."""
