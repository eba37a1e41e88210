"""The games the companion knows: one list, one lookup, and where each layer finds its part.

Each game is a package of ``companion/games`` whose face declares ``GAME``, a ``GameInfo``;
its other parts are found by its kind, one module per layer (see docs/adding-a-game.md).
A new game is one more line in ``BUILT_IN``.

A game may also be added from outside the package, by naming its folder as a package in
the ``COMPANION_EXTRA_GAMES`` environment variable (comma-separated): the test suite adds
its fixture game that way. Such a package keeps every part in one place: ``engine`` (its
face, declaring ``GAME``), ``binding``, ``flow``, ``render``, ``pages`` and ``bench``, and
its board file, ``board.toml``, and its own styles of the pages, ``pages.css``, if any.
"""

from __future__ import annotations

import importlib
import os
from importlib import resources
from importlib.resources.abc import Traversable

from companion.games import course_hippique, jockey, jumpy_jack
from companion.games.errors import Refusal
from companion.games.info import GameInfo

#: The games the companion ships, in the order the menu offers them (horse buttons 1, 2...).
BUILT_IN: tuple[GameInfo, ...] = (jumpy_jack.GAME, course_hippique.GAME, jockey.GAME)

#: The environment variable naming the packages of games added to the built-in ones.
EXTRA_GAMES = "COMPANION_EXTRA_GAMES"

#: The package of each layer's part of a built-in game (the module is named by the kind).
LAYERS = {
    "engine": "companion.games",
    "binding": "companion.session.bindings",
    "flow": "companion.daemon.flows",
    "render": "companion.render",
    "pages": "companion.web.games",
    "bench": "companion.benchmarks",
}


def _added(names: str) -> tuple[tuple[GameInfo, str], ...]:
    """The games the packages in ``names`` declare, each with its package."""
    homes = [name.strip() for name in names.split(",") if name.strip()]
    return tuple((importlib.import_module(f"{home}.engine").GAME, home) for home in homes)


_ADDED = _added(os.environ.get(EXTRA_GAMES, ""))

#: Where each added game lives (its package), by its kind.
HOMES: dict[str, str] = {game.kind: home for game, home in _ADDED}

#: Every game, in the order the menu offers them: the built-in ones, then the added ones.
GAMES: tuple[GameInfo, ...] = BUILT_IN + tuple(game for game, _ in _ADDED)

#: The kinds of every game, in the same order.
KINDS: tuple[str, ...] = tuple(game.kind for game in GAMES)

_BY_KIND = {game.kind: game for game in GAMES}


def find_game(kind: str) -> GameInfo:
    """Return the game of ``kind``; raises Refusal ``unknown_game`` for a kind not listed."""
    game = _BY_KIND.get(kind)
    if game is None:
        raise Refusal("unknown_game", "The companion does not know this game.")
    return game


def board_file(kind: str) -> Traversable:
    """The board file of a game's default strip (which LED lights each place a horse can
    be): ``companion/render/boards/<kind>.toml``, or ``board.toml`` in an added game's own
    folder. Raises Refusal ``unknown_game`` for a kind the registry does not list."""
    kind = find_game(kind).kind
    home = HOMES.get(kind)
    if home is not None:
        return resources.files(home).joinpath("board.toml")
    return resources.files(LAYERS["render"]).joinpath("boards", f"{kind}.toml")


def style_file(kind: str) -> Traversable:
    """The game's own styles of the pages (its squares' colours on the track...), which may
    be absent: ``companion/web/games/<kind>.css``, or ``pages.css`` in an added game's own
    folder. Raises Refusal ``unknown_game`` for a kind the registry does not list."""
    kind = find_game(kind).kind
    home = HOMES.get(kind)
    if home is not None:
        return resources.files(home).joinpath("pages.css")
    return resources.files(LAYERS["pages"]).joinpath(f"{kind}.css")


def part(kind: str, layer: str) -> str:
    """Return the module name of a game's part in ``layer`` (a key of ``LAYERS``).

    Raises Refusal ``unknown_game`` for a kind the registry does not list.
    """
    kind = find_game(kind).kind
    home = HOMES.get(kind)
    return f"{LAYERS[layer]}.{kind}" if home is None else f"{home}.{layer}"
