"""The pages' side of the daemon's loop: a fresh snapshot after each change, the pages' inputs.

Everything a page asks for is queued on the daemon's loop (``Daemon.enter``) and made there
through the table controller, so a phone's input is journaled, undoable and checked by the
same rules as a button press. Reads of the session happen on the loop's thread too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.daemon.flows.base import Context, Reply, StartMenu, notice, refused
from companion.daemon.loop import Daemon, Outputs, OutputsBeside
from companion.daemon.table import TableController
from companion.devices.base import PUSH_HOLD_S, RGB, ButtonHeld, ButtonPressed, Event, Tone
from companion.games.registry import KINDS
from companion.games.text import N_, Message, short
from companion.render.language import _, say, speaking
from companion.render.screen import Cue, OledScreen, Screen
from companion.render.text import COLS, named, rows
from companion.session.evening import Evening
from companion.session.journal import JournalFull
from companion.session.log import NewGame, dumps
from companion.session.session import NAME_WIDTH
from companion.web.hub import Hub, Snapshot
from companion.web.inputs import PageRefusal, seat_entry
from companion.web.joins import Joins
from companion.web.names import alike, new_name
from companion.web.qr import KeptRows, oled_image
from companion.web.seats import HOST, SeatBook
from companion.web.shapes import Malformed, is_int, read_json
from companion.web.undone import undone_sentence
from companion.web.words import marked, t, typeset

if TYPE_CHECKING:
    from companion.web.state import RaceOdds

#: What a phone is told when the table's disk is full (its input changed nothing).
DISK_FULL = marked("The table's disk is full: this input was not saved.")
#: The OLED's lines that stand for the join QR code (the code follows): drawn as a picture.
QR = "#qr"
#: How long a push waits, while a phone's request is asked, for the long push it may begin.
HOLD_WAIT_S = PUSH_HOLD_S + 0.4
#: What a person sitting the game out is told of any input (the game's word for a stranger).
STRANGER = N_("No player {player} at this table.")


def seat_word(seat: str) -> str:
    """A seat as the table names it: a player's name, or the host."""
    return _("the host") if seat == HOST else seat


def fitted(template: str, seat: str) -> str:
    """``template`` (with ``{seat}``) in one LCD row, the seat's name shortened if need be."""
    before, _middle, after = template.partition("{seat}")
    return before + named(seat, after, COLS - len(before))


def asking(seat: str, new: bool = False) -> tuple[str, str]:
    """The two rows that ask the table about a phone for ``seat`` (a new person's, ``new``)."""
    question = _("Add {seat}?") if new else _("Phone for {seat}?")
    return (fitted(question, seat_word(seat)), _("Hold push: yes"))


@dataclass(frozen=True)
class Answer:
    """What became of a page's request: accepted, or refused with a code and a sentence."""

    ok: bool
    code: str = ""
    sentence: str = ""


