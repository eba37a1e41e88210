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

from companion.games.jumpy_jack import (
    HorseStanding,
    HorseState,
    JumpyJackBoard,
    JumpyRaceResult,
    Landing,
    Move,
)
from companion.games.text import N_
from companion.render.die import die_row, keyed_die_screen, turn_row
from companion.render.language import _, ngettext
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
from companion.render.memo import last_drawn
from companion.render.scores import leaders, ranking_pages
from companion.render.scores import scores_row as totals_row
from companion.render.screen import OledScreen, Screen, StripWalk
from companion.render.text import (
    COLS,
    MARK,
    PublicView,
    board_as,
    buttons_lines,
    buttons_row,
    name_list,
    name_score_row,
    named,
    numbered,
    page_of,
    race_word,
    rows,
    short,
    stars,
    winners_row,
)

#: The horses of the default board, for the catalogs (the view keeps their English names).
COLOURS = (N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("white"))

_MARKS = {"stop": STOP_MARK, "double": DOUBLE_MARK, "out": OUT_MARK, "restart": RESTART_MARK}


@dataclass(frozen=True)
class TrackShape:
    """The board's shape: squares in a lap and the square of each hurdle (by hurdle name)."""

    squares: int
    hurdles: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SecretDraft:
    """A secret being entered at the table: whose, what, and how many horses so far.

    ``target`` is the opponent chosen for a guess (shown while it is being chosen: the
    encoder needs it), ``choosing`` tells that the guesser is still choosing it.
    """

    player: str
    what: str = "prediction"
    entered: int = 0
    target: str | None = None
    choosing: bool = False


def board_of(view: PublicView) -> JumpyJackBoard:
    """Return the Jumpy Jack board of ``view``; raises TypeError for another game's view."""
    return board_as(view, JumpyJackBoard, "Jumpy Jack")


def horse_names(board: JumpyJackBoard) -> list[str]:
    """Return the horses' names in button order."""
    return list(board.horse_names)


def horse_colour(board: JumpyJackBoard, name: str) -> RGB:
    """Return the LED colour of horse ``name``."""
    horse = board.standing(name)
    if horse is not None:
        return colour(horse.colour)
    return (128, 128, 128)


def podium_row(board: JumpyJackBoard) -> str:
    """Places 1 to 3 in one row: ``1:red 2:blue 3:---``."""
    return places_row([_(h) if h else None for h in list(board.podium)[:3]])


def places_row(podium: Sequence[str | None]) -> str:
    """Places 1 to 3 in one row, horse names shortened only as much as the row needs."""
    names = [h for h in podium if h]
    for cap in range(max((len(h) for h in names), default=3), 2, -1):
        text = " ".join(f"{i}:{short(h, cap) if h else '---'}" for i, h in enumerate(podium[:3], 1))
        if len(text) <= COLS:
            return text
    return " ".join(f"{i}:{short(h, 3) if h else '---'}" for i, h in enumerate(podium[:3], 1))


def teams(board: JumpyJackBoard) -> list[tuple[str, tuple[str, ...], int]]:
    """The teams of the teams variant: ``("Team 1", members, score)``; empty without teams."""
    return [
        (_("Team {number}").format(number=number), team.players, team.score)
        for number, team in enumerate(board.teams, 1)
    ]


def standings(view: PublicView) -> list[tuple[str, int]]:
    """Who competes with what total: every team in the teams variant, else every player."""
    found = teams(board_of(view))
    if found:
        return [(name, score) for name, _, score in found]
    scores = board_of(view).scores
    return [(p, int(scores.get(p, 0))) for p in view.players]


def scores_row(view: PublicView) -> str:
    """Every total in one row; when they cannot all fit, who leads."""
    return totals_row(standings(view))


def lcd(
    view: PublicView, entry: SecretDraft | None, page: int = 0, guesses: bool = False
) -> tuple[str, ...]:
    """Return the four LCD rows for ``view`` (``entry``: a secret being entered).

    ``guesses`` tells that the guess variant is played: a player without a guess then reads
    "No guess" on their result page.
    """
    board = board_of(view)
    turn = view.turn or ""
    race = race_word(view.race)
    if view.phase == "predict":
        return _predict_rows(view, entry)
    if view.phase == "roll":
        return rows(
            [turn_row(turn, view.race), _("Press the die"), podium_row(board), scores_row(view)]
        )
    if view.phase == "move":
        return rows(_move_rows(view))
    if view.phase == "race_over":
        prompt = _("Push: race {number}").format(number=view.race + 1)
        return page_of(race_pages(view, prompt, guesses=guesses), page)
    if view.phase == "match_over":
        return page_of(match_pages(view, guesses), page)
    return rows([race, view.phase])


