"""Course hippique on the displays: the course, odds and chances, sealed bets, the four lanes.

The renderer draws ``Race``, the public facts of the race as plain data, and ``Entry``, what
is being entered at the table (the max bet the croupier dials, or a bet). A bet in progress
shows its stake (the encoder needs it) but never its horse; a placed bet is ``***`` until the
race is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.render.layout import LaneLeds
from companion.render.leds import LANE_MARK, RGB, SUIT_COLOURS, dim, frame
from companion.render.screen import Oled, Screen
from companion.render.text import (
    SEALED,
    card_text,
    name_score_row,
    page_of,
    rows,
    short,
    signed,
    spread,
    suit,
    wrap,
)

HORSES = ("S", "H", "D", "C")


@dataclass(frozen=True)
class Payout:
    """One revealed bet: who, on which horse, how much, and what it won or lost (once over)."""

    player: str
    horse: str
    stake: int
    change: int = 0


@dataclass(frozen=True)
class Race:
    """The public facts of the race in play (or just finished)."""

    players: tuple[str, ...]
    phase: str
    number: int
    races: int
    croupier: str
    course_length: int = 7
    setback: bool = False
    course: tuple[str, ...] = ()
    odds: Mapping[str, int | None] = field(default_factory=dict)
    chances: Mapping[str, float] = field(default_factory=dict)
    max_bet: int | None = None
    bettors: tuple[str, ...] = ()
    #: The bets, once they are revealed (the race's first card is turned).
    bets: tuple[Payout, ...] = ()
    positions: Mapping[str, int] = field(default_factory=dict)
    finish: int = 8
    last_card: str | None = None
    pending_row: int | None = None
    winner: str | None = None
    balances: Mapping[str, int] = field(default_factory=dict)
    payouts: tuple[Payout, ...] = ()
    croupier_change: int = 0
    ranking: tuple[tuple[int, str, int], ...] = ()


@dataclass(frozen=True)
class Entry:
    """What the table is entering: the croupier's max bet, or one player's bet."""

    player: str
    what: str  # "max_bet" or "bet"
    amount: int
    horse_chosen: bool = False
    limit: int = 0


def odds_row(race: Race) -> str:
    """The odds in one row: ``♠3:1 ♥2:1 ♦1:1 ♣5:1``."""
    return " ".join(f"{suit(h)}{race.odds.get(h) or '-'}:1" for h in HORSES)


def positions_row(race: Race) -> str:
    """Where each horse stands: ``♠2 ♥5 ♦1 ♣3 of 8``."""
    parts = [f"{suit(h)}{race.positions.get(h, 0)}" for h in HORSES]
    return " ".join(parts) + f" of {race.finish}"


def lcd(race: Race, entry: Entry | None, page: int = 0) -> tuple[str, ...]:
    """Return the four LCD rows."""
    title = spread(f"Race {race.number}/{race.races}", f"bank {short(race.croupier, 9)}")
    if race.phase == "dealing":
        course = " ".join(card_text(c) for c in race.course)
        return rows(
            [
                title,
                f"Scan course card {len(race.course) + 1}/{race.course_length}",
                *wrap(course, rows=2),
            ]
        )
    if race.phase == "redeal":
        full = max(HORSES, key=lambda h: sum(1 for c in race.course if c.endswith(h)))
        count = sum(1 for c in race.course if c.endswith(full))
        return rows(
            [
                title,
                f"Redeal: {count} {suit(full)} dealt",
                "Shuffle, scan a new",
                f"course of {race.course_length} cards",
            ]
        )
    if race.phase == "betting":
        return _betting_rows(race, entry, title)
    if race.phase == "racing":
        if race.pending_row is not None:
            todo = f"Turn row {race.pending_row}'s card"
        else:
            todo = f"Turned {card_text(race.last_card)}" if race.last_card else "Turn a card"
        bets = name_score_row([(b.player, f"{suit(b.horse)}{b.stake}") for b in race.bets])
        return rows([title, positions_row(race), todo, bets or "No bets"])
    if race.phase == "race_over":
        return page_of(result_pages(race, "Push: next race"), page)
    if race.phase == "game_over":
        return page_of(final_pages(race), page)
    return rows([title, race.phase])


def _betting_rows(race: Race, entry: Entry | None, title: str) -> tuple[str, ...]:
    odds = odds_row(race) if not race.setback else "Odds: all 1 to 1"
    if entry is not None and entry.what == "max_bet":
        return rows(
            [odds, f"{short(race.croupier, 10)}: max bet", f"< {entry.amount} >", "Turn, push: ok"]
        )
    if entry is not None:
        horse = "*" if entry.horse_chosen else "-"
        return rows(
            [
                odds,
                spread(f"{short(entry.player, 12)}: bet", f"max {entry.limit}"),
                spread(f"Horse {horse}", f"stake < {entry.amount} >"),
                "Push, no horse: pass",
            ]
        )
    return rows(
        [
            odds,
            f"{short(race.croupier, 10)}: turn cards",
            bets_sealed(race),
            f"Max bet {race.max_bet}",
        ]
    )


def bets_sealed(race: Race) -> str:
    """How many bets are in, never what they are."""
    count = len(race.bettors)
    return f"{count} bet{'' if count == 1 else 's'}: {SEALED}" if count else "No bets yet"


def result_pages(race: Race, prompt: str) -> list[tuple[str, ...]]:
    """The winner and every bet revealed, then the balances."""
    winner = suit(race.winner) if race.winner else "?"
    first = rows(
        [
            f"{winner} wins race {race.number}!",
            spread(f"Bank {short(race.croupier, 10)}", signed(race.croupier_change)),
            name_score_row([(p.player, signed(p.change)) for p in race.payouts]) or "No bets",
            prompt,
        ]
    )
    pages = [first]
    for start in range(0, len(race.payouts), 2):
        lines = []
        for p in race.payouts[start : start + 2]:
            lines.append(f"{short(p.player, 10)}: {suit(p.horse)} {p.stake}")
            lines.append(f"  {'won' if p.change > 0 else 'lost'} {abs(p.change)}")
        pages.append(rows(lines))
    pages.append(balance_page(race, prompt))
    return pages


def balance_page(race: Race, prompt: str) -> tuple[str, ...]:
    """Every player's chips."""
    pairs = [(p, race.balances.get(p, 0)) for p in race.players]
    text = name_score_row(pairs, 40)
    return rows(["Chips:", *wrap(text, rows=2), prompt])


