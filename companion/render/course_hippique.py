"""Course hippique on the displays: the course, odds and chances, sealed bets, the four lanes.

The renderer draws ``RaceFacts``, the public facts of the race as plain data, and
``StakeDraft``, what is being entered at the table (the max bet the croupier dials, or a
bet). A bet in progress shows its stake (the encoder needs it) but never its horse; a placed
bet is ``***`` until the race is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.games.course_hippique import GAME
from companion.render.language import _, decimal, ngettext
from companion.render.layout import LaneLeds
from companion.render.leds import LANE_MARK, RGB, SUIT_COLOURS, dim, frame
from companion.render.memo import last_drawn
from companion.render.screen import OledScreen, Screen
from companion.render.text import (
    COLS,
    MARK,
    NAME_LEAST,
    SEALED,
    buttons_row,
    card_text,
    first_fit,
    grid,
    name_list,
    name_score_row,
    named,
    numbered,
    page_of,
    rows,
    short,
    signed,
    spread,
    spread_name,
    suit,
    winners_row,
)

HORSES = GAME.horses


@dataclass(frozen=True)
class RevealedBet:
    """One revealed bet: who, on which horse, how much, and what it won or lost (once over)."""

    player: str
    horse: str
    stake: int
    change: int = 0


@dataclass(frozen=True)
class RaceFacts:
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
    bets: tuple[RevealedBet, ...] = ()
    positions: Mapping[str, int] = field(default_factory=dict)
    finish: int = 8
    last_card: str | None = None
    pending_row: int | None = None
    winner: str | None = None
    balances: Mapping[str, int] = field(default_factory=dict)
    payouts: tuple[RevealedBet, ...] = ()
    croupier_change: int = 0
    ranking: tuple[tuple[int, str, int], ...] = ()


@dataclass(frozen=True)
class StakeDraft:
    """What the table is entering: the croupier's max bet, or one player's bet."""

    player: str
    what: str  # "max_bet" or "bet"
    amount: int
    horse_chosen: bool = False
    limit: int = 0


def odds_row(race: RaceFacts) -> str:
    """The odds in one row: ``♠3:1 ♥2:1 ♦1:1 ♣5:1``."""
    return " ".join(f"{suit(h)}{race.odds.get(h) or '-'}:1" for h in HORSES)


def positions_row(race: RaceFacts) -> str:
    """Where each horse stands: ``♠2 ♥5 ♦1 ♣3 of 8``."""
    parts = [f"{suit(h)}{race.positions.get(h, 0)}" for h in HORSES]
    return " ".join(parts) + _(" of {finish}").format(finish=race.finish)


def title_row(race: RaceFacts) -> str:
    """The race and its croupier (the bank): ``Race 2/5  bank Anna``.

    When the words leave the croupier's name fewer than three letters, the race is told by
    its numbers alone (``2/10  banque Chloé``).
    """
    left = _("Race {number}/{races}").format(number=race.number, races=race.races)
    bank = _("bank ")
    if COLS - len(left) - 1 - len(bank) < NAME_LEAST:
        left = f"{race.number}/{race.races}"
    return spread(left, bank + short(race.croupier, COLS - len(left) - 1 - len(bank)))


def bets_row(race: RaceFacts) -> str:
    """The bets of the race once revealed: each player's horse and stake, or, when they do
    not fit one row, the stakes on each horse."""
    if not race.bets:
        return _("No bets")
    per_horse = " ".join(
        f"{suit(h)}{sum(b.stake for b in race.bets if b.horse == h)}" for h in HORSES
    )
    return name_score_row(
        [(b.player, f"{suit(b.horse)}{b.stake}") for b in race.bets],
        fallback=first_fit([_("Bets {stakes}").format(stakes=per_horse), per_horse]),
    )


def lcd(
    race: RaceFacts, entry: StakeDraft | None, page: int = 0, dialled: bool = False
) -> tuple[str, ...]:
    """Return the four LCD rows (``dialled``: cards are dialled, no card reader)."""
    title = title_row(race)
    if race.phase == "dealing":
        cards = [card_text(c) for c in race.course]
        laid = name_list(cards, lines=2, sep=" ", fixed=cards) or ()
        prompt = (
            _("Dial course card {number}/{length}")
            if dialled
            else _("Scan course card {number}/{length}")
        )
        scan = prompt.format(number=len(race.course) + 1, length=race.course_length)
        return rows([title, scan, *laid])
    if race.phase == "redeal":
        full = max(HORSES, key=lambda h: sum(1 for c in race.course if c.endswith(h)))
        count = sum(1 for c in race.course if c.endswith(full))
        return rows(
            [
                title,
                _("Redeal: {count} {suit} dealt").format(count=count, suit=suit(full)),
                _("Shuffle, scan a new"),
                _("course of {length} cards").format(length=race.course_length),
            ]
        )
    if race.phase == "betting":
        return _betting_rows(race, entry)
    if race.phase == "racing":
        if race.pending_row is not None:
            todo = _("Turn row {row}'s card").format(row=race.pending_row)
        elif race.last_card:
            todo = _("Turned {card}").format(card=card_text(race.last_card))
        else:
            todo = _("Turn a card")
        return rows([title, positions_row(race), todo, bets_row(race)])
    if race.phase == "race_over":
        prompt = _("Push: race {number}").format(number=race.number + 1)
        return page_of(result_pages(race, prompt), page)
    if race.phase == "game_over":
        return page_of(final_pages(race), page)
    return rows([title, race.phase])


def _betting_rows(race: RaceFacts, entry: StakeDraft | None) -> tuple[str, ...]:
    odds = odds_row(race) if not race.setback else _("Odds: all 1 to 1")
    if entry is not None and entry.what == "max_bet":
        return rows(
            [
                odds,
                named(race.croupier, _(": max bet")),
                f"< {entry.amount} >",
                _("Turn, push: ok"),
            ]
        )
    if entry is not None:
        horse = "*" if entry.horse_chosen else "-"
        return rows(
            [
                odds,
                spread_name(entry.player, _(": bet"), _("max {limit}").format(limit=entry.limit)),
                spread(
                    _("Horse {horse}").format(horse=horse),
                    _("stake < {amount} >").format(amount=entry.amount),
                ),
                _("Push, no horse: pass"),
            ]
        )
    return rows(
        [
            odds,
            named(race.croupier, _(": turn cards")),
            bets_sealed(race),
            _("Max bet {amount}").format(amount=race.max_bet),
        ]
    )


def bets_sealed(race: RaceFacts) -> str:
    """How many bets are in, never what they are."""
    count = len(race.bettors)
    if not count:
        return _("No bets yet")
    return ngettext("{count} bet: {sealed}", "{count} bets: {sealed}", count).format(
        count=count, sealed=SEALED
    )


def result_pages(race: RaceFacts, prompt: str) -> list[tuple[str, ...]]:
    """The winner and what each bet brought, every bet revealed, then the chips."""
    return numbered(_result_pages(race, prompt))


def _result_pages(race: RaceFacts, prompt: str) -> list[list[str]]:
    winner = suit(race.winner) if race.winner else "?"
    changes = [(p.player, signed(p.change)) for p in race.payouts]
    bank = signed(race.croupier_change)
    first = [
        _("{winner} wins race {number}!").format(winner=winner, number=race.number),
        spread(_("Bank ") + short(race.croupier, COLS - 1 - len(_("Bank ")) - len(bank)), bank),
        name_score_row(changes, fallback=_("Turn: each bet")) if changes else _("No bets"),
        prompt,
    ]
    pages = [first]
    for start in range(0, len(race.payouts), 2):
        lines = []
        for index, p in enumerate(race.payouts[start : start + 2]):
            width = COLS - MARK if index == 0 else COLS
            lines.append(named(p.player, f": {suit(p.horse)} {p.stake}", width))
            said = _("  won {amount}") if p.change > 0 else _("  lost {amount}")
            lines.append(said.format(amount=abs(p.change)))
        pages.append(lines)
    pages.extend(balance_pages(race))
    return pages


def balance_pages(race: RaceFacts) -> list[list[str]]:
    """Every player's chips: one a row for three players, else two a row, pages of six."""
    pairs = [(p, race.balances.get(p, 0)) for p in race.players]
    laid = grid(pairs) if len(pairs) > 3 else None
    if laid is None:
        laid = [spread(short(p, COLS - len(str(c)) - 1), str(c)) for p, c in pairs]
    return [[_("Chips"), *laid[start : start + 3]] for start in range(0, len(laid), 3)]


