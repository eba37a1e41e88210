"""HTML drawn on the server: the public part every page shows, and one seat's private part.

Every name and value goes through ``escape``: a player's name is typed on a phone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from companion.games.course_hippique import CourseHippiqueBoard, CourseHippiquePrivate
from companion.games.jockey import Bet as JockeyBet
from companion.games.jockey import Deck, JockeyBoard, JockeyPrivate
from companion.games.jumpy_jack import Guess, JumpyJackBoard, JumpyJackPrivate
from companion.games.registry import GAMES
from companion.session.view import PrivateView
from companion.web.cards import (
    SUITS,
    Kind,
    by_kind,
    jockey_deck,
    kind_of,
    label_of,
    playing_cards,
)
from companion.web.chart import chart_svg
from companion.web.state import Chance, Public

GAME_TITLES = {game.kind: game.title for game in GAMES}
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
        parts.append(_course_hippique(board, state.chances))
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
    guesses = last.guesses
    rows = [
        (p, " ".join(h), last.points.get(p, 0))
        + ((_guess_words(guesses.get(p)), last.bonus.get(p, 0)) if guesses else ())
        for p, h in last.predictions.items()
    ]
    head = ("player", "prediction", "points") + (("guess", "bonus") if guesses else ())
    podium = " ".join(last.podium.finishers)
    return (
        f'<div class="reveal"><h2>Race {e(last.number)} revealed</h2>'
        f"<p>Podium: {e(podium)}</p>" + _table(head, rows) + "</div>"
    )


def _guess_words(guess: Guess | None) -> str:
    if guess is None:
        return "no guess"
    return f"{guess.target}: {' '.join(guess.horses)}"


def _course_hippique(board: CourseHippiqueBoard, chances: Sequence[Chance]) -> str:
    finish = board.finish or 8
    lanes = "".join(
        _bar(SUITS.get(s.letter, s.letter), v, finish) for s, v in board.positions.items()
    )
    odds = _odds({s.letter: v for s, v in board.odds.items()}, chances)
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


def _percent(chance: Chance) -> str:
    """A chance as the pages say it: ``18.7 %`` (exact) or ``≈ 18.7 %`` (an estimate)."""
    return f"{'' if chance.fraction else '≈ '}{100 * chance.probability:.1f} %"


def _odds(odds: dict[str, int | None], chances: Sequence[Chance]) -> str:
    """The odds the croupier pays, and beside them each horse's chance of winning from here."""
    if not chances:
        announced = ((SUITS.get(h, h), f"{v} to 1") for h, v in odds.items())
        return _table(("horse", "odds"), announced, "odds")
    rows = "".join(
        f"<tr><td>{e(SUITS.get(c.horse, c.horse))}</td><td>{e(odds.get(c.horse))} to 1</td>"
        f'<td class="chance" title="{e(c.fraction or "estimate")}">{e(_percent(c))}</td></tr>'
        for c in chances
    )
    exact = all(c.fraction for c in chances)
    said = (
        "Chances of winning from here, exact."
        if exact
        else "Chances of winning from here: an estimate (the course lies face down)."
    )
    return (
        '<table class="odds"><tr><th>horse</th><th>odds</th><th>chance</th></tr>'
        f'{rows}</table><p class="note">{said}</p>'
    )


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
        parts.append(_jj_private(player, details, state, board))
    elif isinstance(board, CourseHippiqueBoard) and isinstance(details, CourseHippiquePrivate):
        parts.append(_ch_private(player, details, state, board))
    elif isinstance(board, JockeyBoard) and isinstance(details, JockeyPrivate):
        parts.append(_jk_private(player, details, state, board))
    if view.get("phase") == "race_over":
        parts.append(_form("next_race", "Next race", ""))
    return f'<section id="private">{"".join(parts)}</section>'


def _form(kind: str, button: str, fields: str, cls: str = "") -> str:
    return (
        f'<form class="entry{cls}" data-type="{e(kind)}">{fields}'
        f'<button type="submit">{e(button)}</button></form>'
    )


def _select(name: str, choices: Iterable[tuple[str, str]], label: str) -> str:
    options = "".join(f'<option value="{e(v)}">{e(w)}</option>' for v, w in choices)
    return f'<label>{e(label)} <select name="{e(name)}">{options}</select></label>'


def _number(name: str, label: str, top: int | None, step: int = 1, value: int | None = None) -> str:
    limit = f' max="{top}"' if top is not None else ""
    return (
        f'<label>{e(label)} <span class="stake"><button type="button" class="down">−</button>'
        f'<input name="{e(name)}" type="number" inputmode="numeric" min="0"{limit} '
        f'step="{step}" value="{step if value is None else value}" required>'
        '<button type="button" class="up">+</button></span></label>'
    )


