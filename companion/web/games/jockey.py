"""Jockey on the pages: lanes, balances and payouts; bets, hands counted and cards tapped.

A Jockey card is tapped by its kind (``red +7``), as a player holding the card sees it: the
copy (``red+7#2``) is the table's bookkeeping, so the companion gives the tap a copy that is
free (in the player's hand when hands are tracked; not yet on the pile when they are not).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.games.info import Option
from companion.games.jockey import (
    HORSES,
    BetKind,
    Deck,
    JockeyBet,
    JockeyBoard,
    JockeyOptions,
    JockeyPrivate,
)
from companion.render.language import card_label, current, figure, say, word
from companion.session.bindings.jockey import stake_start
from companion.session.offers import Offers
from companion.session.view import PrivateDetails, PublicBoard
from companion.web.games import GamePages, SeatSight
from companion.web.html import Chip, card_picker, chips, e, entry_form, grid, lane, stepper
from companion.web.inputs import PageRefusal
from companion.web.shapes import whole
from companion.web.shared import Finisher, Public, Series, running
from companion.web.track import Point, Runner, podium_spot, podium_svg, runners_svg, track_html
from companion.web.words import marked, t, tn, typeset

#: The game's phases in the pages' words.
PHASES = {
    "betting": marked("betting"),
    "racing": marked("racing"),
    "race_over": marked("race over"),
    "game_over": marked("game over"),
}
#: The kinds of bet, in the rulebook's order: the bet form offers them as the knob does.
BET_KINDS = tuple(kind.value for kind in BetKind)


@dataclass(frozen=True)
class PickerRow:
    """One kind of card as a picker shows it: its name, its label in the table's language, and
    how many of it (copies in the deck, cards in a hand, or cards still to play)."""

    kind: str
    label: str
    count: int
    #: The horse a colour card moves (its colour word), None for a neutral card.
    colour: str | None = None


def status(view: Mapping[str, Any], offers: Offers) -> tuple[str, str | None]:
    """The phase and turn as the table shows them. The engine calls every moment before a
    race's first card ``betting``; once nobody is waited for (every bet in, every hand
    counted) the table asks for that card, so the race is on and the turn is its starter's.
    While bets are awaited, nobody has a turn: the ones waited for are named instead."""
    phase, turn = str(view.get("phase", "")), view.get("turn") or None
    if phase != "betting":
        return phase, turn
    if view.get("waiting_for"):
        return phase, None
    return "racing", turn


def deck_of(options: Mapping[str, Any]) -> Deck:
    """The deck a game plays with (its ``deck`` option, else the default one)."""
    return JockeyOptions.from_data(options).deck


def kind_of(card_id: str) -> str:
    """The kind of a card id: ``red+7`` for ``red+7#2``."""
    return card_id.split("#", 1)[0]


def by_kind(deck: Deck, ids: Iterable[str]) -> tuple[PickerRow, ...]:
    """``ids`` counted kind by kind, in deck order (kinds with none left out)."""
    counts: dict[str, int] = {}
    for card_id in ids:
        counts[kind_of(card_id)] = counts.get(kind_of(card_id), 0) + 1
    kinds: dict[str, PickerRow] = {}
    for card in deck.cards:
        kind = kind_of(card.id)
        if kind in counts and kind not in kinds:
            colour = None if card.colour is None else str(card.colour)
            kinds[kind] = PickerRow(kind, typeset(card_label(card.label)), counts[kind], colour)
    return tuple(kinds.values())


def copies_of(deck: Deck, kind: str, free: Iterable[str], count: int) -> list[str] | None:
    """``count`` copies of ``kind`` among the ``free`` card ids, in deck order; None if fewer."""
    allowed = set(free)
    found = [c.id for c in deck.cards if kind_of(c.id) == kind and c.id in allowed][:count]
    return found if len(found) == count else None


def label_of(deck: Deck, kind: str) -> str:
    """The printed label of ``kind`` (the kind itself when the deck has no such card)."""
    return next((c.label for c in deck.cards if kind_of(c.id) == kind), kind)


