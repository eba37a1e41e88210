"""The pages' own words: the gettext domain ``pages``, said in the table's language.

The sentences the pages share with the table (refusals) stay in the ``companion`` domain and
are said by ``companion.render.language``; the words only the pages show (titles, buttons,
labels, hints) are in ``companion/locale/<language>/LC_MESSAGES/pages.po``. Both follow the
language set by ``speaking``: the table's.
"""

from __future__ import annotations

import json
import re

from companion.render.language import catalog, current

#: The gettext domain of the pages' words.
DOMAIN = "pages"

#: A narrow no-break space: French puts one before ``: ; ! ?`` (the pages do; the LCD, whose
#: 20 columns count, does not: see docs/table.md).
THIN = "\u202f"
_MARK = re.compile(r"(?<=[^\s\u202f])([:;!?])(?=\s|$|[)»])")
#: A card's factor as printed, ``x3``: the pages write it with the multiplication sign.
_TIMES = re.compile(r"(?<=\s)x(?=\d)")


def typeset(text: str) -> str:
    """``text`` (a sentence of the catalogs, said on a page) set as the language sets it: in
    French a narrow no-break space before ``: ; ! ?``; in French and German the typographic
    apostrophe; everywhere a card's factor with the multiplication sign (``×3``)."""
    language = current()
    text = _TIMES.sub("×", text)
    if language in ("fr", "de"):
        text = text.replace("'", "’")
    if language == "fr":
        text = _MARK.sub(THIN + r"\1", text)
    return text


def colon() -> str:
    """A colon and its space between two parts a page puts together (``Anna : rouge``)."""
    return (THIN if current() == "fr" else "") + ": "


def t(text: str) -> str:
    """Return ``text`` (a word of the pages) in the language being spoken, typeset."""
    return typeset(catalog(current(), DOMAIN).gettext(text)) if text else text


def tn(singular: str, plural: str, count: int) -> str:
    """Return the form of a counting phrase of the pages for ``count``, typeset."""
    return typeset(catalog(current(), DOMAIN).ngettext(singular, plural, count))


def marked(text: str) -> str:
    """Mark ``text`` as a word of the pages, said later by ``t`` (returned as it is)."""
    return text


def script_words() -> str:
    """The words the pages' script shows, as JSON for the page's ``data-words`` attribute."""
    return json.dumps(
        {
            "live": t("live"),
            "reconnecting": t("reconnecting…"),
            "noAnswer": t("No answer."),
            "unreachable": t("The table cannot be reached."),
            "done": t("Done."),
            "asked": t("Asked. Wait for the table to confirm (a long push of the knob)."),
            "choose": t("Tap your choice first: every place needs one."),
        },
        ensure_ascii=False,
    )
