"""What a table publishes, as JSON: its public board (``state``) and a finished game's result.

Both are made from the session's public view, never from a player's private view, so they
hold nothing the scoreboard may not show. The result also carries the game's options, its
title (so a league that does not know the game still names it) and the players' final
figures (the one the game's ``measure`` declares); its ``hash`` is the SHA-256 of its
content (everything but the id, the hash and the table's names), so the league can tell a
repeat from a forgery.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.info import FIGURES
from companion.games.registry import find_game
from companion.session.session import Game
from companion.session.view import View

#: The version of the result payload's layout.
RESULT_SCHEMA = 1

#: The fields of the public view the ``state`` topic carries (``last`` and ``last_refusal``
#: are the table's own business).
STATE_FIELDS = (
    "game_id", "game", "players", "race", "phase", "turn", "sealed", "waiting_for",
    "board", "finished", "winners", "events",
)  # fmt: skip


#: The fields that identify a result rather than describe it (left out of its hash): ``seq``
#: is its number in its table's outbox (1, 2, 3...: a gap tells the league one went missing).
IDENTITY = ("id", "hash", "club", "table", "seq")


@dataclass(frozen=True)
class Names:
    """Who publishes: the club and the table, each a short word of letters, digits, - or _."""

    club: str
    table: str

    def topic(self, leaf: str) -> str:
        """The topic ``companion/<club>/<table>/<leaf>``."""
        return f"companion/{self.club}/{self.table}/{leaf}"


def resend_topic(club: str, table: str) -> str:
    """Where the league asks a table to send again the results it misses, by number
    (retained, until nothing is missing)."""
    return f"companion/{club}/league/resend/{table}"


def refused_topic(club: str, table: str) -> str:
    """Where the league tells a table which of its results it refused, and why (retained)."""
    return f"companion/{club}/league/refused/{table}"


def dump(data: Mapping[str, Any]) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 kept (what is hashed and sent)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_payload(view: View, names: Names, at: str, results_sent: int = 0) -> str:
    """The ``state`` message: the public view's board and progress, who leads, when, and the
    number of the table's last result the broker acknowledged (so the league can tell one
    it never got, even the last of the evening)."""
    data = view.to_json()
    state = {key: data[key] for key in STATE_FIELDS}
    state.update(club=names.club, table=names.table, at=at, leaders=leaders(state))
    state["results_sent"] = results_sent
    return dump(state)


def leaders(state: dict[str, Any]) -> list[str]:
    """Who leads a table's game: its winners once over, else the best placed or scored (none
    while everyone is level)."""
    if state["winners"]:
        return list(state["winners"])
    board = state["board"]
    first: list[str] = []
    if board.get("ranking"):
        first = [standing["player"] for standing in board["ranking"] if standing["place"] == 1]
    elif board.get("scores"):
        best = max(board["scores"].values())
        first = [player for player, score in board["scores"].items() if score == best]
    return first if len(first) < len(state["players"]) else []  # all level: nobody leads


def content_hash(result: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of a result's content: every field but its identity."""
    content = {k: v for k, v in result.items() if k not in IDENTITY}
    return hashlib.sha256(dump(content).encode("utf-8")).hexdigest()


def _ranks(values: Mapping[str, int]) -> dict[str, int]:
    """Rank by value, highest first; equal values share the better rank."""
    return {p: 1 + sum(1 for v in values.values() if v > mine) for p, mine in values.items()}


def player_results(view: View) -> list[dict[str, Any]]:
    """Each player's final figures and rank, in seat order, from the public board."""
    board = view.board.to_json()
    figures: dict[str, dict[str, Any]] = {p: {} for p in view.players}
    ranks: dict[str, int] = {}
    if "scores" in board:  # Jumpy Jack: points
        for player, points in board["scores"].items():
            figures[player]["points"] = points
        ranks = _ranks(board["scores"])
        if board.get("teams"):  # the teams variant: a team's players share its rank
            totals = {p: t["score"] for t in board["teams"] for p in t["players"]}
            ranks = _ranks(totals)
    for player, balance in board.get("balances", {}).items():
        figures[player]["balance"] = balance
    measure = find_game(view.game).measure if view.game is not None else None
    if measure is not None and not measure.since_start:  # any other game: its own figure
        values = {p: v for p, v in board.get(measure.field, {}).items() if p in figures}
        for player, value in values.items():
            figures[player].setdefault(measure.figure, value)
        ranks = ranks or _ranks(values)
    for standing in board.get("ranking", []):
        player = standing["player"]
        ranks[player] = standing["place"]
        if "chips" in standing:
            figures[player]["chips"] = standing["chips"]
    results = []
    for seat, player in enumerate(view.players, start=1):
        row: dict[str, Any] = {"seat": seat, "name": player}
        row.update({f: figures[player].get(f) for f in FIGURES})
        row["rank"] = ranks.get(player, 1 if player in view.winners else len(view.players))
        results.append(row)
    return results


def result_payload(game: Game, view: View, game_id: int, started: str, ended: str) -> str:
    """The result of a finished game, as the outbox keeps it (the table's names come later)."""
    result: dict[str, Any] = {
        "schema": RESULT_SCHEMA,
        "id": uuid.uuid4().hex,
        "game": game.kind,
        "title": find_game(game.kind).title,
        "options": dict(game.start.options),
        "players": player_results(view),
        "winners": list(view.winners),
        "started": started,
        "ended": ended,
        "game_id": game_id,
    }
    result["hash"] = content_hash(result)
    return dump(result)


def addressed(payload: str, names: Names, seq: int) -> str:
    """A result from the outbox with the publishing table's names and its number added."""
    result = json.loads(payload)
    result.update(club=names.club, table=names.table, seq=seq)
    return dump(result)