def _move_rows(view: PublicView) -> list[str]:
    """Whose die shows what, the horses it may move (two rows at most), the podium, scores."""
    board = board_of(view)
    legal = [_(h) for h in board.legal_horses]
    first = die_row(view.turn or "", board.die)
    if not legal:
        return [first, _("No horse can move"), podium_row(board), scores_row(view)]
    names = horse_names(board)
    if len(legal) == len(names):
        return [first, _("Move any horse"), buttons_row(names), podium_row(board)]
    keyed = [f"{names.index(h) + 1}{_(h)}" if h in names else _(h) for h in board.legal_horses]
    listed = name_list(keyed, lines=2, sep=" ") or (
        ngettext("{count} horse", "{count} horses", len(legal)).format(count=len(legal)),
    )
    return [first, _("Move one of:"), *listed, podium_row(board)][:4]


def _predict_rows(view: PublicView, entry: SecretDraft | None) -> tuple[str, ...]:
    race = race_word(view.race)
    if entry is not None and entry.what == "prediction":
        later = [p for p in view.waiting_for if p != entry.player]
        return rows(
            [
                buttons_row(horse_names(board_of(view))),
                named(entry.player, _(": predict")),
                _("1st 2nd 3rd: {stars}").format(stars=stars(entry.entered, 3)),
                _("Next: ") + short(later[0], COLS - len(_("Next: ")))
                if later
                else _("Others look away"),
            ]
        )
    if entry is not None:
        if entry.choosing:
            target = short(entry.target, COLS - 4) if entry.target else _("no guess")
            return rows(
                [
                    _("{race}: guesses").format(race=race),
                    named(entry.player, _(": guess whose?")),
                    f"< {target} >",
                    _("Turn, push: ok"),
                ]
            )
        return rows(
            [
                buttons_row(horse_names(board_of(view))),
                named(entry.player, _(": guess")),
                _("1st 2nd 3rd: {stars}").format(stars=stars(entry.entered, 3)),
                _("Others look away"),
            ]
        )
    turn = view.turn or ""
    return rows(
        [
            _("{race}: all sealed").format(race=race),
            turn_row(turn),
            _("Press the die"),
            scores_row(view),
        ]
    )


def race_pages(
    view: PublicView, prompt: str, result: JumpyRaceResult | None = None, guesses: bool = False
) -> list[tuple[str, ...]]:
    """Pages revealing a finished race: the podium and points, the teams, then each player."""
    results = board_of(view).results
    if result is None:
        if not results:
            return [rows([_("Race over"), prompt])]
        result = results[-1]
    return numbered(_race_pages(view, prompt, result, guesses))


def _race_pages(
    view: PublicView, prompt: str, result: JumpyRaceResult, guessing: bool = False
) -> list[list[str]]:
    points: Mapping[str, int] = result.points
    bonus: Mapping[str, int] = result.bonus
    gain = {p: points.get(p, 0) + bonus.get(p, 0) for p in view.players}
    gained = [(p, f"+{gain[p]}") for p in view.players]
    found = teams(board_of(view))
    if found:  # the teams variant: what each team gained
        gained = [(name, f"+{sum(gain.get(p, 0) for p in members)}") for name, members, _ in found]
    first = [
        _("Race {number} over").format(number=result.number),
        places_row([_(h) if h else None for h in result.podium.top3]),
        name_score_row(gained, fallback=_("Turn: each player")),
        prompt,
    ]
    pages = [first, *_team_pages(view)]
    scores = board_of(view).scores
    predictions: Mapping[str, Sequence[str]] = result.predictions
    guesses = result.guesses
    for player in view.players:
        said = [_(str(h)) for h in predictions.get(player, [])]
        total = points.get(player, 0) + bonus.get(player, 0)
        listed = name_list(said, lines=1, sep=" ") if said else None
        guess = guesses.get(player)
        last = prompt
        if guess:
            bonus_text = f": +{bonus.get(player, 0)}"
            last = _("Guess ") + named(guess.target, bonus_text, COLS - len(_("Guess ")))
        elif guessing:
            last = _("No guess")
        pages.append(
            [
                named(player, "", COLS - MARK),
                _("+{points}, total {total}").format(points=total, total=scores.get(player, 0)),
                listed[0] if listed else _("No prediction"),
                last,
            ]
        )
    return pages


def _team_pages(view: PublicView) -> list[list[str]]:
    """Two teams a page: the team and its total, then its players."""
    found = teams(board_of(view))
    pages: list[list[str]] = []
    for start in range(0, len(found), 2):
        lines: list[str] = []
        for name, members, score in found[start : start + 2]:
            lines.append(f"{name}: {score}")
            listed = name_list(members, lines=1)
            lines.append(
                listed[0]
                if listed
                else ngettext("{count} player", "{count} players", len(members)).format(
                    count=len(members)
                )
            )
        pages.append(lines)
    return pages


def match_pages(view: PublicView, guesses: bool = False) -> list[tuple[str, ...]]:
    """Pages for the end of the match: the winners, the ranking, then the last race revealed."""
    return numbered(end_pages(view, guesses))