def final_pages(race: RaceFacts) -> list[tuple[str, ...]]:
    """The winner and the final ranking, then the last race's result."""
    return numbered(end_pages(race))


def end_pages(race: RaceFacts) -> list[list[str]]:
    """The pages of ``final_pages``, not numbered yet."""
    lines = [
        f"{place}. " + named(name, f" {chips}", COLS - len(f"{place}. "))
        for place, name, chips in race.ranking
    ]
    top = [name for place, name, _chips in race.ranking if place == 1]
    pages = [[_("Game over!"), winners_row(top), *lines[:2]]]
    pages += [[_("Ranking"), *lines[start : start + 3]] for start in range(2, len(lines), 3)]
    return pages + _result_pages(race, _("Push: menu"))


def oled(race: RaceFacts, entry: StakeDraft | None) -> OledScreen:
    """The odds with each horse's chance, or the winner, or whose bet it is."""
    if entry is not None and entry.what == "bet":
        return OledScreen(
            lines=(short(entry.player, 10), _("bets"), buttons_row([suit(h) for h in HORSES]))
        )
    if race.phase in ("betting", "racing") and race.odds:
        lines = []
        for h in HORSES:
            odds = "1" if race.setback else str(race.odds.get(h) or "-")
            chance = race.chances.get(h)
            shown = decimal(chance * 100).rjust(4) + "%" if chance is not None else ""
            lines.append(f"{suit(h)} {odds:>2}:1 {shown}")
        return OledScreen(lines=tuple(lines))
    if race.phase == "race_over" and race.winner:
        return OledScreen(lines=(_("{winner} wins").format(winner=suit(race.winner)),))
    if race.phase == "game_over":
        top = [name for place, name, _ in race.ranking if place == 1]
        return OledScreen(
            lines=(short(top[0], 10), _("wins!")) if len(top) == 1 else (_("A tie!"),)
        )
    if race.phase in ("dealing", "redeal"):
        return OledScreen(lines=(_("Course"), f"{len(race.course)}/{race.course_length}"))
    return OledScreen()


@last_drawn
def leds(race: RaceFacts, layout: LaneLeds) -> tuple[RGB, ...]:
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


@last_drawn
def screen(
    race: RaceFacts,
    entry: StakeDraft | None,
    layout: LaneLeds,
    page: int = 0,
    dialled: bool = False,
) -> Screen:
    """The whole picture (``dialled``: cards are dialled, no card reader)."""
    return Screen(lcd(race, entry, page, dialled), oled(race, entry), leds(race, layout))
