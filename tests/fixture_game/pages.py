"""Petits chevaux on the pages: each horse's lane to the last square; a seat only says who;
the TV draws the lanes with every horse at its square and the last roll's walk."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.session.view import PrivateDetails, PublicBoard
from companion.web.games import GamePages
from companion.web.html import e, lane
from companion.web.shared import Chart, Public, Series
from companion.web.track import Point, Runner, runners_svg, track_html
from companion.web.words import marked, t
from tests.fixture_game.engine import GAME, ChevauxBoard

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


#: The TV's drawing: a lane a horse, squares ``STEP`` apart from the start at ``LEFT``.
LEFT, STEP, LANE = 60.0, 70.0, 60.0


def _spot(row: int, square: int) -> Point:
    return (LEFT + square * STEP, LANE / 2 + row * LANE)


def track(state: Public) -> str:
    """The TV's track: each horse in its lane at its square, the last roll's squares walked."""
    board = state.board
    if not isinstance(board, ChevauxBoard):
        return ""
    runners = []
    for row, (player, square) in enumerate(zip(board.players, board.squares, strict=True)):
        path: tuple[Point, ...] = ()
        origin = ""
        if player == board.roller and board.die is not None:
            start = max(square - board.die, 0)
            path = tuple(_spot(row, s) for s in range(start + 1, square + 1))
            origin = str(start)
        horse = board.horse(player)
        runners.append(Runner(horse, player, horse, _spot(row, square), str(square), path, origin))
    finish = LEFT + board.finish * STEP
    height = LANE * len(board.players)
    line = (
        f'<line class="finish-line" x1="{finish:.0f}" y1="0" x2="{finish:.0f}" y2="{height:.0f}"/>'
    )
    cheer = "over" if board.winner is not None else ""
    box = f"0 0 {finish + LEFT:.0f} {height:.0f}"
    return track_html(GAME.kind, box, t("The track"), line + runners_svg(runners), "", cheer)


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


PAGES = GamePages(board=board_html, seat=seat_html, chart=chart, phases=PHASES, track=track)
