"""HTML drawn on the server: the public part every page shows, and one seat's private part.

Every name and value goes through ``escape``: a player's name is typed on a phone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from companion.games.course_hippique import CourseHippiqueBoard, CourseHippiquePrivate
from companion.games.jockey import Bet as JockeyBet
from companion.games.jockey import JockeyBoard, JockeyPrivate
from companion.games.jumpy_jack import JumpyJackBoard, JumpyJackPrivate
from companion.games.registry import GAMES
from companion.session.view import PrivateView
from companion.web.chart import chart_svg
from companion.web.state import Public

GAME_TITLES = {game.kind: game.title for game in GAMES}
SUITS = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOCKEY_HORSES = ("brown", "yellow", "blue", "red")
JOCKEY_KINDS = ("win", "place", "double", "order")


def e(value: object) -> str:
    """Escape ``value`` for HTML text and attributes."""
    return escape(str(value), quote=True)


def _table(head: Sequence[str], rows: Iterable[Sequence[object]], cls: str = "") -> str:
    header = "".join(f"<th>{e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><tr>{header}</tr>{body}</table>'


def _bar(label: str, value: int, top: int, colour: str = "#555") -> str:
    width = 0 if top <= 0 else max(0, min(100, round(100 * value / top)))
    return (
        f'<div class="lane"><span class="name">{e(label)}</span>'
        f'<span class="bar"><span style="width:{width}%;background:{e(colour)}"></span></span>'
        f'<span class="at">{e(value)}</span></div>'
    )


def public_html(state: Public) -> str:
    """Return the public part: game, race, turn, die, track, scores, odds, reveal, chart."""
    view, board = state.view, state.board
    game = view.get("game")
    if game is None:
        return '<section id="public"><h1>No game on</h1><p>Start one at the table.</p></section>'
    parts = [f"<h1>{e(GAME_TITLES.get(game, game))} · race {e(view['race'])}</h1>"]
    status = f"Phase: {view['phase'].replace('_', ' ')}"
    if view.get("turn"):
        status += f" · turn: {view['turn']}"
    parts.append(f'<p class="status">{e(status)}</p>')
    if view.get("waiting_for"):
        parts.append(f'<p class="status">Waiting for: {e(", ".join(view["waiting_for"]))}</p>')
    if view.get("sealed"):
        parts.append(f'<p class="status">Sealed: {e(", ".join(view["sealed"]))} ✓</p>')
    refusal = view.get("last_refusal")
    if refusal:
        parts.append(f'<p class="refusal">{e(refusal["sentence"])}</p>')
    if isinstance(board, JumpyJackBoard):
        parts.append(_jumpy_jack(board))
    elif isinstance(board, CourseHippiqueBoard):
        parts.append(_course_hippique(board))
    elif isinstance(board, JockeyBoard):
        parts.append(_jockey(board))
    if view.get("finished"):
        parts.append(f'<p class="winners">Winner: {e(", ".join(view["winners"]))}</p>')
    parts.append(f'<div class="chart">{chart_svg(state.chart, state.unit)}</div>')
    return f'<section id="public">{"".join(parts)}</section>'


def _jumpy_jack(board: JumpyJackBoard) -> str:
    horses = board.horses
    top = max([20, *(h.square or 0 for h in horses)])
    lanes = "".join(
        _bar(f"{h.name} ({h.state.value})", h.square or 0, top, h.colour) for h in horses
    )
    die = board.die
    die_html = f'<p class="die">Die: <b>{e(die)}</b></p>' if die else ""
    scores = _table(("player", "points"), sorted(board.scores.items()), "scores")
    target = f"<p>Target: {e(board.target)} points</p>"
    return die_html + f'<div class="track">{lanes}</div>' + scores + target + _jj_reveal(board)


def _jj_reveal(board: JumpyJackBoard) -> str:
    results = board.results
    if not results:
        return ""
    last = results[-1]
    rows = [(p, " ".join(h), last.points.get(p, 0)) for p, h in last.predictions.items()]
    podium = " ".join(last.podium.finishers)
    return (
        f'<div class="reveal"><h2>Race {e(last.number)} revealed</h2>'
        f"<p>Podium: {e(podium)}</p>" + _table(("player", "prediction", "points"), rows) + "</div>"
    )


def _course_hippique(board: CourseHippiqueBoard) -> str:
    finish = board.finish or 8
    lanes = "".join(
        _bar(SUITS.get(s.letter, s.letter), v, finish) for s, v in board.positions.items()
    )
    odds = _table(
        ("horse", "odds"),
        ((SUITS.get(s.letter, s.letter), f"{v} to 1") for s, v in board.odds.items()),
        "odds",
    )
    info = (
        f"<p>Croupier: {e(board.croupier)} · largest stake: {e(board.max_bet)}"
        f" · cards left: {e(board.cards_left)}</p>"
    )
    balances = _table(("player", "chips"), board.balances.items(), "scores")
    bets = board.bets
    reveal = (
        _table(
            ("player", "horse", "stake"),
            ((b.player, SUITS.get(b.horse.letter, b.horse.letter), b.stake) for b in bets),
            "reveal",
        )
        if bets
        else ""
    )
    return info + f'<div class="track">{lanes}</div>' + odds + balances + reveal


def _jockey(board: JockeyBoard) -> str:
    length = board.track_length or 80
    lanes = "".join(
        _bar(h, v, length, h if h != "yellow" else "#d4b000") for h, v in board.progress.items()
    )
    effect = board.last_effect
    said = f'<p class="status">{e(effect.sentence())}</p>' if effect is not None else ""
    balances = _table(
        ("player", "balance", "limit", "cards"),
        (
            (p, b, board.limits.get(p, ""), board.hand_sizes.get(p, ""))
            for p, b in board.balances.items()
        ),
        "scores",
    )
    results = board.results
    reveal = ""
    if results:
        last = results[-1]
        reveal = f'<div class="reveal"><h2>Race {e(last.number)} settled</h2>' + _table(
            ("player", "bet", "change"),
            ((p.player, _bet_words(p.bet), p.change) for p in last.payouts),
        )
        reveal += "</div>"
    return said + f'<div class="track">{lanes}</div>' + balances + reveal


def _bet_words(bet: JockeyBet | None) -> str:
    if bet is None:
        return "no bet"
    return f"{bet.kind} " + ", ".join(
        f"{h} {s}" for h, s in zip(bet.horses, bet.stakes, strict=False)
    )


# -- one seat's private part ------------------------------------------------------------------


def private_html(player: str, private: PrivateView, state: Public) -> str:
    """Return ``player``'s own part: their sealed inputs, hand, balance, and what they may enter."""
    view, board = state.view, state.board
    details = private.details
    parts = [f"<h2>You are {e(player)}</h2>"]
    refusal = private.last_refusal
    if refusal:
        parts.append(f'<p class="refusal" role="alert">{e(refusal.sentence)}</p>')
    if isinstance(board, JumpyJackBoard) and isinstance(details, JumpyJackPrivate):
        parts.append(_jj_private(player, details, view, board))
    elif isinstance(board, CourseHippiqueBoard) and isinstance(details, CourseHippiquePrivate):
        parts.append(_ch_private(player, details, view, board))
    elif isinstance(details, JockeyPrivate):
        parts.append(_jk_private(player, details, view))
    if view.get("phase") == "race_over":
        parts.append(_form("next_race", "Next race", ""))
    return f'<section id="private">{"".join(parts)}</section>'


