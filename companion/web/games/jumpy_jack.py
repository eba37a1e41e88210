"""Jumpy Jack on the pages: the track, scores and reveal; predictions, guesses and moves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.jumpy_jack import (
    Guess,
    HorseStanding,
    HorseState,
    JumpyJackBoard,
    JumpyJackPrivate,
)
from companion.render.language import word
from companion.session.view import PrivateDetails, PublicBoard
from companion.web.games import GamePages
from companion.web.html import Chip, chips, dot, e, entry_form, grid, lane
from companion.web.shared import Public, Series, running
from companion.web.words import marked, t

#: The match's phases in the pages' words.
PHASES = {
    "predict": marked("predictions"),
    "roll": marked("roll"),
    "move": marked("move"),
    "race_over": marked("race over"),
    "match_over": marked("match over"),
}


def _horse_state(code: str) -> str:
    """A horse's state in the pages' words."""
    said = {"racing": t("racing"), "finished": t("finished"), "out": t("out")}
    return said.get(code, code)


def _lane(horse: HorseStanding, top: int) -> str:
    """A horse's lane: a racing horse at its square; a finished one at the end of its lane with
    its place; an OUT one with no bar and no square."""
    label = f"{word(horse.name)} ({_horse_state(horse.state.value)})"
    if horse.state is HorseState.FINISHED:
        places = (t("1st"), t("2nd"), t("3rd"))
        place = horse.place
        shown = places[place - 1] if place is not None and 1 <= place <= len(places) else "✓"
        return lane(label, top, top, horse.colour, shown)
    if horse.state is HorseState.OUT:
        return lane(label, 0, top, horse.colour, "–")
    return lane(label, horse.square or 0, top, horse.colour)


def board_html(state: Public) -> str:
    """The die, the track, the scores, the target and the last race's reveal."""
    board = state.board
    if not isinstance(board, JumpyJackBoard):
        return ""
    horses = board.horses
    top = max([20, *(h.square or 0 for h in horses)])
    lanes = "".join(_lane(h, top) for h in horses)
    die = board.die
    said = e(t("Die:"))
    die_html = f'<p class="die">{said} <b>{e(die)}</b></p>' if die else ""
    scores = grid((t("player"), t("points")), sorted(board.scores.items()), "scores")
    target = "<p>" + e(t("Target: {target} points").format(target=board.target)) + "</p>"
    return die_html + f'<div class="track">{lanes}</div>' + scores + target + _reveal(board)


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
    podium = " ".join(map(word, last.podium.finishers))
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
    return f"{guess.target}: {' '.join(map(word, guess.horses))}"


def seat_html(player: str, details: PrivateDetails, state: Public) -> str:
    """``player``'s sealed prediction and guess; the forms to predict, guess and move."""
    view, board = state.view, state.board
    if not isinstance(board, JumpyJackBoard) or not isinstance(details, JumpyJackPrivate):
        return ""
    parts = []
    prediction = details.prediction
    if prediction:
        said = t("Your prediction: {horses}").format(horses=" ".join(map(word, prediction)))
        parts.append(f'<p class="secret">{e(said)}</p>')
    guess = details.guess
    if guess is not None:
        said = t("Your guess of {player}'s prediction: {horses}").format(
            player=e(guess.target), horses=e(" ".join(map(word, guess.horses)))
        )  # the catalog's words are the page's own: only the names are escaped
        parts.append(f'<p class="secret">{said}</p>')
    horses = [Chip(h.name, word(h.name), h.colour) for h in board.horses]
    podium = [f"horses.{i}" for i in range(3)]
    tap = t("Tap the horses in order, 1st to 3rd (tap one again to free its place)")
    if view.get("phase") == "predict" and horses:
        fields = chips(podium, horses, tap, prediction or ())
        seal = t("Change my prediction") if prediction else t("Seal my prediction")
        parts.append(entry_form("predict", seal, fields))
    opponents = [Chip(p, p) for p in view.get("players", []) if p != player]
    if (
        state.options.get("guess")
        and view.get("phase") == "predict"
        and not view.get("waiting_for")
        and opponents
    ):
        target = [guess.target] if guess is not None else []
        fields = chips(["target"], opponents, t("Whose prediction"), target) + chips(
            podium, horses, tap, guess.horses if guess is not None else ()
        )
        guessing = t("Guess an opponent's prediction")
        parts.append(f"<h3>{e(guessing)}</h3>")
        parts.append(entry_form("guess", t("Seal my guess"), fields))
    if view.get("turn") == player and view.get("phase") == "move":
        legal = board.legal_horses
        move = t("Move {horse}")
        colours = {h.name: h.colour for h in board.horses}
        parts.append(
            '<div class="picker">'
            + "".join(
                f'<form class="entry" data-type="move"><input type="hidden" name="horse" '
                f'value="{e(h)}"><button type="submit" class="chip">{dot(colours.get(h, h))}'
                f"{e(move.format(horse=word(h)))}</button></form>"
                for h in legal
            )
            + "</div>"
        )
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


PAGES = GamePages(board=board_html, seat=seat_html, chart=chart, phases=PHASES)
