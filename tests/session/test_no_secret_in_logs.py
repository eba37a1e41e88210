"""Sealed predictions and bets never reach a log before their reveal.

Each game is played to its first reveal with every logger of the companion on at DEBUG:
through the session on a real journal (refused sealed inputs, an undo, a restart included)
and through the table controller with device events. Then a journal whose sealed input no
longer replays is opened: the error that is logged names the player, not the secret.
"""

from __future__ import annotations

import json
import logging
import random
import re
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.daemon.flows.cards import jockey_number
from companion.daemon.table import TableController
from companion.devices.base import ButtonPressed, CardScanned, DieRolled, EncoderTurned, Event
from companion.games.jockey.deck import default_deck
from companion.session.autoplay import legal_input
from companion.session.journal import GameNotRebuilt
from companion.session.log import (
    BetEntry,
    DealCourse,
    LogEntry,
    NewGame,
    Predict,
    SetMaxBet,
    Undo,
    dumps,
)
from companion.session.session import Session

#: Jumpy Jack: Anna's and Ben's predictions, and one refused (a horse named twice).
ANNA_PREDICTS = ("white", "green", "red")
BEN_PREDICTS = ("yellow", "blue", "white")
REFUSED_PREDICTION = ("white", "white", "green")
#: Course hippique: the players (Anna is the first croupier), the course, Ben's stake, and
#: a stake over the max bet of 90.
HIPPIQUE_PLAYERS = ("Anna", "Ben", "Chloé")
COURSE = ("5S", "7S", "QC", "KH", "QS", "8C", "9H")
BEN_STAKE = 77
REFUSED_STAKE = 93
#: Jockey: Anna's win stake, Ben's finishing-order stakes, a stake over the limit of 1000.
ANNA_JOCKEY_STAKE = 700
BEN_ORDER = ((600, "brown"), (300, "yellow"))
REFUSED_JOCKEY_STAKE = 1700


def in_order(*horses: str) -> str:
    """A pattern for horses named in this order (in a list, a tuple, a sentence...)."""
    return r"\W+".join(rf"\b{h}\b" for h in horses)


def amount(value: int) -> str:
    return rf"(?<![\d.]){value}(?![\d.])"


