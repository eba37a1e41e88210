"""The session's binding to Jumpy Jack: inputs in, public board and sealed predictions out.

Options of a ``new_game`` entry (read by ``MatchOptions.parse``): ``target`` (points that
end the match, default 16), ``guess`` (true for the guess variant), ``teams`` (a list of
teams, each a list of players) and ``board`` (a board as its file's mapping).
Predictions and guesses stay sealed until their race is scored.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.games.errors import Refusal
from companion.games.jumpy_jack import (
    PREDICTION_PLACES,
    HorseStanding,
    JumpyJackBoard,
    JumpyJackMatch,
    JumpyJackPrivate,
    JumpyPhase,
    MatchOptions,
    TeamScore,
)
from companion.session.log import Forfeit, GuessEntry, LogEntry, MoveEntry, NextRace, Predict, Roll
from companion.session.offers import NEXT_RACE, NOTHING, Offer, Offers
from companion.session.sealing import SealedRace

if TYPE_CHECKING:
    from companion.session.session import Game


class JumpyJackBinding(SealedRace):
    """A Jumpy Jack match driven by table-log entries."""

    KIND = "jumpy_jack"

    def __init__(self, players: tuple[str, ...], options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.match = JumpyJackMatch.new(players, MatchOptions.parse(options))

    def apply(self, entry: LogEntry) -> None:
        """Forward one input to the match (Refusal comes from the engine)."""
        m = self.match
        if isinstance(entry, Roll):
            m.roll(entry.value, entry.player)
        elif isinstance(entry, MoveEntry):
            m.move(entry.horse, entry.player)
        elif isinstance(entry, Forfeit):
            m.forfeit(entry.player)
        elif isinstance(entry, Predict):
            m.predict(entry.player, entry.horses)
        elif isinstance(entry, GuessEntry):
            m.guess(entry.player, entry.target, entry.horses)
        elif isinstance(entry, NextRace):
            m.next_race()
        else:
            raise Refusal("wrong_game", "Not an input of Jumpy Jack")

    def snapshot(self) -> JumpyJackBinding:
        """A copy of the match: its states are frozen values, so a shallow copy is one."""
        twin = copy.copy(self)
        twin.match = copy.copy(self.match)
        return twin

    def offers(self) -> Offers:
        """Predictions (rewritten until the first roll) and guesses, the roll, the move or the
        forfeit of the player whose turn it is, the next race."""
        m = self.match
        phase = m.phase
        if phase is JumpyPhase.MATCH_OVER:
            return NOTHING
        if phase is JumpyPhase.RACE_OVER:
            return NEXT_RACE
        turn = m.current_player
        if phase is JumpyPhase.MOVE:
            if m.must_forfeit:
                return Offers.of([Offer("forfeit", turn)], [turn] if turn else [])
            legal = tuple(move.horse for move in m.legal_moves())
            return Offers.of([Offer("move", turn, legal)], [turn] if turn else [])
        horses = tuple(h.name for h in m.board.horses)
        if phase is JumpyPhase.ROLL:
            return Offers.of([Offer("roll", turn)], [turn] if turn else [])
        missing = m.missing_predictions()
        predictions = [Offer("predict", p, horses, places=PREDICTION_PLACES) for p in m.players]
        if missing:
            return Offers.of(predictions, missing)
        guesses = (
            [Offer("guess", p, horses, places=PREDICTION_PLACES) for p in m.players]
            if m.options.guess
            else []
        )
        return Offers.of([*predictions, *guesses, Offer("roll", turn)], [turn] if turn else [])

    def turn(self) -> str | None:
        """The player who rolls or moves next."""
        return self.match.current_player

    def phase(self) -> JumpyPhase:
        """``predict``, ``roll``, ``move``, ``race_over`` or ``match_over``."""
        return self.match.phase

    def race(self) -> int:
        """The race number, from 1."""
        return self.match.race_number

    def revealed(self) -> bool:
        """The race is scored (its predictions and guesses are out), or the match is over."""
        return self.match.phase in (JumpyPhase.RACE_OVER, JumpyPhase.MATCH_OVER)

    def holds(self, player: str) -> bool:
        """Whether ``player`` holds a prediction or a guess for this race."""
        m = self.match
        return m.prediction(player) is not None or m.guess_of(player) is not None

    def missing(self) -> tuple[str, ...]:
        """The players who have not predicted before the race's first roll."""
        if self.match.phase is not JumpyPhase.PREDICT:
            return ()
        return self.match.missing_predictions()

    def finished(self) -> bool:
        """Whether someone (or some team) has reached the target."""
        return self.match.phase is JumpyPhase.MATCH_OVER

    def winners(self) -> tuple[str, ...]:
        """The winning players, ties sharing."""
        return self.match.winners()

    def board(self) -> JumpyJackBoard:
        """The die, the legal horses, where every horse stands, the podium and the scores."""
        m = self.match
        position = m.position
        return JumpyJackBoard(
            die=m.die,
            legal_horses=tuple(move.horse for move in m.legal_moves()),
            must_forfeit=m.must_forfeit,
            horses=tuple(
                HorseStanding(
                    name=horse.name,
                    colour=horse.colour,
                    state=position.state(horse.name),
                    square=position.square(horse.name),
                    place=position.podium.place_of(horse.name),
                )
                for horse in m.board.horses
            ),
            position=position.to_text(),
            podium=m.podium.top3,
            last_move=m.last_move,
            scores=m.scores(),
            teams=tuple(TeamScore(team, s) for team, s in m.team_scores()),
            target=m.target,
            results=m.results,
        )

    def private(self, player: str) -> JumpyJackPrivate:
        """The player's own prediction and guess for the current race."""
        return JumpyJackPrivate(self.match.prediction(player), self.match.guess_of(player))

    def engine_state(self) -> Any:
        """The match's saved form."""
        return self.match.to_mapping()


#: The players and options autoplay starts a game with.
SET_UP: tuple[tuple[str, ...], dict[str, Any]] = (("Anna", "Bob", "Chloé"), {})


def random_input(table: Game, rng: random.Random) -> LogEntry | None:
    """Draw an input the game accepts now (for autoplay), or None when it is over."""
    view = table.view(None)
    board = view.board
    assert isinstance(board, JumpyJackBoard)
    horses = list(board.horse_names)
    if view.phase == "predict":
        missing = list(view.waiting_for)
        if missing and rng.random() < 0.9:
            return Predict(rng.choice(missing), tuple(rng.sample(horses, 3)))
        if not missing and rng.random() < 0.1:
            return Predict(rng.choice(view.players), tuple(rng.sample(horses, 3)))
        if missing:
            return Predict(missing[0], tuple(rng.sample(horses, 3)))
        return Roll(rng.randint(1, 6), view.turn)
    if view.phase == "roll":
        return Roll(rng.randint(1, 6), view.turn if rng.random() < 0.5 else None)
    if view.phase == "move":
        legal = board.legal_horses
        return MoveEntry(rng.choice(legal), view.turn) if legal else Forfeit(view.turn)
    if view.phase == "race_over":
        return NextRace()
    return None


BINDING = JumpyJackBinding
