"""HTML drawn on the server: the public part every page shows, and one seat's private part.

Every name and value goes through ``escape``: a player's name is typed on a phone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from companion.games.course_hippique import CourseHippiqueBoard, CourseHippiquePrivate
from companion.games.jockey import Deck, JockeyBet, JockeyBoard, JockeyPrivate
from companion.games.jumpy_jack import Guess, JumpyJackBoard, JumpyJackPrivate
from companion.games.registry import GAMES
from companion.render.language import say, word
from companion.session.view import PrivateView, RefusalView
from companion.web.cards import (
    SUITS,
    PickerRow,
    by_kind,
    jockey_deck,
    kind_of,
    label_of,
    playing_cards,
)
from companion.web.chart import chart_svg
from companion.web.state import Chance, Public
from companion.web.words import t, tn

GAME_TITLES = {game.kind: game.title for game in GAMES}
JOCKEY_HORSES = ("brown", "yellow", "blue", "red")
JOCKEY_KINDS = ("win", "place", "double", "order")


def _phase(code: str) -> str:
    """A game's phase in the pages' words (its code when the pages do not know it)."""
    said = {
        "predict": t("predictions"),
        "roll": t("roll"),
        "move": t("move"),
        "race_over": t("race over"),
        "match_over": t("match over"),
        "game_over": t("game over"),
        "betting": t("betting"),
        "racing": t("racing"),
        "dealing": t("dealing the course"),
        "redeal": t("dealing the course again"),
    }
    return said.get(code, code.replace("_", " "))


def _horse_state(code: str) -> str:
    """A Jumpy Jack horse's state in the pages' words."""
    said = {"racing": t("racing"), "finished": t("finished"), "out": t("out")}
    return said.get(code, code)


def _suit(letter: str) -> str:
    """A Course hippique horse (a suit) in the table's language: ``♥ cœurs``."""
    symbol, _, name = SUITS.get(letter, letter).partition(" ")
    return f"{symbol} {word(name)}" if name else symbol


def _said(refusal: RefusalView | None, fallback: str = "") -> str:
    """A refusal's sentence in the table's language."""
    if refusal is None:
        return fallback
    return say(refusal.message) if refusal.message is not None else refusal.sentence


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
        nothing, start = e(t("No game on")), e(t("Start one at the table."))
        return f'<section id="public"><h1>{nothing}</h1><p>{start}</p></section>'
    title = t("{game} · race {race}").format(game=GAME_TITLES.get(game, game), race=view["race"])
    parts = [f"<h1>{e(title)}</h1>"]
    status = t("Phase: {phase}").format(phase=_phase(view["phase"]))
    if view.get("turn"):
        status += t(" · turn: {player}").format(player=view["turn"])
    parts.append(f'<p class="status">{e(status)}</p>')
    if view.get("waiting_for"):
        waiting = t("Waiting for: {players}").format(players=", ".join(view["waiting_for"]))
        parts.append(f'<p class="status">{e(waiting)}</p>')
    if view.get("sealed"):
        sealed = t("Sealed: {players}").format(players=", ".join(view["sealed"]))
        parts.append(f'<p class="status">{e(sealed)} ✓</p>')
    refusal = view.get("last_refusal")
    if refusal:
        parts.append(f'<p class="refusal">{e(_said(state.refusal, refusal["sentence"]))}</p>')
    if isinstance(board, JumpyJackBoard):
        parts.append(_jumpy_jack(board))
    elif isinstance(board, CourseHippiqueBoard):
        parts.append(_course_hippique(board, state.chances))
    elif isinstance(board, JockeyBoard):
        parts.append(_jockey(board))
    if view.get("finished"):
        winners = view["winners"]
        said = tn("Winner: {players}", "Winners: {players}", len(winners))
        parts.append(f'<p class="winners">{e(said.format(players=", ".join(winners)))}</p>')
    parts.append(f'<div class="chart">{chart_svg(state.chart, state.unit)}</div>')
    return f'<section id="public">{"".join(parts)}</section>'


def _jumpy_jack(board: JumpyJackBoard) -> str:
    horses = board.horses
    top = max([20, *(h.square or 0 for h in horses)])
    lanes = "".join(
        _bar(f"{word(h.name)} ({_horse_state(h.state.value)})", h.square or 0, top, h.colour)
        for h in horses
    )
    die = board.die
    said = e(t("Die:"))
    die_html = f'<p class="die">{said} <b>{e(die)}</b></p>' if die else ""
    scores = _table((t("player"), t("points")), sorted(board.scores.items()), "scores")
    target = "<p>" + e(t("Target: {target} points").format(target=board.target)) + "</p>"
    return die_html + f'<div class="track">{lanes}</div>' + scores + target + _jj_reveal(board)


