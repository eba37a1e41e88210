"""The table session: applies each input to the right game, journals it, takes it back on undo.

A game's state is a pure function of its accepted inputs: a ``Game`` folds the entries of
one game through that game's binding (no clock, no I/O). A ``Session`` puts a ``Game``
behind the durable journal: an input is applied, written and committed to disk, and only
then reported as accepted. Undo drops the last accepted input and rebuilds the game by replaying
the inputs still in force (engines apply a thousand inputs in a few hundredths of a
second); the undo itself is journaled, so a restart restores the undone state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.games.errors import N_, GameError, Refusal
from companion.games.registry import find_game
from companion.games.text import Message, short
from companion.session.binding import Binding, binding_class
from companion.session.journal import GameNotRebuilt, GameRecord, Journal, JournalError, utc_now
from companion.session.log import (
    EVERY_GAME,
    DealCard,
    DealCourse,
    Forfeit,
    LogEntry,
    LogError,
    MoveEntry,
    NewGame,
    PlayCard,
    Roll,
    SetMaxBet,
    TurnCard,
    Undo,
    describe,
    dumps,
    parse_line,
)
from companion.session.names import NameProblem, name_problem
from companion.session.offers import NOTHING, Offers
from companion.session.view import NoDetails, Outcome, PrivateView, RefusalView, View

#: Inputs made by the player whose turn it is (the others may come from anyone).
TURN_BOUND: tuple[type[LogEntry], ...] = (
    Roll,
    MoveEntry,
    Forfeit,
    DealCard,
    DealCourse,
    SetMaxBet,
    TurnCard,
    PlayCard,
)

#: What the shared displays say of a sealed input refused, by its type.
SEALED_REFUSALS = {
    "predict": N_("{player}: prediction refused: enter it again."),
    "guess": N_("{player}: guess refused: enter it again."),
    "bet": N_("{player}: bet refused: enter it again."),
    "hand": N_("{player}: hand refused: enter it again."),
}


#: What makes a finished game's result for the outbox: given the game, its public view, its
#: journal id and its start and end times, the result as text (see ``Session.results``).
ResultMaker = Callable[["Game", View, int, str, str], str]

#: How long a player's name may be in a refusal sentence on the 20x4 LCD.
NAME_WIDTH = 12


def names_refused(problem: NameProblem) -> Refusal:
    """The refusal the table says for players' names the name rule refuses."""
    names = [short(name, NAME_WIDTH) for name in problem.names]
    if problem.code == "same_name":
        return Refusal(
            "duplicate_player",
            "{player} and {other} count as one name.",
            player=names[0],
            other=names[1],
        )
    if problem.code == "mixed_scripts":
        return Refusal("mixed_scripts", "{player} mixes alphabets: type it again.", player=names[0])
    return Refusal("bad_name", "Every player needs a name.")


class EntryRefused(Refusal):
    """The game refused ``entry``, one of the entries it was rebuilt from (a Refusal too)."""

    def __init__(self, entry: LogEntry, refusal: Refusal) -> None:
        message = refusal.message
        super().__init__(refusal.code, message.template, message.plural, **dict(message.params))
        self.entry = entry


