"""Jumpy Jack on the pages: the track, scores and reveal; predictions, guesses and moves."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from companion.games.jumpy_jack import (
    Guess,
    HorseStanding,
    HorseState,
    JumpyJackBoard,
    JumpyJackPrivate,
    Landing,
    MatchOptions,
    Move,
)
from companion.render.language import current, word
from companion.session.view import PrivateDetails, PublicBoard
from companion.web.games import GamePages
from companion.web.html import (
    Chip,
    chips,
    die_line,
    e,
    entry_form,
    grid,
    lane,
    move_buttons,
    places,
    secret,
)
from companion.web.shared import Finisher, Public, Series, running
from companion.web.track import Point, Runner, podium_spot, podium_svg, runners_svg, track_html
from companion.web.words import colon, marked, t

#: The match's phases in the pages' words.
PHASES = {
    "predict": marked("predictions"),
    "roll": marked("roll"),
    "move": marked("move"),
    "race_over": marked("race over"),
    "match_over": marked("match over"),
}


#: A horse and its state in the pages' words (a horse's own words: a horse "finished" is
#: home, not a game that is over).
HORSE_STATES = {
    "racing": marked("{horse} (racing)"),
    "finished": marked("{horse} (finished)"),
    "out": marked("{horse} (out)"),
}


def _lane(horse: HorseStanding, top: int) -> str:
    """A horse's lane: a racing horse at its square; a finished one at the end of its lane with
    its place; an OUT one with no bar and no square."""
    state = horse.state.value
    label = (
        t(HORSE_STATES[state]).format(horse=word(horse.name)) if state in HORSE_STATES else state
    )
    podium = _podium_word(horse.place)
    if horse.state is HorseState.FINISHED:
        return lane(label, top, top, horse.colour, podium or "✓")
    if horse.state is HorseState.OUT:
        return lane(label, 0, top, horse.colour, podium or "–")
    return lane(label, horse.square or 0, top, horse.colour)


def _podium_word(place: int | None) -> str:
    """A podium place in the pages' words (1st, 2nd, 3rd); empty for none or a lower place."""
    places = (t("1st"), t("2nd"), t("3rd"))
    return places[place - 1] if place is not None and 1 <= place <= len(places) else ""


def board_html(state: Public) -> str:
    """The die, the track, the scores, the target and the last race's reveal."""
    board = state.board
    if not isinstance(board, JumpyJackBoard):
        return ""
    horses = board.horses
    top = max([20, *(h.square or 0 for h in horses)])
    lanes = "".join(_lane(h, top) for h in horses)
    scores = grid((t("player"), t("points")), sorted(board.scores.items()), "scores")
    target = "<p>" + e(t("Target: {target} points").format(target=board.target)) + "</p>"
    track = f'<div class="track">{lanes}</div>'
    return die_line(board.die) + track + scores + target + _reveal(board)


def _reveal(board: JumpyJackBoard) -> str:
    results = board.results
    if not results:
        return ""
    last = results[-1]
    guesses = last.guesses
    rows = [
        (p, " ".join(map(word, h)), last.points.get(p, 0))
        + ((_guess_words(guesses.get(p)), last.bonus.get(p, 0)) if guesses else ())
        for p, h in last.predictions.items()
    ]
    head = (t("player"), t("prediction"), t("points")) + (
        (t("guess"), t("bonus")) if guesses else ()
    )
    out, eliminated = last.podium.eliminated, " (" + t("out") + ")"
    podium = " · ".join(  # the places the points were counted on, eliminated horses included
        f"{_podium_word(place)} {word(horse)}" + (eliminated if horse in out else "")
        for place, horse in enumerate(last.podium.top3, 1)
        if horse is not None
    )
    revealed = e(t("Race {number} revealed").format(number=last.number))
    said = e(t("Podium:"))
    return (
        f'<div class="reveal"><h2>{revealed}</h2><p>{said} {e(podium)}</p>'
        + grid(head, rows)
        + "</div>"
    )


def _guess_words(guess: Guess | None) -> str:
    if guess is None:
        return t("no guess")
    return guess.target + colon() + " ".join(map(word, guess.horses))