class TableSide:
    """Snapshots for the hub and the pages' inputs, both on the daemon's loop."""

    def __init__(
        self,
        daemon: Daemon,
        controller: TableController,
        seats: SeatBook,
        joins: Joins,
        hub: Hub,
        address: str,
    ) -> None:
        self.daemon = daemon
        self.controller = controller
        self.seats = seats
        self.joins = joins
        self.hub = hub
        self.address = address
        self._version = 0
        self._stale = True
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="chances")
        #: The game's extras for the pages, made with the first drawing (see ``_draw``).
        self._odds: RaceOdds | None = None
        controller.ctx.open_host_seat = self.open_host_seat  # the menu's "New host phone"
        #: The names the configuration offers the panel's start menu (after the room's people).
        self._configured = controller.ctx.player_names

    def open_host_seat(self) -> Reply:
        """The menu opens the host's seat to a new phone (on the loop's thread)."""
        self.joins.open_host()
        return notice(_("Host seat open: ask for it on the new phone."))

    def host_taken(self) -> bool:
        """Whether a request for the host's seat is refused: it has a phone, and the table
        has not opened it to another."""
        return HOST in self.seats.taken() and not self.joins.host_open

    @property
    def language(self) -> str:
        """The language the table speaks now (the pages speak it too)."""
        return self.controller.language

    @property
    def join_url(self) -> str:
        """The address a phone opens to join (the QR code's)."""
        return f"http://{self.address}/join"

    # -- on the loop's thread ------------------------------------------------------------

    def refresh(self) -> None:
        """Follow the game in progress (its players take the room's first seats, and keep
        their phones); redraw the pages when any is open (else later)."""
        session = self.controller.session
        if self.seats.follow(session.game_id) and session.table is not None:
            self.seats.seat_order(session.table.start.players)
        people = self.seats.people()
        self.controller.ctx.player_names = (
            *people,
            *(n for n in self._configured if n not in people),
        )  # the panel's start menu offers the room's people first, in seat order
        self.controller.ctx.end_evening = self.end_evening if people else None
        self._stale = True
        if self.hub.connections:
            self.drawn()

    def evening(self) -> Evening:
        """The evening's finished games and their results (on the loop's thread): the
        table's, which the LCD shows at the end of a game too."""
        ctx = self.controller.ctx
        return ctx.evenings.evening(ctx.session.journal)

    def between_games(self) -> bool:
        """Whether no game is being played: none is on, or the one on is over."""
        table = self.controller.session.table
        return table is None or table.binding.finished()

    def close(self) -> None:
        """Drop chances not computed yet (the loop is stopping)."""
        self._worker.shutdown(wait=False, cancel_futures=True)

    def _chances_arrived(self, keep: Callable[[], None]) -> None:
        """From the worker: keep the chances computed and redraw, in the loop's turn."""

        def redraw() -> None:
            keep()
            self.refresh()

        self.daemon.call(redraw)

    def drawn(self) -> Snapshot:
        """Draw what every page shows now, unless nothing changed since; return it."""
        if not self._stale:
            return self.hub.latest
        with speaking(self.language):
            return self._draw()

    def _draw(self) -> Snapshot:
        # What draws the pages loads with the first drawing, once a page is open: not before
        # the table plays (the game's pages modules, the fragments, the chart).
        from companion.web.fragments import (
            evening_html,
            private_html,
            public_html,
            sitting_out_html,
        )
        from companion.web.host import host_html
        from companion.web.state import RaceOdds, private_state, public_state

        if self._odds is None:
            self._odds = RaceOdds(self._worker.submit, self._chances_arrived)
        session = self.controller.session
        self._version += 1
        public = public_state(session, self._odds)
        players = public.view.get("players", [])
        taken = self.seats.taken()
        private = {
            p: private_html(p, private_state(session, p), public) for p in players if p in taken
        }
        out = [p for p in self.seats.people() if p in taken and p not in private]
        paused = self.paused_players() if out else frozenset()
        for person in out:  # seated, not playing: the scoreboard, and a word
            private[person] = sitting_out_html(person, bool(players), person not in paused)
        host = ""
        if HOST in taken:
            club = self.controller.ctx.club
            host = host_html(
                self.join_url, self.joins.code, self.joins.pending(), session.games(),
                session.game_id, taken, self.seats.people(),
                (say(club.message), club.detail) if club is not None else ("", ""),
            )  # fmt: skip
        standings = evening_html(self.evening(), self.between_games())
        shown = public_html(public, standings)  # inside the public part: every page keeps it live
        snapshot = Snapshot(self._version, shown, private, host, self.seats.stamps(), self.language)
        self._stale = False
        self.hub.publish(snapshot)
        return snapshot

    def paused_players(self) -> frozenset[str]:
        """The players of the evening's paused games (started, not over, not the one played
        now): they keep their seats until those games are over or abandoned."""
        session = self.controller.session
        since = session.journal.evening_since() if session.journal is not None else 0
        return frozenset(
            player
            for game in session.games()
            if game.status == "active" and game.id > since and game.id != session.game_id
            for player in game.players
        )

    def free_seats(self) -> list[str]:
        """The current game's seats without a phone."""
        table = self.controller.session.table
        players = table.start.players if table is not None else ()
        taken = self.seats.taken()
        return [p for p in players if p not in taken]

    def players(self) -> tuple[str, ...]:
        """The current game's players."""
        table = self.controller.session.table
        return table.start.players if table is not None else ()

    def joinable(self) -> tuple[str, ...]:
        """The seats a phone may ask for: the current game's players, then the room's others."""
        players = self.players()
        return (*players, *(p for p in self.seats.people() if p not in players))

    def overlay(self, screen: Screen) -> tuple[Screen, str | None]:
        """``screen`` with joining over what it leaves free; the key of the request it asks
        the table about (the one a long push confirms), or None.

        A waiting request takes two blank LCD rows, else the OLED when it shows no die, else
        waits for a screen that leaves room: a row or a die the table uses is never covered.
        While no phone hosts the table (or the menu opened the host's seat to a new phone),
        the address and the join code take the blank rows (the code alone when one is blank),
        and in the menu (after a game's end too) the OLED shows the join QR code.
        """
        lcd = list(rows(screen.lcd))
        blank = [i for i, row in enumerate(lcd) if not row.strip()]
        pending = self.joins.pending()
        if pending:
            asked = asking(pending[0].seat, pending[0].new)
            if len(blank) >= len(asked):
                for i, row in zip(blank[-len(asked) :], asked, strict=True):
                    lcd[i] = row
                return Screen(rows(lcd), screen.oled, screen.leds), pending[0].key
            if screen.oled.die is None:
                return Screen(screen.lcd, OledScreen(lines=asked), screen.leds), pending[0].key
            return screen, None
        if self.host_taken():
            return screen, None
        code = _("Join code {code}").format(code=self.joins.code)
        told = (self.address, code)[-len(blank) :] if blank else ()
        for i, row in zip(blank[-len(told) :], told, strict=True):
            lcd[i] = row
        oled = screen.oled
        if isinstance(self.controller.flow, StartMenu) and oled.die is None:
            oled = OledScreen(lines=(QR, self.joins.code))  # drawn as the QR code
        return Screen(rows(lcd), oled, screen.leds), None

    def confirm(self, key: str, yes: bool) -> Reply:
        """Give the waiting request ``key`` its seat (a new token), or decline it."""
        request = self.joins.find(key)
        if request is None or request.token is not None or request.declined:
            return Reply()
        if not yes:
            self.joins.settle(key, None)
            return notice(_("Phone declined."), tone=None)
        if request.seat == HOST and self.host_taken():
            self.joins.settle(key, None)  # the host's seat is given over only from the table
            return refused(_("This table has a host."))
        if request.new and alike(request.seat, self.joinable()) not in (None, request.seat):
            self.joins.settle(key, None)  # someone of a name alike joined meanwhile
            return refused(_("That name is taken now."))
        if request.seat != HOST and not request.new and request.seat not in self.joinable():
            self.joins.settle(key, None)
            return refused(_("That seat is gone."))
        self.joins.settle(key, self.seats.issue(request.seat))
        if request.seat == HOST:
            self.joins.close_host()
            return notice(_("Host: phone joined."))
        return notice(fitted(_("{seat}: phone joined."), request.seat))

    def end_evening(self) -> Reply:
        """The evening is over: the room empties (its phones go back to joining), the code
        is new and the phones still waiting are declined; the host's seat stays."""
        games = self.controller.session.games()
        self.seats.end_evening(max((g.id for g in games), default=0))
        self.joins.renew()
        return notice(_("Evening over."))

    def decline_all(self) -> Reply:
        """Decline every request waiting (the host page's "decline all")."""
        self.joins.decline_all()
        return notice(_("Phone declined."), tone=None)

    # -- from the web server's thread (asyncio loads with the pages, after the start) ------

    async def enter(self, change: Callable[[Context], Reply]) -> None:
        """Queue ``change`` on the daemon's loop and wait until it is made."""
        import asyncio

        def made() -> Sequence[Cue]:
            cues = self.controller.apply(change)
            self.refresh()  # a new game's seats are followed before the page hears back
            return cues

        await asyncio.wrap_future(self.daemon.enter(made))

    async def read(self, action: Callable[[], Any]) -> Any:
        """Run ``action`` on the daemon's loop (where the session may be read); return it."""
        import asyncio

        return await asyncio.wrap_future(self.daemon.call(action))

    async def seat_input(self, seat: str, game_id: int | None, fields: dict[str, Any]) -> Answer:
        """Make the entry of ``fields`` (checked by ``seat_request``) for ``seat``, seated at
        ``game_id``; answer with the real reason."""
        answer: list[Answer] = []
        await self.enter(lambda ctx: self.seat_change(ctx, seat, game_id, fields, answer))
        return answer[0] if answer else self._ignored(marked("That input was ignored."))

    def seat_change(
        self,
        ctx: Context,
        seat: str,
        game_id: int | None,
        fields: dict[str, Any],
        answer: list[Answer],
    ) -> Reply:
        """On the loop's thread: make ``seat``'s entry of ``fields`` (in its name since
        ``seat_request``) and put the page's Answer in ``answer`` (a full disk is answered,
        then goes on to the table, which says so too). A person sitting the game out is
        refused any input, ``next_race`` included, as the game refuses a stranger's."""
        if ctx.session.game_id != game_id or game_id is None:
            answer.append(Answer(False, "old_seat", t("That game is over: nothing was entered.")))
            return Reply()
        if seat not in self.players():
            stranger = Message.of(STRANGER, player=short(seat, NAME_WIDTH))
            answer.append(Answer(False, "unknown_player", typeset(say(stranger))))
            return Reply()
        try:
            entry = seat_entry(fields, ctx.session)
        except PageRefusal as error:
            answer.append(Answer(False, error.code, error.said()))
            return Reply()
        try:
            outcome, reply = ctx.submit(entry)
        except JournalFull:
            answer.append(Answer(False, "disk_full", t(DISK_FULL)))
            raise
        if outcome.accepted:
            answer.append(Answer(True))
            return Reply([Cue(tone=Tone.ACCEPTED)])
        said = say(outcome.message) if outcome.message else _("Refused.")
        answer.append(Answer(False, outcome.code or "refused", typeset(said)))
        return reply

    async def leave(self, person: str) -> Answer:
        """``person`` leaves the room, on the daemon's loop; a player of the game in
        progress stays seated until it is over (their phone is still needed)."""
        answer: list[Answer] = []

        def change(ctx: Context) -> Reply:
            table = ctx.session.table
            if table is not None and person in self.players() and not table.binding.finished():
                answer.append(Answer(False, "in_game", t("Finish this game first.")))
                return Reply()
            if person in self.paused_players():
                from companion.web.fragments import PAUSED_NEEDS_YOU  # loaded with the pages

                answer.append(Answer(False, "in_game", t(PAUSED_NEEDS_YOU)))
                return Reply()
            self.seats.leave(person)
            answer.append(Answer(True))
            return notice(fitted(_("{seat} has left."), person))

        await self.enter(change)
        return answer[0] if answer else self._ignored(marked("That was ignored."))

    async def host_command(self, command: str, data: dict[str, Any]) -> Answer:
        """Do one of the host page's commands on the daemon's loop."""
        answer: list[Answer] = []

        def change(ctx: Context) -> Reply:
            try:
                reply = self._host(ctx, command, data)
            except PageRefusal as refusal:
                answer.append(Answer(False, refusal.code, refusal.said()))
                return Reply()
            answer.append(Answer(True))
            return reply

        if command == "undo":  # the very input of the panel: holding undo
            replies: list[Reply] = []

            def undo(ctx: Context) -> Reply:
                replies.append(self.controller.flow.undo())
                return replies[-1]

            await self.enter(undo)
            with speaking(self.language):
                said = undone_sentence(replies[0].undone if replies else None)
            return Answer(True, sentence=said)
        await self.enter(change)
        return answer[0] if answer else self._ignored(marked("That was ignored."))

    def _ignored(self, sentence: str) -> Answer:
        """A request the loop never answered (``sentence`` is marked, said here)."""
        with speaking(self.language):
            return Answer(False, "failed", t(sentence))

    def _host(self, ctx: Context, command: str, data: dict[str, Any]) -> Reply:
        session = ctx.session
        if command == "confirm":
            key, yes = str(data.get("request", "")), not data.get("decline")
            request = self.joins.find(key)
            if yes and request is not None and request.seat == HOST:
                raise PageRefusal("table_only", "Only the table gives the host's seat.")
            return self.confirm(key, yes)
        if command == "decline_all":
            return self.decline_all()
        if command == "end_evening":
            return self.end_evening()
        if command == "add_person":
            person = new_name(data.get("name"), self.joinable())
            self.seats.add(person)
            return notice(_("{seat} joins the room.").format(seat=person))
        if command == "new_game":
            configured = self.controller.ctx.game_options.get(str(data.get("game")))
            entry = new_game_entry(data, configured, self.seats.people())
            outcome = ctx.submit(entry)[0]
            if not outcome.accepted:
                said = say(outcome.message) if outcome.message else _("Refused.")
                raise PageRefusal(outcome.code or "refused", said)
            return notice(_("New game started."))
        game_id = data.get("game")
        if not is_int(game_id) or game_id not in {g.id for g in session.games()}:
            raise PageRefusal("no_such_game", "There is no such game.")
        if command == "resume":
            session.resume(game_id, touch=True)
            return notice(_("Game resumed."))
        if command == "abandon":
            session.abandon(game_id)
            return notice(_("Game abandoned."))
        raise PageRefusal("unknown_command", "The table does not know that.")

    def game_log(self, game_id: int) -> tuple[bool, str | None]:
        """Whether the journal has game ``game_id``, and its accepted inputs as a table log once
        it is over (None before: its log holds every sealed input); run on the loop's thread."""
        journal = self.controller.session.journal
        game = next((g for g in journal.games() if g.id == game_id), None) if journal else None
        if journal is None or game is None:
            return False, None
        if game.status != "finished":
            return True, None
        return True, "".join(line + "\n" for line in journal.events(game_id))