def board_html(state: Public) -> str:
    """The last card's effect, the lanes, balances and limits, the last race's payouts."""
    board = state.board
    if not isinstance(board, JockeyBoard):
        return ""
    length = board.track_length or 80
    lanes = "".join(lane(word(h), v, length, h) for h, v in board.progress.items())
    effect = board.last_effect
    said = f'<p class="status">{e(typeset(say(effect.message())))}</p>' if effect else ""
    balances = grid(
        (t("player"), t("balance"), t("limit"), t("cards")),
        (
            (p, figure(b), _figure(board.limits.get(p)), board.hand_sizes.get(p, ""))
            for p, b in board.balances.items()
        ),
        "scores",
    )
    results = board.results
    reveal = ""
    if results:
        last = results[-1]
        settled = t("Race {number} settled").format(number=last.number)
        reveal = f'<div class="reveal"><h2>{e(settled)}</h2>' + grid(
            (t("player"), t("bet"), t("change")),
            ((p.player, _bet_words(p.bet), figure(p.change)) for p in last.payouts),
        )
        reveal += "</div>"
    return said + f'<div class="track">{lanes}</div>' + balances + reveal


def _figure(value: object) -> str:
    """A balance or a limit as the language writes it; nothing when there is none."""
    return figure(value) if isinstance(value, int) else ""


def _bet_words(bet: JockeyBet | None) -> str:
    if bet is None:
        return t("no bet")
    if len(bet.stakes) == len(bet.horses):
        pairs = zip(bet.horses, bet.stakes, strict=True)
        staked = ", ".join(f"{word(h)} {figure(s)}" for h, s in pairs)
    else:  # a double: two horses on one stake
        staked = " + ".join(word(h) for h in bet.horses) + f" {figure(bet.stakes[0])}"
    return f"{word(bet.kind)} {staked}"


def _kind_words(kind: PickerRow) -> str:
    return kind.label + (f" ×{kind.count}" if kind.count > 1 else "")


def seat_html(player: str, details: PrivateDetails, state: Public) -> str:
    """``player``'s balance, sealed bet and hand; the forms to bet, count a hand, play a card."""
    board = state.board
    if not isinstance(board, JockeyBoard) or not isinstance(details, JockeyPrivate):
        return ""
    deck = deck_of(state.options)
    balance = board.balances.get(player, "")
    said = t("Balance: {balance} · stake limit: {limit}").format(
        balance=_figure(balance), limit=_figure(details.limit)
    )
    parts = [f'<p class="secret">{e(said)}</p>']
    bet = details.bet
    if bet:
        said = t("Your bet: {bet}").format(bet=_bet_words(bet))
        parts.append(f'<p class="secret sealed">{e(said)}</p>')
    hand = details.hand
    if hand:
        words = ", ".join(_kind_words(k) for k in by_kind(deck, hand))
        said = t("Your hand ({count}): {cards}").format(count=len(hand), cards=words)
        parts.append(f'<p class="secret hand">{e(said)}</p>')
    offers = state.offers
    if offers.takes("bet", player):
        limit = details.limit
        horses = [Chip(h.value, word(h.value), h.value) for h in HORSES]
        fields = (
            chips(["kind"], (Chip(k, word(k)) for k in BET_KINDS), t("Kind"))
            + chips(
                ["horse", "horse2"],
                horses,
                t("Horse; for a double or an order, a second one (tap them in order)"),
                need=1,
            )
            + stepper("stake", t("Stake"), limit, 100, stake_start(board, player, False, limit))
            + stepper(
                "stake2",
                t("Second stake (order)"),
                limit,
                100,
                stake_start(board, player, True, limit),
            )
        )
        parts.append(entry_form("bet", t("Place my bet"), fields))
    if details.owed and offers.takes("hand", player):
        parts.append(_hand_form(deck, details.owed, details.leftover))
    if offers.find("play_card", player) is not None:
        if board.hands:
            kinds = by_kind(deck, details.playable)
        else:
            kinds = by_kind(deck, [c.id for c in deck.cards if c.id not in board.pile])
        choices = ((k.kind, _kind_words(k), k.colour) for k in kinds)
        parts.append("<h3>" + e(t("Play a card")) + "</h3>" + card_picker("play_card", choices))
    return "".join(parts)