def seat_html(player: str, details: PrivateDetails, state: Public) -> str:
    """``player``'s sealed prediction and guess; the forms to predict, guess and move."""
    view, board = state.view, state.board
    if not isinstance(board, JumpyJackBoard) or not isinstance(details, JumpyJackPrivate):
        return ""
    parts = []
    prediction = details.prediction
    if prediction:
        said = t("Your prediction: {horses}").format(horses=" ".join(map(word, prediction)))
        parts.append(secret(said))
    guess = details.guess
    if guess is not None:
        said = t("Your guess of {player}'s prediction: {horses}").format(
            player=e(guess.target), horses=e(" ".join(map(word, guess.horses)))
        )  # the catalog's words are the page's own: only the names are escaped
        parts.append(f'<p class="secret">{said}</p>')
    horses = [Chip(h.name, word(h.name), h.colour) for h in board.horses]
    tap = t("Tap the horses in order, 1st to 3rd (tap one again to free its place)")
    offers = state.offers
    predict = offers.find("predict", player)
    if predict is not None and horses:
        fields = chips(places(predict), horses, tap, prediction or ())
        seal = t("Change my prediction") if prediction else t("Seal my prediction")
        parts.append(entry_form("predict", seal, fields))
    opponents = [Chip(p, p) for p in view.get("players", []) if p != player]
    guessed = offers.find("guess", player)
    if guessed is not None and opponents:
        target = [guess.target] if guess is not None else []
        fields = chips(["target"], opponents, t("Whose prediction"), target) + chips(
            places(guessed), horses, tap, guess.horses if guess is not None else ()
        )
        guessing = t("Guess an opponent's prediction")
        parts.append(f"<h3>{e(guessing)}</h3>")
        parts.append(entry_form("guess", t("Seal my guess"), fields))
    offer = offers.find("move", player)
    if offer is not None:
        legal = [h for h in horses if h.value in offer.horses]
        parts.append(move_buttons(legal, t("Move {horse}")))
    return "".join(parts)


def chart(
    players: tuple[str, ...], board: PublicBoard, options: Mapping[str, Any]
) -> tuple[str, tuple[Series, ...]]:
    """Each player's points race by race."""
    if not isinstance(board, JumpyJackBoard):
        return "points", ()
    return "points", tuple(
        Series(p, running(0, [r.total(p) for r in board.results])) for p in players
    )


#: The track's drawing: a ring of squares round the middle, raced counter-clockwise from the
#: start square at the bottom; the podium and the OUT box inside the ring.
MIDDLE, RING, SQUARE_R = 500.0, 400.0, 36
PODIUM = (500.0, 360.0)
#: The start box (under the podium) and the OUT box: their middles and half widths (room
#: for five horses in a row).
START_BOX, OUT_BOX, BOX_HALF = (500.0, 770.0), (500.0, 600.0), 180.0
#: How far apart, across the ring, two horses sharing a square stand (a barrage): their
#: discs side by side, both inside the square.
SHARED = 33.0
#: The hurdles as printed on the board (the game's own names, in every language).
HURDLES = ("stop", "double", "out", "restart")


