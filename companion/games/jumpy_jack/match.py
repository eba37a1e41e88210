"""A Jumpy Jack match: turns, sealed predictions, guesses, race after race to the target.

``JumpyJackMatch`` has one method per table input (``roll``, ``move``, ``forfeit``,
``predict``, ``guess``, ``next_race``). Each checks the input completely and raises
``Refusal`` before anything changes; an accepted input makes a new immutable state. Undo is
the session's: it replays the table log without the input taken back. Read-only queries give
what the displays show. ``to_json`` and ``from_json`` save and restore the whole match.

Turns: players roll in seat order; a move or a forfeit passes the turn to the next seat.
Race 1 is started by seat 1, race 2 by seat 2, and so on round the table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Any

from companion.games.errors import DataError, GameError, Refusal, counted
from companion.games.jumpy_jack.board import DIE_FACES, Board
from companion.games.jumpy_jack.moves import Move, Podium
from companion.games.jumpy_jack.race import Position
from companion.games.jumpy_jack.scoring import Guess, JumpyRaceResult, MatchOptions, Prediction
from companion.games.jumpy_jack.state import (
    GUESS_INVALID,
    PREDICTION_INVALID,
    MatchState,
    check_horses,
    score_race,
    state_from_mapping,
    state_to_mapping,
)
from companion.games.text import short

#: The version written in every saved match.
FORMAT = "companion.jumpy_jack/1"


class JumpyPhase(StrEnum):
    """What the match waits for."""

    PREDICT = "predict"  # before the race's first roll: predictions (and guesses) are open
    ROLL = "roll"  # the current player rolls
    MOVE = "move"  # a die value waits for a move, or a forfeit when no move is legal
    RACE_OVER = "race_over"  # the race is scored; next_race() starts the next one
    MATCH_OVER = "match_over"  # someone reached the target


class JumpyJackMatch:
    """A whole match of Jumpy Jack at one table.

    Build one with ``new`` (or ``from_json``). Every action method raises ``Refusal`` and
    changes nothing when the rules refuse the input.
    """

    def __init__(
        self,
        players: tuple[str, ...],
        options: MatchOptions,
        state: MatchState,
    ) -> None:
        self._players = players
        self._options = options
        self._seats = {name: seat for seat, name in enumerate(players)}
        self._team_of = {p: i for i, team in enumerate(options.teams) for p in team}
        self._commit(state)

    # -- starting -------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        options: MatchOptions | None = None,
        *,
        position: str | None = None,
    ) -> JumpyJackMatch:
        """Start a match for ``players`` (in seat order) with ``options``.

        ``position`` (race notation) sets where the horses of race 1 stand, for tests and
        bug reports. Raises ``Refusal``: ``players_invalid``, ``teams_invalid``,
        ``options_invalid``; ``DataError`` for a bad ``position``.
        """
        options = options or MatchOptions()
        names = tuple(players)
        if not names or any(not isinstance(p, str) or not p.strip() for p in names):
            raise Refusal("players_invalid", "Name at least one player.")
        if len(set(names)) != len(names):
            raise Refusal("players_invalid", "Two players have the same name.")
        if (
            isinstance(options.target, bool)
            or not isinstance(options.target, int)
            or options.target < 1
        ):
            raise Refusal("options_invalid", "The target must be 1 point or more.")
        if options.guess and len(names) < 2:
            raise Refusal("options_invalid", "The guess variant needs two players or more.")
        if options.teams:
            members = [p for team in options.teams for p in team]
            if sorted(members) != sorted(names):
                raise Refusal("teams_invalid", "Every player must be in exactly one team.")
            if len(options.teams) < 2 or len({len(team) for team in options.teams}) != 1:
                raise Refusal("teams_invalid", "Teams must be two or more, of equal size.")
        start = Position.start(options.board)
        if position is not None:
            start = Position.from_text(position, options.board)
            if start.over:
                raise DataError("position: the race is already over")
        state = MatchState(
            race=1,
            position=start,
            predictions=(None,) * len(names),
            guesses=(None,) * len(names),
        )
        return cls(names, options, state)

    # -- table inputs ---------------------------------------------------------------------

    def roll(self, value: int, player: str | None = None) -> None:
        """Take the die value the table rolled for the current player.

        Refuses ``match_over``, ``race_over``, ``unknown_player``, ``not_your_turn``,
        ``roll_pending`` (a die value waits for a move or a forfeit), ``invalid_die`` and,
        on the race's first roll, ``prediction_missing``.
        """
        state = self._state
        self._check_racing()
        self._check_turn(player)
        if state.die is not None:
            if state.position.can_move(state.die):
                raise Refusal(
                    "roll_pending", "The die shows {die}: move a horse first.", die=state.die
                )
            raise Refusal(
                "roll_pending",
                "The die shows {die} and no horse can move: forfeit.",
                die=state.die,
            )
        if isinstance(value, bool) or not isinstance(value, int) or value not in DIE_FACES:
            raise Refusal("invalid_die", "A die roll is a number from 1 to 6.")
        if not state.started and None in state.predictions:
            missing = len(self.missing_predictions())
            raise counted(
                "prediction_missing",
                "Waiting for {count} prediction before the first roll.",
                "Waiting for {count} predictions before the first roll.",
                missing,
            )
        self._commit(replace(state, die=value, spent=False, started=True, last_move=None))

    def move(self, horse: str, player: str | None = None) -> Move:
        """Move ``horse`` by the die value rolled; return the move made.

        Refuses ``match_over``, ``race_over``, ``unknown_player``, ``not_your_turn``,
        ``unknown_horse``, ``no_roll``, ``already_moved``, ``horse_finished``, ``horse_out``,
        and the first obstacle on the path: ``barrage``, ``stop_occupied``,
        ``double_blocked`` (the DOUBLE bounce is blocked) or ``overshoot`` (exact finish
        boards only).
        """
        state = self._state
        self._check_racing()
        self._check_turn(player)
        if not isinstance(horse, str) or self._options.board.horse_index(horse) is None:
            raise Refusal(
                "unknown_horse", "There is no horse called {horse}.", horse=short(str(horse), 10)
            )
        die = self._check_die()
        move = state.position.check(horse, die)
        position = state.position.after(move)
        after = replace(
            state,
            position=position,
            die=None,
            spent=True,
            turn=(state.turn + 1) % len(self._players),
            last_move=move,
        )
        if position.over:
            after = replace(after, results=(*state.results, score_race(after, self._players)))
        self._commit(after)
        return move

    def forfeit(self, player: str | None = None) -> None:
        """Give up the roll when no horse can move with it; the turn passes.

        Refuses ``match_over``, ``race_over``, ``unknown_player``, ``not_your_turn``,
        ``no_roll``, ``already_moved`` and ``must_move`` (some horse can move).
        """
        state = self._state
        self._check_racing()
        self._check_turn(player)
        die = self._check_die()
        moves = state.position.legal_moves(die)
        if moves:
            some = moves[0].horse
            raise Refusal(
                "must_move",
                "{horse} can move {die}: a roll is only forfeited if no horse can move.",
                horse=some,
                die=die,
            )
        self._commit(
            replace(
                state,
                die=None,
                spent=False,
                turn=(state.turn + 1) % len(self._players),
                last_move=None,
            )
        )

    def predict(self, player: str, horses: Sequence[str]) -> None:
        """Seal (or rewrite) ``player``'s prediction of places 1, 2 and 3 for this race.

        Refuses ``unknown_player``, ``match_over``, ``race_over``, ``prediction_closed``
        (the race has started) and ``prediction_invalid`` (not 3 distinct known horses).
        """
        seat = self._seat(player)
        self._check_racing()
        state = self._state
        if state.started:
            raise Refusal("prediction_closed", "The race has started: predictions are sealed.")
        prediction = check_horses(
            horses, self._options.board, "prediction_invalid", PREDICTION_INVALID
        )
        predictions = list(state.predictions)
        predictions[seat] = prediction
        self._commit(replace(state, predictions=tuple(predictions), last_move=None))

    def guess(self, player: str, target: str, horses: Sequence[str]) -> None:
        """Write ``player``'s guess of ``target``'s prediction (guess variant); replaces any
        earlier guess.

        Refuses ``guess_off`` (variant not in play), ``unknown_player``, ``match_over``,
        ``race_over``, ``guess_closed`` (the race has started), ``not_an_opponent``,
        ``prediction_missing`` (guesses open once everyone has predicted) and
        ``guess_invalid`` (not 3 distinct known horses).
        """
        if not self._options.guess:
            raise Refusal("guess_off", "The guess variant is not in play.")
        seat = self._seat(player)
        self._seat(target)
        self._check_racing()
        state = self._state
        if state.started:
            raise Refusal("guess_closed", "The race has started: guesses are closed.")
        if target == player or self._team_of.get(target, -1) == self._team_of.get(player, -2):
            raise Refusal("not_an_opponent", "Guess the prediction of an opponent.")
        if None in state.predictions:
            raise Refusal("prediction_missing", "Guesses open once every player has predicted.")
        guessed = check_horses(horses, self._options.board, "guess_invalid", GUESS_INVALID)
        guesses = list(state.guesses)
        guesses[seat] = Guess(target, guessed)
        self._commit(replace(state, guesses=tuple(guesses), last_move=None))

    def next_race(self) -> None:
        """Start the next race: horses back on the start square, fresh predictions.

        Refuses ``match_over`` and ``race_running`` (the race is not over yet).
        """
        state = self._state
        if self.phase is JumpyPhase.MATCH_OVER:
            raise Refusal("match_over", "The match is over.")
        if not state.position.over:
            raise Refusal("race_running", "The race is not over yet.")
        count = len(self._players)
        self._commit(
            MatchState(
                race=state.race + 1,
                position=Position.start(self._options.board),
                turn=state.race % count,
                predictions=(None,) * count,
                guesses=(None,) * count,
                results=state.results,
            )
        )

    # -- queries --------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """Return the players in seat order."""
        return self._players

    @property
    def options(self) -> MatchOptions:
        """Return the options the match was started with."""
        return self._options

    @property
    def board(self) -> Board:
        """Return the board raced on."""
        return self._options.board

    @property
    def phase(self) -> JumpyPhase:
        """Return what the match waits for."""
        return self._phase

    @property
    def race_number(self) -> int:
        """Return the number of the current race, from 1."""
        return self._state.race

    @property
    def current_player(self) -> str | None:
        """Return the player who rolls (or moves) next; None once the race is over."""
        if self._state.position.over:
            return None
        return self._players[self._state.turn]

    @property
    def die(self) -> int | None:
        """Return the die value waiting for a move or a forfeit, if any."""
        return self._state.die

    @property
    def position(self) -> Position:
        """Return where the horses of the current race stand."""
        return self._state.position

    @property
    def podium(self) -> Podium:
        """Return the podium of the current race."""
        return self._state.position.podium

    @property
    def last_move(self) -> Move | None:
        """Return the move made by the last accepted input, if that input was a move."""
        return self._state.last_move

    @property
    def must_forfeit(self) -> bool:
        """Tell whether a die value waits and no horse can move with it."""
        die = self._state.die
        return die is not None and not self._state.position.can_move(die)

    def legal_moves(self) -> tuple[Move, ...]:
        """Return every legal move for the die value waiting (none without one)."""
        die = self._state.die
        return () if die is None else self._state.position.legal_moves(die)

    def missing_predictions(self) -> tuple[str, ...]:
        """Return the players who have not predicted this race yet, in seat order."""
        return tuple(
            p for p, h in zip(self._players, self._state.predictions, strict=True) if h is None
        )

    def prediction(self, player: str) -> Prediction | None:
        """Return ``player``'s prediction for this race (secret until the race ends)."""
        return self._state.predictions[self._seat(player)]

    def guess_of(self, player: str) -> Guess | None:
        """Return ``player``'s guess for this race (secret until the race ends)."""
        return self._state.guesses[self._seat(player)]

    @property
    def results(self) -> tuple[JumpyRaceResult, ...]:
        """Return every scored race, first race first."""
        return self._state.results

    def scores(self) -> dict[str, int]:
        """Return every player's total, bonus points included, in seat order."""
        totals = dict.fromkeys(self._players, 0)
        for result in self._state.results:
            for player in self._players:
                totals[player] += result.total(player)
        return totals

    def team_scores(self) -> tuple[tuple[tuple[str, ...], int], ...]:
        """Return each team with the sum of its members' totals (teams variant)."""
        totals = self.scores()
        return tuple((team, sum(totals[p] for p in team)) for team in self._options.teams)

    @property
    def target(self) -> int:
        """Return the score that ends the match (a team's: target times team size)."""
        size = len(self._options.teams[0]) if self._options.teams else 1
        return self._options.target * size

    def winners(self) -> tuple[str, ...]:
        """Return the winning players in seat order (every member of a winning team);
        empty until the match is over. Equal highest totals share the win."""
        if self.phase is not JumpyPhase.MATCH_OVER:
            return ()
        if self._options.teams:
            teams = self.team_scores()
            best = max(score for _, score in teams)
            members = {p for team, score in teams if score == best for p in team}
            return tuple(p for p in self._players if p in members)
        totals = self.scores()
        best = max(totals.values())
        return tuple(p for p in self._players if totals[p] == best)

    # -- saving ---------------------------------------------------------------------------

    def to_mapping(self) -> dict[str, Any]:
        """Return the whole match as plain data (its undo is the table log's, by replay)."""
        return {
            "format": FORMAT,
            "players": list(self._players),
            "options": self._options.to_mapping(),
            "results": [r.to_mapping() for r in self._state.results],
            "state": state_to_mapping(self._state),
        }

    def to_json(self) -> str:
        """Return the whole match as one line of JSON."""
        return json.dumps(
            self.to_mapping(), separators=(",", ":"), sort_keys=True, ensure_ascii=False
        )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "saved game") -> JumpyJackMatch:
        """Restore a match written by ``to_mapping``; raises ``DataError`` saying why."""
        try:
            if data.get("format") != FORMAT:
                raise DataError(f"{source}: format {data.get('format')!r} is not {FORMAT!r}")
            options = MatchOptions.from_mapping(data["options"], f"{source}: options")
            match = cls.new([str(p) for p in data["players"]], options)
            results = tuple(JumpyRaceResult.from_mapping(r) for r in data["results"])
            state = state_from_mapping(data["state"], options.board, len(match._players), results)
            if len(state.results) != len(results):
                raise ValueError("the current state does not hold every result")
        except DataError as error:
            raise DataError(f"{source}: {error}") from None
        except (GameError, KeyError, TypeError, ValueError, AttributeError) as error:
            raise DataError(
                f"{source}: not a Jumpy Jack match ({type(error).__name__}: {error})"
            ) from None
        restored = cls(match._players, options, state)
        if restored.to_mapping() != dict(data):
            raise DataError(f"{source}: inconsistent saved match")
        return restored

    @classmethod
    def from_json(cls, text: str, source: str = "saved game") -> JumpyJackMatch:
        """Restore a match from ``to_json`` text; raises ``DataError`` saying why."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise DataError(f"{source}: not JSON: {error}") from None
        if not isinstance(data, dict):
            raise DataError(f"{source}: expected a JSON object")
        return cls.from_mapping(data, source)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JumpyJackMatch):
            return NotImplemented
        return (
            self._players == other._players
            and self._options == other._options
            and self._state == other._state
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<JumpyJackMatch race {self._state.race} {self.phase.value} "
            f"[{self._state.position.to_text()}] scores {self.scores()}>"
        )

    # -- internals ------------------------------------------------------------------------

    def _commit(self, state: MatchState) -> None:
        """Make ``state`` the match's, with its phase (worked out once: every query reads it)."""
        self._state = state
        self._phase = self._phase_of(state)

    def _phase_of(self, state: MatchState) -> JumpyPhase:
        if state.position.over:
            return JumpyPhase.MATCH_OVER if self._reached_target() else JumpyPhase.RACE_OVER
        if not state.started:
            return JumpyPhase.PREDICT
        return JumpyPhase.ROLL if state.die is None else JumpyPhase.MOVE

    def _seat(self, player: str) -> int:
        seat = self._seats.get(player) if isinstance(player, str) else None
        if seat is None:
            raise Refusal(
                "unknown_player", "No player called {player}.", player=short(str(player), 12)
            )
        return seat

    def _check_racing(self) -> None:
        phase = self.phase
        if phase is JumpyPhase.MATCH_OVER:
            raise Refusal("match_over", "The match is over.")
        if phase is JumpyPhase.RACE_OVER:
            raise Refusal("race_over", "The race is over: start the next race.")

    def _check_turn(self, player: str | None) -> None:
        if player is None:
            return
        if self._seat(player) != self._state.turn:
            turn = short(self._players[self._state.turn], 12)
            raise Refusal("not_your_turn", "It is {player}'s turn.", player=turn)

    def _check_die(self) -> int:
        state = self._state
        if state.die is None:
            if state.spent:
                raise Refusal("already_moved", "That roll has been used: roll the die again.")
            raise Refusal("no_roll", "Roll the die first.")
        return state.die

    def _reached_target(self) -> bool:
        if self._options.teams:
            return max(score for _, score in self.team_scores()) >= self.target
        return max(self.scores().values()) >= self.target
