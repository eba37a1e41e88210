"""The pages' shells: the HTML around the parts drawn by ``fragments`` and ``host``."""

from __future__ import annotations

from collections.abc import Sequence

from companion.render.language import current
from companion.web.html import e
from companion.web.joins import LONG_DIGITS, SHORT_DIGITS
from companion.web.names import NAME_MAX
from companion.web.words import script_words, t

_HEAD = (
    '<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    '<title>{title}</title><link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
    '<link rel="manifest" href="/static/manifest.webmanifest">'
    '<link rel="apple-touch-icon" href="/static/icon-192.png">'
    '<meta name="theme-color" content="#00bb55">'
    '<link rel="stylesheet" href="/static/style.css">'
    '<link rel="stylesheet" href="/static/tv.css">'
    '<link rel="stylesheet" href="/static/games.css"></head>'
    '<body class="{kind}" data-page="{kind}" data-words="{words}">'
)
#: A join code as the form takes it: the usual short one, or the long one.
CODE_PATTERN = f"[0-9]{{{SHORT_DIGITS}}}([0-9]{{{LONG_DIGITS - SHORT_DIGITS}}})?"
_FOOT = (
    '<footer><p id="link" class="link">{link}</p></footer><script src="/static/app.js"></script>'
    "{tv}</body></html>"
)
#: The track's script: the pages that draw the track live (the horses walk when they move).
_TV = '<script src="/static/tv.js"></script>'


#: The pages without live updates.
_STILL = frozenset({"home", "join"})


def page(kind: str, title: str, body: str) -> str:
    """Return a whole page in the language spoken: head, ``body``, the live-update script
    (the home and join pages open no live connection, so they say nothing about one)."""
    head = _HEAD.format(lang=current(), title=e(title), kind=e(kind), words=e(script_words()))
    link = "" if kind in _STILL else t("connecting…")
    tv = "" if kind in _STILL else _TV
    return head + body + _FOOT.format(link=e(link), tv=tv)


def scoreboard_page(public: str) -> str:
    """The scoreboard: the public part, kept live."""
    return page("board", t("Scoreboard"), f'<main id="live">{public}</main>')


def play_page(public: str, private: str) -> str:
    """A player's page: their private part above the public one."""
    return page("play", t("My seat"), f'<main id="live">{private}{public}</main>')


def host_page(public: str, host: str) -> str:
    """The host page: the host's part above the public one."""
    return page("host", t("Host"), f'<main id="live">{host}{public}</main>')


def join_page(
    players: Sequence[str], taken: frozenset[str], host: bool, hosted: bool = False
) -> str:
    """The join page: the code from the table, then a seat (or the host's, unless ``hosted``:
    it has a phone the table has not let go); a person not offered asks for a new seat by
    typing their name (its own form, so that Enter in the name asks for the name)."""
    new_seat = ""
    if host and hosted:
        seats = "<p>" + e(t("This table has a host already.")) + "</p>"
    elif host:
        hosting = e(t("Host this table"))
        seats = f'<button type="submit" name="seat" value="#host">{hosting}</button>'
    else:
        moving = e(t(" (has a phone: moving it needs the table)"))
        seats = (
            "".join(
                f'<button type="submit" name="seat" value="{e(p)}">{e(p)}'
                f"{moving if p in taken else ''}</button>"
                for p in players
            )
            or "<p>" + e(t("Nobody is in the room yet: ask for a new seat below.")) + "</p>"
        )
        here, name, ask = e(t("New here?")), e(t("Your name")), e(t("Ask for a new seat"))
        new_seat = (
            f'<form id="join-new" autocomplete="off"><h2>{here}</h2>'
            f'<label>{name} <input name="name" maxlength="{NAME_MAX}" required></label>'
            f'<button type="submit">{ask}</button></form>'
        )
    code = e(t("Join code (on the host's phone, or the table's screen)"))
    heading = e(t("Join the table"))
    body = (
        f'<main><h1>{heading}</h1><form id="join" autocomplete="off">'
        f'<label>{code} <input name="code" inputmode="numeric" '
        f'pattern="{CODE_PATTERN}" maxlength="{LONG_DIGITS}" required></label>'
        f'<div class="seats">{seats}</div></form>{new_seat}'
        '<p id="joined" role="status"></p></main>'
    )
    return page("join", t("Join"), body)


def home_page() -> str:
    """The first page: where to go, each door a large card saying what it is for."""
    links = (
        ("/play", t("My seat"), t("Play from your phone: your predictions, bets and cards.")),
        ("/scoreboard", t("Scoreboard"), t("For the TV: the race, the scores, the evening.")),
        ("/host", t("Host"), t("Let phones in, start and stop games.")),
    )
    menu = "".join(
        f'<li><a href="{href}"><b>{e(said)}</b><span>{e(what)}</span></a></li>'
        for href, said, what in links
    )
    return page("home", "Companion", f'<main><h1>Companion</h1><ul class="menu">{menu}</ul></main>')
