"""Course hippique on the pages: lanes, odds and chances, chips; bets and the croupier's cards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.games.cards import Card
from companion.games.course_hippique import (
    CourseBet,
    CourseHippiqueBoard,
    CourseHippiqueGame,
    CourseHippiquePrivate,
    RaceChances,
)
from companion.games.errors import Refusal
from companion.render.language import current, figure, percent, word
from companion.render.leds import SUIT_COLOURS as LED_COLOURS
from companion.render.text import rank_letter
from companion.session.bindings.course_hippique import max_bet_start, stake_start
from companion.session.offers import Offers
from companion.session.session import Session
from companion.session.view import PrivateDetails, PublicBoard
from companion.web.games import GamePages
from companion.web.html import (
    Chip,
    PickedCard,
    card_button,
    card_picker,
    chips,
    dot,
    e,
    entry_form,
    grid,
    lane,
    stepper,
)
from companion.web.shared import ExtraWork, Finisher, Public, Series, running
from companion.web.track import Runner, podium_spot, podium_svg, runners_svg, track_html
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


def status(view: Mapping[str, Any], offers: Offers) -> tuple[str, str | None]:
    """The phase and turn as the table shows them. The engine calls every moment before the
    race's first card ``betting``; once the max bet is set and every player has bet or
    passed, the table asks the croupier for that card (the LCD says so): the race is on."""
    phase, turn = str(view.get("phase", "")), view.get("turn") or None
    if view.get("waiting_for"):
        return phase, None
    if phase == "betting" and offers.takes("turn_card"):
        return "racing", turn
    return phase, turn


def playing_cards() -> list[PickedCard]:
    """The 48 cards of a pack but the aces (the horses), as (code, label, the colour of the
    suit's horse), suit by suit; the label's rank as the table's language prints it (``D♠``
    for ``QS`` in French)."""
    return [
        (f"{r}{s}", f"{rank_letter(r)}{SUITS[s][0]}", horse_colour(s)) for s in SUITS for r in RANKS
    ]


def horse_colour(letter: str) -> str:
    """A horse's colour (``#rrggbb``): its suit's colour on the LED strip."""
    red, green, blue = LED_COLOURS[letter]
    return f"#{red:02x}{green:02x}{blue:02x}"


def _suit(letter: str) -> str:
    """A horse (a suit) in the table's language: ``♥ cœurs``."""
    symbol, _, name = SUITS.get(letter, letter).partition(" ")
    return f"{symbol} {word(name)}" if name else symbol


def board_html(state: Public) -> str:
    """The croupier and stakes, the lanes, the chips with the bets once they are public and,
    at a race's end, what each player won or lost."""
    board = state.board
    if not isinstance(board, CourseHippiqueBoard):
        return ""
    finish = board.finish or 8
    lanes = "".join(
        lane(_suit(s.letter), v, finish, horse_colour(s.letter)) for s, v in board.positions.items()
    )
    info = t("Croupier: {croupier} · largest stake: {stake} · cards left: {left}").format(
        croupier=board.croupier,
        stake=NOT_SET if board.max_bet is None else figure(board.max_bet),
        left=board.cards_left,
    )
    info = f"<p>{e(info)}</p>"
    over = state.view.get("phase") in ("race_over", "game_over") and board.results
    last = board.results[-1] if over else None
    bets = {b.player: b for b in (last.bets if last is not None else board.bets)}
    croupier = last.croupier if last is not None else board.croupier
    head = (t("player"), t("chips"), t("bet")) + ((t("change"),) if last is not None else ())
    rows = []
    for player, held in board.balances.items():
        bet = bets.get(player)
        said = t("croupier") if player == croupier else _bet_words(bet)
        row: tuple[str, ...] = (player, figure(held), said)
        if last is not None:
            change = last.change(player)
            row += (figure(change, signed=change != 0),)
        rows.append(row)
    return info + f'<div class="track">{lanes}</div>' + grid(head, rows, "scores")


