"""Petits chevaux on the pages: the die, each horse's lane, the points and the last race's
picks revealed; a seat's own sealed pick, the form to seal it and the horses to move; the TV's
lanes with the last move walked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.render.language import word
from companion.session.view import PrivateDetails, PublicBoard
from companion.web import html
from companion.web.games import GamePages
from companion.web.shared import Chart, Finisher, Public, Series, running
from companion.web.track import Point, Runner, runners_svg, track_html
from companion.web.words import marked, t
from tests.fixture_game.engine import GAME, ChevauxBoard, ChevauxPrivate

#: The game's phases in the pages' words.
PHASES = {
    "pick": marked("predictions"),
    "roll": marked("roll"),
    "move": marked("move"),
    "race_over": marked("race over"),
    "game_over": marked("game over"),
}


def board_html(state: Public) -> str:
    """The die, each horse's lane, the points, and the picks of the last race over."""
    board = state.board
    if not isinstance(board, ChevauxBoard):
        return ""
    lanes = "".join(html.lane(word(h.name), h.square, board.finish, h.colour) for h in board.horses)
    points = html.grid((t("player"), t("points")), board.scores.items(), "scores")
    revealed = ""
    if board.results:
        last = board.results[-1]
        picks = [(p, word(h), last.points(p)) for p, h in last.picks.items()]
        revealed = html.grid((t("player"), t("prediction"), t("points")), picks, "reveal")
    track = f'<div class="track chevaux">{lanes}</div>'
    return html.die_line(board.die) + track + points + revealed


def seat_html(player: str, details: PrivateDetails, state: Public) -> str:
    """``player``'s sealed pick; the form to seal it; the horses the die may move."""
    board = state.board
    if not isinstance(board, ChevauxBoard) or not isinstance(details, ChevauxPrivate):
        return ""
    horses = [html.Chip(h.name, word(h.name), h.colour) for h in board.horses]
    parts = []
    if details.pick is not None:
        parts.append(html.secret(t("Your prediction: {horses}").format(horses=word(details.pick))))
    pick = state.offers.find("predict", player)  # until the race's first roll
    if pick is not None:
        picked = () if details.pick is None else (details.pick,)
        fields = html.chips(html.places(pick), horses, t("Horse"), picked)
        seal = t("Change my prediction") if picked else t("Seal my prediction")
        parts.append(html.entry_form("predict", seal, fields))
    offer = state.offers.find("move", player)
    if offer is not None:
        legal = [h for h in horses if h.value in offer.horses]
        parts.append(html.move_buttons(legal, t("Move {horse}")))
    return "".join(parts) or html.secret(t("You are {player}").format(player=player))


def chart(players: tuple[str, ...], board: PublicBoard, options: Mapping[str, Any]) -> Chart:
    """Each player's points race by race."""
    if not isinstance(board, ChevauxBoard):
        return "points", ()
    return "points", tuple(
        Series(p, running(0, [r.points(p) for r in board.results])) for p in players
    )


def finishers(state: Public) -> tuple[Finisher, ...]:
    """The horse that won the race just over."""
    board = state.board
    if not isinstance(board, ChevauxBoard) or state.view.get("phase") != "race_over":
        return ()
    winner = board.results[-1].winner
    return (Finisher(1, word(winner), winner),)


#: The TV's drawing: a lane a horse, squares ``STEP`` apart from the start at ``LEFT``.
LEFT, STEP, LANE = 60.0, 70.0, 60.0


def _spot(row: int, square: int) -> Point:
    return (LEFT + square * STEP, LANE / 2 + row * LANE)


def _narrated(board: ChevauxBoard, turn: str) -> str:
    """The last move in words, or the die just rolled before the move is chosen."""
    move = board.last_move
    if move is None:
        return t("{player} rolled a {die}.").format(player=turn, die=board.die) if board.die else ""
    horse = word(move.horse)
    if move.square == board.finish:
        return t("{horse} crosses the line: place {place}!").format(horse=horse, place=1)
    return t("{horse} moves {die}: from {origin} to {square}.").format(
        horse=horse, die=move.square - move.origin, origin=move.origin, square=move.square
    )


def track(state: Public) -> str:
    """The TV's track: each horse in its lane at its square, the last move's squares walked."""
    board = state.board
    if not isinstance(board, ChevauxBoard):
        return ""
    move = board.last_move
    runners = []
    for row, horse in enumerate(board.horses):
        path: tuple[Point, ...] = ()
        origin = ""
        if move is not None and move.horse == horse.name:
            path = tuple(_spot(row, s) for s in range(move.origin + 1, move.square + 1))
            origin = str(move.origin)
        at = _spot(row, horse.square)
        runners.append(
            Runner(horse.name, word(horse.name), horse.colour, at, str(horse.square), path, origin)
        )
    finish = LEFT + board.finish * STEP
    height = LANE * len(board.horses)
    line = (
        f'<line class="finish-line" x1="{finish:.0f}" y1="0" x2="{finish:.0f}" y2="{height:.0f}"/>'
    )
    phase = state.view.get("phase")
    cheer = f"{state.view.get('race')}-{phase}" if phase in ("race_over", "game_over") else ""
    box = f"0 0 {finish + LEFT:.0f} {height:.0f}"
    said = _narrated(board, state.view.get("turn") or "")
    return track_html(GAME.kind, box, t("The track"), line + runners_svg(runners), said, cheer)


#: What the pages show and take of the game, found through the registry.
PAGES = GamePages(board_html, seat_html, chart, PHASES, track=track, finishers=finishers)