def _jj_reveal(board: JumpyJackBoard) -> str:
    results = board.results
    if not results:
        return ""
    last = results[-1]
    guesses = last.guesses
    rows = [
        (p, " ".join(map(word, h)), last.points.get(p, 0))
        + ((_guess_words(guesses.get(p)), last.bonus.get(p, 0)) if guesses else ())
        for p, h in last.predictions.items()
    ]
    head = (t("player"), t("prediction"), t("points")) + (
        (t("guess"), t("bonus")) if guesses else ()
    )
    podium = " ".join(map(word, last.podium.finishers))
    revealed = e(t("Race {number} revealed").format(number=last.number))
    said = e(t("Podium:"))
    return (
        f'<div class="reveal"><h2>{revealed}</h2><p>{said} {e(podium)}</p>'
        + _table(head, rows)
        + "</div>"
    )


def _guess_words(guess: Guess | None) -> str:
    if guess is None:
        return t("no guess")
    return f"{guess.target}: {' '.join(map(word, guess.horses))}"


def _course_hippique(board: CourseHippiqueBoard, chances: Sequence[Chance]) -> str:
    finish = board.finish or 8
    lanes = "".join(_bar(_suit(s.letter), v, finish) for s, v in board.positions.items())
    odds = _odds({s.letter: v for s, v in board.odds.items()}, chances)
    info = t("Croupier: {croupier} · largest stake: {stake} · cards left: {left}").format(
        croupier=board.croupier, stake=board.max_bet, left=board.cards_left
    )
    info = f"<p>{e(info)}</p>"
    balances = _table((t("player"), t("chips")), board.balances.items(), "scores")
    bets = board.bets
    reveal = (
        _table(
            (t("player"), t("horse"), t("stake")),
            ((b.player, _suit(b.horse.letter), b.stake) for b in bets),
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
        announced = ((_suit(h), _to_one(v)) for h, v in odds.items())
        return _table((t("horse"), t("odds")), announced, "odds")
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


def _jockey(board: JockeyBoard) -> str:
    length = board.track_length or 80
    lanes = "".join(
        _bar(word(h), v, length, h if h != "yellow" else "#d4b000")
        for h, v in board.progress.items()
    )
    effect = board.last_effect
    said = f'<p class="status">{e(effect.sentence())}</p>' if effect is not None else ""
    balances = _table(
        (t("player"), t("balance"), t("limit"), t("cards")),
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
        settled = t("Race {number} settled").format(number=last.number)
        reveal = f'<div class="reveal"><h2>{e(settled)}</h2>' + _table(
            (t("player"), t("bet"), t("change")),
            ((p.player, _bet_words(p.bet), p.change) for p in last.payouts),
        )
        reveal += "</div>"
    return said + f'<div class="track">{lanes}</div>' + balances + reveal


def _bet_words(bet: JockeyBet | None) -> str:
    if bet is None:
        return t("no bet")
    return f"{word(bet.kind)} " + ", ".join(
        f"{word(h)} {s}" for h, s in zip(bet.horses, bet.stakes, strict=False)
    )


# -- one seat's private part ------------------------------------------------------------------


def private_html(player: str, private: PrivateView, state: Public) -> str:
    """Return ``player``'s own part: their sealed inputs, hand, balance, and what they may enter."""
    view, board = state.view, state.board
    details = private.details
    parts = ["<h2>" + e(t("You are {player}").format(player=player)) + "</h2>"]
    refusal = private.last_refusal
    if refusal:
        parts.append(f'<p class="refusal" role="alert">{e(_said(refusal))}</p>')
    if isinstance(board, JumpyJackBoard) and isinstance(details, JumpyJackPrivate):
        parts.append(_jj_private(player, details, state, board))
    elif isinstance(board, CourseHippiqueBoard) and isinstance(details, CourseHippiquePrivate):
        parts.append(_ch_private(player, details, state, board))
    elif isinstance(board, JockeyBoard) and isinstance(details, JockeyPrivate):
        parts.append(_jk_private(player, details, state, board))
    if view.get("phase") == "race_over":
        parts.append(_form("next_race", t("Next race"), ""))
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
        said = t("Your prediction: {horses}").format(horses=" ".join(map(word, prediction)))
        parts.append(f'<p class="secret">{e(said)}</p>')
    guess = details.guess
    if guess is not None:
        said = t("Your guess of {player}'s prediction: {horses}").format(
            player=e(guess.target), horses=e(" ".join(map(word, guess.horses)))
        )  # the catalog's words are the page's own: only the names are escaped
        parts.append(f'<p class="secret">{said}</p>')
    horses = [(h.name, word(h.name)) for h in board.horses]
    places = (t("1st"), t("2nd"), t("3rd"))
    if view.get("phase") == "predict" and horses:
        fields = "".join(_select(f"horses.{i}", horses, n) for i, n in enumerate(places))
        parts.append(_form("predict", t("Seal my prediction"), fields))
    opponents = [(p, p) for p in view.get("players", []) if p != player]
    if (
        state.options.get("guess")
        and view.get("phase") == "predict"
        and not view.get("waiting_for")
        and opponents
    ):
        fields = _select("target", opponents, t("Whose prediction")) + "".join(
            _select(f"horses.{i}", horses, n) for i, n in enumerate(places)
        )
        guessing = t("Guess an opponent's prediction")
        parts.append(f"<h3>{e(guessing)}</h3>")
        parts.append(_form("guess", t("Seal my guess"), fields))
    if view.get("turn") == player and view.get("phase") == "move":
        legal = board.legal_horses
        move = t("Move {horse}")
        parts.append(
            '<div class="picker">'
            + "".join(
                f'<form class="entry" data-type="move"><input type="hidden" name="horse" '
                f'value="{e(h)}"><button type="submit">{e(move.format(horse=word(h)))}'
                "</button></form>"
                for h in legal
            )
            + "</div>"
        )
    return "".join(parts)


def _ch_private(
    player: str, details: CourseHippiquePrivate, state: Public, board: CourseHippiqueBoard
) -> str:
    view = state.view
    chips = t("Your chips: {chips}").format(chips=details.balance)
    parts = [f'<p class="secret">{e(chips)}</p>']
    bet = details.bet
    if bet:
        said = t("Your bet: {stake} on {horse}").format(
            stake=bet.stake, horse=_suit(bet.horse.letter)
        )
        parts.append(f'<p class="secret">{e(said)}</p>')
    phase = view.get("phase")
    croupier = board.croupier
    if phase == "betting" and player != croupier:
        chance = {c.horse: t(", chance {chance}").format(chance=_percent(c)) for c in state.chances}
        odds = {s.letter: v for s, v in board.odds.items()}
        horses = ((h, f"{_suit(h)} — {_to_one(odds.get(h))}{chance.get(h, '')}") for h in SUITS)
        fields = _select("horse", horses, t("Horse")) + _number("stake", t("Stake"), board.max_bet)
        parts.append(_form("bet", t("Place my bet"), fields))
    if player == croupier and phase == "betting":
        parts.append(
            _form("set_max_bet", t("Set the largest stake"), _number("amount", t("Amount"), None))
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
            + _form("deal_course", t("Lay these cards"), _sequence(cards), " sequence")
        )
    if player == croupier and phase in ("racing", "betting"):
        parts.append("<h3>" + e(t("Turn a card")) + "</h3>" + _card_picker("turn_card", cards))
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


def _card_picker(kind: str, cards: Iterable[tuple[str, str]]) -> str:
    buttons = "".join(
        f'<button type="submit" name="card" value="{e(code)}">{e(label)}</button>'
        for code, label in cards
    )
    return f'<form class="entry picker" data-type="{e(kind)}">{buttons}</form>'


def _kind_words(kind: PickerRow) -> str:
    return kind.label + (f" ×{kind.count}" if kind.count > 1 else "")


def _jk_private(player: str, details: JockeyPrivate, state: Public, board: JockeyBoard) -> str:
    view = state.view
    deck = jockey_deck(state.options)
    balance = board.balances.get(player, "")
    said = t("Balance: {balance} · stake limit: {limit}").format(
        balance=balance, limit=details.limit
    )
    parts = [f'<p class="secret">{e(said)}</p>']
    bet = details.bet
    if bet:
        said = t("Your bet: {bet}").format(bet=_bet_words(bet))
        parts.append(f'<p class="secret">{e(said)}</p>')
    hand = details.hand
    if hand:
        words = ", ".join(_kind_words(k) for k in by_kind(deck, hand))
        said = t("Your hand ({count}): {cards}").format(count=len(hand), cards=words)
        parts.append(f'<p class="secret hand">{e(said)}</p>')
    phase = view.get("phase")
    if phase == "betting" and not bet:
        horses = [(h, word(h)) for h in JOCKEY_HORSES]
        fields = (
            _select("kind", ((k, word(k)) for k in JOCKEY_KINDS), t("Kind"))
            + _select("horse", horses, t("Horse"))
            + _number("stake", t("Stake"), details.limit, 100)
            + _select("horse2", horses, t("Second horse (double, order)"))
            + _number("stake2", t("Second stake (order)"), details.limit, 100)
        )
        parts.append(_form("bet", t("Place my bet"), fields))
    if details.owed and phase in ("betting", "racing"):
        parts.append(_hand_form(deck, details.owed, details.leftover))
    on_turn = view.get("turn") == player and phase in ("betting", "racing")
    if on_turn and not view.get("waiting_for"):
        if board.hands:
            kinds = by_kind(deck, details.playable)
        else:
            kinds = by_kind(deck, [c.id for c in deck.cards if c.id not in board.pile])
        choices = ((k.kind, _kind_words(k)) for k in kinds)
        parts.append("<h3>" + e(t("Play a card")) + "</h3>" + _card_picker("play_card", choices))
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
        fields = "<p>" + e(t("Keep from the last race (at most 2):")) + f"</p>{keep}" + fields
    count = tn(
        "Your card: count the {count} dealt to you",
        "Your cards: count the {count} dealt to you",
        owed,
    ).format(count=owed)
    return f"<h3>{e(count)}</h3>" + _form(
        "hand", t("These are my cards"), f'<div class="counts">{fields}</div>'
    )
