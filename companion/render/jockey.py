"""Jockey on the displays: secret bets, whose card, the four horses on the strip, settlements.

The renderer reads the public view and ``Entry``, the bet being entered: its kind and stakes
are shown while they are dialled (the encoder needs them), its horses never; a bet once in
is ``***`` until the race is settled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.render.layout import TrackLeds
from companion.render.leds import RGB, START_MARK, colour, frame
from companion.render.screen import Move, Oled, Screen
from companion.render.text import (
    SEALED,
    PublicView,
    name_score_row,
    page_of,
    rows,
    short,
    signed,
    spread,
    stars,
    wrap,
)

HORSES = ("brown", "yellow", "blue", "red")
#: A strip LED that two horses share (two squares per LED, or a tie).
SHARED: RGB = (200, 200, 200)


@dataclass(frozen=True)
class Entry:
    """A bet being entered: whose, its kind, the step, horses pressed, stakes dialled."""

    player: str
    kind: str
    step: str  # "kind", "horses" or "stakes"
    horses: int = 0
    needed: int = 1
    stakes: tuple[int, ...] = ()
    dial: int = 100
    limit: int = 0


def horse_rgb(horse: str) -> RGB:
    """The strip colour of a Jockey horse."""
    return colour(horse)


def positions_row(board: Mapping[str, Any]) -> str:
    """Every horse's square: ``Br34 Ye12 Bl50 Re2``."""
    progress: Mapping[str, int] = board.get("progress", {})
    return " ".join(f"{h[:2].title()}{progress.get(h, 0)}" for h in HORSES)


def bet_text(bet: Mapping[str, Any]) -> str:
    """A revealed bet in one row: ``win brown 300``, ``order red200 blu100``."""
    kind = str(bet.get("kind", ""))
    horses = [str(h) for h in bet.get("horses", [])]
    stakes = [int(s) for s in bet.get("stakes", [])]
    if kind == "order" and len(horses) == 2 and len(stakes) == 2:
        return f"order {horses[0][:3]}{stakes[0]} {horses[1][:3]}{stakes[1]}"
    if kind == "double" and len(horses) == 2 and stakes:
        return f"double {horses[0][:3]}+{horses[1][:3]} {stakes[0]}"
    return f"{kind} {' '.join(horses)} {stakes[0] if stakes else ''}".strip()


def markers_text(columns: Sequence[Sequence[Any]]) -> str:
    """Where the three marker pieces go: ``10k:5 1k:2 100:5`` (a debt: ``-1k:1 -100:4``)."""
    names = {"10000": "10k", "1000": "1k", "100": "100", "-1000": "-1k", "-100": "-100"}
    return " ".join(f"{names.get(str(col), col)}:{n}" for col, n in columns)


def lcd(view: PublicView, entry: Entry | None, page: int = 0) -> tuple[str, ...]:
    """The four LCD rows."""
    board: Mapping[str, Any] = view.board
    race = f"Race {view.race}/3"
    if view.phase == "betting" and entry is not None:
        return _entry_rows(view, entry)
    if view.phase in ("betting", "racing"):
        turn = view.turn or ""
        effect = board.get("last_effect")
        lines = [spread(f"{short(turn, 11)}'s card", race), positions_row(board)]
        if effect:
            lines += list(wrap(str(effect.get("sentence", "")), rows=2))
        else:
            bets = len(view.sealed)
            lines += ["Scan the card played", f"{bets} bets: {SEALED}"]
        return rows(lines)
    if view.phase == "race_over":
        return page_of(result_pages(view, "Push: next race"), page)
    if view.phase == "game_over":
        return page_of(final_pages(view), page)
    return rows([race, view.phase])


def _entry_rows(view: PublicView, entry: Entry) -> tuple[str, ...]:
    head = spread(f"{short(entry.player, 11)}: bet", f"max {entry.limit}")
    title = f"Race {view.race}/3: bets"
    if entry.step == "kind":
        return rows([title, head, f"Kind: < {entry.kind} >", "Turn, push: ok"])
    if entry.step == "horses":
        return rows(
            [title, head, f"{entry.kind}: {stars(entry.horses, entry.needed)}", "Horse buttons"]
        )
    which = (
        ""
        if entry.needed == 1 or entry.kind == "double"
        else (" 1st" if not entry.stakes else " 2nd")
    )
    return rows([title, head, f"Stake{which}: < {entry.dial} >", "Turn, push: ok"])