def _form(kind: str, button: str, fields: str) -> str:
    return (
        f'<form class="entry" data-type="{e(kind)}">{fields}'
        f'<button type="submit">{e(button)}</button></form>'
    )


def _select(name: str, choices: Iterable[tuple[str, str]], label: str) -> str:
    options = "".join(f'<option value="{e(v)}">{e(w)}</option>' for v, w in choices)
    return f'<label>{e(label)} <select name="{e(name)}">{options}</select></label>'


def _number(name: str, label: str, top: int | None, step: int = 1) -> str:
    limit = f' max="{top}"' if top is not None else ""
    return (
        f'<label>{e(label)} <span class="stake"><button type="button" class="down">−</button>'
        f'<input name="{e(name)}" type="number" inputmode="numeric" min="0"{limit} '
        f'step="{step}" value="{step}" required><button type="button" class="up">+</button>'
        "</span></label>"
    )


def _jj_private(
    player: str, details: JumpyJackPrivate, view: dict[str, Any], board: JumpyJackBoard
) -> str:
    parts = []
    prediction = details.prediction
    if prediction:
        parts.append(f'<p class="secret">Your prediction: {e(" ".join(prediction))}</p>')
    horses = [(h.name, h.name) for h in board.horses]
    if view.get("phase") == "predict" and horses:
        fields = "".join(
            _select(f"horses.{i}", horses, f"{n}") for i, n in enumerate(("1st", "2nd", "3rd"))
        )
        parts.append(_form("predict", "Seal my prediction", fields))
    if view.get("turn") == player and view.get("phase") == "move":
        legal = board.legal_horses
        parts.append(
            '<div class="picker">'
            + "".join(
                f'<form class="entry" data-type="move"><input type="hidden" name="horse" '
                f'value="{e(h)}"><button type="submit">Move {e(h)}</button></form>'
                for h in legal
            )
            + "</div>"
        )
    return "".join(parts)


