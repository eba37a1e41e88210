"""The table controller: device events in, table-log entries to the session, a picture out.

``TableController`` is the ``Table`` the daemon's loop drives. It starts on the game the
table showed last (``Journal.latest_shown``: a power cut costs nothing) or on the start
menu, hands each event to the flow of the moment (the menu or one game's flow, see
``companion/daemon/flows/``), and puts over the flow's picture what lasts only a moment: a
refusal's reason, an announcement, a device that stopped answering. A stray press can never
crash it: an unexpected error from a flow is logged and shown like a refusal.

UI decisions:

- A message of the moment takes the bottom rows of the LCD (as many as its sentence needs,
  word-wrapped, never cut) and leaves the rows above it as they were.
- After a restart on a game in progress, "Game resumed." shows on the bottom row for a few
  seconds over the game as it stood; an entry half made (horses pressed, a stake dialled)
  is not kept and is entered again. A restart after a game's end (the game touched last is
  finished, this evening) comes back on that game's end pages, the menu one push away.
- A device that stops answering is named on the bottom row for five seconds, then for three
  seconds every half minute until it is back: the game goes on without it, and the row it
  covers (a prompt, the scores) stays readable in between. When the LCD itself is lost, the
  OLED says so on the same rhythm.
"""

from __future__ import annotations

import functools
import importlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from companion.daemon.flows.base import NOTICE_S, Context, Flash, Flow, Reply, refused
from companion.daemon.flows.menu import MenuFlow
from companion.devices.base import (
    RGB,
    ButtonHeld,
    ButtonPressed,
    DeviceStatus,
    Event,
    PressAnswers,
)
from companion.games.registry import part
from companion.games.text import N_
from companion.render.language import _, current, speaking
from companion.render.layout import Layouts
from companion.render.screen import Cue, OledScreen, Screen
from companion.render.text import COLS, ROWS, named, rows
from companion.session.journal import JournalError, JournalFull
from companion.session.session import Session

log = logging.getLogger("companion.table")

#: What the table sees when a flow fails in an unexpected way.
OOPS = N_("Something went wrong: that input was ignored.")

#: What the table sees when the journal's disk is full (the input changed nothing).
DISK_FULL = N_("Disk full: this input was not saved.")

#: What the table sees when the companion comes back on a game in progress.
RESUMED = N_("Game resumed.")

_T = TypeVar("_T")


def spoken(method: Callable[..., _T]) -> Callable[..., _T]:
    """Run a method of the table in the table's language."""

    @functools.wraps(method)
    def run(self: TableController, *args: Any, **kwargs: Any) -> _T:
        with speaking(self.ctx.language):
            return method(self, *args, **kwargs)

    return run


#: A lost device is named for this long when it is lost...
LOST_FIRST_S = 5.0
#: ...then again every this many seconds...
LOST_EVERY_S = 30.0
#: ...for this long.
LOST_AGAIN_S = 3.0


def lost_shown(elapsed: float) -> bool:
    """Tell whether a device lost ``elapsed`` seconds ago is named on the displays now."""
    if elapsed < LOST_FIRST_S:
        return True
    return (elapsed - LOST_FIRST_S) % LOST_EVERY_S >= LOST_EVERY_S - LOST_AGAIN_S


def lost_change(elapsed: float) -> float:
    """Seconds from ``elapsed`` until ``lost_shown`` changes."""
    if elapsed < LOST_FIRST_S:
        return LOST_FIRST_S - elapsed
    into = (elapsed - LOST_FIRST_S) % LOST_EVERY_S
    hidden = LOST_EVERY_S - LOST_AGAIN_S
    return (hidden - into) if into < hidden else (LOST_EVERY_S - into)


def game_flow(ctx: Context) -> Flow:
    """Return the flow of the session's game: ``FLOW`` of its flow module (the registry's)."""
    table = ctx.session.table
    if table is None:
        raise ValueError("no game to show")
    flow: type[Flow] = importlib.import_module(part(table.kind, "flow")).FLOW
    return flow(ctx)