class Game:
    """One game as a pure function of its accepted inputs.

    ``entries`` is everything accepted, in order, undo entries included (what the journal
    holds); the game's state is the fold of the inputs that are still in force.
    """

    def __init__(self, start: NewGame, *, replayed: bool = False) -> None:
        """Start ``start``'s game; raises Refusal for players or options the game refuses.

        A new game's names follow the one name rule (``companion.session.names``); a game
        ``replayed`` from its journal needs only names that differ, so a game started before
        the rule still opens.
        """
        if replayed:
            if len(set(start.players)) != len(start.players):
                raise Refusal("duplicate_player", "Two players have the same name.")
        else:
            problem = name_problem(start.players)
            if problem is not None:
                raise names_refused(problem)
        cls = binding_class(start.game)
        try:
            self.binding: Binding = cls(start.players, start.options)
        except Refusal:
            raise
        except GameError as error:
            raise Refusal("bad_option", "These game options are not valid.") from error
        self.start = start
        self.entries: list[LogEntry] = [start]
        self._effective: list[LogEntry] = [start]
        self._kept: list[int] = []

    @classmethod
    def from_entries(cls, entries: Sequence[LogEntry]) -> Game:
        """Rebuild a game from its accepted entries (the first one a new_game).

        Raises Refusal when the entries are not a game's journal: EntryRefused (which
        names the entry) when the game refuses one of them.
        """
        first = entries[0] if entries else None
        if not isinstance(first, NewGame):
            raise Refusal("no_game", "A log starts with a new game.")
        table = cls(first, replayed=True)
        in_force: list[LogEntry] = []
        for entry in entries[1:]:
            if isinstance(entry, Undo):
                if not in_force:
                    raise Refusal("nothing_to_undo", "Nothing to undo.")
                table._keep(in_force.pop())
            elif isinstance(entry, NewGame):
                raise Refusal("game_started", "A game is already on.")
            else:
                table._use_kept(entry)
                in_force.append(entry)
        for entry in in_force:
            try:
                table._apply(entry)
            except Refusal as error:
                raise EntryRefused(entry, error) from None
        table.entries = list(entries)
        return table

    @property
    def kind(self) -> str:
        """The game kind (a kind of the registry, such as ``jumpy_jack``)."""
        return self.start.game

    def check(self, entry: LogEntry) -> None:
        """Refuse an input this game never takes, from a stranger, or out of turn."""
        if isinstance(entry, NewGame):
            raise Refusal("game_started", "A game is already on.")
        game = find_game(self.kind)
        if entry.TYPE not in EVERY_GAME and entry.TYPE not in game.entries:
            raise Refusal("wrong_game", "Not an input of {game}.", game=game.title)
        player = getattr(entry, "player", None)
        if player is not None and player not in self.start.players:
            raise Refusal(
                "unknown_player",
                "No player {player} at this table.",
                player=short(player, NAME_WIDTH),
            )
        if isinstance(entry, TURN_BOUND) and player is not None:
            turn = self.binding.turn()
            if turn is not None and player != turn:
                raise Refusal(
                    "not_your_turn", "It is {player}'s turn.", player=short(turn, NAME_WIDTH)
                )

    def _apply(self, entry: LogEntry, new: bool = False) -> None:
        """Apply ``entry``; a ``new`` one (not rebuilt from the journal) keeps the order too."""
        self.check(entry)
        if new:
            self.binding.order(entry)
        self.binding.apply(entry)
        self._effective.append(entry)

    def submit(self, entry: LogEntry, *, ordered: bool = True) -> None:
        """Apply one input (an undo included), in the game's order of play unless it is
        replayed from a log (not ``ordered``); raises Refusal and changes nothing if refused."""
        if isinstance(entry, Undo):
            self._keep(self._undo())
        else:
            self._apply(entry, new=ordered)
            self._use_kept(entry)
        self.entries.append(entry)

    def _undo(self) -> LogEntry:
        """Take back the last input in force and return it."""
        if len(self._effective) <= 1:
            raise Refusal("nothing_to_undo", "Nothing to undo.")
        taken = self._effective.pop()
        binding = binding_class(self.kind)(self.start.players, self.start.options)
        for entry in self._effective[1:]:
            binding.apply(entry)
        self.binding = binding
        return taken

    def offers(self) -> Offers:
        """Return what the game takes now and from whom (see ``Binding.offers``)."""
        return self.binding.offers()

    def kept_rolls(self) -> tuple[int, ...]:
        """The die values taken back by an undo and not rolled again, oldest first.

        They follow from the accepted entries alone (the journal holds them all, undos
        included), so a restart keeps them: undoing a roll puts its value back in front of
        the ones already kept, and each roll accepted since uses up the first one.
        """
        return tuple(self._kept)

    def _keep(self, taken: LogEntry) -> None:
        """An undo took ``taken`` back: a roll's value is kept, in front of the others."""
        if isinstance(taken, Roll):
            self._kept.insert(0, taken.value)

    def _use_kept(self, accepted: LogEntry) -> None:
        """An accepted roll uses up the first value kept."""
        if isinstance(accepted, Roll) and self._kept:
            self._kept.pop(0)

    def in_force(self) -> tuple[LogEntry, ...]:
        """Return the inputs that make the game what it is now (undone ones left out)."""
        return tuple(self._effective)

    def view(self, game_id: int | None, last_refusal: RefusalView | None = None) -> View:
        """Return the public view of the game."""
        entries = self.entries
        return self._view_of(self.binding, game_id, entries[-1], len(entries), last_refusal)

    def preview(self, entry: LogEntry, game_id: int | None) -> View:
        """Return the view the game would have if ``entry`` were accepted now, on a copy of
        the game: this one is left as it is. Raises Refusal as ``submit`` would, and ValueError
        for an undo (it takes back, it does not play)."""
        if isinstance(entry, Undo):
            raise ValueError("an undo is not previewed")
        self.check(entry)
        binding = self.binding.snapshot()
        binding.order(entry)
        binding.apply(entry)
        return self._view_of(binding, game_id, entry, len(self.entries) + 1)

    def _view_of(
        self,
        b: Binding,
        game_id: int | None,
        last: LogEntry,
        events: int,
        last_refusal: RefusalView | None = None,
    ) -> View:
        return View(
            game_id=game_id,
            game=self.kind,
            players=self.start.players,
            race=b.race(),
            phase=b.phase(),
            turn=b.turn(),
            sealed=b.sealed(),
            waiting_for=b.waiting_for(),
            board=b.board(),
            finished=b.finished(),
            winners=b.winners(),
            events=events,
            last=describe(last),
            last_refusal=last_refusal,
        )


