"""Course hippique on the pages: lanes, odds and chances, chips; bets and the croupier's cards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.course_hippique import (
    CourseHippiqueBoard,
    CourseHippiqueGame,
    CourseHippiquePrivate,
    RaceChances,
)
from companion.games.errors import Refusal
from companion.render.language import figure, percent, word
from companion.render.text import rank_letter
from companion.session.session import Session
from companion.session.view import PrivateDetails, PublicBoard
from companion.web.games import GamePages
from companion.web.html import card_picker, e, entry_form, grid, lane, select, stepper
from companion.web.shared import ExtraWork, Public, Series, running
from companion.web.words import marked, t

SUITS = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True)
class Chance:
    """A horse's chance of winning the race from here (beside its odds)."""

    horse: str
    probability: float
    #: The exact fraction ("7/20"), or "" for an estimate (the setback variant).
    fraction: str = ""


@dataclass(frozen=True)
class Chances:
    """Every horse's chance, the game's extras on the pages (``Public.extras``)."""

    horses: tuple[Chance, ...]


def chances_of(state: Public) -> tuple[Chance, ...]:
    """The chances the state carries: () before the course is laid, once the race is won, or
    while an estimate is being worked out."""
    return state.extras.horses if isinstance(state.extras, Chances) else ()


#: The game's phases in the pages' words.
PHASES = {
    "dealing": marked("dealing the course"),
    "redeal": marked("dealing the course again"),
    "betting": marked("betting"),
    "racing": marked("racing"),
    "race_over": marked("race over"),
    "game_over": marked("game over"),
}

#: The largest stake before the croupier sets it.
NOT_SET = "—"

#: Simulated endings behind a setback estimate on the pages (a standard error of about 1.5
#: points of chance; `companion odds` gives a finer one).
SAMPLES = 1000


def playing_cards() -> list[tuple[str, str]]:
    """The 48 cards of a pack but the aces (the horses), as (code, label), suit by suit; the
    label's rank as the table's language prints it (``D♠`` for ``QS`` in French)."""
    return [(f"{r}{s}", f"{rank_letter(r)}{SUITS[s][0]}") for s in SUITS for r in RANKS]


def _suit(letter: str) -> str:
    """A horse (a suit) in the table's language: ``♥ cœurs``."""
    symbol, _, name = SUITS.get(letter, letter).partition(" ")
    return f"{symbol} {word(name)}" if name else symbol


def board_html(state: Public) -> str:
    """The croupier and stakes, the lanes, the odds with the chances, chips and the bets."""
    board = state.board
    if not isinstance(board, CourseHippiqueBoard):
        return ""
    finish = board.finish or 8
    lanes = "".join(lane(_suit(s.letter), v, finish) for s, v in board.positions.items())
    odds = _odds({s.letter: v for s, v in board.odds.items()}, chances_of(state))
    info = t("Croupier: {croupier} · largest stake: {stake} · cards left: {left}").format(
        croupier=board.croupier,
        stake=NOT_SET if board.max_bet is None else figure(board.max_bet),
        left=board.cards_left,
    )
    info = f"<p>{e(info)}</p>"
    chips = ((p, figure(v)) for p, v in board.balances.items())
    balances = grid((t("player"), t("chips")), chips, "scores")
    bets = board.bets
    reveal = (
        grid(
            (t("player"), t("horse"), t("stake")),
            ((b.player, _suit(b.horse.letter), figure(b.stake)) for b in bets),
            "reveal",
        )
        if bets
        else ""
    )
    return info + f'<div class="track">{lanes}</div>' + odds + balances + reveal


def _percent(chance: Chance) -> str:
    """A chance as the pages say it in the table's language: ``18.7%`` (exact) or ``≈ 18.7%``
    (an estimate); ``18,7 %`` in French."""
    return ("" if chance.fraction else "≈ ") + percent(chance.probability)


def _odds(odds: dict[str, int | None], chances: Sequence[Chance]) -> str:
    """The odds the croupier pays, and beside them each horse's chance of winning from here."""
    if not chances:
        announced = ((_suit(h), _to_one(v)) for h, v in odds.items())
        return grid((t("horse"), t("odds")), announced, "odds")
    estimate = t("estimate")
    rows = "".join(
        f"<tr><td>{e(_suit(c.horse))}</td><td>{e(_to_one(odds.get(c.horse)))}</td>"
        f'<td class="chance" title="{e(c.fraction or estimate)}">{e(_percent(c))}</td></tr>'
        for c in chances
    )
    exact = all(c.fraction for c in chances)
    said = (
        t("Chances of winning from here, exact.")
        if exact
        else t("Chances of winning from here: an estimate (the course lies face down).")
    )
    head = "".join(f"<th>{e(h)}</th>" for h in (t("horse"), t("odds"), t("chance")))
    return f'<table class="odds"><tr>{head}</tr>{rows}</table><p class="note">{e(said)}</p>'


