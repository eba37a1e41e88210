"""The pages' own words: the gettext domain ``pages``, said in the table's language.

The sentences the pages share with the table (refusals) stay in the ``companion`` domain and
are said by ``companion.render.language``; the words only the pages show (titles, buttons,
labels, hints) are in ``companion/locale/<language>/LC_MESSAGES/pages.po``. Both follow the
language set by ``speaking``: the table's.
"""

from __future__ import annotations

import gettext
import json
import logging
from functools import cache

from companion.render.language import LANGUAGES, LOCALE_DIR, current

log = logging.getLogger("companion.web")

#: The gettext domain of the pages' words.
DOMAIN = "pages"


@cache
def pages_catalog(language: str) -> gettext.NullTranslations:
    """Return the compiled catalog of the pages in ``language`` (English when it is missing)."""
    if language not in LANGUAGES:
        raise ValueError(f"the pages do not speak {language!r}: one of {', '.join(LANGUAGES)}")
    try:
        return gettext.translation(DOMAIN, LOCALE_DIR, [language])
    except FileNotFoundError:
        if language != "en":
            log.warning("no compiled pages catalog for %s: run `make catalogs`", language)
        return gettext.NullTranslations()


def t(text: str) -> str:
    """Return ``text`` (a word of the pages) in the language being spoken."""
    return pages_catalog(current()).gettext(text) if text else text


def tn(singular: str, plural: str, count: int) -> str:
    """Return the form of a counting phrase of the pages for ``count``."""
    return pages_catalog(current()).ngettext(singular, plural, count)


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
            "asked": t("Asked. Wait for the table to confirm (push on the panel)."),
        },
        ensure_ascii=False,
    )
