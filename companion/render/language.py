"""The table's language: the gettext catalogs, and every sentence said in the language chosen.

Engines and the session keep English sentences as templates with parameters (a ``Message``);
journals and logs keep the English. The displays say them here, in the language of the table
in use: ``speaking(language)`` sets it for the code drawing a picture, ``_`` and ``ngettext``
look a sentence of the renderers up, ``say`` says a ``Message``. The catalogs are the
``.po`` files under ``companion/locale/``, compiled to ``.mo`` files when the package is built
or installed (and by ``make``); a catalog not compiled yet is compiled in memory.
"""

from __future__ import annotations

import copy
import gettext
import io
import logging
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.text import N_, Message, fits_display, short

if TYPE_CHECKING:
    from babel import Locale
    from babel.numbers import NumberPattern

log = logging.getLogger("companion.language")

#: The languages the table speaks, English first (the language of the sources).
LANGUAGES = ("en", "fr", "de")

#: Each language in its own words, as the options menu lists it.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch"}

#: The gettext domain of the catalogs.
DOMAIN = "companion"

#: Where the catalogs are: ``<language>/LC_MESSAGES/companion.po`` (and ``.mo``).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

#: Parameters of a message that are words of the catalogs themselves (a suit, a card, a horse).
WORD_PARAMS = frozenset({"suit", "card", "horse"})
#: Parameters said in the table's language, never shortened as a name would be.
SAID_PARAMS = WORD_PARAMS | {"label", "place"}

#: The narrowest a name in a sentence is shortened to when the sentence must fit.
NAME_LEAST = 4

_language: ContextVar[str] = ContextVar("companion_language", default="en")


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the system's locale when the table speaks it, else English."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in env.get(key, "").split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
            if code and code not in ("c", "posix"):
                return "en"
    return "en"