def _hand_form(deck: Deck, owed: int, leftover: Sequence[str]) -> str:
    """Count the cards just dealt to you, kind by kind (and keep up to two from last race)."""
    every = by_kind(deck, [c.id for c in deck.cards])
    fields = "".join(stepper(f"cards:{k.kind}", k.label, k.count, 1, 0) for k in every)
    if leftover:
        keep = "".join(
            f'<label><input type="checkbox" name="kept[]" value="{e(c)}"> '
            f"{e(typeset(card_label(label_of(deck, kind_of(c)))))}</label>"
            for c in leftover
        )
        fields = "<p>" + e(t("Keep from the last race (at most 2):")) + f"</p>{keep}" + fields
    count = tn(
        "Your card: count the {count} dealt to you",
        "Your cards: count the {count} dealt to you",
        owed,
    ).format(count=owed)
    return f"<h3>{e(count)}</h3>" + entry_form(
        "hand", t("These are my cards"), f'<div class="counts">{fields}</div>'
    )


def chart(
    players: tuple[str, ...], board: PublicBoard, options: Mapping[str, Any]
) -> tuple[str, tuple[Series, ...]]:
    """Each player's balance race by race, from 1000."""
    if not isinstance(board, JockeyBoard):
        return "points", ()
    series = []
    for p in players:
        changes = [sum(x.change for x in r.payouts if x.player == p) for r in board.results]
        series.append(Series(p, running(1000, changes)))
    return "balance", tuple(series)


def complete(fields: dict[str, Any], sight: SeatSight) -> dict[str, Any]:
    """A tapped card becomes a copy of its kind; a hand counted kind by kind, copies of each.

    Judged by the seat's sight alone (the public board and the seat's own hand), so no
    answer depends on what another player holds.
    """
    if fields.get("type") == "play_card":
        return {**fields, "card": _played_copy(fields, sight)}
    if fields.get("type") == "hand":
        return {**fields, "cards": _dealt_copies(fields, sight)}
    return fields


def _seen(sight: SeatSight) -> tuple[Deck, JockeyBoard, JockeyPrivate]:
    """The deck, the public board and the seat's own details of a Jockey game."""
    board, details = sight.view.board, sight.own.details
    assert isinstance(board, JockeyBoard) and isinstance(details, JockeyPrivate)
    return deck_of(sight.options), board, details


def _played_copy(fields: dict[str, Any], sight: SeatSight) -> Any:
    """The copy of the tapped kind the player plays: one in their hand (hands tracked), else
    the first one not yet on the pile."""
    card = fields.get("card")
    deck, board, details = _seen(sight)
    if not isinstance(card, str) or not any(kind_of(c.id) == card for c in deck.cards):
        return card  # a copy named in full, or no card of the deck: the engine judges it
    if board.hands:
        free = list(details.hand)
        missing = PageRefusal("card_not_in_hand", "That card is not in your hand.")
    else:
        free = [c.id for c in deck.cards if c.id not in board.pile]
        label = label_of(deck, card)
        missing = PageRefusal("card_played_twice", "Every {label} was played.", label=label)
    copies = copies_of(deck, card, free, 1)
    if copies is None:
        raise missing
    return copies[0]


def _dealt_copies(fields: dict[str, Any], sight: SeatSight) -> Any:
    """Copies of the kinds the player counted in their hand (``cards``: kind to count).

    Checked in this order: the form's shape and the names of the cards (the deck is public),
    then what the player is owed (their own), then that the deck has that many of each kind
    left beside the played pile and the player's own hand. Another player's hand is never
    looked at: a copy number is bookkeeping, and two hands may name the same copy.
    """
    counted = fields.get("cards")
    if not isinstance(counted, dict):
        return counted  # a list of copies named in full (or nothing): the engine judges it
    deck, board, details = _seen(sight)
    numbers: dict[str, int] = {}
    for kind, count in counted.items():
        number = whole(count)
        if number is None or number > len(deck.cards):
            raise PageRefusal("malformed", "Count your cards with whole numbers.")
        numbers[str(kind)] = number
    for kind in numbers:
        if not any(kind_of(c.id) == kind for c in deck.cards):
            raise PageRefusal("unknown_card", "Unknown card: check the deck or enroll it.")
    kept = fields.get("kept") or []
    if not isinstance(kept, list) or not all(isinstance(k, str) for k in kept):
        raise PageRefusal("malformed", "That input is not complete.")
    total = sum(numbers.values())
    owed = details.owed - len(kept)
    if total and owed <= 0:
        raise PageRefusal("no_cards_owed", "You are owed no cards now.")
    if total > owed:
        raise PageRefusal("too_many_cards", "Too many cards: count the ones just dealt.")
    taken = set(board.pile) | set(details.hand) | set(kept)
    free = [c.id for c in deck.cards if c.id not in taken]
    cards: list[str] = []
    for kind, number in numbers.items():
        copies = copies_of(deck, kind, free, number)
        if copies is None:
            raise PageRefusal("too_many_copies", "The deck has fewer of a card: count again.")
        cards.extend(copies)
    return cards


