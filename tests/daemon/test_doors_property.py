"""Every door, one truth: random interleavings of the panel, scans, phones, the host and
power cuts, for every registered game.

One table per example: the real table controller on a real SQLite journal, with the pages'
side beside it (the phones' inputs go through ``seat_request`` and ``seat_change``, the path
of ``/api/input``; the host's undo and new game through the host page's own code). Hypothesis
picks each step: a panel press or turn, a die, a card scanned, a phone's input (one the game
would take, or one drawn at random), the host's undo or new game, or a power cut (the
controller dropped without closing anything, the journal opened again). After every step:

- every pad shows exactly the forms of the offers made to its player, and the page names
  the people the table waits for, in the LCD's order; the LCD names the person asked;
- an input a phone sent was accepted only if the table offered it to that player, and a
  refused one changed nothing; the same input through the panel gets the same reason code;
- a sealed choice the panel recorded for a person was pressed while the LCD asked that
  person (nothing half made for one person becomes another's input);
- after a power cut the table shows the game as it stood, and at the end the game equals a
  replay of its journal.

``COMPANION_DOORS_EXAMPLES`` sets how many games each kind plays (40, the same ones every run;
set it, say to 2000, for a longer run on demand, drawn afresh each time).
"""

from __future__ import annotations

import os
import random
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.devices.base import ButtonHeld, ButtonPressed, CardScanned, DieRolled, EncoderTurned
from companion.games.registry import GAMES
from companion.session.autoplay import legal_input
from companion.session.binding import binding_module
from companion.session.log import LogEntry, MoveEntry, NewGame, dumps
from companion.session.session import Session
from companion.web.hub import Hub
from companion.web.inputs import SEAT_TYPES, PageRefusal, seat_request
from companion.web.joins import Joins
from companion.web.seats import SeatBook
from companion.web.side import Answer, TableSide
from tests.quiet import Quiet

EXAMPLES = int(os.environ.get("COMPANION_DOORS_EXAMPLES", "40"))
STEPS = 30
#: The panel's buttons a hand may press at random.
BUTTONS = ("push", "horse1", "horse2", "horse3", "horse4", "horse5")
#: The entries that seal a choice the panel makes from horse presses.
CHOSEN = ("predict", "guess", "bet")
#: An input the panel makes in steps and a pad in one: a course card by card, or laid whole.
PAD_FORM = {"deal_card": "deal_course"}


class Doors:
    """One table and its doors: the panel, the card reader, each seat's phone, the host."""

    def __init__(self, kind: str, path: Path) -> None:
        self.kind = kind
        self.path = path
        self.now = 100.0
        players, options = binding_module(kind).SET_UP
        self.players: tuple[str, ...] = tuple(players)
        self.options: dict[str, Any] = dict(options)
        self._open()
        self.host(lambda ctx: ctx.submit(NewGame(kind, self.players, self.options))[1])

    def _open(self) -> None:
        self.session = Session.open(self.path)
        clock = lambda: self.now  # noqa: E731
        self.controller = TableController(self.session, player_names=self.players, clock=clock)
        daemon = Daemon(self.controller, Panel(), [], Quiet(), clock=clock)
        self.seats = SeatBook(None)
        self.side = TableSide(daemon, self.controller, self.seats, Joins(clock), Hub(), "x:1")
        self.seats.follow(self.session.game_id)
        for player in self.players:
            self.seats.issue(player)

    def power_cut(self) -> None:
        """Pull the plug: nothing is closed; the table comes back on its journal."""
        self.side.close()
        self._open()

    def host(self, change: Any) -> None:
        self.controller.apply(change)
        self.side.refresh()

    def press(self, event: Any) -> None:
        self.controller.handle(event)
        self.now += 0.05
        self.controller.tick(self.now)

    def phone(self, player: str, data: dict[str, Any]) -> Answer:
        """``player``'s phone sends ``data``, through the pages' checks and the loop."""
        try:
            fields = seat_request(player, data)
        except PageRefusal as refusal:
            return Answer(False, refusal.code)
        answer: list[Answer] = []
        game_id = self.session.game_id
        self.controller.apply(
            lambda ctx: self.side.seat_change(ctx, player, game_id, fields, answer)
        )
        self.side.refresh()
        return answer[0] if answer else Answer(False, "ignored")

    def pages(self) -> tuple[str, dict[str, str]]:
        self.side.refresh()
        snapshot = self.side.drawn()
        return snapshot.public, dict(snapshot.private)

    def lcd(self) -> str:
        return "\n".join(self.controller.screen().lcd)


