"""What a page may ask of the table: a seat's table-log entry, checked before it is queued and
completed on the loop's thread (a tapped Jockey card becomes a free copy of its kind)."""

from __future__ import annotations

from typing import Any

from companion.games.jockey import JockeyBoard, JockeyPrivate
from companion.session.log import LogEntry, LogError, parse_entry
from companion.session.session import Session
from companion.web.cards import copies_of, jockey_deck, kind_of, label_of

#: The entries a seat may make from its phone (rolls come from the die: chance is not typed).
SEAT_TYPES = frozenset(
    {"predict", "guess", "bet", "hand", "move", "forfeit", "deal_card", "deal_course",
     "set_max_bet", "turn_card", "play_card", "next_race"}
)  # fmt: skip
#: Which second-horse fields each kind of Jockey bet takes.
_SECOND = {"win": (), "place": (), "double": ("horse2",), "order": ("horse2", "stake2")}


class PageRefusal(Exception):
    """A page's request the table cannot take: a reason code and a sentence for the phone."""

    def __init__(self, code: str, sentence: str) -> None:
        super().__init__(code)
        self.code = code
        self.sentence = sentence


def seat_request(player: str, data: object) -> dict[str, Any]:
    """Check a page's form for ``player`` before it is queued: its fields, in the seat's name.

    Raises PageRefusal when it is not an input a phone may make.
    """
    if not isinstance(data, dict):
        raise PageRefusal("malformed", "That was not an input.")
    kind = data.get("type")
    if kind not in SEAT_TYPES:
        raise PageRefusal("not_from_a_phone", "That input is made at the table.")
    fields: dict[str, Any] = {k: v for k, v in data.items() if k != "player"}
    if kind == "bet" and "kind" in fields:
        for extra in ("horse2", "stake2"):
            if extra not in _SECOND.get(str(fields["kind"]), ()):
                fields.pop(extra, None)
    for key in ("stake", "stake2", "amount"):
        if isinstance(fields.get(key), str) and fields[key].strip().isdigit():
            fields[key] = int(fields[key])
    if kind == "deal_course" and isinstance(fields.get("cards"), str):  # tapped in row order
        fields["cards"] = [c for c in fields["cards"].split(",") if c]
    if kind != "next_race":
        fields["player"] = player
    return fields


def seat_entry(fields: dict[str, Any], session: Session) -> LogEntry:
    """Turn checked ``fields`` into the entry (on the loop's thread, where the session may be
    read); raises PageRefusal when it is not one."""
    table = session.table
    if table is not None and table.start.game == "jockey":
        if fields.get("type") == "play_card":
            fields = {**fields, "card": _played_copy(fields, session)}
        elif fields.get("type") == "hand":
            fields = {**fields, "cards": _dealt_copies(fields, session)}
    try:
        return parse_entry(fields)
    except LogError:
        raise PageRefusal("malformed", "That input is not complete.") from None


def _played_copy(fields: dict[str, Any], session: Session) -> Any:
    """The copy of the tapped kind the player plays: one in their hand (hands tracked), else
    the first one not yet on the pile."""
    card = fields.get("card")
    assert session.table is not None
    deck = jockey_deck(session.table.start.options)
    if not isinstance(card, str) or not any(kind_of(c.id) == card for c in deck.cards):
        return card  # a copy named in full, or no card of the deck: the engine judges it
    board = session.view().board
    assert isinstance(board, JockeyBoard)
    if board.hands:
        free = list(_hand(session, str(fields["player"])))
        missing = ("card_not_in_hand", "That card is not in your hand.")
    else:
        free = [c.id for c in deck.cards if c.id not in board.pile]
        missing = ("card_played_twice", f"Every {label_of(deck, card)} was played.")
    copies = copies_of(deck, card, free, 1)
    if copies is None:
        raise PageRefusal(*missing)
    return copies[0]


def _dealt_copies(fields: dict[str, Any], session: Session) -> Any:
    """Free copies of the kinds the player counted in their hand (``cards``: kind to count)."""
    counted = fields.get("cards")
    if not isinstance(counted, dict):
        return counted  # a list of copies named in full (or nothing): the engine judges it
    assert session.table is not None
    deck = jockey_deck(session.table.start.options)
    board = session.view().board
    assert isinstance(board, JockeyBoard)
    taken = set(board.pile)
    for player in session.table.start.players:
        taken.update(_hand(session, player))
    kept = fields.get("kept") or []
    taken.update(k for k in kept if isinstance(k, str))
    free = [c.id for c in deck.cards if c.id not in taken]
    cards: list[str] = []
    for kind, count in counted.items():
        number = int(count) if isinstance(count, int | str) and str(count).isdigit() else -1
        if number < 0 or number > len(deck.cards):
            raise PageRefusal("malformed", "Count your cards with whole numbers.")
        if not any(kind_of(c.id) == kind for c in deck.cards):
            raise PageRefusal("unknown_card", "Unknown card: check the deck or enroll it.")
        copies = copies_of(deck, str(kind), free, number)
        if copies is None:
            sentence = f"There are no more {label_of(deck, str(kind))} cards: count again."
            raise PageRefusal("card_in_a_hand", sentence)
        cards.extend(copies)
    return cards


def _hand(session: Session, player: str) -> tuple[str, ...]:
    """The cards in ``player``'s hand (read on the loop's thread, never sent anywhere)."""
    details = session.private_view(player).details
    assert isinstance(details, JockeyPrivate)
    return details.hand