#: The track's drawing: an oval racecourse of four lanes, one a horse (so no horse ever
#: hides another), cut into the squares across the lanes; the start (place 0, where the
#: finish line is) at the bottom, raced counter-clockwise; the podium in the middle. OVAL is
#: the middle of the lanes: its centre and half widths; the drawing is about one unit a pixel
#: on a 1920x1080 TV.
OVAL = (550.0, 430.0, 404.0, 284.0)
#: The width of a lane, and how far the lanes reach either side of the oval's middle line.
LANE_W = 68.0
BAND = 2 * LANE_W
JOCKEY_PODIUM = (550.0, 390.0)
HORSE_LANE = {str(horse): lane for lane, horse in enumerate(HORSES)}


@lru_cache(maxsize=4)
def _angles(squares: int) -> tuple[float, ...]:
    """The angle of each place 0..squares round the oval, evenly spaced along its edge (the
    ends of an oval would crowd squares spaced by angle)."""
    _x, _y, across, high = OVAL
    samples = 3600
    steps = [2 * math.pi * i / samples for i in range(samples + 1)]
    lengths = [0.0]
    for before, after in itertools.pairwise(steps):
        middle = (before + after) / 2
        speed = math.hypot(across * math.cos(middle), high * math.sin(middle))
        lengths.append(lengths[-1] + speed * (after - before))
    total, found, index = lengths[-1], [], 0
    for place in range(squares + 1):
        goal = total * place / (squares + 1)
        while lengths[index + 1] < goal:
            index += 1
        found.append(steps[index])
    return tuple(found)


def _at_angle(angle: float, out: float) -> Point:
    """The point of the oval at ``angle`` (from the bottom, counter-clockwise on the screen),
    ``out`` units outside its middle line (inside when negative)."""
    x, y, across, high = OVAL
    turn = math.pi / 2 - angle
    return (x + (across + out) * math.cos(turn), y + (high + out) * math.sin(turn))


def _angle(square: float, squares: int) -> float:
    """The angle of place ``square`` (0..squares; a half place between two places)."""
    angles = _angles(squares)
    whole = math.floor(square)
    before = angles[whole % (squares + 1)]
    after = angles[(whole + 1) % (squares + 1)] if whole + 1 <= squares else 2 * math.pi
    if whole + 1 <= squares and after < before:
        after += 2 * math.pi
    return before + (after - before) * (square - whole)


def _on_oval(square: float, squares: int, out: float = 0.0) -> Point:
    """Place ``square``'s middle, ``out`` units outside the oval's middle line."""
    return _at_angle(_angle(square, squares), out)


def _in_lane(square: float, squares: int, horse: str) -> Point:
    """Where ``horse`` stands on place ``square``: in its own lane."""
    lane = HORSE_LANE.get(horse, 0)
    return _on_oval(square, squares, (lane - 1.5) * LANE_W)