def _ch_private(
    player: str, details: CourseHippiquePrivate, view: dict[str, Any], board: CourseHippiqueBoard
) -> str:
    parts = [f'<p class="secret">Your chips: {e(details.balance)}</p>']
    bet = details.bet
    if bet:
        horse = SUITS.get(bet.horse.letter, bet.horse.letter)
        parts.append(f'<p class="secret">Your bet: {e(bet.stake)} on {e(horse)}</p>')
    phase = view.get("phase")
    croupier = board.croupier
    if phase == "betting" and player != croupier:
        fields = _select("horse", SUITS.items(), "Horse") + _number("stake", "Stake", board.max_bet)
        parts.append(_form("bet", "Place my bet", fields))
    if player == croupier and phase == "betting":
        parts.append(
            _form("set_max_bet", "Set the largest stake", _number("amount", "Amount", None))
        )
    if player == croupier and phase in ("dealing", "redeal", "racing", "betting"):
        kind = "deal_card" if phase in ("dealing", "redeal") else "turn_card"
        word = "Lay" if kind == "deal_card" else "Turn"
        parts.append(f"<h3>{word} a card</h3>" + _card_picker(kind, _playing_cards()))
    return "".join(parts)


def _playing_cards() -> list[tuple[str, str]]:
    return [(f"{r}{s}", f"{r}{SUITS[s][0]}") for s in SUITS for r in RANKS]


def _card_picker(kind: str, cards: Iterable[tuple[str, str]]) -> str:
    buttons = "".join(
        f'<button type="submit" name="card" value="{e(code)}">{e(label)}</button>'
        for code, label in cards
    )
    return f'<form class="entry picker" data-type="{e(kind)}">{buttons}</form>'


def _jk_private(player: str, details: JockeyPrivate, view: dict[str, Any]) -> str:
    parts = [f'<p class="secret">Stake limit: {e(details.limit)} · owed: {e(details.owed)}</p>']
    bet = details.bet
    if bet:
        parts.append(f'<p class="secret">Your bet: {e(_bet_words(bet))}</p>')
    hand = details.hand
    if hand:
        parts.append(f'<p class="secret">Your hand ({len(hand)}): {e(" ".join(hand))}</p>')
    if view.get("phase") == "betting" and not bet:
        horses = [(h, h) for h in JOCKEY_HORSES]
        fields = (
            _select("kind", ((k, k) for k in JOCKEY_KINDS), "Kind")
            + _select("horse", horses, "Horse")
            + _number("stake", "Stake", details.limit, 100)
            + _select("horse2", horses, "Second horse (double, order)")
            + _number("stake2", "Second stake (order)", details.limit, 100)
        )
        parts.append(_form("bet", "Place my bet", fields))
    playable = details.playable
    if view.get("turn") == player and view.get("phase") == "racing" and playable:
        parts.append("<h3>Play a card</h3>" + _card_picker("play_card", ((c, c) for c in playable)))
    return "".join(parts)