class Logs(logging.Handler):
    """Every record of the companion's loggers, formatted with its traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))

    def leaks(self, patterns: Sequence[str]) -> list[str]:
        """The lines that show any of ``patterns``."""
        return [line for line in self.lines if any(re.search(p, line) for p in patterns)]


@pytest.fixture
def logs() -> Iterator[Logs]:
    logger = logging.getLogger("companion")
    handler = Logs()
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def assert_caught(patterns: Sequence[str], entries: Sequence[LogEntry]) -> None:
    """Each pattern finds its secret as the journal writes it and as Python prints it."""
    for pattern, entry in zip(patterns, entries, strict=True):
        assert re.search(pattern, dumps(entry)), (pattern, dumps(entry))
        assert re.search(pattern, str(vars(entry))), (pattern, vars(entry))


# -- through the session ---------------------------------------------------------------------


def submit(session: Session, entry: LogEntry, accepted: bool = True) -> None:
    assert session.submit(entry).accepted is accepted, entry


def play_until(session: Session, phase: str, rng: random.Random) -> None:
    """Feed legal public inputs (rolls, moves, turned or played cards) until ``phase``."""
    table = session.table
    assert table is not None
    for _ in range(5000):
        if session.view().phase == phase:
            return
        entry = legal_input(table, rng)
        assert entry is not None
        if not entry.SECRET:  # the sealed inputs of this test are in: no others
            submit(session, entry)
    raise AssertionError(f"never reached {phase}")


def test_jumpy_jack_predictions_stay_out_of_the_logs(logs: Logs, tmp_path: Path) -> None:
    patterns = [in_order(*ANNA_PREDICTS), in_order(*BEN_PREDICTS), in_order(*REFUSED_PREDICTION)]
    sealed = [Predict("Anna", ANNA_PREDICTS), Predict("Ben", BEN_PREDICTS)]
    assert_caught(patterns, [*sealed, Predict("Anna", REFUSED_PREDICTION)])
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    submit(session, NewGame("jumpy_jack", ("Anna", "Ben")))
    submit(session, Predict("Anna", REFUSED_PREDICTION), accepted=False)
    submit(session, sealed[0])
    submit(session, Predict("Ben", ("red", "blue", "green")))
    submit(session, Undo())
    submit(session, sealed[1])
    session.close()
    session = Session.open(path)  # a restart rebuilds the game from the journal
    play_until(session, "race_over", random.Random(3))
    assert logs.leaks(patterns) == []
    # The reveal: the race's result shows both predictions.
    result = session.view().board.results[-1]
    assert result.predictions == {"Anna": ANNA_PREDICTS, "Ben": BEN_PREDICTS}
    session.close()


def test_course_hippique_bets_stay_out_of_the_logs_until_the_first_card(
    logs: Logs, tmp_path: Path
) -> None:
    patterns = [amount(BEN_STAKE), amount(REFUSED_STAKE)]
    bet, refused = BetEntry("Ben", "D", BEN_STAKE), BetEntry("Chloé", "S", REFUSED_STAKE)
    assert_caught(patterns, [bet, refused])
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    submit(session, NewGame("course_hippique", HIPPIQUE_PLAYERS))
    submit(session, DealCourse(COURSE, "Anna"))
    submit(session, SetMaxBet(90, "Anna"))
    submit(session, refused, accepted=False)
    submit(session, bet)
    session.close()
    session = Session.open(path)
    play_until(session, "racing", random.Random(5))
    assert logs.leaks(patterns) == []
    # The reveal: once the first card is turned, the bets are on the board.
    assert BEN_STAKE in [b.stake for b in session.view().board.bets]
    session.close()


def test_jockey_bets_stay_out_of_the_logs_until_the_race_is_settled(
    logs: Logs, tmp_path: Path
) -> None:
    (first, horse1), (second, horse2) = BEN_ORDER
    patterns = [amount(ANNA_JOCKEY_STAKE), amount(first), amount(REFUSED_JOCKEY_STAKE)]
    win = BetEntry("Anna", "red", ANNA_JOCKEY_STAKE)
    order = BetEntry("Ben", horse1, first, "order", horse2, second)
    refused = BetEntry("Anna", "red", REFUSED_JOCKEY_STAKE)
    assert_caught(patterns, [win, order, refused])
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    submit(session, NewGame("jockey", ("Anna", "Ben")))
    submit(session, refused, accepted=False)
    submit(session, win)
    session.close()
    session = Session.open(path)
    submit(session, order)
    play_until(session, "race_over", random.Random(8))
    assert logs.leaks(patterns) == []
    # The reveal: the settled race lists every bet.
    payouts = session.view().board.results[-1].payouts
    assert sorted(p.bet.stakes for p in payouts) == [(first, second), (ANNA_JOCKEY_STAKE,)]
    session.close()


# -- through the table controller ----------------------------------------------------------


class Table:
    """A table controller on a journal, driven like the panel and the card reader drive it."""

    def __init__(self, path: Path, names: Sequence[str], *, resume: bool = True) -> None:
        self.path, self.names = path, tuple(names)
        self.ctl = TableController(Session.open(path, resume=resume), player_names=names)

    def send(self, *events: Event) -> None:
        for event in events:
            self.ctl.handle(event)

    def press(self, *buttons: str) -> None:
        self.send(*(ButtonPressed(b) for b in buttons))

    def turn(self, steps: int) -> None:
        self.send(EncoderTurned(steps))

    def scan(self, card: str) -> None:
        self.send(CardScanned("04C3D2", card, "reader"))

    def restart(self) -> None:
        """Power cut: close everything and start again on the same journal."""
        self.ctl.close()
        self.ctl = TableController(Session.open(self.path), player_names=self.names)

    @property
    def view(self) -> Any:
        return self.ctl.session.view()


JUMPY_HORSES = ("red", "blue", "green", "yellow", "white")
JOCKEY_HORSES = ("brown", "yellow", "blue", "red")


def test_a_jumpy_jack_table_logs_no_prediction(logs: Logs, tmp_path: Path) -> None:
    table = Table(tmp_path / "journal.sqlite3", ("Anna", "Ben"))
    table.press("horse1", "push")
    table.turn(-5)
    table.turn(5)
    table.press("push")  # Jumpy Jack, 2 players, the options as they are
    assert table.view.game == "jumpy_jack"
    for horses in (REFUSED_PREDICTION, ANNA_PREDICTS, BEN_PREDICTS):
        table.press(*(f"horse{JUMPY_HORSES.index(h) + 1}" for h in horses))
    assert table.view.sealed == ("Anna", "Ben")
    assert any("refused predict" in line for line in logs.lines)  # the refusal was logged
    table.restart()
    rng = random.Random(2)
    while table.view.phase in ("predict", "roll", "move"):
        if table.view.phase == "move":
            legal = table.view.board.legal_horses
            table.press(f"horse{JUMPY_HORSES.index(rng.choice(legal)) + 1}")
        else:
            table.press("die")
            table.send(DieRolled(rng.randint(1, 6)))
    assert table.view.phase == "race_over"
    patterns = [in_order(*ANNA_PREDICTS), in_order(*BEN_PREDICTS), in_order(*REFUSED_PREDICTION)]
    assert logs.leaks(patterns) == []
    assert table.view.board.results[-1].predictions["Anna"] == ANNA_PREDICTS
    table.ctl.close()


def test_a_course_hippique_table_logs_no_bet_before_the_first_card(
    logs: Logs, tmp_path: Path
) -> None:
    table = Table(tmp_path / "journal.sqlite3", HIPPIQUE_PLAYERS)
    table.press("horse2", "push", "push")  # Course hippique, 3 players
    assert table.view.game == "course_hippique"
    for card in COURSE:
        table.scan(card)
    table.turn(80)  # the max bet dial, from 10 up to 90
    table.press("push")
    assert table.view.board.max_bet == 90
    table.press("horse3")  # Ben bets on diamonds...
    table.turn(BEN_STAKE - 1)  # ...from a stake of 1 up to 77
    table.press("push")
    table.restart()
    table.press("push")  # Chloé does not bet
    assert table.view.sealed == ("Ben",)
    table.scan("2D")
    assert table.view.phase == "racing"
    assert logs.leaks([amount(BEN_STAKE)]) == []
    assert table.view.board.bets[0].stake == BEN_STAKE
    table.ctl.close()


def test_a_jockey_table_logs_no_bet_before_the_race_is_settled(logs: Logs, tmp_path: Path) -> None:
    table = Table(tmp_path / "journal.sqlite3", ("Anna", "Ben"))
    table.press("horse3", "push", "push")  # Jockey, 2 players, the 80-square track
    assert table.view.game == "jockey"
    (first, horse1), (second, horse2) = BEN_ORDER
    table.press("push", f"horse{JOCKEY_HORSES.index('red') + 1}")  # Anna: a win on red
    table.turn(ANNA_JOCKEY_STAKE // 100 - 1)
    table.press("push")
    table.restart()
    table.turn(3)  # Ben: a finishing order
    table.press("push", f"horse{JOCKEY_HORSES.index(horse1) + 1}")
    table.press(f"horse{JOCKEY_HORSES.index(horse2) + 1}")
    table.turn(first // 100 - 1)
    table.press("push")
    table.turn(second // 100 - 1)
    table.press("push")
    assert table.view.sealed == ("Anna", "Ben")
    deck = default_deck()
    rng = random.Random(6)
    while table.view.phase in ("betting", "racing"):
        pile = set(table.view.board.pile)
        card = rng.choice([c.id for c in deck.cards if c.id not in pile])
        table.scan(f"jockey:{jockey_number(card, deck)}")
    assert table.view.phase == "race_over"
    assert logs.leaks([amount(ANNA_JOCKEY_STAKE), amount(first)]) == []
    stakes = [p.bet.stakes for p in table.view.board.results[-1].payouts]
    assert sorted(stakes) == [(first, second), (ANNA_JOCKEY_STAKE,)]
    table.ctl.close()


# -- a journal that no longer replays ----------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "why"),
    [
        ({"horse": "D", "stake": str(BEN_STAKE)}, "unreadable"),  # the stake written as text
        ({"horse": "purple", "stake": BEN_STAKE}, "bet by Ben (sealed) refused: not_a_horse"),
    ],
    ids=["unreadable", "refused"],
)
def test_a_sealed_input_that_no_longer_replays_is_logged_without_its_secret(
    logs: Logs, tmp_path: Path, stored: dict[str, object], why: str
) -> None:
    path = tmp_path / "journal.sqlite3"
    session = Session.open(path)
    submit(session, NewGame("course_hippique", HIPPIQUE_PLAYERS))
    submit(session, DealCourse(COURSE, "Anna"))
    submit(session, SetMaxBet(90, "Anna"))
    submit(session, BetEntry("Ben", "D", BEN_STAKE))
    session.close()
    line = json.dumps({"type": "bet", "player": "Ben", **stored})
    with sqlite3.connect(path) as connection:  # an upgrade reads the bet differently, say
        connection.execute("UPDATE events SET entry = ? WHERE seq = 3", (line,))
    connection.close()
    with pytest.raises(GameNotRebuilt) as caught:
        Session.open(path)
    message = str(caught.value)
    secrets = [amount(BEN_STAKE), r"\bpurple\b"]
    assert [re.search(p, message) for p in secrets] == [None, None], message
    assert why in message and "companion export 1" in message
    # The table starts on the menu, and says in the log why.
    table = Table(path, HIPPIQUE_PLAYERS, resume=False)
    assert table.view.game is None
    assert any("cannot be resumed" in line for line in logs.lines)
    assert logs.leaks(secrets) == []
    table.ctl.close()


def test_an_input_that_fails_unexpectedly_is_logged_without_the_button(
    logs: Logs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(tmp_path / "journal.sqlite3", ("Anna",))
    table.press("horse1", "push", "push")  # Jumpy Jack, one player, the options as they are
    assert table.view.game == "jumpy_jack"
    table.press("horse4", "horse2")

    def broken(entry: LogEntry) -> Any:
        raise RuntimeError("the journal's disk went away")

    monkeypatch.setattr(table.ctl.session, "submit", broken)
    table.press("horse5")  # the third press seals the prediction: its write fails
    failures = [line for line in logs.lines if "failed" in line]
    assert failures, "the failure was not logged at all"
    assert logs.leaks([r"horse\d", r"\bwhite\b"]) == []