@lru_cache(maxsize=8)
def _ground(squares: int, language: str) -> str:
    """The oval's lanes, cut into squares, without the horses (drawn once per length and
    language): place 0 is the start, where the finish line is drawn."""
    parts = []
    for square in range(squares + 1):
        corners = [
            _on_oval(square + edge, squares, side * BAND)
            for edge, side in ((-0.5, -1), (-0.5, 1), (0.5, 1), (0.5, -1))
        ]
        shape = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
        start = " start" if square == 0 else ""
        parts.append(
            f'<g class="sq lane{start}" data-place="{square}"><polygon points="{shape}"/></g>'
        )
    for border in range(1, len(HORSE_LANE)):  # the lines between the lanes
        out = (border - len(HORSE_LANE) / 2) * LANE_W
        ring = [_on_oval(place / 4, squares, out) for place in range(4 * squares + 4)]
        shape = " ".join(f"{x:.1f},{y:.1f}" for x, y in ring)
        parts.append(f'<polygon class="lane-line" points="{shape}"/>')
    for square in range(5, squares + 1, 5):  # a number every fifth square, inside the oval
        x, y = _on_oval(square, squares, -BAND - 24)
        parts.append(
            f'<text class="sq-n" x="{x:.0f}" y="{y + 8:.0f}" text-anchor="middle">{square}</text>'
        )
    inner, outer = _on_oval(-0.5, squares, -BAND - 6), _on_oval(-0.5, squares, BAND + 6)
    parts.append(
        f'<line class="finish-line" x1="{inner[0]:.0f}" y1="{inner[1]:.0f}" '
        f'x2="{outer[0]:.0f}" y2="{outer[1]:.0f}"/>'
    )
    parts.append(podium_svg(*JOCKEY_PODIUM, (t("1st"), t("2nd"), t("3rd"))))
    return "".join(parts)


def _spot(board: JockeyBoard, horse: str, progress: int) -> Point:
    """Where a horse stands: in its lane on its square (at the start, place 0), or on the
    podium (a fourth finisher beside it)."""
    length = board.track_length or 80
    if progress > length:
        place = [str(h) for h in board.finish_order].index(horse) + 1
        return podium_spot(*JOCKEY_PODIUM, place)
    return _in_lane(max(progress, 0), length, horse)


def _where(board: JockeyBoard, horse: str, progress: int) -> str:
    """Where a horse is, as the drawing's attributes say it: a square, or a podium place."""
    if progress > (board.track_length or 80):
        return f"podium-{[str(h) for h in board.finish_order].index(horse) + 1}"
    return str(max(progress, 0))


def track(state: Public) -> str:
    """The TV's track: the squares round the oval, every horse in its lane at its square,
    finishers on the podium in their order, the last card's move in words."""
    board = state.board
    if not isinstance(board, JockeyBoard):
        return ""
    length = board.track_length or 80
    effect = board.last_effect
    runners = []
    for horse, progress in board.progress.items():
        name = str(horse)
        where = _where(board, name, progress)
        at = _spot(board, name, progress)
        path: tuple[Point, ...] = ()
        origin = ""
        if effect is not None and effect.moved and effect.horse == horse:
            step = 1 if effect.end >= effect.start else -1
            passed = range(effect.start + step, min(effect.end, length) + step, step)
            path = (*(_in_lane(s, length, name) for s in passed if 0 < s <= length), at)
            origin = str(max(effect.start, 0))
        runners.append(Runner(name, word(name), name, at, where, path, origin))
    said = typeset(say(effect.message())) if effect is not None else ""
    over = state.view.get("phase") in ("race_over", "game_over")
    cheer = f"{len(board.results)}-{state.view.get('phase')}" if over else ""
    drawing = _ground(length, current()) + runners_svg(runners)
    return track_html("jockey", "0 0 1100 860", t("The track"), drawing, said, cheer)


def finishers(state: Public) -> tuple[Finisher, ...]:
    """The first three horses of the race just over."""
    board = state.board
    if not isinstance(board, JockeyBoard) or state.view.get("phase") != "race_over":
        return ()
    return tuple(
        Finisher(place, word(str(horse)), str(horse))
        for place, horse in enumerate(board.finish_order[:3], 1)
    )


PAGES = GamePages(
    finishers=finishers,
    board=board_html,
    seat=seat_html,
    chart=chart,
    phases=PHASES,
    #: A table tracks hands when each player counts their cards on their phone (the panel
    #: cannot).
    phone_options=(Option("hands", marked("Hands counted on the phones"), (False, True)),),
    complete=complete,
    status=status,
    track=track,
)