def _jj_private(
    player: str, details: JumpyJackPrivate, state: Public, board: JumpyJackBoard
) -> str:
    view = state.view
    parts = []
    prediction = details.prediction
    if prediction:
        parts.append(f'<p class="secret">Your prediction: {e(" ".join(prediction))}</p>')
    guess = details.guess
    if guess is not None:
        parts.append(
            f'<p class="secret">Your guess of {e(guess.target)}\'s prediction: '
            f"{e(' '.join(guess.horses))}</p>"
        )
    horses = [(h.name, h.name) for h in board.horses]
    places = ("1st", "2nd", "3rd")
    if view.get("phase") == "predict" and horses:
        fields = "".join(_select(f"horses.{i}", horses, n) for i, n in enumerate(places))
        parts.append(_form("predict", "Seal my prediction", fields))
    opponents = [(p, p) for p in view.get("players", []) if p != player]
    if (
        state.options.get("guess")
        and view.get("phase") == "predict"
        and not view.get("waiting_for")
        and opponents
    ):
        fields = _select("target", opponents, "Whose prediction") + "".join(
            _select(f"horses.{i}", horses, n) for i, n in enumerate(places)
        )
        parts.append("<h3>Guess an opponent's prediction</h3>")
        parts.append(_form("guess", "Seal my guess", fields))
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
    player: str, details: CourseHippiquePrivate, state: Public, board: CourseHippiqueBoard
) -> str:
    view = state.view
    parts = [f'<p class="secret">Your chips: {e(details.balance)}</p>']
    bet = details.bet
    if bet:
        horse = SUITS.get(bet.horse.letter, bet.horse.letter)
        parts.append(f'<p class="secret">Your bet: {e(bet.stake)} on {e(horse)}</p>')
    phase = view.get("phase")
    croupier = board.croupier
    if phase == "betting" and player != croupier:
        chance = {c.horse: f", chance {_percent(c)}" for c in state.chances}
        odds = {s.letter: v for s, v in board.odds.items()}
        horses = (
            (h, f"{word} — {odds.get(h)} to 1{chance.get(h, '')}") for h, word in SUITS.items()
        )
        fields = _select("horse", horses, "Horse") + _number("stake", "Stake", board.max_bet)
        parts.append(_form("bet", "Place my bet", fields))
    if player == croupier and phase == "betting":
        parts.append(
            _form("set_max_bet", "Set the largest stake", _number("amount", "Amount", None))
        )
    seen = {c.code for c in board.turned}
    if phase != "redeal":  # a course dealt again is laid from the whole pack
        seen |= {c.code for c in board.course if c is not None}
    cards = [(code, label) for code, label in playing_cards() if code not in seen]
    if player == croupier and phase in ("dealing", "redeal"):
        parts.append(
            "<h3>Lay the course: tap its cards in row order</h3>"
            + _form("deal_course", "Lay these cards", _sequence(cards), " sequence")
        )
    if player == croupier and phase in ("racing", "betting"):
        parts.append("<h3>Turn a card</h3>" + _card_picker("turn_card", cards))
    return "".join(parts)


def _sequence(cards: Iterable[tuple[str, str]]) -> str:
    """A picker whose taps add up, in order, to one input (the page's script keeps the row)."""
    buttons = "".join(
        f'<button type="button" class="pick" value="{e(code)}">{e(label)}</button>'
        for code, label in cards
    )
    return (
        '<input type="hidden" name="cards" value=""><p class="row">Row: <span></span></p>'
        f'<div class="picker">{buttons}</div>'
    )


def _card_picker(kind: str, cards: Iterable[tuple[str, str]]) -> str:
    buttons = "".join(
        f'<button type="submit" name="card" value="{e(code)}">{e(label)}</button>'
        for code, label in cards
    )
    return f'<form class="entry picker" data-type="{e(kind)}">{buttons}</form>'


def _kind_words(kind: Kind) -> str:
    return kind.label + (f" ×{kind.count}" if kind.count > 1 else "")


def _jk_private(player: str, details: JockeyPrivate, state: Public, board: JockeyBoard) -> str:
    view = state.view
    deck = jockey_deck(state.options)
    balance = board.balances.get(player, "")
    parts = [f'<p class="secret">Balance: {e(balance)} · stake limit: {e(details.limit)}</p>']
    bet = details.bet
    if bet:
        parts.append(f'<p class="secret">Your bet: {e(_bet_words(bet))}</p>')
    hand = details.hand
    if hand:
        words = ", ".join(_kind_words(k) for k in by_kind(deck, hand))
        parts.append(f'<p class="secret hand">Your hand ({len(hand)}): {e(words)}</p>')
    phase = view.get("phase")
    if phase == "betting" and not bet:
        horses = [(h, h) for h in JOCKEY_HORSES]
        fields = (
            _select("kind", ((k, k) for k in JOCKEY_KINDS), "Kind")
            + _select("horse", horses, "Horse")
            + _number("stake", "Stake", details.limit, 100)
            + _select("horse2", horses, "Second horse (double, order)")
            + _number("stake2", "Second stake (order)", details.limit, 100)
        )
        parts.append(_form("bet", "Place my bet", fields))
    if details.owed and phase in ("betting", "racing"):
        parts.append(_hand_form(deck, details.owed, details.leftover))
    on_turn = view.get("turn") == player and phase in ("betting", "racing")
    if on_turn and not view.get("waiting_for"):
        if board.hands:
            kinds = by_kind(deck, details.playable)
        else:
            kinds = by_kind(deck, [c.id for c in deck.cards if c.id not in board.pile])
        choices = ((k.kind, _kind_words(k)) for k in kinds)
        parts.append("<h3>Play a card</h3>" + _card_picker("play_card", choices))
    return "".join(parts)


def _hand_form(deck: Deck, owed: int, leftover: Sequence[str]) -> str:
    """Count the cards just dealt to you, kind by kind (and keep up to two from last race)."""
    every = by_kind(deck, [c.id for c in deck.cards])
    fields = "".join(_number(f"cards:{k.kind}", k.label, k.count, 1, 0) for k in every)
    if leftover:
        keep = "".join(
            f'<label><input type="checkbox" name="kept[]" value="{e(c)}"> '
            f"{e(label_of(deck, kind_of(c)))}</label>"
            for c in leftover
        )
        fields = f"<p>Keep from the last race (at most 2):</p>{keep}" + fields
    return f"<h3>Your cards: count the {owed} dealt to you</h3>" + _form(
        "hand", "These are my cards", f'<div class="counts">{fields}</div>'
    )
