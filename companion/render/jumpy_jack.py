"""Jumpy Jack on the displays: whose turn, the die, legal horses, the strip, sealed predictions.

The renderer reads only the public view (``board`` as the session describes it) and the
state of an entry in progress, which never holds a horse: a prediction being entered is a
count of presses, drawn as stars. The strip shows every horse on its square in its colour,
the hurdles as dim marks, a barrage in its own colour, and, while a die value waits, the
horses that cannot move with it dimmed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.render.layout import TrackLeds
from companion.render.leds import (
    BARRAGE,
    DOUBLE_MARK,
    FINISH_MARK,
    OUT_MARK,
    RESTART_MARK,
    RGB,
    START_MARK,
    STOP_MARK,
    colour,
    dim,
    frame,
)
from companion.render.screen import Move, Oled, Screen
from companion.render.text import (
    PublicView,
    joined,
    name_score_row,
    page_of,
    rows,
    short,
    spread,
    stars,
)

_MARKS = {"stop": STOP_MARK, "double": DOUBLE_MARK, "out": OUT_MARK, "restart": RESTART_MARK}


@dataclass(frozen=True)
class Track:
    """The board's shape: squares in a lap and the square of each hurdle (by hurdle name)."""

    squares: int
    hurdles: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """A secret being entered at the table: whose, what, and how many horses so far.

    ``target`` is the opponent chosen for a guess (shown while it is being chosen: the
    encoder needs it), ``choosing`` tells that the guesser is still choosing it.
    """

    player: str
    what: str = "prediction"
    entered: int = 0
    target: str | None = None
    choosing: bool = False


def horse_names(board: Mapping[str, Any]) -> list[str]:
    """Return the horses' names in button order."""
    return [str(h["name"]) for h in board.get("horses", [])]


def horse_colour(board: Mapping[str, Any], name: str) -> RGB:
    """Return the LED colour of horse ``name``."""
    for h in board.get("horses", []):
        if h["name"] == name:
            return colour(str(h["colour"]))
    return (128, 128, 128)


def podium_row(board: Mapping[str, Any]) -> str:
    """Places 1 to 3 in one row: ``1:red 2:blu 3:---``."""
    podium = list(board.get("podium", [None, None, None]))[:3]
    return " ".join(f"{i}:{short(h, 3) if h else '---'}" for i, h in enumerate(podium, 1))


def scores_row(view: PublicView) -> str:
    """Every player's total in one row."""
    scores = view.board.get("scores", {})
    return name_score_row([(p, int(scores.get(p, 0))) for p in view.players])


def lcd(view: PublicView, entry: Entry | None, page: int = 0) -> tuple[str, ...]:
    """Return the four LCD rows for ``view`` (``entry``: a secret being entered)."""
    board = view.board
    turn = view.turn or ""
    race = f"Race {view.race}"
    if view.phase == "predict":
        return _predict_rows(view, entry)
    if view.phase == "roll":
        return rows(
            [
                spread(f"{short(turn, 12)}'s turn", race),
                "Press the die",
                podium_row(board),
                scores_row(view),
            ]
        )
    if view.phase == "move":
        legal = [str(h) for h in board.get("legal_horses", [])]
        return rows(
            [
                spread(f"{short(turn, 12)}'s turn", f"die {board.get('die')}"),
                "Move one of:" if legal else "No horse can move",
                joined(legal),
                podium_row(board),
            ]
        )
    if view.phase == "race_over":
        return page_of(race_pages(view, "Push: next race"), page)
    if view.phase == "match_over":
        return page_of(match_pages(view), page)
    return rows([race, view.phase])


def _predict_rows(view: PublicView, entry: Entry | None) -> tuple[str, ...]:
    race = f"Race {view.race}"
    if entry is not None and entry.what == "prediction":
        later = [p for p in view.waiting_for if p != entry.player]
        return rows(
            [
                f"{race}: predictions",
                f"{short(entry.player, 12)}: predict",
                f"1st 2nd 3rd: {stars(entry.entered, 3)}",
                "Then: " + joined([short(p, 8) for p in later], 14)
                if later
                else "Others look away",
            ]
        )
    if entry is not None:
        if entry.choosing:
            target = entry.target or "no guess"
            return rows(
                [
                    f"{race}: guesses",
                    f"{short(entry.player, 12)}: guess whose?",
                    f"> {short(target, 18)}",
                    "Turn, push: ok",
                ]
            )
        return rows(
            [
                f"{race}: guesses",
                f"{short(entry.player, 12)}: guess",
                f"1st 2nd 3rd: {stars(entry.entered, 3)}",
                "Others look away",
            ]
        )
    turn = view.turn or ""
    return rows(
        [
            f"{race}: all sealed",
            f"{short(turn, 12)}: press the die",
            podium_row(view.board),
            scores_row(view),
        ]
    )


