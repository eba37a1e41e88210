"""A refusal never depends on another player's secret, in every game the registry lists.

For random games, two tables are built that differ only in one player's sealed input (a
prediction, a guess, a bet, a hand). Another seated player then sends the same inputs to both
(well formed, malformed and on the edge: the probes of a hostile guest), through the pages'
own path (``seat_request`` at the door, then ``TableSide.seat_change`` on the loop, as
``/api/input`` does). Everything that player can notice must be the same bytes, in the same
order: the answer (accepted, reason code, sentence), the tones, the LCD and the OLED, the
public page and the player's own page.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from itertools import permutations
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.games.info import GameInfo
from companion.games.jockey import JockeyOptions
from companion.games.registry import GAMES
from companion.session.autoplay import legal_input
from companion.session.binding import binding_module
from companion.session.log import GuessEntry, LogEntry, NewGame, dumps
from companion.session.session import Game, Session
from companion.web.hub import Hub
from companion.web.inputs import SEAT_TYPES, PageRefusal, seat_request
from companion.web.joins import Joins
from companion.web.seats import SeatBook
from companion.web.side import Answer, TableSide
from tests.quiet import Quiet


@dataclass(frozen=True)
class Scenario:
    """A game up to the moment ``owner`` seals a secret, two ways of sealing it, a prober."""

    start: NewGame
    before: tuple[LogEntry, ...]
    secrets: tuple[LogEntry, LogEntry]
    owner: str


class World:
    """One table the way the daemon runs it with its pages, the prober's phone seated."""

    def __init__(self, start: NewGame, entries: tuple[LogEntry, ...], prober: str) -> None:
        self.controller = TableController(Session.in_memory(), clock=lambda: 100.0)
        for entry in (start, *entries):
            self.controller.apply(lambda ctx, entry=entry: ctx.submit(entry)[1])
            assert self.controller.session.accepted()[-1] == entry, entry
        daemon = Daemon(self.controller, Panel(), [], Quiet(), clock=lambda: 100.0)
        self.seats = SeatBook(None)
        self.side = TableSide(
            daemon, self.controller, self.seats, Joins(lambda: 100.0), Hub(), "10.0.0.2:8080"
        )
        self.seats.follow(self.controller.session.game_id)
        self.seats.issue(prober)  # the other pages are not the prober's to see

    def seen_by(self, player: str) -> tuple[Any, ...]:
        """All ``player`` can see of the table now: the LCD, the OLED, both pages."""
        self.side.refresh()
        snap = self.side.drawn()
        screen = self.controller.screen()
        return (screen.lcd, screen.oled, snap.public, snap.private.get(player))

    def send(self, player: str, data: object) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """``data`` sent from ``player``'s phone: the answer and the tones, then what the
        phone and the table show after."""
        try:
            fields = seat_request(player, data)
        except PageRefusal as refusal:  # refused at the door, before the loop
            return ("door", refusal.code, refusal.sentence), self.seen_by(player)
        answer: list[Answer] = []
        game_id = self.controller.session.game_id
        cues = self.controller.apply(
            lambda ctx: self.side.seat_change(ctx, player, game_id, fields, answer)
        )
        return (tuple(answer), tuple(cues)), self.seen_by(player)

    def close(self) -> None:
        self.seats.close()
        self.side.close()


def guesses(table: Game, owner: str, rng: random.Random) -> list[LogEntry]:
    """Guesses ``owner`` may seal now (Jumpy Jack's guess variant: autoplay never guesses)."""
    view = table.view(None)
    if view.phase != "predict" or view.waiting_for or not table.start.options.get("guess"):
        return []
    board = view.board
    horses = list(getattr(board, "horse_names", ()))
    targets = [p for p in view.players if p != owner]
    return [GuessEntry(owner, rng.choice(targets), tuple(rng.sample(horses, 3)))
            for _ in range(8)]  # fmt: skip


def another(table: Game, secret: LogEntry, seed: int) -> LogEntry | None:
    """A different secret of the same kind the same player may seal instead, if any."""
    for tries in range(80):
        rng = random.Random(seed * 1009 + tries)
        drawn = [legal_input(table, rng), *guesses(table, secret.player, rng)]  # type: ignore[attr-defined]
        for entry in drawn:
            if (
                entry is not None
                and entry.TYPE == secret.TYPE
                and getattr(entry, "player", None) == getattr(secret, "player", None)
                and dumps(entry) != dumps(secret)
            ):
                return entry
    return None