def _to_one(odds: int | None) -> str:
    """Odds as the croupier announces them: ``5 to 1``."""
    return t("{odds} to 1").format(odds=odds)


def seat_html(player: str, details: PrivateDetails, state: Public) -> str:
    """``player``'s chips and sealed bet; the forms to bet, set the stake and lay or turn cards."""
    view, board = state.view, state.board
    if not isinstance(board, CourseHippiqueBoard) or not isinstance(details, CourseHippiquePrivate):
        return ""
    chips = t("Your chips: {chips}").format(chips=figure(details.balance))
    parts = [f'<p class="secret">{e(chips)}</p>']
    bet = details.bet
    if bet:
        said = t("Your bet: {stake} on {horse}").format(
            stake=figure(bet.stake), horse=_suit(bet.horse.letter)
        )
        parts.append(f'<p class="secret">{e(said)}</p>')
    phase = view.get("phase")
    croupier = board.croupier
    if phase == "betting" and player != croupier:
        chance = {
            c.horse: t(", chance {chance}").format(chance=_percent(c)) for c in chances_of(state)
        }
        odds = {s.letter: v for s, v in board.odds.items()}
        horses = ((h, f"{_suit(h)} — {_to_one(odds.get(h))}{chance.get(h, '')}") for h in SUITS)
        fields = select("horse", horses, t("Horse")) + stepper("stake", t("Stake"), board.max_bet)
        parts.append(entry_form("bet", t("Place my bet"), fields))
    if player == croupier and phase == "betting":
        parts.append(
            entry_form(
                "set_max_bet", t("Set the largest stake"), stepper("amount", t("Amount"), None)
            )
        )
    seen = {c.code for c in board.turned}
    if phase != "redeal":  # a course dealt again is laid from the whole pack
        seen |= {c.code for c in board.course if c is not None}
    cards = [(code, label) for code, label in playing_cards() if code not in seen]
    if player == croupier and phase in ("dealing", "redeal"):
        parts.append(
            "<h3>"
            + e(t("Lay the course: tap its cards in row order"))
            + "</h3>"
            + entry_form("deal_course", t("Lay these cards"), _sequence(cards), " sequence")
        )
    if player == croupier and phase in ("racing", "betting"):
        parts.append("<h3>" + e(t("Turn a card")) + "</h3>" + card_picker("turn_card", cards))
    return "".join(parts)


def _sequence(cards: Iterable[tuple[str, str]]) -> str:
    """A picker whose taps add up, in order, to one input (the page's script keeps the row)."""
    buttons = "".join(
        f'<button type="button" class="pick" value="{e(code)}">{e(label)}</button>'
        for code, label in cards
    )
    row = e(t("Row:"))
    return (
        '<input type="hidden" name="cards" value="">'
        f'<p class="row">{row} <span></span></p><div class="picker">{buttons}</div>'
    )


def chart(
    players: tuple[str, ...], board: PublicBoard, options: Mapping[str, Any]
) -> tuple[str, tuple[Series, ...]]:
    """Each player's chips race by race, from the starting chips."""
    if not isinstance(board, CourseHippiqueBoard):
        return "points", ()
    chips = int(options.get("starting_chips", 100))
    return "chips", tuple(
        Series(p, running(chips, [r.change(p) for r in board.results])) for p in players
    )


def chances(session: Session) -> ExtraWork | None:
    """The race's chances as the engine computes them (exact, or in the setback variant a
    seeded estimate, too slow for the loop's thread), keyed by the cards laid and turned; None
    before a race or once won."""
    table = session.table
    game = getattr(table.binding, "game", None) if table is not None else None
    if not isinstance(game, CourseHippiqueGame) or game.winner is not None:
        return None
    key = (session.game_id, game.race_number, game.course, game.turned)
    work = game.chances_as_now(samples=SAMPLES)
    return ExtraWork(key, lambda: _chances(work), slow=game.options.setback is not None)


def _chances(work: Callable[[], RaceChances]) -> Chances | None:
    try:
        found = work()
    except Refusal:  # no usable course yet
        return None
    return Chances(
        tuple(
            Chance(h.horse.letter, h.probability, "" if h.exact is None else str(h.exact))
            for h in found.horses
        )
    )


PAGES = GamePages(board=board_html, seat=seat_html, chart=chart, phases=PHASES, extras=chances)
