"""A person's name as the room takes it: trimmed, short, printable, and unlike every other.

Two names are alike when they are one person's by the session's name rule
(``companion/session/names.py``: compatibility form, case folded, invisible characters and
extra spaces dropped): "Chloé", "CHLOÉ" and a "Chloé" typed with a combining accent are one
person. The room never holds two names alike, nor a name mixing alphabets; a name typed on a
phone or on the host page is kept in its composed form, so the same name typed on two phones
is the same text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from companion.session.names import fold_name, mixes_scripts
from companion.web.inputs import PageRefusal

#: The longest name the room takes (as the host page's new game).
NAME_MAX = 20


def alike(name: str, known: Iterable[str]) -> str | None:
    """The name of ``known`` that is alike ``name`` (itself included), or None."""
    key = fold_name(name)
    return next((other for other in known if fold_name(other) == key), None)


def clean_name(typed: object) -> str:
    """The name ``typed`` as the room keeps it: trimmed, composed; PageRefusal (``bad_name``)
    when it is empty, too long, starts with "#" (the host's seat) or holds a control."""
    if not isinstance(typed, str):
        raise PageRefusal("bad_name", "Type a name of 1 to 20 letters.")
    name = unicodedata.normalize("NFC", typed.strip())
    if len(name) > NAME_MAX or name.startswith("#") or not name.isprintable():
        raise PageRefusal("bad_name", "Type a name of 1 to 20 letters.")
    if not fold_name(name) or mixes_scripts(name):  # nothing visible, or two alphabets
        raise PageRefusal("bad_name", "Type a name of 1 to 20 letters.")
    return name


def new_name(typed: object, known: Iterable[str]) -> str:
    """A new person's name for the room, checked (``clean_name``) and unlike every name of
    ``known``; PageRefusal ``name_taken`` when it is alike one."""
    name = clean_name(typed)
    other = alike(name, known)
    if other is not None:
        raise PageRefusal("name_taken", "{player} is in the room already.", player=other)
    return name