def new_game_entry(
    data: dict[str, Any],
    configured: Mapping[str, Any] | None = None,
    room: Sequence[str] = (),
) -> NewGame:
    """Turn the host page's new-game form into a new_game entry; PageRefusal if it is not one.

    ``configured`` are the options the configuration adds to every game of that kind (a
    board or deck file), as the panel's menu adds them. A name typed alike a person of the
    ``room`` (another case, say) is that person; two names alike are refused.
    """
    from companion.web.host import host_options  # the pages' modules: loaded with the pages

    kind = data.get("game")
    names = data.get("players")
    if kind not in KINDS:
        raise PageRefusal("bad_game", "Choose a game.")
    if not isinstance(names, str):
        raise PageRefusal("bad_players", "Type the players' names.")
    players = tuple(n.strip() for n in names.splitlines() if n.strip())
    if not players or any(len(n) > 20 or n.startswith("#") for n in players):
        raise PageRefusal("bad_players", "Names: 1 to 20 letters, one a line.")
    players = tuple(alike(n, room) or n for n in players)
    chosen = data.get(kind) or {}
    if not isinstance(chosen, dict):
        raise PageRefusal("bad_option", "These game options are not valid.")
    options: dict[str, Any] = dict(configured or {})
    for option in host_options(kind):
        value = option.values[0]
        if option.key in chosen:
            try:
                value = read_json(str(chosen[option.key]).encode())
            except Malformed:
                raise PageRefusal("bad_option", "These game options are not valid.") from None
            if value not in option.values:
                raise PageRefusal("bad_option", "These game options are not valid.")
        if value is not None:
            options[option.key] = value
    entry = NewGame(kind, players, options)
    json.loads(dumps(entry))  # a name that cannot be written to the journal is refused here
    return entry


