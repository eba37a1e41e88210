"""What a page may ask of the table: a seat's table-log entry, checked before it is queued and
completed on the loop's thread by the game's part of the pages (a tapped Jockey card becomes
a copy of its kind), from that seat's sight alone: the public view and its own private view."""

from __future__ import annotations

from typing import Any

from companion.games.text import Message
from companion.render.language import say
from companion.session.log import LogEntry, LogError, parse_entry
from companion.session.session import Session
from companion.web.shapes import whole
from companion.web.words import typeset

#: The entries a seat may make from its phone (rolls come from the die: chance is not typed).
SEAT_TYPES = frozenset(
    {"predict", "guess", "bet", "pass", "hand", "move", "forfeit", "deal_card", "deal_course",
     "set_max_bet", "turn_card", "play_card", "next_race"}
)  # fmt: skip
#: Which second-horse fields each kind of the table log's bet takes (a form may send both).
_SECOND = {"win": (), "place": (), "double": ("horse2",), "order": ("horse2", "stake2")}


class PageRefusal(Exception):
    """A page's request the table cannot take: a reason code and a sentence for the phone."""

    def __init__(self, code: str, sentence: str, **params: str | int) -> None:
        super().__init__(code)
        self.code = code
        self.sentence = sentence
        #: The sentence's parameters (``{label}``: a card's printed label), said with it.
        self.params = params

    def said(self) -> str:
        """The sentence in the table's language, its parameters put into words, set as a page
        sets it."""
        return typeset(say(Message(self.sentence, tuple(self.params.items()))))


def seat_request(player: str, data: object) -> dict[str, Any]:
    """Check a page's form for ``player`` before it is queued: its fields, in the seat's name.

    Raises PageRefusal when it is not an input a phone may make.
    """
    if not isinstance(data, dict):
        raise PageRefusal("malformed", "That was not an input.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in SEAT_TYPES:
        raise PageRefusal("not_from_a_phone", "That input is made at the table.")
    fields: dict[str, Any] = {k: v for k, v in data.items() if k != "player"}
    if kind == "bet" and "kind" in fields:
        for extra in ("horse2", "stake2"):
            if extra not in _SECOND.get(str(fields["kind"]), ()):
                fields.pop(extra, None)
    for key in ("stake", "stake2", "amount"):
        typed = fields.get(key)
        if isinstance(typed, str) and whole(typed) is not None:
            fields[key] = whole(typed)
    if kind == "deal_course" and isinstance(fields.get("cards"), str):  # tapped in row order
        fields["cards"] = [c for c in fields["cards"].split(",") if c]
    if kind != "next_race":
        fields["player"] = player
    return fields


def seat_entry(fields: dict[str, Any], session: Session) -> LogEntry:
    """Turn checked ``fields`` into the entry (on the loop's thread, where the session may be
    read); raises PageRefusal when it is not one. The game's part completes them from the
    seat's sight (see ``SeatSight``), never from the session."""
    table = session.table
    if table is not None:
        from companion.web.games import pages_of, sight_of  # the pages' modules: after the start

        sight = sight_of(session, str(fields.get("player", "")))
        fields = pages_of(table.kind).complete(fields, sight)
    try:
        return parse_entry(fields)
    except LogError:
        raise PageRefusal("malformed", "That input is not complete.") from None