def end_pages(view: PublicView, guesses: bool = False) -> list[list[str]]:
    """The pages of ``match_pages``, not numbered yet."""
    pairs = standings(view)
    who = winners_row(leaders(pairs))
    first = [_("Match over!"), who, scores_row(view) if len(pairs) > 1 else "", _("Push: menu")]
    ranking = ranking_pages(pairs)
    results = board_of(view).results
    last = _race_pages(view, _("Push: menu"), results[-1], guesses) if results else []
    return [first, *ranking, *last]


def oled(view: PublicView, entry: SecretDraft | None) -> OledScreen:
    """Return the OLED content: the die face while a value waits, else a short line or two."""
    board = board_of(view)
    if entry is not None:
        doing = _("predicts") if entry.what == "prediction" else _("guesses")
        key = () if entry.choosing else buttons_lines(horse_names(board))
        return OledScreen(lines=(short(entry.player, 10), doing, *key)[:4])
    if view.phase == "move" and board.die:
        return OledScreen(die=board.die)
    if view.phase in ("roll", "predict") and view.turn:
        return OledScreen(lines=(short(view.turn, 10), _("rolls")))
    if view.phase == "race_over":
        return OledScreen(lines=(race_word(view.race), _("over")))
    if view.phase == "match_over":
        top = leaders(standings(view))
        if len(top) == 1:
            return OledScreen(lines=(short(top[0], 10), _("wins!")))
        return OledScreen(lines=(_("A tie!"),))
    return OledScreen()


def track_leds(view: PublicView, track: TrackShape, layout: TrackLeds) -> tuple[RGB, ...]:
    """Return the strip: hurdles marked, each horse on its square, a barrage marked.

    While every horse waits at the start, each lights its own start LED (the layout's
    ``start``, in button order), so the table sees which button is which colour.
    """
    lit: dict[int, RGB] = {}
    for name, square in track.hurdles.items():
        led = layout.led(square)
        if led is not None and name in _MARKS:
            lit[led] = _MARKS[name]
    for led in layout.finish[:1]:
        lit[led] = FINISH_MARK
    board = board_of(view)
    legal = set(board.legal_horses) if view.phase == "move" else None
    shown = {horse.name: _shown(horse, legal) for horse in board.horses}
    on_square: dict[int, list[str]] = {}
    at_start: list[str] = []
    finishers: list[HorseStanding] = []
    for horse in board.horses:
        state, at = horse.state, horse.square
        if state is HorseState.FINISHED:
            finishers.append(horse)
        elif state is HorseState.RACING and at is not None:
            (at_start if at == 0 else on_square.setdefault(at, [])).append(horse.name)
    if finishers:
        first = min(finishers, key=_place)
        for led in layout.finish[:1]:
            lit[led] = colour(first.colour)
    names = horse_names(board)
    start_led = layout.led(0)
    if layout.start and len(at_start) == len(names) and len(layout.start) >= len(names):
        for led, name in zip(layout.start, names, strict=False):
            lit[led] = shown[name]  # each on its own LED, in button order
    elif start_led is not None and at_start:
        lit[start_led] = shown[at_start[0]] if len(at_start) == 1 else START_MARK
    for square, horses in on_square.items():
        led = layout.led(square)
        if led is None:
            continue
        lit[led] = BARRAGE if len(horses) > 1 else shown[horses[0]]
    return frame(layout.count, lit)


#: The strip as ``track_leds`` draws it, drawn again only for another view (a press's answer
#: is drawn with ``track_leds`` itself, so the table's own picture stays kept).
leds = last_drawn(track_leds)


def _place(horse: HorseStanding) -> int:
    return horse.place if horse.place is not None else 99


def _shown(horse: HorseStanding, legal: set[str] | None) -> RGB:
    """The horse's colour on the strip: dimmed while a die waits that cannot move it."""
    rgb = colour(horse.colour)
    return rgb if legal is None or horse.name in legal else dim(rgb)


def move_path(move: Move, track: TrackShape, layout: TrackLeds) -> tuple[int, ...]:
    """Return the LEDs a move walks over, from the square after its origin to where it ends."""
    origin = move.origin
    final = move.bounce if move.bounce is not None else move.landing
    squares = list(range(origin + 1, min(final, track.squares) + 1))
    if move.effect is Landing.RESTART:
        squares.append(0)
    return layout.path(squares)


def move_cue(board: JumpyJackBoard, track: TrackShape, layout: TrackLeds) -> StripWalk | None:
    """Return the animation of the last move, or None."""
    move = board.last_move
    if move is None:
        return None
    path = move_path(move, track, layout)
    return StripWalk(path, horse_colour(board, move.horse)) if path else None


@last_drawn
def screen(
    view: PublicView,
    entry: SecretDraft | None,
    track: TrackShape,
    layout: TrackLeds,
    page: int = 0,
    die_dial: int | None = None,
    guesses: bool = False,
) -> Screen:
    """Return the whole picture for ``view`` (``die_dial``: a real die's value being keyed;
    ``guesses``: the guess variant is played)."""
    if die_dial is not None:
        return keyed_die_screen(view, die_dial, scores_row(view), leds(view, track, layout))
    return Screen(lcd(view, entry, page, guesses), oled(view, entry), leds(view, track, layout))