def _bet_words(bet: CourseBet | None) -> str:
    """A bet in the table's language: ``♥ hearts 10``; nothing for none."""
    return "" if bet is None else f"{_suit(bet.horse.letter)} {figure(bet.stake)}"


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
    balance = t("Your chips: {chips}").format(chips=figure(details.balance))
    parts = [f'<p class="secret">{e(balance)}</p>']
    bet = details.bet
    if bet:
        said = t("Your bet: {stake} on {horse}").format(
            stake=figure(bet.stake), horse=_suit(bet.horse.letter)
        )
        colour = dot(horse_colour(bet.horse.letter))
        parts.append(f'<p class="secret sealed">{colour}{e(said)}</p>')
    phase = view.get("phase")
    offers = state.offers
    bet_offer = offers.find("bet", player)
    if bet_offer is not None:  # a bet is placed once, after the max bet, before the first card
        chance = {
            c.horse: t(", chance {chance}").format(chance=_percent(c)) for c in chances_of(state)
        }
        odds = {s.letter: v for s, v in board.odds.items()}
        horses = (
            Chip(h, f"{_suit(h)} — {_to_one(odds.get(h))}{chance.get(h, '')}", horse_colour(h))
            for h in bet_offer.horses
        )
        stake = stepper("stake", t("Stake"), bet_offer.most, value=stake_start(board, player))
        fields = chips(["horse"], horses, t("Horse")) + stake
        parts.append(entry_form("bet", t("Place my bet"), fields))
    if offers.takes("pass", player):
        parts.append(entry_form("pass", t("No bet this race"), ""))
    if offers.find("set_max_bet", player) is not None:
        parts.append(
            entry_form(
                "set_max_bet",
                t("Set the largest stake"),
                stepper("amount", t("Amount"), None, value=max_bet_start(board)),
            )
        )
    seen = {c.code for c in board.turned}
    if phase != "redeal":  # a course dealt again is laid from the whole pack
        seen |= {c.code for c in board.course if c is not None}
    cards = [card for card in playing_cards() if card[0] not in seen]
    if offers.find("deal_course", player) is not None:
        parts.append(
            "<h3>"
            + e(t("Lay the course: tap its cards in row order"))
            + "</h3>"
            + entry_form("deal_course", t("Lay these cards"), _sequence(cards), " sequence")
        )
    if offers.find("turn_card", player) is not None:
        parts.append("<h3>" + e(t("Turn a card")) + "</h3>" + card_picker("turn_card", cards))
    return "".join(parts)


def _sequence(cards: Iterable[PickedCard]) -> str:
    """A picker whose taps add up, in order, to one input (the page's script keeps the row)."""
    buttons = "".join(card_button(card, 'type="button" class="pick"') for card in cards)
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


#: The track's drawing: the course cards in a row above four lanes, a column per position
#: (0 the start line), the podium past the finish, the cards turned this race below; each
#: lane named by its suit's sign.
LEFT, CELL, LANE_TOP, LANE_H, CARD_W, CARD_H = 90.0, 96.0, 170.0, 88.0, 78.0, 104.0
#: Room on the right of the lanes for the podium.
PODIUM_ROOM = 290.0
#: How many of the cards turned this race the drawing shows (the newest last).
TURNED_SHOWN = 11


def _cell(position: int, lane: int) -> tuple[float, float]:
    return (LEFT + position * CELL + CELL / 2, LANE_TOP + lane * LANE_H + LANE_H / 2)


def _card_svg(x: float, y: float, card: Card | None, cls: str = "") -> str:
    """A card at ``(x, y)`` (its top left): its rank and suit, or its back when face down."""
    if card is None:
        return (
            f'<g class="card down"><rect x="{x:.0f}" y="{y:.0f}" width="{CARD_W:.0f}" '
            f'height="{CARD_H:.0f}" rx="8"/></g>'
        )
    red = " red" if card.suit.letter in ("H", "D") else ""
    said = rank_letter(card.rank.letter) + card.suit.symbol
    return (
        f'<g class="card{red}{cls}" data-card="{e(card.code)}"><rect x="{x:.0f}" y="{y:.0f}" '
        f'width="{CARD_W:.0f}" height="{CARD_H:.0f}" rx="8"/><text x="{x + CARD_W / 2:.0f}" '
        f'y="{y + 64:.0f}" text-anchor="middle">{e(said)}</text></g>'
    )


def _narrated(board: CourseHippiqueBoard) -> str:
    """The last card turned, and where its suit's horse stands now."""
    if not board.turned:
        return ""
    card = board.turned[-1]
    position = next((v for s, v in board.positions.items() if s == card.suit), 0)
    return t("{card} turned: {horse} on {position}.").format(
        card=rank_letter(card.rank.letter) + card.suit.symbol,
        horse=_suit(card.suit.letter),
        position=position,
    )