@lru_cache(maxsize=8)
def _shape(options: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The board of a match's options (as JSON): squares in a lap and each hurdle's square."""
    board = MatchOptions.parse(json.loads(options)).board
    hurdles = (
        ("stop", board.stop),
        ("double", board.double),
        ("out", board.out),
        ("restart", board.restart),
    )
    return board.squares, hurdles


def _on_ring(square: float, squares: int, radius: float = RING) -> Point:
    """Square ``square``'s middle: square 0 at the bottom, the race going counter-clockwise."""
    angle = math.radians(90 - square * 360 / squares)
    return (MIDDLE + radius * math.cos(angle), MIDDLE + radius * math.sin(angle))


def _in_box(box: Point, slot: int, count: int) -> Point:
    """The ``slot``-th of ``count`` horses standing in a row in a box."""
    return (box[0] + (slot - (count - 1) / 2) * 68, box[1] + 8)


@lru_cache(maxsize=8)
def _ground(squares: int, hurdles: tuple[tuple[str, int], ...], language: str) -> str:
    """The track without its horses: the squares, the hurdles, the line, the boxes (it changes
    only with the board and the language: drawn once)."""
    marks = {square: name for name, square in hurdles}
    parts = []
    for square in range(squares):
        x, y = _on_ring(square, squares)
        name = marks.get(square, "start" if square == 0 else "")
        parts.append(
            f'<g class="sq {name}" data-place="{square if square else "ring-0"}">'
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{SQUARE_R}"/>'
            f'<text x="{x:.0f}" y="{y + 6:.0f}" text-anchor="middle">{square}</text></g>'
        )
        if name in HURDLES:  # its name outside the ring, beyond a horse standing there
            lx, ly = _on_ring(square, squares, RING + 76)
            anchor = "end" if lx < MIDDLE - 60 else "start" if lx > MIDDLE + 60 else "middle"
            if anchor != "middle":
                ly += 11  # beside the square, on its middle
            elif ly > MIDDLE:
                ly += 30  # under a square at the bottom
            parts.append(
                f'<text class="hurdle-name {name}" x="{lx:.0f}" y="{ly:.0f}" '
                f'text-anchor="{anchor}">{name.upper()}</text>'
            )
    inner, outer = _on_ring(-0.5, squares, RING - 40), _on_ring(-0.5, squares, RING + 40)
    parts.append(
        f'<line class="finish-line" x1="{inner[0]:.0f}" y1="{inner[1]:.0f}" '
        f'x2="{outer[0]:.0f}" y2="{outer[1]:.0f}"/>'
    )
    for box, place, said in ((START_BOX, "0", t("start")), (OUT_BOX, "out", t("out"))):
        x, y = box
        parts.append(
            f'<rect class="box {place}" data-place="{place}" x="{x - BOX_HALF:.0f}" '
            f'y="{y - 30:.0f}" width="{2 * BOX_HALF:.0f}" height="76" rx="12"/>'
            f'<text class="box-name" x="{x:.0f}" y="{y - 40:.0f}" text-anchor="middle">'
            f"{e(said)}</text>"
        )
    parts.append(podium_svg(*PODIUM, (t("1st"), t("2nd"), t("3rd"))))
    return "".join(parts)


def _walked(move: Move, squares: int, rest: Point) -> tuple[Point, ...]:
    """The points a horse passes on its move, after its origin: each square, the line, and
    where it comes to rest (the start box after RESTART, the OUT box, the podium)."""
    final = move.bounce if move.bounce is not None else move.landing
    passed = [_on_ring(s, squares) for s in range(move.origin + 1, min(final, squares) + 1)]
    if move.effect is Landing.RESTART:
        passed.append(_on_ring(0, squares))
    return (*passed, rest)


def _runners(board: JumpyJackBoard, squares: int) -> list[Runner]:
    """Every horse where it stands: on its square (two on a square side by side), in the start
    box, on the podium (a finisher, or an eliminated horse holding place 1, 2 or 3, as the
    points are counted), or in the OUT box."""
    groups: dict[str, list[HorseStanding]] = {}
    for horse in board.horses:
        if horse.state is HorseState.FINISHED or _podium_word(horse.place):
            key = f"podium-{horse.place}"  # a finisher, or an eliminated horse on place 1-3
        elif horse.state is HorseState.OUT:
            key = "out"
        else:
            key = str(horse.square or 0)
        groups.setdefault(key, []).append(horse)
    move = board.last_move
    runners = []
    for key, horses in groups.items():
        for slot, horse in enumerate(horses):
            if key.startswith("podium-"):
                at = podium_spot(*PODIUM, horse.place or 1)
            elif key == "out":
                at = _in_box(OUT_BOX, slot, len(horses))
            elif key == "0":
                at = _in_box(START_BOX, slot, len(horses))
            else:
                across = (slot - (len(horses) - 1) / 2) * 2 * SHARED
                x, y = _on_ring(int(key), squares, RING + across)
                at = (x, y)
            made = move is not None and move.horse == horse.name
            path = _walked(move, squares, at) if made and move is not None else ()
            origin = str(move.origin) if made and move is not None else ""
            runners.append(
                Runner(horse.name, word(horse.name), horse.colour, at, key, path, origin)
            )
    return runners


def _narrated(board: JumpyJackBoard, player: str) -> str:
    """The last move in words: where the die took the horse, and what the square did (the die
    just rolled, before the move is chosen)."""
    move = board.last_move
    if move is None:
        if board.die is None or not player:
            return ""
        return t("{player} rolled a {die}.").format(player=player, die=board.die)
    horse, square = word(move.horse), move.final
    said = []
    if move.bounce is not None:
        said.append(
            t("{horse} lands on DOUBLE and bounces on {die} more.").format(
                horse=horse, die=move.die
            )
        )
    if move.effect is Landing.FINISH:
        said.append(
            t("{horse} crosses the line: place {place}!").format(horse=horse, place=move.place)
        )
    elif move.effect is Landing.OUT:
        said.append(t("{horse} hits OUT: out of the race.").format(horse=horse))
    elif move.effect is Landing.RESTART:
        said.append(t("{horse} hits RESTART: back to the start.").format(horse=horse))
    elif move.effect is Landing.STOP:
        said.append(t("{horse} stops on STOP: nobody passes it.").format(horse=horse))
    elif move.barrage:
        said.append(t("{horse} moves to {square}: a barrage!").format(horse=horse, square=square))
    elif move.bounce is None:
        said.append(
            t("{horse} moves {die}: from {origin} to {square}.").format(
                horse=horse, die=move.die, origin=move.origin, square=square
            )
        )
    return " ".join(said)


def track(state: Public) -> str:
    """The TV's track: the ring of squares with its hurdles, barrages marked, every horse
    where it stands, the podium, the OUT box and the last move in words."""
    board = state.board
    if not isinstance(board, JumpyJackBoard):
        return ""
    squares, hurdles = _shape(json.dumps(state.options, sort_keys=True))
    runners = _runners(board, squares)
    on_squares = [r.where for r in runners if r.where.isdigit() and r.where != "0"]
    stop = str(dict(hurdles)["stop"])
    blocked = {w for w in on_squares if on_squares.count(w) > 1 or w == stop}
    barrages = "".join(
        f'<circle class="barrage" data-barrage="{square}" cx="{x:.0f}" cy="{y:.0f}" '
        f'r="{SQUARE_R + 10}"/>'
        for square in sorted(blocked, key=int)
        for x, y in (_on_ring(int(square), squares),)
    )
    horses = runners_svg(runners)
    out_on_podium = [  # an eliminated horse holding place 1-3 stands on it: said under it
        word(h.name)
        for h in sorted(board.horses, key=lambda h: h.place or 0)
        if h.state is HorseState.OUT and _podium_word(h.place)
    ]
    if out_on_podium:
        x, y = PODIUM
        said = t("out") + colon() + ", ".join(out_on_podium)
        horses += (
            f'<text class="label" x="{x:.0f}" y="{y + 100:.0f}" text-anchor="middle">'
            f"{e(said)}</text>"
        )
    over = state.view.get("phase") in ("race_over", "match_over")
    cheer = f"{state.view.get('race')}-{state.view.get('phase')}" if over else ""
    drawing = _ground(squares, hurdles, current()) + barrages + horses
    label = t("The track")
    return track_html(
        "jumpy_jack",
        "-70 10 1140 970",  # room for the hurdles' names beside the ring
        label,
        drawing,
        _narrated(board, state.view.get("turn") or ""),
        cheer,
    )


def finishers(state: Public) -> tuple[Finisher, ...]:
    """The podium of the race just over (an eliminated horse keeps the place it scored)."""
    board = state.board
    if not isinstance(board, JumpyJackBoard) or state.view.get("phase") != "race_over":
        return ()
    if not board.results:
        return ()
    podium = board.results[-1].podium
    colours = {h.name: h.colour for h in board.horses}
    return tuple(
        Finisher(place, word(horse), colours.get(horse, horse), horse in podium.eliminated)
        for place, horse in enumerate(podium.top3, 1)
        if horse is not None
    )


PAGES = GamePages(
    board=board_html,
    seat=seat_html,
    chart=chart,
    phases=PHASES,
    track=track,
    finishers=finishers,
)