def result_pages(view: PublicView, prompt: str) -> list[tuple[str, ...]]:
    """A settled race: the first two horses and each player's result, then one page each."""
    board: Mapping[str, Any] = view.board
    results = board.get("results", [])
    if not results:
        return [rows(["Race over", prompt])]
    result = results[-1]
    payouts = result.get("payouts", [])
    first = rows(
        [
            f"Race {result['number']}: {result['first']} 1st",
            f"{result['second']} 2nd",
            name_score_row([(p["player"], signed(int(p["change"]))) for p in payouts]),
            prompt,
        ]
    )
    pages = [first]
    markers: Mapping[str, Sequence[Sequence[Any]]] = board.get("markers", {})
    for p in payouts:
        player = str(p["player"])
        shared = " shared" if p.get("shared") else ""
        pages.append(
            rows(
                [
                    spread(f"{short(player, 12)}{shared}", signed(int(p["change"]))),
                    bet_text(p["bet"]),
                    f"Balance {p['balance']}",
                    markers_text(markers.get(player, [])),
                ]
            )
        )
    return pages


def final_pages(view: PublicView) -> list[tuple[str, ...]]:
    """The ranking by balance, three players a page, then the last race."""
    ranking = view.board.get("ranking", [])
    lines = [f"{r['place']}. {short(r['player'], 11)} {r['balance']}" for r in ranking]
    pages = [
        rows(["Game over!" if start == 0 else "Ranking:", *lines[start : start + 3]])
        for start in range(0, max(1, len(lines)), 3)
    ]
    return pages + result_pages(view, "Push: menu")


def oled(view: PublicView, entry: Entry | None) -> Oled:
    """Whose bet or card it is, or the winner."""
    if entry is not None:
        return Oled(lines=(short(entry.player, 10), "bets"))
    if view.phase in ("betting", "racing") and view.turn:
        return Oled(lines=(short(view.turn, 10), "plays"))
    board = view.board
    if view.phase == "race_over" and board.get("results"):
        return Oled(lines=(str(board["results"][-1]["first"]), "wins"))
    if view.phase == "game_over":
        winners = list(view.winners)
        return Oled(lines=(short(winners[0], 10), "wins!") if len(winners) == 1 else ("A tie!",))
    return Oled()


def leds(view: PublicView, layout: TrackLeds) -> tuple[RGB, ...]:
    """Each horse on the LED of its square; an LED two horses share lights white."""
    board = view.board
    progress: Mapping[str, int] = board.get("progress", {})
    track = int(board.get("track_length", 80))
    finished = [str(h) for h in board.get("finish_order", [])]
    on: dict[int, list[str]] = {}
    for horse in HORSES:
        square = int(progress.get(horse, 0))
        led = layout.led(square if square <= track else len(layout.squares))
        if led is not None and horse not in finished:
            on.setdefault(led, []).append(horse)
    lit: dict[int, RGB] = {}
    for led, horses in on.items():
        if led == layout.led(0) and len(horses) > 1:
            lit[led] = START_MARK
        else:
            lit[led] = horse_rgb(horses[0]) if len(horses) == 1 else SHARED
    if finished:
        for led in layout.finish[:1]:
            lit[led] = horse_rgb(finished[0])
    return frame(layout.count, lit)


def move_cue(effect: Mapping[str, Any], layout: TrackLeds, track: int) -> Move | None:
    """The animation of a card that moved a horse, or None."""
    if effect.get("blocked") is not None or not effect.get("horse"):
        return None
    start, end = int(effect["start"]), int(effect["end"])
    squares = [s if s <= track else len(layout.squares) for s in range(start + 1, end + 1)]
    path = layout.path(squares)
    return Move(path, horse_rgb(str(effect["horse"]))) if path else None


def screen(view: PublicView, entry: Entry | None, layout: TrackLeds, page: int = 0) -> Screen:
    """The whole picture."""
    return Screen(lcd(view, entry, page), oled(view, entry), leds(view, layout))