def scenario(game: GameInfo, options: dict[str, Any], seed: int, length: int) -> Scenario | None:
    """Play ``game`` at random; stop at the first secret sealed from input ``length`` on."""
    players, set_up = binding_module(game.kind).SET_UP
    start = NewGame(game.kind, tuple(players), {**set_up, **options})
    session = Session.in_memory()
    session.submit(start)
    table = session.table
    assert table is not None
    rng = random.Random(seed)
    before: list[LogEntry] = []
    for step in range(600):
        entry = legal_input(table, rng)
        if entry is None:
            return None
        extra = guesses(table, table.start.players[step % len(players)], rng)
        if extra and rng.random() < 0.5:
            entry = extra[0]
        if entry.SECRET and step >= length:
            other = another(table, entry, seed)
            if other is not None:
                owner = getattr(entry, "player")  # noqa: B009
                return Scenario(start, tuple(before), (entry, other), owner)
        assert session.submit(entry).accepted, entry
        before.append(entry)
    return None


def probes(game: GameInfo, start: NewGame, owner: str, legal: list[LogEntry]) -> list[object]:
    """What a hostile guest's phone sends: malformed, edge and well-formed inputs."""
    horses = list(game.horses)
    sent: list[object] = ["x", [], {}, {"type": "roll", "value": 3}, {"type": "zzz"}]
    sent += [{"type": kind} for kind in sorted(SEAT_TYPES)]
    stakes: list[object] = ["100", 100, 200, 1000, 10**9, "²", True, 0, -100, 5, "5", None]
    for horse in horses:
        sent += [{"type": "bet", "horse": horse, "stake": s} for s in stakes]
        for kind in ("win", "place", "double", "order"):
            sent.append({"type": "bet", "kind": kind, "horse": horse, "stake": "100",
                         "horse2": horses[0], "stake2": "100"})  # fmt: skip
    for three in list(permutations(horses, 3))[:12]:
        sent.append({"type": "predict", "horses": list(three)})
        for target in start.players:
            sent.append({"type": "guess", "target": target, "horses": list(three)})
    sent += [{"type": "guess", "target": owner, "horses": "x"}, {"type": "predict", "horses": 5}]
    if game.kind == "jockey":
        deck = JockeyOptions.from_data(start.options).deck
        kinds = list(dict.fromkeys(card.id.split("#")[0] for card in deck.cards))
        for kind in kinds:  # the probe of the issue: a known kind beside an unknown one
            sent += [{"type": "hand", "cards": {kind: n, "zzz": 1}} for n in range(1, 5)]
        for kind in kinds[:3]:
            sent += [{"type": "hand", "cards": {kind: "²"}},
                     {"type": "hand", "cards": {kind: True}},
                     {"type": "hand", "cards": {kind: 1}, "kept": 5},
                     {"type": "hand", "cards": {kind: 1}, "kept": [f"{kind}#1"]}]  # fmt: skip
        for kind in kinds:
            sent += [{"type": "hand", "cards": {kind: n}} for n in range(4, 0, -1)]
            sent += [{"type": "play_card", "card": kind}]
        for card in deck.cards:
            sent += [{"type": "hand", "cards": [card.id]}, {"type": "play_card", "card": card.id}]
    sent += [json.loads(dumps(entry)) for entry in legal]
    return sent


@pytest.mark.parametrize("game", [g for g in GAMES if g.has_secret], ids=lambda g: g.kind)
@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a failure names its probe
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_two_tables_differing_in_a_secret_answer_every_probe_alike(
    game: GameInfo, data: st.DataObject
) -> None:
    chosen = {o.key: data.draw(st.sampled_from(o.values), o.key) for o in game.options}
    options = {key: value for key, value in chosen.items() if value is not None}  # None: off
    seed = data.draw(st.integers(0, 2**32 - 1), "seed")
    length = data.draw(st.integers(0, 80), "length")
    tries = (scenario(game, options, seed + k, length if k == 0 else 0) for k in range(20))
    found = next((s for s in tries if s is not None), None)
    assert found is not None, "twenty random games never sealed two different secrets"
    players = found.start.players
    prober = data.draw(st.sampled_from([p for p in players if p != found.owner]), "prober")
    worlds = [World(found.start, (*found.before, secret), prober) for secret in found.secrets]
    try:
        first, second = worlds
        assert first.seen_by(prober) == second.seen_by(prober)
        assert first.controller.session.view() == second.controller.session.view()
        session = first.controller.session
        assert session.table is not None
        rng = random.Random(seed)
        legal = [legal_input(session.table, rng) for _ in range(20)]
        mine = [e for e in legal if e is not None and getattr(e, "player", None) == prober]
        for number, probe in enumerate(probes(game, found.start, found.owner, mine)):
            sealed = first.controller.session.view().sealed
            said, seen = first.send(prober, probe)
            said_too, seen_too = second.send(prober, probe)
            assert said == said_too, (number, probe, said)
            view = first.controller.session.view()
            if found.owner in sealed and found.owner not in view.sealed:
                break  # the probe opened the race: the secret is shown to all now
            assert view == second.controller.session.view(), (number, probe)
            assert seen == seen_too, (number, probe, said)
    finally:
        for world in worlds:
            world.close()
