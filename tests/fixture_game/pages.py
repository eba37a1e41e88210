"""Petits chevaux on the pages: each horse's lane to the last square; a seat only says who."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.session.view import PrivateDetails, PublicBoard
from companion.web.games import GamePages
from companion.web.html import e, lane
from companion.web.shared import Chart, Public, Series
from companion.web.words import marked, t
from tests.fixture_game.engine import ChevauxBoard

#: The game's phases in the pages' words.
PHASES = {"racing": marked("racing"), "game_over": marked("game over")}


def board_html(state: Public) -> str:
    """Each player's horse as a lane, as far along as its square."""
    board = state.board
    if not isinstance(board, ChevauxBoard):
        return ""
    lanes = "".join(
        lane(player, square, board.finish, board.horse(player))
        for player, square in zip(board.players, board.squares, strict=True)
    )
    return f'<div class="track chevaux">{lanes}</div>'


def seat_html(player: str, details: PrivateDetails, state: Public) -> str:
    """Nothing is secret and nothing is entered from a phone: the seat says whose it is."""
    said = t("You are {player}").format(player=player)
    return f'<p class="secret">{e(said)}</p>'


def chart(players: tuple[str, ...], board: PublicBoard, options: Mapping[str, Any]) -> Chart:
    """Each player's square, from the start to now (one race)."""
    if not isinstance(board, ChevauxBoard):
        return "points", ()
    squares = dict(zip(board.players, board.squares, strict=True))
    return "points", tuple(Series(p, (0, squares[p])) for p in players)


PAGES = GamePages(board=board_html, seat=seat_html, chart=chart, phases=PHASES)
