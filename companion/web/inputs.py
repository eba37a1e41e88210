"""What a page may ask of the table: a seat's table-log entry, checked before it is queued."""

from __future__ import annotations

from typing import Any

from companion.session.log import Entry, LogError, parse_entry

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


def seat_entry(player: str, data: object) -> Entry:
    """Turn a page's form into ``player``'s entry; raises PageRefusal when it is not one."""
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
    if kind != "next_race":
        fields["player"] = player
    try:
        return parse_entry(fields)
    except LogError:
        raise PageRefusal("malformed", "That input is not complete.") from None
