"""The pages' shells: the HTML around the parts drawn by ``fragments`` and ``host``."""

from __future__ import annotations

from collections.abc import Sequence

from companion.web.fragments import e

_HEAD = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    '<title>{title}</title><link rel="stylesheet" href="/static/style.css"></head>'
    '<body class="{kind}" data-page="{kind}">'
)
_FOOT = (
    '<p id="link" class="link">connecting…</p><script src="/static/app.js"></script></body></html>'
)


def page(kind: str, title: str, body: str) -> str:
    """Return a whole page: head, ``body``, the live-update script."""
    return _HEAD.format(title=e(title), kind=e(kind)) + body + _FOOT


def scoreboard_page(public: str) -> str:
    """The scoreboard: the public part, kept live."""
    return page("board", "Scoreboard", f'<main id="live">{public}</main>')


def play_page(public: str, private: str) -> str:
    """A player's page: their private part above the public one."""
    return page("play", "My seat", f'<main id="live">{private}{public}</main>')


def host_page(public: str, host: str) -> str:
    """The host page: the host's part above the public one."""
    return page("host", "Host", f'<main id="live">{host}{public}</main>')


def join_page(players: Sequence[str], taken: frozenset[str], host: bool) -> str:
    """The join page: the code from the LCD, then a seat (or the host's)."""
    if host:
        seats = '<button type="submit" name="seat" value="#host">Host this table</button>'
    elif not players:
        seats = "<p>No game is on yet: the host starts one.</p>"
    else:
        seats = "".join(
            f'<button type="submit" name="seat" value="{e(p)}">{e(p)}'
            f"{' (has a phone: moving it needs the table)' if p in taken else ''}</button>"
            for p in players
        )
    body = (
        '<main><h1>Join the table</h1><form id="join" autocomplete="off">'
        '<label>Join code (on the table\'s screen) <input name="code" inputmode="numeric" '
        'pattern="[0-9]{4}" maxlength="4" required></label>'
        f'<div class="seats">{seats}</div></form>'
        '<p id="joined" role="status"></p></main>'
    )
    return page("join", "Join", body)


def home_page() -> str:
    """The first page: where to go."""
    return page(
        "home",
        "Companion",
        '<main><h1>Companion</h1><ul class="menu"><li><a href="/play">My seat</a></li>'
        '<li><a href="/scoreboard">Scoreboard</a></li><li><a href="/host">Host</a></li></ul>'
        "</main>",
    )