def as_phone(entry: LogEntry) -> dict[str, Any]:
    """What a phone would send for ``entry`` (its fields as JSON)."""
    import json

    data: dict[str, Any] = json.loads(dumps(entry))
    data.pop("player", None)
    return data


def forms(html: str) -> set[str]:
    """The kinds of input a page's forms send."""
    return set(re.findall(r'data-type="([a-z_]+)"', html))


class DoorsMachine(RuleBasedStateMachine):
    kind: str
    root: Path

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random(0)
        self.presses: list[str] = []  # horse presses made while the LCD asked this person
        self.asked: str | None = None
        self.seen: list[LogEntry] = []  # inputs the game took at some moment

    @initialize(seed=st.integers(0, 2**16))
    def start(self, seed: int) -> None:
        self.rng = random.Random(seed)
        path = Path(tempfile.mkdtemp(dir=self.root)) / "journal.sqlite3"  # a table each
        self.doors = Doors(self.kind, path)
        self.asked = self.doors.session.offers().asked

    def _follow(self) -> None:
        """The person asked now; a press made for someone else is void once they change."""
        asked = self.doors.session.offers().asked
        if asked != self.asked:
            self.asked, self.presses = asked, []

    def _events(self) -> int:
        return len(self.doors.session.accepted())

    def _check_new(self, before: int, by_panel: bool) -> None:
        """A sealed choice the panel recorded was pressed for its own player."""
        for entry in self.doors.session.accepted()[before:]:
            if by_panel and entry.TYPE in CHOSEN:
                player = getattr(entry, "player", None)
                assert self.presses and all(p == player for p in self.presses), (
                    f"{entry.TYPE} recorded for {player}, chosen for {self.presses}"
                )

    # -- the panel -----------------------------------------------------------------------

    @rule(button=st.sampled_from(BUTTONS))
    def press(self, button: str) -> None:
        self._follow()
        before = self._events()
        if button.startswith("horse") and self.asked is not None:
            self.presses.append(self.asked)
        self.doors.press(ButtonPressed(button))
        self._check_new(before, by_panel=True)
        if self._events() != before:
            self.presses = []
        self._follow()

    @rule(steps=st.integers(-3, 3).filter(bool))
    def turn(self, steps: int) -> None:
        self.doors.press(EncoderTurned(steps))
        self._follow()

    @rule(face=st.integers(1, 6))
    def die(self, face: int) -> None:
        self.doors.press(ButtonPressed("die"))
        self.doors.press(DieRolled(face))
        self._follow()

    @rule()
    def scan(self) -> None:
        """A card the game would take now (or a card at random) scanned at the panel."""
        table = self.doors.session.table
        if table is None:
            return
        entry = legal_input(table, self.rng)
        card = getattr(entry, "card", None)
        if card is None:
            return
        self.doors.press(CardScanned("04A1", card, "reader"))
        self._follow()

    @rule()
    def hold_undo(self) -> None:
        self.doors.press(ButtonHeld("undo"))
        self.presses = []
        self._follow()

    # -- the phones ----------------------------------------------------------------------

    @rule(pick=st.integers(0, 9), how=st.sampled_from(["now", "someone else", "stale"]))
    def phone(self, pick: int, how: str) -> None:
        """A seat's phone sends an input the game would take now, the same from someone
        else, or one the game took earlier (a card, a bet, a move of another moment)."""
        table = self.doors.session.table
        if table is None:
            return
        entry = legal_input(table, self.rng)
        if entry is not None:
            self.seen.append(entry)
        if how == "stale" and self.seen:
            entry = self.seen[pick * 7919 % len(self.seen)]
        player = getattr(entry, "player", None)
        if entry is None or entry.TYPE not in SEAT_TYPES:
            return
        asked = self.doors.session.offers().asked
        who = player or asked or self.doors.players[pick % len(self.doors.players)]
        if how == "someone else":
            who = self.doors.players[pick % len(self.doors.players)]
        offers = self.doors.session.offers()
        view, events = self.doors.session.view(), self._events()
        answer = self.doors.phone(who, as_phone(entry))
        if answer.ok:
            assert offers.takes(entry.TYPE, who), f"{entry.TYPE} by {who} taken, not offered"
        else:
            assert self._events() == events, "a refused input changed the game"
            assert self.doors.session.game_view() == table.view(self.doors.session.game_id)
            assert view.phase == self.doors.session.view().phase
            if who == offers.asked:  # the panel acts for the person it asks: the same answer
                self._same_at_the_panel(entry, answer.code)
        self._follow()

    def _same_at_the_panel(self, entry: LogEntry, code: str) -> None:
        """The input a phone had refused, made at the panel: refused with the same code (a
        card scanned is the input the panel makes of a card now: a deal or a turn, which
        may be another input than the phone's)."""
        events = self._events()
        card = getattr(entry, "card", None)
        if card is not None:
            self.doors.press(CardScanned("04A1", card, "reader"))
        elif isinstance(entry, MoveEntry):
            table = self.doors.session.table
            assert table is not None
            horses = tuple(h.name for h in table.view(None).board.horses)  # type: ignore[attr-defined]
            self.doors.press(ButtonPressed(f"horse{horses.index(entry.horse) + 1}"))
        else:
            return
        if self._events() != events:  # a card the panel reads as another input (a turn, a deal)
            made = self.doors.session.accepted()[-1]
            assert made.TYPE != entry.TYPE, f"the panel took {entry.TYPE}, a phone was refused"
            return
        refusal = self.doors.session.view().last_refusal
        if refusal is not None and refusal.type == entry.TYPE:
            assert refusal.code == code, f"the panel refused {refusal.code}, a phone {code}"

    # -- the host --------------------------------------------------------------------------

    @rule()
    def host_undo(self) -> None:
        self.doors.host(lambda ctx: self.doors.controller.flow.undo())
        self.presses = []
        self._follow()

    @rule(chance=st.integers(0, 4))
    def host_new_game(self, chance: int) -> None:
        if chance:  # one draw in five: a new game now and then, not every few steps
            return
        start = NewGame(self.doors.kind, self.doors.players, self.doors.options)
        self.doors.host(lambda ctx: ctx.submit(start)[1])
        self.presses = []
        self._follow()

    @rule()
    def power_cut(self) -> None:
        before = self.doors.session.game_view()
        self.doors.power_cut()
        after = self.doors.session.game_view()
        if before.game is None and after.game is not None:  # the menu is not journaled: the
            paused = {g.id for g in self.doors.session.games() if g.status == "active"}
            assert after.game_id in paused  # table opens the last game left unfinished
        else:
            assert after.to_json() == before.to_json(), "the power cut lost something"
        self.presses = []
        self.asked = None
        self._follow()

    # -- after every step ------------------------------------------------------------------

    @invariant()
    def every_pad_offers_what_the_table_takes(self) -> None:
        session = self.doors.session
        offers = session.offers()
        public, private = self.doors.pages()
        for player in self.doors.players:
            shown = forms(private.get(player, "")) & SEAT_TYPES
            offered = {o.type for o in offers.items if o.player in (player, None)} & SEAT_TYPES
            playing = session.table is not None and not session.view().finished
            if not playing:
                offered = set()
            assert shown <= offered, f"{player}'s pad shows {shown - offered}, not offered"
            mine = {PAD_FORM.get(o.type, o.type) for o in offers.mine(player)} & SEAT_TYPES
            assert mine <= shown, f"{player}'s pad lacks {mine - shown}, offered to them"
            turn = "Your turn" in private.get(player, "")
            awaited = session.view().waiting_for  # each makes their own: nobody has a turn
            assert turn == (playing and not awaited and offers.asked == player), player
        asked = offers.asked
        if asked is not None and self.doors.controller._flash is None:
            assert asked[:3] in self.doors.lcd(), f"the LCD does not name {asked}"
        if offers.waiting and session.view().waiting_for:
            assert "Waiting for: " + ", ".join(offers.waiting) in public
        elif offers.waiting:
            assert f"turn: {offers.waiting[0]}" in public

    @invariant()
    def the_journal_replays_to_the_game(self) -> None:
        table = self.doors.session.table
        if table is None:
            return
        again = Session.in_memory()
        for entry in table.entries:
            again.submit(entry, ordered=False)
        assert again.game_view().to_json() == {
            **self.doors.session.game_view().to_json(),
            "game_id": again.game_id,
        }

    def teardown(self) -> None:
        doors = getattr(self, "doors", None)
        if doors is not None:
            doors.side.close()
            doors.session.close()


@pytest.mark.slow(6)
@pytest.mark.parametrize("kind", [g.kind for g in GAMES])
def test_every_door_takes_the_same_inputs(kind: str, tmp_path: Path) -> None:
    machine = type(f"Doors_{kind}", (DoorsMachine,), {"kind": kind, "root": tmp_path})
    run = settings(
        max_examples=EXAMPLES,
        stateful_step_count=STEPS,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=not os.environ.get("COMPANION_DOORS_EXAMPLES"),
    )(machine)
    run.TestCase().runTest()