def race_pages(
    view: PublicView, prompt: str, result: Mapping[str, Any] | None = None
) -> list[tuple[str, ...]]:
    """Pages revealing a finished race: the podium and points, then each player's prediction."""
    results = view.board.get("results", [])
    if result is None:
        if not results:
            return [rows(["Race over", prompt])]
        result = results[-1]
    points: Mapping[str, int] = result.get("points", {})
    bonus: Mapping[str, int] = result.get("bonus", {})
    gained = [(p, f"+{points.get(p, 0) + bonus.get(p, 0)}") for p in view.players]
    podium = result.get("podium", {})
    top = _top3(podium)
    first = rows(
        [
            f"Race {result.get('number', view.race)} over",
            " ".join(f"{i}:{short(h, 3) if h else '---'}" for i, h in enumerate(top, 1)),
            name_score_row(gained),
            prompt,
        ]
    )
    pages = [first]
    scores = view.board.get("scores", {})
    predictions: Mapping[str, Sequence[str]] = result.get("predictions", {})
    guesses: Mapping[str, Mapping[str, Any]] = result.get("guesses", {})
    for player in view.players:
        said = predictions.get(player, [])
        total = points.get(player, 0) + bonus.get(player, 0)
        lines = [
            spread(f"{short(player, 10)} +{total}", f"total {scores.get(player, 0)}"),
            joined([str(h) for h in said], 20),
        ]
        guess = guesses.get(player)
        if guess:
            lines.append(f"Guess {short(str(guess['target']), 8)}: +{bonus.get(player, 0)}")
        else:
            lines.append("")
        lines.append(prompt)
        pages.append(rows(lines))
    return pages


def _top3(podium: Mapping[str, Any]) -> list[str | None]:
    finishers = list(podium.get("finishers", []))
    eliminated = list(podium.get("eliminated", []))
    places: list[str | None] = [None] * 5
    for i, h in enumerate(finishers[:5]):
        places[i] = h
    for i, h in enumerate(eliminated[:5]):
        places[4 - i] = h
    return places[:3]


def match_pages(view: PublicView) -> list[tuple[str, ...]]:
    """Pages for the end of the match: the winners and totals, then the last race revealed."""
    winners = list(view.winners)
    who = ("Winner: " if len(winners) == 1 else "Winners: ") + joined(winners, 11)
    first = rows(["Match over!", who, scores_row(view), "Push: menu"])
    return [first, *race_pages(view, "Push: menu")]


def oled(view: PublicView, entry: Entry | None) -> Oled:
    """Return the OLED content: the die face while a value waits, else a short line or two."""
    board = view.board
    if entry is not None:
        return Oled(
            lines=(short(entry.player, 10), "predicts" if entry.what == "prediction" else "guesses")
        )
    if view.phase == "move" and board.get("die"):
        return Oled(die=int(board["die"]))
    if view.phase in ("roll", "predict") and view.turn:
        return Oled(lines=(short(view.turn, 10), "rolls"))
    if view.phase == "race_over":
        return Oled(lines=(f"Race {view.race}", "over"))
    if view.phase == "match_over":
        winners = list(view.winners)
        if len(winners) == 1:
            return Oled(lines=(short(winners[0], 10), "wins!"))
        return Oled(lines=("A tie!",))
    return Oled()


def leds(view: PublicView, track: Track, layout: TrackLeds) -> tuple[RGB, ...]:
    """Return the strip: hurdles marked, each horse on its square, a barrage marked."""
    lit: dict[int, RGB] = {}
    for name, square in track.hurdles.items():
        led = layout.led(square)
        if led is not None and name in _MARKS:
            lit[led] = _MARKS[name]
    for led in layout.finish[:1]:
        lit[led] = FINISH_MARK
    board = view.board
    legal = set(board.get("legal_horses", [])) if view.phase == "move" else None
    on_square: dict[int, list[str]] = {}
    at_start: list[str] = []
    finishers: list[str] = []
    for horse in board.get("horses", []):
        state, square = horse.get("state"), horse.get("square")
        if state == "finished":
            finishers.append(str(horse["name"]))
        elif state == "racing" and square is not None:
            (at_start if square == 0 else on_square.setdefault(int(square), [])).append(
                str(horse["name"])
            )
    if finishers:
        first = min(finishers, key=lambda h: _place(board, h))
        for led in layout.finish[:1]:
            lit[led] = horse_colour(board, first)
    start_led = layout.led(0)
    if start_led is not None and at_start:
        lit[start_led] = _shown(board, at_start[0], legal) if len(at_start) == 1 else START_MARK
    for square, horses in on_square.items():
        led = layout.led(square)
        if led is None:
            continue
        lit[led] = BARRAGE if len(horses) > 1 else _shown(board, horses[0], legal)
    return frame(layout.count, lit)


def _place(board: Mapping[str, Any], horse: str) -> int:
    for h in board.get("horses", []):
        if h["name"] == horse and h.get("place") is not None:
            return int(h["place"])
    return 99


def _shown(board: Mapping[str, Any], horse: str, legal: set[str] | None) -> RGB:
    rgb = horse_colour(board, horse)
    return rgb if legal is None or horse in legal else dim(rgb)


def move_path(move: Mapping[str, Any], track: Track, layout: TrackLeds) -> tuple[int, ...]:
    """Return the LEDs a move walks over, from the square after its origin to where it ends."""
    origin = int(move["origin"])
    final = int(move["bounce"] if move.get("bounce") is not None else move["landing"])
    squares = list(range(origin + 1, min(final, track.squares) + 1))
    if move.get("effect") == "restart":
        squares.append(0)
    return layout.path(squares)


def move_cue(board: Mapping[str, Any], track: Track, layout: TrackLeds) -> Move | None:
    """Return the animation of the last move, or None."""
    move = board.get("last_move")
    if not move:
        return None
    path = move_path(move, track, layout)
    return Move(path, horse_colour(board, str(move["horse"]))) if path else None


def screen(
    view: PublicView, entry: Entry | None, track: Track, layout: TrackLeds, page: int = 0
) -> Screen:
    """Return the whole picture for ``view``."""
    return Screen(lcd(view, entry, page), oled(view, entry), leds(view, track, layout))