class WebTable:
    """The table the loop drives, with the pages beside it: a long push of the knob confirms
    the phone the displays ask about, and joining is drawn where the table leaves room.

    While a request is asked, a push is held back until it is either a long push (it
    confirms the phone and is nothing else) or let go (it reaches the table as a push):
    no prompt of the table is answered by a confirmation, nor a phone by a prompt's push.
    """

    def __init__(self, controller: TableController) -> None:
        self.controller = controller
        self.side: TableSide | None = None
        #: The request the last picture asked about (the one a long push confirms).
        self._asked: str | None = None
        #: When a push held back reaches the table, if no long push came first.
        self._push_due: float | None = None
        #: The request asked about when the knob was last pushed down.
        self._pressed_on: str | None = None

    def handle(self, event: Event) -> Sequence[Cue]:
        """Confirm the phone asked about on a long push; else hand the event to the table."""
        side = self.side
        if side is None:
            return self.controller.handle(event)
        if event == ButtonHeld("push"):
            self._push_due = None  # the push that began the hold was no push of the table
            asked = self._asked
            if asked is None or asked != self._pressed_on:  # asked before the hold began only
                return ()
            return self.controller.apply(lambda ctx: side.confirm(asked, True))
        cues = list(self._held_push())
        if event == ButtonPressed("push"):
            self._pressed_on = self._asked
            if self._asked is not None:
                self._push_due = self.controller.clock() + HOLD_WAIT_S
                return cues
        cues.extend(self.controller.handle(event))
        return cues

    def _held_push(self) -> Sequence[Cue]:
        """Let a push held back reach the table."""
        if self._push_due is None:
            return ()
        self._push_due = None
        return self.controller.handle(ButtonPressed("push"))

    def tick(self, now: float) -> Sequence[Cue]:
        cues = (
            list(self._held_push()) if self._push_due is not None and now >= self._push_due else []
        )
        cues.extend(self.controller.tick(now))
        return cues

    def next_deadline(self) -> float | None:
        """The table's next deadline, a push held back, or a waiting request's expiry."""
        deadlines = [self.controller.next_deadline(), self._push_due]
        if self.side is not None:
            deadlines.append(self.side.joins.next_expiry())
        return min((d for d in deadlines if d is not None), default=None)

    def screen(self) -> Screen:
        """The table's picture, with joining where it leaves room."""
        screen = self.controller.screen()
        if self.side is None:
            return screen
        with speaking(self.controller.language):
            shown, self._asked = self.side.overlay(screen)
        return shown

    def leds(self) -> tuple[RGB, ...]:
        """The table's LEDs (joining shows on the displays only)."""
        return self.controller.leds()

    def hold(self) -> None:
        self.controller.hold()

    def commit(self) -> Sequence[Cue]:
        return self.controller.commit()

    def close(self) -> None:
        if self.side is not None:
            self.side.close()
        self.controller.close()