@lru_cache(maxsize=8)
def _lanes(finish: int, letters: tuple[str, ...], language: str) -> str:
    """The four lanes without their horses, the finish line and the podium (drawn once per
    course length and language)."""
    width = LEFT + (finish + 1) * CELL + PODIUM_ROOM
    parts = []
    for row, letter in enumerate(letters):
        y = LANE_TOP + row * LANE_H
        sign = SUITS.get(letter, letter)[0]
        parts.append(
            f'<rect class="lane-bg" x="{LEFT:.0f}" y="{y + 4:.0f}" '
            f'width="{(finish + 1) * CELL:.0f}" height="{LANE_H - 8:.0f}" rx="10"/>'
            f'<text class="label suit" x="{LEFT - 14:.0f}" y="{y + LANE_H / 2 + 14:.0f}" '
            f'text-anchor="end"><title>{e(_suit(letter))}</title>{e(sign)}</text>'
        )
        for at in range(finish + 1):
            x, middle = _cell(at, row)
            parts.append(
                f'<g class="sq" data-place="{letter}-{at}"><rect x="{x - 34:.0f}" '
                f'y="{middle - 34:.0f}" width="68" height="68" rx="8"/></g>'
            )
    line = LEFT + finish * CELL
    parts.append(
        f'<line class="finish-line" x1="{line:.0f}" y1="{LANE_TOP - 10:.0f}" x2="{line:.0f}" '
        f'y2="{LANE_TOP + 4 * LANE_H + 10:.0f}"/>'
    )
    parts.append(podium_svg(width - PODIUM_ROOM / 2, 240, (t("1st"), t("2nd"), t("3rd"))))
    return "".join(parts)


def track(state: Public) -> str:
    """The TV's track: the course cards (face down until turned), the four lanes with every
    horse at its position, the winner on the podium, the cards turned this race."""
    board = state.board
    if not isinstance(board, CourseHippiqueBoard):
        return ""
    finish = board.finish or 8
    width = LEFT + (finish + 1) * CELL + PODIUM_ROOM
    letters = tuple(suit.letter for suit in board.positions)
    parts = [_lanes(finish, letters, current())]
    parts.extend(
        _card_svg(LEFT + row * CELL + (CELL - CARD_W) / 2, 30, card)
        for row, card in enumerate(board.course, start=1)
    )
    runners = []
    for row, (suit, position) in enumerate(board.positions.items()):
        letter = suit.letter
        colour = horse_colour(letter)
        if board.winner == suit:
            spot, where = podium_spot(width - PODIUM_ROOM / 2, 240, 1), "podium-1"
        else:
            spot, where = _cell(position, row), f"{letter}-{position}"
        runners.append(Runner(letter, _suit(letter), colour, spot, where))
    turned = board.turned[-TURNED_SHOWN:]
    if turned:  # named above their row
        top = LANE_TOP + 4 * LANE_H + 20
        said = e(t("turned"))
        parts.append(f'<text class="label" x="{LEFT:.0f}" y="{top + 30:.0f}">{said}</text>')
        parts.extend(
            _card_svg(
                LEFT + i * (CARD_W + 10), top + 44, card, " turned" if i == len(turned) - 1 else ""
            )
            for i, card in enumerate(turned)
        )
    drawing = "".join(parts) + runners_svg(runners, 32)
    over = state.view.get("phase") in ("race_over", "game_over")
    cheer = f"{board.races}-{state.view.get('phase')}" if over else ""
    box = f"0 0 {width:.0f} {LANE_TOP + 4 * LANE_H + 180:.0f}"
    odds = _odds({s.letter: v for s, v in board.odds.items()}, chances_of(state))
    return track_html(
        "course_hippique", box, t("The track"), drawing, _narrated(board), cheer, odds
    )


def finishers(state: Public) -> tuple[Finisher, ...]:
    """The horse that won the race just over (the only place Course hippique pays)."""
    board = state.board
    if not isinstance(board, CourseHippiqueBoard) or state.view.get("phase") != "race_over":
        return ()
    winner = board.winner or (board.results[-1].winner if board.results else None)
    if winner is None:
        return ()
    return (Finisher(1, _suit(winner.letter), horse_colour(winner.letter)),)


PAGES = GamePages(
    board=board_html,
    seat=seat_html,
    chart=chart,
    phases=PHASES,
    extras=chances,
    status=status,
    track=track,
    finishers=finishers,
)
