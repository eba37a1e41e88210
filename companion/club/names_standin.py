"""Stand-in for ``companion.session.names.fold_name`` until the table's name rule lands.

The league folds a name the way the table will (Unicode NFKC, case folded, spaces collapsed,
invisible characters dropped), so that two spellings of one person count once. When
``companion/session/names.py`` exists, the league imports ``fold_name`` from there and this
module goes.
"""

from __future__ import annotations

import unicodedata

#: Unicode categories that show nothing: format characters (zero-width space and joiners,
#: soft hyphen, direction marks) and control characters.
_INVISIBLE = frozenset({"Cf", "Cc"})


def fold_name(name: str) -> str:
    """Who a name is: NFKC, case folded, spaces collapsed, invisible characters removed."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    visible = "".join(c for c in folded if c.isspace() or unicodedata.category(c) not in _INVISIBLE)
    return " ".join(visible.split())
