"""The pages' own words: the gettext domain ``pages``, said in the table's language.

The sentences the pages share with the table (refusals) stay in the ``companion`` domain and
are said by ``companion.render.language``; the words only the pages show (titles, buttons,
labels, hints) are in ``companion/locale/<language>/LC_MESSAGES/pages.po``. Both follow the
language set by ``speaking``: the table's.
"""

from __future__ import annotations

import json

from companion.render.language import catalog, current

#: The gettext domain of the pages' words.
DOMAIN = "pages"


def t(text: str) -> str:
    """Return ``text`` (a word of the pages) in the language being spoken."""
    return catalog(current(), DOMAIN).gettext(text) if text else text


def tn(singular: str, plural: str, count: int) -> str:
    """Return the form of a counting phrase of the pages for ``count``."""
    return catalog(current(), DOMAIN).ngettext(singular, plural, count)


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
