"""`companion odds`: a Course hippique course's true chances next to the odds the house pays."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from companion.games.course_hippique import DEFAULT_SAMPLES, Setback

if TYPE_CHECKING:
    from companion.games.cards import Card
    from companion.games.course_hippique import CourseHippiqueGame, HorseChance, RaceChances

NAME = "odds"
HELP = "Course hippique: each horse's exact chance of winning against the announced odds"

#: Stand-in players: the odds do not depend on who sits at the table.
_TABLE = ("north", "east", "south")

#: What to type, shown when a course is missing or not written as one.
EXAMPLE = {"--course": "7H,QS,2D,9H,KC", "--turned": "3S,QH"}
#: The most simulated races one estimate may ask for (about ten seconds on a desktop; the
#: standard error is then below 0.12 points of chance).
MAX_SAMPLES = 200_000


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the odds options."""
    parser.add_argument(
        "--course",
        metavar="CARDS",
        nargs="+",
        help="the face-up course, comma separated, e.g. 7H,QS,2D,9H,KC,4S,JH (5 to 7 cards)",
    )
    parser.add_argument(
        "--turned",
        metavar="CARDS",
        nargs="+",
        default=[],
        help="the cards turned so far in the race, in order, comma separated",
    )
    parser.add_argument(
        "--setback",
        choices=[s.value for s in Setback],
        help="the setback variant (course face down: give no --course)",
    )
    parser.add_argument(
        "--length",
        type=int,
        default=7,
        choices=(5, 6, 7),
        help="course length for the setback variant (default 7)",
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=f"simulated races behind a setback estimate (default {DEFAULT_SAMPLES}, "
        f"at most {MAX_SAMPLES})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of a setback estimate")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _typed(value: str | list[str] | None) -> str:
    """The cards as typed: words given unquoted come as several arguments, joined by a blank."""
    return " ".join(value) if isinstance(value, list) else value or ""


def _cards(value: str | list[str] | None) -> list[str]:
    return [part.strip() for part in _typed(value).split(",") if part.strip()]


def _refuse(message: str) -> int:
    print(f"companion odds: {message}", file=sys.stderr)
    return 2


def _spaced(args: argparse.Namespace) -> str | None:
    """Name the option whose cards are separated by blanks instead of commas, if any."""
    for option in EXAMPLE:
        text = _typed(getattr(args, option.removeprefix("--")))
        if any(len(part.split()) > 1 for part in _cards(text)):
            return option
    return None


def run(args: argparse.Namespace) -> int:
    """Replay the course and the turned cards through the engine; print every horse's chance."""
    from companion.games.course_hippique import CourseHippiqueGame, HippiqueOptions
    from companion.games.errors import Refusal

    course, turned = _cards(args.course), _cards(args.turned)
    spaced = _spaced(args)
    if spaced is not None:
        return _refuse(f"separate the cards with commas, e.g. {spaced} {EXAMPLE[spaced]}")
    if args.setback is not None:
        if course:
            return _refuse("in the setback variant the course is face down: give no --course")
        options = HippiqueOptions(course_length=args.length, setback=Setback(args.setback))
    else:
        example = f"companion odds --course {EXAMPLE['--course']}"
        if not course:
            return _refuse(
                f"give the face-up course, 5 to 7 cards separated by commas, e.g. {example} "
                "(or --setback when the course is face down)"
            )
        if not 5 <= len(course) <= 7:
            return _refuse(f"a course has 5, 6 or 7 cards, not {len(course)}, e.g. {example}")
        options = HippiqueOptions(course_length=len(course))
    if not 1 <= args.samples <= MAX_SAMPLES:
        return _refuse(f"--samples must be from 1 to {MAX_SAMPLES}, not {args.samples}")
    game = CourseHippiqueGame.new(_TABLE, options)
    try:
        for card in course:
            game.deal_course_card(card)
        for card in turned:
            game.turn_card(card)
        chances = game.chances(samples=args.samples, seed=args.seed)
    except Refusal as refusal:
        return _refuse(f"{refusal.sentence} ({refusal.code})")
    if args.json:
        print(json.dumps(_report(game, chances), indent=2, ensure_ascii=False))
    else:
        print(_text(game, chances))
    return 0


def _report(game: CourseHippiqueGame, chances: RaceChances) -> dict[str, Any]:
    positions = game.positions()
    return {
        "course": [c.code for c in game.course],
        "turned": [c.code for c in game.turned],
        "setback": None if game.options.setback is None else game.options.setback.value,
        "finish": game.finish,
        "winner": None if game.winner is None else game.winner.letter,
        "exact": chances.exact,
        "samples": chances.samples,
        "horses": [
            {
                "horse": h.horse.letter,
                "name": h.horse.english,
                "course_cards": h.course_cards,
                "position": positions[h.horse],
                "odds": h.odds,
                "probability": h.probability,
                "fraction": None if h.exact is None else str(h.exact),
                "standard_error": chances.standard_error(h.horse),
                "fair_odds": h.fair_odds,
                "house_margin": h.house_margin,
            }
            for h in chances.horses
        ],
    }


def _row(h: HorseChance, position: int, chances: RaceChances) -> str:
    fair = "never wins" if h.fair_odds is None else f"{h.fair_odds:.2f} to 1"
    chance = f"{h.probability:8.2%}"
    if not chances.exact:
        chance += f" ±{chances.standard_error(h.horse):.1%}"
    return (
        f"{h.horse.symbol} {h.horse.english:<9}{h.course_cards:>6}{position:>5}"
        f"{h.odds:>6} to 1  {chance}  {fair:>14}  {h.house_margin:+8.1%}"
    )


def _line(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards) or "-"


def _text(game: CourseHippiqueGame, chances: RaceChances) -> str:
    lines = []
    if game.options.setback is None:
        lines.append(f"Course: {_line(game.course)}  (a horse needs {game.finish} cards)")
    else:
        rows = game.options.course_length
        lines.append(
            f"Setback ({game.options.setback.value}): {rows} face-down rows, "
            f"turned so far: {_line(game.course)}; a horse finishes at step {game.finish}"
        )
    lines.append(f"Turned: {_line(game.turned)}  ({len(game.turned)} cards)")
    if game.winner is not None:
        lines.append(f"The race is over: {game.winner.english} won.")
    lines.append("")
    lines.append("horse      course   at  announced     chance       fair odds  house gain")
    positions = game.positions()
    lines.extend(_row(h, positions[h.horse], chances) for h in chances.horses)
    lines.append("")
    if chances.exact:
        lines.append("Chances are exact. House gain: the croupier's expected chips per chip")
    else:
        lines.append(f"Chances are an ESTIMATE from {chances.samples} simulated races (± one")
        lines.append("standard error). House gain: the croupier's expected chips per chip")
    lines.append("staked on that horse at the announced odds (negative: the bettors' edge).")
    return "\n".join(lines)