def public_refusal(entry: LogEntry, error: Refusal) -> RefusalView:
    """Return a refusal as the whole table may see it: a sealed input's reason stays private."""
    player = getattr(entry, "player", None)
    if entry.SECRET:
        who = short(player or "?", NAME_WIDTH)
        template = SEALED_REFUSALS[entry.TYPE]
        message = Message.of(template, player=who)
        return RefusalView(entry.TYPE, player, "sealed_input_refused", message.english, message)
    return RefusalView(entry.TYPE, player, error.code, error.sentence, error.message)


class Session:
    """The games of one table behind the durable journal (or in memory, for replay).

    Open one with ``Session.open(path)`` (the game shown last is rebuilt) or
    ``Session.in_memory()``. ``submit`` returns an Outcome once the input is on disk.
    """

    def __init__(self, journal: Journal | None = None) -> None:
        self.journal = journal
        self._table: Game | None = None
        self._game_id: int | None = None
        self._memory_ids = 0
        self._refusal: tuple[RefusalView, RefusalView] | None = None
        #: The game as it stands, built once after each accepted input (a refusal keeps it).
        self._game_view: View | None = None
        #: The public view (the game's and the last refusal), shared by every reader.
        self._view: View | None = None
        #: What the game takes now, worked out once after each accepted input.
        self._offers: Offers | None = None
        #: When set, the result of a game an input finishes is queued in the journal's outbox
        #: in the same transaction as that input (the club's publisher sends it on).
        self.results: ResultMaker | None = None
        #: The game on when the journal began holding (see ``hold``), to put back.
        self._held_from: int | None = None

    @classmethod
    def open(
        cls, path: str | Path, *, resume: bool = True, clock: Callable[[], str] = utc_now
    ) -> Session:
        """Open the journal at ``path`` and rebuild the game the table showed last (the
        latest active game, or one just finished: see ``Journal.latest_shown``).

        Raises JournalError for a corrupt, foreign or newer journal (left untouched), and
        its subclass GameNotRebuilt for a game whose inputs no longer replay (open again
        with ``resume=False`` to go on without it).
        """
        session = cls(Journal.open(path, clock=clock))
        latest = session.journal.latest_shown() if session.journal else None
        if resume and latest is not None:
            try:
                session.resume(latest)
            except JournalError:
                session.close()
                raise
        return session

    @classmethod
    def in_memory(cls) -> Session:
        """Return a session with no journal (nothing survives it: for replay and tests)."""
        return cls(None)

    @property
    def game_id(self) -> int | None:
        """The id of the game being played, or None."""
        return self._game_id

    @property
    def table(self) -> Game | None:
        """The game being played (read it; change it only through ``submit``)."""
        return self._table

    def new_game(
        self, kind: str, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> int:
        """Start a new game and return its id; raises Refusal for an impossible set-up."""
        outcome = self.submit(NewGame(kind, tuple(players), dict(options or {})))
        if not outcome.accepted:
            message = outcome.message or Message.of(outcome.sentence or "Refused")
            raise Refusal(
                outcome.code or "refused", message.template, message.plural, **dict(message.params)
            )
        assert outcome.game_id is not None
        return outcome.game_id

    def submit(self, entry: LogEntry, *, ordered: bool = True) -> Outcome:
        """Apply one input; it is on disk before this returns an accepted Outcome (after
        ``hold``: once ``commit`` returns).

        A log replayed (``companion replay``) is not ``ordered``: the table's order of play
        (``Binding.order``) was the table's to keep when the input was made, and a log of an
        earlier version replays as its journal does.
        """
        try:
            if isinstance(entry, NewGame):
                return self._start(entry)
            if self._table is None:
                raise Refusal("no_game", "Start a game first.")
            was_over = self._table.binding.finished()
            undone = self._table.in_force()[-1] if isinstance(entry, Undo) else None
            self._table.submit(entry, ordered=ordered)
        except Refusal as error:
            return self._refused(entry, error)
        table = self._table
        game_id = self._game_id
        assert table is not None and game_id is not None
        if self.journal is not None:
            over = table.binding.finished()
            status = "finished" if over else "active"
            result = self._result(table, game_id) if over and not was_over else None
            held = self.journal.holding
            try:
                self.journal.append(game_id, len(table.entries) - 1, dumps(entry), status, result)
            except BaseException:
                if held:  # all that was held is rolled back with it
                    self._put_back()
                else:
                    self.resume(game_id)
                raise
        self._changed()
        return Outcome(True, entry, self.view(), game_id=self._game_id, undone=undone)

    def hold(self) -> None:
        """Keep the journal's writes of the next inputs open until ``commit``: they are
        applied and shown at once, and on disk only once ``commit`` returns."""
        if self.journal is not None and not self.journal.holding:
            self.journal.hold()
            self._held_from = self._game_id

    def commit(self) -> None:
        """Put on disk the inputs applied since ``hold``. When that fails, the table is put
        back as the journal holds it (the game before them, as it was) and the journal's
        error is raised."""
        journal = self.journal
        if journal is None or not journal.holding:
            return
        try:
            journal.commit()
        except BaseException:
            self._put_back()
            raise

    def _put_back(self) -> None:
        """Rebuild the game on before the held inputs from the journal (none: no game)."""
        game_id = self._held_from
        if game_id is None:
            self._table, self._game_id = None, None
            self._changed()
        else:
            self.resume(game_id)

    def _result(self, table: Game, game_id: int) -> Callable[[str, str], str] | None:
        """What writes the result of ``table``, just finished, into the outbox (if anything)."""
        maker = self.results
        if maker is None:
            return None
        view = table.view(game_id)
        return lambda started, ended: maker(table, view, game_id, started, ended)

    def undo(self) -> Outcome:
        """Take back the last accepted input (journaled like any other input)."""
        return self.submit(Undo())

    def _start(self, entry: NewGame) -> Outcome:
        table = Game(entry)
        if self.journal is not None:
            game_id = self.journal.create_game(entry.game, entry.players, dumps(entry))
        else:
            self._memory_ids += 1
            game_id = self._memory_ids
        self._table, self._game_id = table, game_id
        self._changed()
        return Outcome(True, entry, self.view(), game_id=game_id)

    def _refused(self, entry: LogEntry, error: Refusal) -> Outcome:
        player = getattr(entry, "player", None)
        private = RefusalView(entry.TYPE, player, error.code, error.sentence, error.message)
        self._refusal, self._view = (public_refusal(entry, error), private), None
        if self.journal is not None:
            detail = str(error.__cause__) if error.__cause__ else error.sentence
            game_id = None if isinstance(entry, NewGame) else self._game_id
            self.journal.record_refusal(game_id, dumps(entry), error.code, detail)
        return Outcome(
            False, entry, self.view(), error.code, error.sentence, self._game_id, error.message
        )

    def resume(self, game_id: int, *, touch: bool = False) -> View:
        """Rebuild a game of the journal and make it the current one; with ``touch`` (the
        host chose it), the journal notes it as played now, so a restart comes back to it.

        Raises JournalError when the game is missing or its journal cannot be replayed.
        """
        if self.journal is None:
            raise JournalError("an in-memory session has no journal to resume from")
        record = self.journal.game(game_id)
        self._table = rebuild(game_id, self.journal.events(game_id))
        self._game_id = game_id
        self._changed()
        if record.status == "abandoned":
            self.journal.set_status(game_id, "active")
        elif touch:
            self.journal.set_status(game_id, record.status)
        return self.view()

    def abandon(self, game_id: int | None = None) -> None:
        """Mark a game (the current one by default) abandoned; it stays in the journal."""
        target = self._game_id if game_id is None else game_id
        if target is None:
            return
        if self.journal is not None:
            self.journal.set_status(target, "abandoned")
        if target == self._game_id:
            self._table, self._game_id = None, None
            self._changed()

    def games(self) -> list[GameRecord]:
        """Return every game of the journal (none for an in-memory session)."""
        return self.journal.games() if self.journal is not None else []

    def accepted(self) -> tuple[LogEntry, ...]:
        """Return the current game's accepted entries, as the journal holds them."""
        return tuple(self._table.entries) if self._table is not None else ()

    def _changed(self) -> None:
        """Forget the views and the last refusal: the game (or which game) has changed."""
        self._refusal, self._game_view, self._view = None, None, None
        self._offers = None

    def view(self) -> View:
        """Return what the shared displays show now (built once per change, then shared).

        A refused input changes only the refusal shown: the game's part of the view is kept.
        """
        if self._view is None:
            public = self._refusal[0] if self._refusal else None
            self._view = self.game_view()
            if public is not None:
                self._view = replace(self._view, last_refusal=public)
        return self._view

    def game_view(self) -> View:
        """Return the game's part of ``view()``: the same object until the game changes, since
        a refused input leaves it as it was (the table's own displays draw from it, and say a
        refusal themselves)."""
        if self._game_view is None:
            table = self._table
            self._game_view = View() if table is None else table.view(self._game_id)
        return self._game_view

    def offers(self) -> Offers:
        """Return what the game takes now, from whom, and who the table waits for: the one
        answer the panel, the pads, the host page and the card paths all draw from."""
        if self._offers is None:
            table = self._table
            self._offers = NOTHING if table is None else table.offers()
        return self._offers

    def preview(self, entry: LogEntry) -> View | None:
        """Return the game's view as it would be if ``entry`` were accepted now, or None when
        the game would refuse it: nothing is applied and nothing journaled (what a legal press
        would light is drawn from it before the press comes)."""
        table = self._table
        if table is None or isinstance(entry, Undo | NewGame):
            return None
        try:
            return table.preview(entry, self._game_id)
        except Refusal:
            return None

    def private_view(self, player: str) -> PrivateView:
        """Return what only ``player`` may see now (their sealed inputs, hand, refusal)."""
        refusal = self._refusal[1] if self._refusal else None
        if refusal is not None and refusal.player != player:
            refusal = None
        if self._table is None or player not in self._table.start.players:
            return PrivateView(player, NoDetails(), refusal)
        return PrivateView(player, self._table.binding.private(player), refusal)

    def close(self) -> None:
        """Close the journal (every accepted input is already on disk)."""
        if self.journal is not None:
            self.journal.close()
            self.journal = None


def rebuild(game_id: int, lines: Iterable[str]) -> Game:
    """Rebuild one game from its journal lines; raises JournalError if they do not replay."""
    way_out = f"export it with `companion export {game_id}` or abandon it"
    entries: list[LogEntry] = []
    for seq, line in enumerate(lines):
        try:
            entries.append(parse_line(line, seq))
        except LogError as error:
            raise GameNotRebuilt(
                game_id,
                f"game {game_id}: journal entry {seq} is unreadable ({error}); {way_out}",
            ) from None
    try:
        return Game.from_entries(entries)
    except Refusal as error:
        # The message is logged: a sealed input is named by its player, its reason by its code.
        reason = f"{error.code}: {error.sentence}"
        if isinstance(error, EntryRefused):
            shown = error.code if error.entry.SECRET else reason
            reason = f"{describe(error.entry)} refused: {shown}"
        raise GameNotRebuilt(
            game_id, f"game {game_id} cannot be rebuilt ({reason}); {way_out}"
        ) from None
