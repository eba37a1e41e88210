"""The start menu: choose the game, the number of players and the options, then start.

Three steps, each on the LCD: the game (a horse button 1..3, or the encoder and push), the
number of players (encoder, push), the options (the encoder moves, push or a horse button
changes the option under the cursor, push on "Start" starts). Holding undo goes back a step.

UI decisions:

- Names come from the configured list, then "Player N" for the seats it does not cover, N
  being the seat's number ("Anna, Ben, Player 3"), so a name says where its player sits.
- Jumpy Jack's teams are offered only for a number of players that splits evenly into two
  or more teams of two or more; the seats are split in order (with four players: Team 1 is
  seats 1 and 2, Team 2 seats 3 and 4). While the cursor is on the option, the OLED lists
  who is in which team.
- The table's language is the last option, just above "Start", in every game's list: push
  or a horse button changes it to the next of English, Français, Deutsch at once (the
  screens speak it from there on), and the companion keeps it for its next start.
- With the phone pages on, "New host phone" comes just above the language: pushed, it opens
  the host's seat for a few minutes to a phone that asks for it (the table then asks about
  that phone like any other). It is the only way the host's seat changes phones.
- While the pages' room has people, "End evening" is the last row, below "Start" (never
  passed on the way to it): a first push asks "sure?", a second empties the room.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.daemon.flows.base import HORSE_BUTTONS, Context, Reply, StartMenu, notice, refused
from companion.devices.base import ButtonPressed, EncoderTurned, InputEvent, Tone
from companion.games.errors import Refusal
from companion.games.info import GameInfo, Option
from companion.games.registry import GAMES
from companion.games.text import N_
from companion.render import menu as render
from companion.render.language import LANGUAGE_NAMES, LANGUAGES, _, current, say
from companion.render.screen import Cue, Screen
from companion.session.log import NewGame
from companion.session.names import same_person


def seat_names(configured: Sequence[str], count: int, *, extra: bool = True) -> tuple[str, ...]:
    """Return ``count`` distinct names: the configured ones first, then "Player N".

    With ``extra`` False, return every distinct configured name and nothing more.
    """
    names: list[str] = []
    for name in configured:
        clean = name.strip()
        if clean and not any(same_person(clean, n) for n in names):
            names.append(clean)
    if not extra:
        return tuple(names)
    names = names[:count]
    while len(names) < count:
        number = len(names) + 1
        candidate = _("Player {number}").format(number=number)
        while any(same_person(candidate, n) for n in names):
            number += 1
            candidate = _("Player {number}").format(number=number)
        names.append(candidate)
    return tuple(names)


#: The row of the options list that changes the table's language (just above "Start").
LANGUAGE_LABEL = N_("Language")
#: The row that opens the host's seat to a new phone (with the phone pages on).
HOST_LABEL = N_("New host phone")
EVENING_LABEL = N_("End evening")


def team_counts(players: int) -> tuple[int, ...]:
    """How many teams ``players`` can split into: two or more teams of two or more."""
    return tuple(k for k in range(2, players // 2 + 1) if players % k == 0)


def split_teams(names: Sequence[str], teams: int) -> list[list[str]]:
    """Split the seats in order into ``teams`` teams of equal size."""
    size = len(names) // teams
    return [list(names[i * size : (i + 1) * size]) for i in range(teams)]


class MenuFlow(StartMenu):
    """The three menu steps; ``preset`` brings back the choices of a cancelled game.

    A horse button picks the game of its number; a game past the last horse button is picked
    with the knob and a push.
    """

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.step = "game"
        self.cursor = 0
        self.spec = GAMES[0]
        self.count = GAMES[0].low
        self.values: dict[str, int] = {}
        #: "End evening" was pushed once: the next push on it ends the evening.
        self.ending = False

    def preset(self, start: NewGame) -> None:
        """Open on the options step with the game, players and options of ``start``."""
        spec = next((g for g in GAMES if g.kind == start.game), None)
        if spec is None:
            return
        self._choose(spec)
        self.count = max(spec.low, min(spec.high, len(start.players)))
        chosen = dict(start.options)
        if isinstance(chosen.get("teams"), list) and chosen["teams"]:
            chosen["teams"] = len(chosen["teams"])
        for option in self.offered():
            value = chosen.get(option.key, option.values[0])
            if value in option.values:
                self.values[option.key] = option.values.index(value)
        self.step, self.cursor = "options", self.start_row()

    def _choose(self, spec: GameInfo) -> None:
        self.spec = spec
        configured = len(seat_names(self.ctx.player_names, 0, extra=False))
        self.count = max(spec.low, min(spec.high, configured or spec.low))
        self.values = {o.key: 0 for o in spec.options}

    def names(self) -> tuple[str, ...]:
        """The names the players will get."""
        return seat_names(self.ctx.player_names, self.count)

    def offered(self) -> tuple[Option, ...]:
        """The options of the game for the number of players chosen (teams only if they split)."""
        counts = team_counts(self.count) if self.spec.teams else ()
        if not counts:
            return self.spec.options
        each = _("{teams} teams of {size}")
        words = ("off", *(each.format(teams=k, size=self.count // k) for k in counts))
        return (*self.spec.options, Option("teams", N_("Teams"), (None, *counts), words))

    def _value(self, option: Option) -> Any:
        index = self.values.get(option.key, 0)
        return option.values[index if index < len(option.values) else 0]

    def teams(self) -> list[list[str]]:
        """The teams chosen (seats split in order), or none."""
        count = next((self._value(o) for o in self.offered() if o.key == "teams"), None)
        return split_teams(self.names(), count) if count else []

    def options(self) -> dict[str, Any]:
        """The options chosen, with the configured ones for this game."""
        chosen: dict[str, Any] = dict(self.ctx.game_options.get(self.spec.kind, {}))
        for option in self.offered():
            value = self._value(option)
            if option.key == "teams":
                if value:
                    chosen["teams"] = self.teams()
            elif value is not None:
                chosen[option.key] = value
        return chosen

    # -- inputs ----------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> Reply:
        """Move through the menu."""
        if isinstance(event, EncoderTurned):
            return self._turn(event.steps)
        if isinstance(event, ButtonPressed):
            if event.button == "push":
                return self._push()
            if event.button in HORSE_BUTTONS:
                return self._horse(HORSE_BUTTONS.index(event.button))
        return Reply()

    def _turn(self, steps: int) -> Reply:
        if self.step == "game":
            self.cursor = (self.cursor + steps) % len(GAMES)
        elif self.step == "players":
            self.count = max(self.spec.low, min(self.spec.high, self.count + steps))
            self.values.pop("teams", None)  # the teams on offer depend on the count
        else:
            last = self.start_row() + (self.ctx.end_evening is not None)
            self.cursor = max(0, min(last, self.cursor + steps))
            self.ending = False
        return Reply()

    def _push(self) -> Reply:
        if self.step == "game":
            return self._pick(self.cursor)
        if self.step == "players":
            self.step, self.cursor = "options", self.start_row()
            return Reply([Cue(tone=Tone.ACCEPTED)])
        if self.cursor > self.start_row():
            return self._end_evening()
        if self.cursor == self.start_row():
            return self._start()
        return self._cycle(self.cursor)

    def _end_evening(self) -> Reply:
        """The first push asks for a second; the second ends the evening."""
        end = self.ctx.end_evening
        if end is None:
            return Reply()
        if not self.ending:
            self.ending = True
            return Reply()
        self.ending = False
        self.cursor = self.start_row()
        return end()

    def _horse(self, index: int) -> Reply:
        if self.step == "game":
            return self._pick(index) if index < len(GAMES) else Reply()
        if self.step == "options" and self.cursor < self.start_row():
            return self._cycle(self.cursor)
        return Reply()

    def _pick(self, index: int) -> Reply:
        self._choose(GAMES[index])
        self.step, self.cursor = "players", 0
        return Reply([Cue(tone=Tone.ACCEPTED)])

    def host_row(self) -> int | None:
        """The row of "New host phone" (after the game's options), or None without pages."""
        return len(self.offered()) if self.ctx.open_host_seat is not None else None

    def start_row(self) -> int:
        """The row of "Start" in the options list: after the game's options, the host's row
        (with the pages on) and the language."""
        return len(self.offered()) + (self.host_row() is not None) + 1

    def _cycle(self, index: int) -> Reply:
        if index == self.host_row() and self.ctx.open_host_seat is not None:
            return self.ctx.open_host_seat()
        if index == self.start_row() - 1:
            return self._next_language()
        option = self.offered()[index]
        self.values[option.key] = (self.values.get(option.key, 0) + 1) % len(option.values)
        return Reply()

    def _next_language(self) -> Reply:
        """Speak the next language from now on (and remember it, when the table can)."""
        language = LANGUAGES[(LANGUAGES.index(self.ctx.language) + 1) % len(LANGUAGES)]
        self.ctx.language = language
        if self.ctx.remember_language is not None:
            self.ctx.remember_language(language)
        return Reply([Cue(tone=Tone.ACCEPTED)])

    def _start(self) -> Reply:
        if self.options().get("hands") and self.ctx.cards == "dial":
            return refused(_("Hands need a card reader: a dialled card would show."))
        try:
            self.ctx.session.new_game(self.spec.kind, self.names(), self.options())
        except Refusal as error:
            return refused(say(error.message))
        factory = self.ctx.game_flow
        assert factory is not None
        reply = notice(_("{game}: go!").format(game=self.spec.title_in(current())))
        reply.goto = factory(self.ctx)
        return reply

    def undo(self) -> Reply:
        """Go back one step."""
        if self.step == "options":
            self.step, self.cursor = "players", 0
        elif self.step == "players":
            self.step, self.cursor = "game", GAMES.index(self.spec)
        return Reply()

    # -- picture ---------------------------------------------------------------------------

    def screen(self) -> Screen:
        """Return the menu step as it stands."""
        if self.step == "game":
            return render.games(
                [g.title_in(current()) for g in GAMES], self.cursor, len(HORSE_BUTTONS)
            )
        if self.step == "players":
            return render.players(
                self.spec.title_in(current()),
                self.count,
                self.spec.low,
                self.spec.high,
                self.names(),
            )
        items = [(o.label, o.shown(self._value(o))) for o in self.offered()]
        if self.host_row() is not None:
            items.append((HOST_LABEL, ""))
        items.append((LANGUAGE_LABEL, LANGUAGE_NAMES[self.ctx.language]))
        items.append((N_("Start"), ""))
        if self.ctx.end_evening is not None:
            items.append((EVENING_LABEL, N_("sure?") if self.ending else ""))
        return render.options(
            self.spec.title_in(current()), self.count, items, self.cursor, self.teams()
        )