class WebOutputs(OutputsBeside):
    """The panel's outputs, and the pages as one more view: published after every change."""

    def __init__(self, panel: Outputs, side: TableSide, codes: KeptRows | None = None) -> None:
        super().__init__(panel)
        self.side = side
        #: The join address's QR code, kept (in a file beside the journal, when given one).
        self.codes = codes if codes is not None else KeptRows(None)
        #: The last screen shown, and whether its OLED still waits for the QR code.
        self._shown: Screen | None = None
        self._owed = False

    def show(self, screen: Screen) -> None:
        """Show ``screen``, the join QR code drawn on the OLED when the screen has it there
        (the join code alone while the QR code is not worked out yet)."""
        self.panel.show(screen)
        self._shown, self._owed = screen, False
        lines = screen.oled.lines
        oled = getattr(self.panel, "oled", None)
        show_image = getattr(oled, "show_image", None)  # OLEDs that take a whole frame
        if len(lines) == 2 and lines[0] == QR and callable(show_image):
            modules = self.codes.known(self.side.join_url)
            show_image(oled_image(modules or (), lines[1]))
            self._owed = modules is None
        self.side.refresh()

    def work_out_code(self) -> None:
        """Work out the join address's QR code (it loads the QR library: on the pages' thread,
        once the table plays), then have the loop draw it if the OLED waits for it."""
        self.codes(self.side.join_url)
        self.side.daemon.call(self._draw_owed)

    def _draw_owed(self) -> None:
        if self._owed and self._shown is not None:
            self.show(self._shown)