def final_pages(race: Race) -> list[tuple[str, ...]]:
    """The final ranking, three players a page, then the last race's result."""
    lines = [f"{place}. {short(name, 12)} {chips}" for place, name, chips in race.ranking]
    pages = [
        rows(["Game over!" if start == 0 else "Ranking:", *lines[start : start + 3]])
        for start in range(0, max(1, len(lines)), 3)
    ]
    return pages + result_pages(race, "Push: menu")


def oled(race: Race, entry: Entry | None) -> Oled:
    """The odds with each horse's chance, or the winner, or whose bet it is."""
    if entry is not None and entry.what == "bet":
        return Oled(lines=(short(entry.player, 10), "bets"))
    if race.phase in ("betting", "racing") and race.odds:
        lines = []
        for h in HORSES:
            odds = "1" if race.setback else str(race.odds.get(h) or "-")
            chance = race.chances.get(h)
            shown = f"{chance * 100:4.1f}%" if chance is not None else ""
            lines.append(f"{suit(h)} {odds:>2}:1 {shown}")
        return Oled(lines=tuple(lines))
    if race.phase == "race_over" and race.winner:
        return Oled(lines=(f"{suit(race.winner)} wins",))
    if race.phase == "game_over":
        top = [name for place, name, _ in race.ranking if place == 1]
        return Oled(lines=(short(top[0], 10), "wins!") if len(top) == 1 else ("A tie!",))
    if race.phase in ("dealing", "redeal"):
        return Oled(lines=("Course", f"{len(race.course)}/{race.course_length}"))
    return Oled()


def leds(race: Race, layout: LaneLeds) -> tuple[RGB, ...]:
    """Four lanes: each horse lit on its position in its suit's colour, its lane dimly marked."""
    lit: dict[int, RGB] = {}
    for h in HORSES:
        lane = layout.lanes.get(h, ())
        finish = min(race.finish, len(lane) - 1)
        for position in range(finish + 1):
            led = layout.led(h, position)
            if led is not None:
                lit[led] = LANE_MARK
        last = layout.led(h, len(lane) - 1)
        if last is not None:
            lit[last] = dim(SUIT_COLOURS[h], 0.1)
        at = race.positions.get(h, 0)
        led = layout.led(h, len(lane) - 1 if at >= race.finish else at)
        if led is not None:
            lit[led] = SUIT_COLOURS[h]
    return frame(layout.count, lit)


def lane_path(layout: LaneLeds, horse: str, start: int, end: int, finish: int) -> tuple[int, ...]:
    """The LEDs a horse walks over from ``start`` to ``end`` (forward or back)."""
    lane = layout.lanes.get(horse, ())
    step = 1 if end >= start else -1
    out: list[int] = []
    for position in range(start + step, end + step, step):
        shown = len(lane) - 1 if position >= finish else position
        led = layout.led(horse, shown)
        if led is not None:
            out.append(led)
    return tuple(out)


def screen(race: Race, entry: Entry | None, layout: LaneLeds, page: int = 0) -> Screen:
    """The whole picture."""
    return Screen(lcd(race, entry, page), oled(race, entry), leds(race, layout))