class TableController:
    """Drive a whole table from device events: menu, games, undo, resuming after a restart.

    ``session`` is open (on the journal, or in memory); ``player_names`` are offered in the
    menu; ``layouts`` say which LED lights which square (the default build's by default);
    ``game_options`` are added to every new game of a kind (e.g. a Jumpy Jack ``board`` or a
    Jockey ``deck`` read from files); ``clock`` is monotonic seconds; ``die`` is how the die
    is rolled ("electronic" or "manual": a real die whose value is dialled) and ``cards`` how
    cards come in ("reader", or "dial" with the knob and the horse buttons).
    """

    def __init__(
        self,
        session: Session,
        *,
        player_names: Sequence[str] = (),
        clock: Callable[[], float] = time.monotonic,
        layouts: Layouts | None = None,
        game_options: Mapping[str, Mapping[str, Any]] | None = None,
        language: str = "en",
        remember_language: Callable[[str], None] | None = None,
        die: str = "electronic",
        cards: str = "reader",
    ) -> None:
        self.clock = clock
        self.ctx = Context(
            session,
            layouts or Layouts.default(),
            tuple(player_names),
            dict(game_options or {}),
            game_flow=game_flow,
            menu_flow=MenuFlow,
            language=language,
            remember_language=remember_language,
            clock=clock,
            die=die,
            cards=cards,
        )
        self._flash: Flash | None = None
        self._flash_until = 0.0
        #: Devices that stopped answering: their message, and when they were lost.
        self._down: dict[str, tuple[str, float]] = {}
        self._screen_failed = False
        self._disk_full = False
        #: The hand worked out last, and what it was worked out for (see ``hand``).
        self._hand = PressAnswers()
        self._hand_for: tuple[object, ...] = ()
        with speaking(language):
            self.flow: Flow = self._first_flow()
        #: The flow on when the journal began holding the inputs (see ``hold``).
        self._held_flow = self.flow

    @property
    def language(self) -> str:
        """The language the table speaks now (``en``, ``fr`` or ``de``)."""
        return self.ctx.language

    @property
    def session(self) -> Session:
        """The session the table plays in."""
        return self.ctx.session

    def _first_flow(self) -> Flow:
        session = self.ctx.session
        resumed = session.table is not None and session.journal is not None
        if session.table is None and session.journal is not None:
            latest = session.journal.latest_shown()
            if latest is not None:
                try:
                    session.resume(latest)
                    resumed = True
                except JournalError as error:
                    log.error("game %s cannot be resumed: %s", latest, error)
                    self._show(
                        Flash.sentence(_("Game {id} cannot be resumed.").format(id=latest), 10.0)
                    )
        over = session.table is not None and session.table.binding.finished()
        if session.table is not None and (resumed or not over):  # a game over: its end pages
            try:
                flow = game_flow(self.ctx)
                if resumed and not over:
                    self._show(Flash.sentence(_(RESUMED), NOTICE_S))
                self._show(flow.settle().flash)
                return flow
            except Exception:
                log.exception("the game in progress cannot be shown")
                self._show(Flash.sentence(_(OOPS), 10.0))
        return MenuFlow(self.ctx)

    # -- the Table protocol ----------------------------------------------------------------

    @spoken
    def handle(self, event: Event) -> Sequence[Cue]:
        """Apply one device event; return the tones and animations it caused."""
        try:
            if isinstance(event, DeviceStatus):
                return self._status(event)
            if isinstance(event, ButtonHeld) and event.button != "undo":
                return ()  # the knob's long push seats a phone (the pages' part): no input here
            self._flash = None  # a new input makes the last message old news
            if isinstance(event, ButtonHeld):
                reply = self.flow.undo() if event.button == "undo" else Reply()
            elif isinstance(event, ButtonPressed) and event.button == "undo":
                reply = Reply()  # a short touch of undo does nothing: only holding it counts
            else:
                reply = self.flow.handle(event)
            if reply.goto is not None:
                self.flow = reply.goto
            reply.add(self.flow.settle())
            self.flow.follow_prompt()
        except JournalFull as error:
            reply = self._full(error)
        except Exception:
            log.exception(
                "handling a %s failed", type(event).__name__
            )  # never the button: it may be sealed
            reply = refused(_(OOPS))
            self._recover()
        self._space_back()
        self._show(reply.flash)
        return reply.cues

    def hold(self) -> None:
        """Let the next inputs be applied and drawn before they are on disk (``commit``)."""
        self._held_flow = self.flow
        self.ctx.session.hold()

    @spoken
    def commit(self) -> Sequence[Cue]:
        """Put the inputs applied since ``hold`` on disk. When that fails, the table is put
        back as it was before them and says why, like a refused input; return the cues."""
        try:
            self.ctx.session.commit()
            return ()
        except JournalFull as error:
            reply = self._full(error)
        except Exception:
            log.exception("committing an input failed")
            reply = refused(_(OOPS))
        self.flow = self._held_flow  # the session is back on the game it was drawn from
        self._recover()
        try:
            self.flow.follow_prompt()
        except Exception:
            log.exception("following the table after a failed commit failed")
        self._show(reply.flash)
        return reply.cues

    def _full(self, error: JournalFull) -> Reply:
        """An input the full disk kept out: said on the LCD, logged once per episode."""
        if not self._disk_full:  # told once per episode, not once per press
            log.error("%s; inputs are refused until there is space again", error)
        self._disk_full = True
        self._recover()
        return refused(_(DISK_FULL))

    def _space_back(self) -> None:
        """Log once that the journal is written again after a full disk."""
        journal = self.ctx.session.journal
        if self._disk_full and journal is not None and not journal.full:
            log.warning("the journal is written again: the disk has space")
            self._disk_full = False

    @spoken
    def apply(self, change: Callable[[Context], Reply]) -> Sequence[Cue]:
        """Make a change that came from elsewhere than the panel (a phone, the host page).

        ``change`` submits entries through the context like a flow does; afterwards the flow
        follows the session (the menu when no game is on, the game's flow when another game
        began), and the reply's message shows like a panel input's.
        """
        before = self.ctx.session.game_id
        self._flash = None
        try:
            reply = change(self.ctx)
            if reply.goto is not None:
                self.flow = reply.goto
            if self.ctx.session.table is None:
                if not isinstance(self.flow, MenuFlow):
                    self.flow = MenuFlow(self.ctx)
            elif self.ctx.session.game_id != before:
                self.flow = game_flow(self.ctx)
            reply.add(self.flow.settle())
            self.flow.follow_prompt()
        except JournalFull as error:
            reply = self._full(error)
        except Exception:
            log.exception("a change from a page failed")
            reply = refused(_(OOPS))
            self._recover()
        self._space_back()
        self._show(reply.flash)
        return reply.cues

    def tick(self, now: float) -> Sequence[Cue]:
        """Let a message expire."""
        if self._flash is not None and now >= self._flash_until:
            self._flash = None
        return ()

    def next_deadline(self) -> float | None:
        """When the message on show expires, or a lost device is named or hidden again."""
        deadlines = [self._flash_until] if self._flash is not None else []
        now = self.clock()
        for _message, since in self._down.values():
            deadlines.append(now + lost_change(now - since))
        return min(deadlines, default=None)

    @spoken
    def screen(self) -> Screen:
        """The flow's picture with the message of the moment and lost devices over it."""
        try:
            base = self.flow.closing(self.flow.screen())
            self._screen_failed = False
        except Exception:
            if not self._screen_failed:
                log.exception("drawing the table failed")
            self._screen_failed = True
            base = Screen(
                rows([_("Display error:"), _("hold undo to go back")]),
                OledScreen(lines=(_("Error"),)),
            )
        now = self.clock()
        # A message past its time is left out, but only ``tick`` drops it: a reader (the
        # control socket, the pages) that draws the table must not change what it shows
        # without the loop drawing the panel again.
        flash = self._flash if self._flash is not None and now < self._flash_until else None
        if flash is None and not self._down:  # nothing over it: the flow's own picture
            shaped = rows(base.lcd)
            return base if shaped == base.lcd else Screen(shaped, base.oled, base.leds)
        lcd = list(rows(base.lcd))
        oled = base.oled
        if flash is not None:
            shown = list(flash.lcd[:ROWS])
            if shown:
                lcd = lcd[: ROWS - len(shown)] + shown
            if flash.oled:
                oled = OledScreen(lines=flash.oled)
        down = [(device, message) for device, (message, _) in self._down.items()]
        told = [message for message, since in self._down.values() if lost_shown(now - since)]
        if told and (flash is None or not flash.lcd):
            lcd[-1] = told[0]
        if told and any("lcd" in device.lower() for device, _ in down):
            oled = OledScreen(lines=tuple(message for _, message in down[:4]))
        return Screen(rows(lcd), oled, base.leds)

    @spoken
    def leds(self) -> tuple[RGB, ...]:
        """The strip's part of ``screen()`` (nothing lies over it), drawn on its own."""
        try:
            return self.flow.leds()
        except Exception:
            return ()  # as screen() draws the table when drawing fails; it logs why

    @spoken
    def hand(self) -> PressAnswers:
        """What each legal button lights now (the flow's ``hand``), worked out once for each
        picture of the game and flow: a refusal or an ignored press reuses it."""
        session = self.ctx.session
        key = (self.flow, session.game_view(), session.offers())
        if len(key) == len(self._hand_for) and all(
            a is b for a, b in zip(key, self._hand_for, strict=True)
        ):
            return self._hand
        try:
            hand = self.flow.hand()
        except Exception:
            log.exception("working out what the buttons light failed")
            hand = PressAnswers()
        self._hand, self._hand_for = hand, key
        return hand

    def close(self) -> None:
        """Close the journal."""
        self.ctx.session.close()

    # -- helpers ---------------------------------------------------------------------------

    def _show(self, flash: Flash | None) -> None:
        if flash is not None:
            self._flash = flash
            self._flash_until = self.clock() + flash.seconds

    @spoken
    def _status(self, event: DeviceStatus) -> Sequence[Cue]:
        message = event.message if current() == "en" else ""
        if not message or len(message) > COLS:
            message = named(event.device, _(" is back") if event.ok else _(" lost"))
        if event.ok:
            if self._down.pop(event.device, None) is not None:
                self._show(Flash.sentence(message, 2.0))
        elif event.device not in self._down:
            self._down[event.device] = (message, self.clock())
        return ()

    def _recover(self) -> None:
        """After an unexpected error, make sure the flow matches the session."""
        try:
            if self.ctx.session.table is None and not isinstance(self.flow, MenuFlow):
                self.flow = MenuFlow(self.ctx)
        except Exception:
            log.exception("recovering failed")