@cache
def catalog(language: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """Return the catalog of ``domain`` in ``language``.

    The compiled ``.mo`` is read when it is there and not older than its ``.po``; otherwise
    (a source checkout never compiled, or a ``.po`` changed since) the ``.po`` is compiled in
    memory, so the table never falls back to English while a catalog of its language is
    there. English only when neither is there (a warning says so).
    """
    if language not in LANGUAGES:
        raise ValueError(f"the table does not speak {language!r}: one of {', '.join(LANGUAGES)}")
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    compiled, source = folder / f"{domain}.mo", folder / f"{domain}.po"
    if source.exists() and (
        not compiled.exists() or compiled.stat().st_mtime < source.stat().st_mtime
    ):
        return _compiled_in_memory(source)
    try:
        return gettext.translation(domain, LOCALE_DIR, [language])
    except FileNotFoundError:
        if language != "en":
            log.warning("no %s catalog for %s: English is shown", domain, language)
        return gettext.NullTranslations()


def _compiled_in_memory(source: Path) -> gettext.GNUTranslations:
    """Compile the catalog ``source`` (a ``.po``) as ``make catalogs`` would, in memory."""
    from babel.messages.mofile import write_mo  # only a checkout without compiled catalogs
    from babel.messages.pofile import read_po

    compiled = io.BytesIO()
    with source.open("rb") as text:
        write_mo(compiled, read_po(text))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def current() -> str:
    """The language of the table being drawn now."""
    return _language.get()


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Say everything in ``language`` inside the ``with`` block."""
    catalog(language)
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)


def _(text: str) -> str:
    """Return ``text`` (an English sentence of the catalogs) in the table's language."""
    return _translated(_language.get(), text) if text else text


@lru_cache(maxsize=4096)
def _translated(language: str, text: str) -> str:
    """``text`` in ``language``: looked up in the catalog once, then remembered (a screen
    says the same few sentences every time it is drawn)."""
    return catalog(language).gettext(text)


def ngettext(singular: str, plural: str, count: int) -> str:
    """Return the form of a counting sentence for ``count`` in the table's language."""
    return catalog(current()).ngettext(singular, plural, count)


def pgettext(context: str, text: str) -> str:
    """Return ``text`` in the table's language, told apart from its homonyms by ``context``."""
    return catalog(current()).pgettext(context, text)


def word(value: str) -> str:
    """Return a word of a sentence's parameters (a suit, a card) in the table's language."""
    rank, of, suit = value.partition(" of ")
    if of:
        said = rank if rank.isdigit() else _(rank)
        return _("{rank} of {suit}").format(rank=said, suit=_(suit))
    return _(value)


@cache
def _locale(language: str) -> Locale:
    """The locale data of ``language``; babel loads with the first figure drawn, not at start."""
    from babel import Locale

    return Locale.parse(language)


@cache
def _pattern(language: str, kind: str, digits: int) -> NumberPattern:
    """The ``kind`` ("decimal" or "percent") number pattern of ``language`` with ``digits``
    decimals: looked up in the locale's data and copied once, then shared (never changed)."""
    locale = _locale(language)
    formats = locale.percent_formats if kind == "percent" else locale.decimal_formats
    pattern: NumberPattern = copy.copy(formats[None])
    pattern.frac_prec = (digits, digits)
    return pattern


def read_figures(language: str) -> None:
    """Read ``language``'s number formats now: babel reads a language's data from disk when
    its first figure is drawn (tens of milliseconds here, most of a second on a Pi Zero)."""
    _pattern(language, "decimal", 1)
    _pattern(language, "percent", 1)


def percent(fraction: float, digits: int = 1) -> str:
    """Return ``fraction`` as a percentage the table's language writes it, with ``digits``
    decimals: ``19.7%`` in English, ``19,7 %`` in French and German (a no-break space)."""
    language = current()
    return str(_pattern(language, "percent", digits).apply(fraction, _locale(language)))


def decimal(number: float, digits: int = 1) -> str:
    """Return ``number`` with ``digits`` decimals as the table's language writes it (``4,5``)."""
    language = current()
    pattern = _pattern(language, "decimal", digits)
    return str(pattern.apply(number, _locale(language), group_separator=False))


#: The printed Jockey cards with a word beside their colour: the label's form, the template.
_CARD_WORDS = (
    (re.compile(r"(?P<colour>[a-z]+) lead x(?P<factor>\d+)\Z"), N_("{colour} lead x{factor}")),
    (re.compile(r"(?P<colour>[a-z]+) chase \+(?P<steps>\d+)\Z"), N_("{colour} chase +{steps}")),
    (re.compile(r"No\.(?P<position>\d+) \+(?P<steps>\d+)\Z"), N_("No.{position} +{steps}")),
)


#: The minus sign the pages write before a loss.
MINUS = "\u2212"


def figure(value: int, signed: bool = False) -> str:
    """Return a whole number (a balance, chips, a stake, points) as the table's language
    writes it on the pages, its thousands grouped: ``1,000`` in English, ``1 000`` in French
    (a narrow no-break space), ``1.000`` in German; a loss with the minus sign (``−5``, not
    a hyphen); ``signed`` puts a "+" before a gain.

    The LCD and the OLED write figures as plain digits (see docs/table.md)."""
    from babel.numbers import format_decimal

    said = str(format_decimal(abs(value), locale=_locale(current())))
    if value < 0:
        return MINUS + said
    return "+" + said if signed else said


def card_label(label: str) -> str:
    """Return a card's printed label in the table's language: its colour and words said, its
    numbers kept (``red +7`` is ``rouge +7`` in French, ``red lead x3`` ``rouge en tête x3``,
    ``No.2 +15`` ``N° 2 +15``)."""
    for form, template in _CARD_WORDS:
        found = form.match(label)
        if found is not None:
            fields = found.groupdict()
            if "colour" in fields:
                fields["colour"] = _(fields["colour"])
            return _(template).format(**fields)
    first, space, rest = label.partition(" ")
    return (_(first) if first.isalpha() else first) + space + rest


def _param(key: str, value: str | int) -> str | int:
    """A parameter of a message as said: a word of the catalogs in the table's language."""
    if not isinstance(value, str):
        return value
    if key in WORD_PARAMS:
        return word(value)
    if key == "place":
        return place_word(value)
    return card_label(value) if key == "label" else value


_POSITION = re.compile(r"No\.(?P<position>\d+)\Z")


def place_word(place: str) -> str:
    """A position a Jockey card names, as the table's language writes it: ``No.3`` is ``N° 3``
    in French, ``Nr. 3`` in German (anything else as it is)."""
    found = _POSITION.match(place)
    if found is None:
        return place
    return _("No.{position}").format(position=found.group("position"))


def say(message: Message) -> str:
    """Return ``message`` in the table's language, shortening its names if it must, to fit."""
    if message.plural is not None:
        template = ngettext(message.template, message.plural, message.count or 0)
    else:
        template = _(message.template)
    params = {key: _param(key, value) for key, value in message.params}
    sentence = template.format(**params)
    while not fits_display(sentence):
        names = [k for k, v in params.items() if isinstance(v, str) and k not in SAID_PARAMS]
        longest = max(names, key=lambda k: len(str(params[k])), default=None)
        if longest is None or len(str(params[longest])) <= NAME_LEAST:
            break
        params[longest] = short(str(params[longest]), len(str(params[longest])) - 1)
        sentence = template.format(**params)
    return sentence
