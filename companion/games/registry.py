"""The games the companion knows: one list, one lookup.

Each game is a package of ``companion/games`` whose face declares ``GAME``, a ``GameInfo``;
its other parts are found by its kind, one module per layer (see docs/adding-a-game.md).
A new game is one more line in ``GAMES``.
"""

from __future__ import annotations

from companion.games import course_hippique, jockey, jumpy_jack
from companion.games.errors import Refusal
from companion.games.info import GameInfo

#: Every game, in the order the menu offers them (horse buttons 1, 2, 3...).
GAMES: tuple[GameInfo, ...] = (jumpy_jack.GAME, course_hippique.GAME, jockey.GAME)

#: The kinds of every game, in the same order.
KINDS: tuple[str, ...] = tuple(game.kind for game in GAMES)

_BY_KIND = {game.kind: game for game in GAMES}


def find_game(kind: str) -> GameInfo:
    """Return the game of ``kind``; raises Refusal ``unknown_game`` for a kind not listed."""
    game = _BY_KIND.get(kind)
    if game is None:
        raise Refusal("unknown_game", "The companion does not know this game.")
    return game
