"""The host's part of the host page: joins to confirm, the join code, the room, games."""

from __future__ import annotations

import json
from collections.abc import Sequence

from companion.games.info import Option
from companion.games.registry import GAMES, find_game
from companion.render.language import _, current
from companion.session.journal import GameRecord
from companion.web.fragments import game_title
from companion.web.games import pages_of
from companion.web.html import e
from companion.web.joins import JoinRequest
from companion.web.names import NAME_MAX
from companion.web.qr import qr_svg
from companion.web.seats import HOST
from companion.web.words import t


def host_html(
    join_url: str,
    code: str,
    pending: Sequence[JoinRequest],
    games: Sequence[GameRecord],
    current: int | None,
    taken: frozenset[str],
    people: Sequence[str] = (),
    club: tuple[str, str] = ("", ""),
) -> str:
    """Return the host's part: what only the host sees and does. ``people`` are the room's,
    in seat order: the new game starts from them. ``club`` is how the connection to the
    club's broker stands (a sentence, and the broker's own words), when the table has one.

    Made to be read at a glance on a phone: the phones asking for a seat first; during a game,
    the game on the table and its commands; between games, the new game's form. The commands
    that take something back or stop something (undo, abandon, end the evening) are plain
    buttons grouped apart, each asking to confirm; the rest (the join code and its QR code,
    the room, the new game during a game, the games) is folded, its title still saying the
    essential (the join code, how many people are in the room)."""
    playing = next((g for g in games if g.id == current and g.status == "active"), None)
    parts = ['<section id="host">']
    if pending:
        parts.append(_pending(pending, taken))
    if playing is not None:
        title = game_title(playing.kind)
        on = t("{game} is on: {players}").format(game=title, players=", ".join(playing.players))
        this = t("This game")
        parts.append(f'<h2>{e(this)}</h2><p class="on">{e(on)}</p>')
    else:
        parts.append(_new_game(people, folded=False))
    parts.append(_careful(current, playing, bool(people)))
    where = t("Address: {address} · join code {code}").format(
        address=f"<b>{e(join_url)}</b>", code=f'<b class="code">{e(code)}</b>'
    )
    summary = t("Join: code {code}").format(code=code)
    parts.append(
        _fold("join", summary, f'<div class="qr">{qr_svg(f"{join_url}#{code}")}</div>'
              f"<p>{where}</p>", opened=playing is None)
    )  # fmt: skip
    if club[0]:
        parts.append(f'<p id="club">{e(club[0])} <small>{e(club[1])}</small></p>')
    parts.append(_room(people, taken))
    if playing is not None:
        parts.append(_new_game(people, folded=True))
    parts.append(_games(games, current))
    parts.append("</section>")
    return "".join(parts)


def _fold(key: str, summary: str, body: str, opened: bool = False) -> str:
    """A folded part of the host page (its state kept across redraws by the page's script)."""
    shown = " open" if opened else ""
    return (
        f'<details class="fold" data-fold="{e(key)}"{shown}><summary>{e(summary)}</summary>'
        f"{body}</details>"
    )


def _pending(pending: Sequence[JoinRequest], taken: frozenset[str]) -> str:
    """The phones asking for a seat, each to confirm or decline, and "decline all"."""
    parts = ["<h2>" + e(t("Phones asking for a seat")) + "</h2>"]
    confirm, decline = e(t("Confirm")), e(t("Decline"))
    for request in pending:
        seat = _asked(request, taken)
        yes = "" if request.seat == HOST else f'<button type="submit">{confirm}</button>'
        parts.append(
            f'<form class="command" data-do="confirm"><input type="hidden" name="request" '
            f'value="{e(request.key)}"><span>{e(seat)}</span>{yes}'
            f'<button type="submit" class="plain" name="decline" value="1">{decline}</button>'
            "</form>"
        )
    every = e(t("Decline all"))
    parts.append(
        f'<form class="command" data-do="decline_all"><button type="submit" class="plain">'
        f"{every}</button></form>"
    )
    return "".join(parts)


def _careful(current: int | None, playing: GameRecord | None, room: bool) -> str:
    """The commands that take something back or stop something, grouped apart: plain
    buttons, each asking to confirm (none when there is nothing to take back or stop)."""
    buttons = []
    if current is not None:
        ask = t("Undo the last input?")
        buttons.append(_command("undo", None, t("Undo the last input"), ask))
    if playing is not None:
        ask = t("Abandon this game?")
        buttons.append(_command("abandon", playing.id, t("Abandon this game"), ask))
    if room:
        ask = t("End the evening? Every phone joins again next time.")
        buttons.append(_command("end_evening", None, t("End the evening"), ask))
    if not buttons:
        return ""
    said = e(t("Take back or stop"))
    return (
        f'<div class="careful" role="group" aria-labelledby="careful"><h2 id="careful">{said}'
        f"</h2>{''.join(buttons)}</div>"
    )


def _games(games: Sequence[GameRecord], current: int | None) -> str:
    """The evening's games, newest first: each one's log once it is over, resume a paused one,
    abandon one that is not over."""
    head = (t("id"), t("game"), t("status"), t("players"), t("actions"))
    rows = ["<tr>" + "".join(f'<th scope="col">{e(h)}</th>' for h in head) + "</tr>"]
    statuses = {"active": t("active"), "finished": t("finished"), "abandoned": t("abandoned")}
    log, on = e(t("log")), e(t(" (on the table)"))
    for game in reversed(games[-20:]):
        actions = ""
        if game.status == "finished":  # the log holds sealed inputs until the game is over
            actions = f'<a class="button" href="/host/log/{game.id}" download>{log}</a>'
        if game.id != current and game.status != "finished":
            actions += _command("resume", game.id, t("Resume"), inline=True)
        if game.status == "active":
            ask = t("Abandon this game?")
            actions += _command("abandon", game.id, t("Abandon"), ask, inline=True)
        status = statuses.get(game.status, game.status)
        if game.status == "active" and game.id != current:
            status = t("paused")  # started, not over, and not the one played now
        if game.refused:  # the league's reason, until `companion outbox --send-again`
            status += " · " + t("refused by the league: {reason}").format(reason=game.refused)
        rows.append(
            f"<tr><td>{game.id}</td><td>{e(game_title(game.kind))}</td>"
            f"<td>{e(status)}{on if game.id == current else ''}</td>"
            f"<td>{e(', '.join(game.players))}</td><td>{actions}</td></tr>"
        )
    table = f'<table class="games">{"".join(rows)}</table>' if games else ""
    return _fold("games", t("Games"), table or "<p>" + e(t("No game yet.")) + "</p>")


def _asked(request: JoinRequest, taken: frozenset[str]) -> str:
    """What a waiting request asks, as the host reads it: whose seat, and whether it is a new
    person's or moves a seat away from the phone that holds it now."""
    if request.seat == HOST:
        return t("host")
    if request.new:
        return t("{person} (new to the room)").format(person=request.seat)
    if request.seat in taken:
        return t("{person}'s seat is on another phone: move it?").format(person=request.seat)
    return request.seat


def _room(people: Sequence[str], taken: frozenset[str]) -> str:
    """The room of the evening: its people in seat order, whose phone is seated, and a person
    added by name (their phone may join later)."""
    phone = t("{person} (phone)")
    listed = ", ".join(phone.format(person=p) if p in taken else p for p in people)
    name, add = e(t("Name")), e(t("Add to the room"))
    body = (
        "<p>" + e(listed or t("nobody yet")) + "</p>"
        f'<form class="command" data-do="add_person"><label>{name} <input name="name" '
        f'maxlength="{NAME_MAX}" autocomplete="off" required></label>'
        f'<button type="submit">{add}</button></form>'
    )
    summary = t("The room ({count})").format(count=len(people))
    return _fold("room", summary, body, opened=not people)


def _command(
    do: str, game_id: int | None, label: str, confirm: str = "", inline: bool = False
) -> str:
    """A host command's form: its button (plain when it asks to confirm: it takes back or
    stops something) and the game it is about."""
    asked = f' data-confirm="{e(confirm)}"' if confirm else ""
    which = "" if game_id is None else f'<input type="hidden" name="game" value="{game_id}">'
    plain = ' class="plain"' if confirm else ""
    return (
        f'<form class="command{" inline" if inline else ""}" data-do="{do}"{asked}>{which}'
        f'<button type="submit"{plain}>{e(label)}</button></form>'
    )


def host_options(kind: str) -> tuple[Option, ...]:
    """The options the host page offers for ``kind``: the registry's, an option phones make
    playable (``phone_options`` of the game's part of the pages) in place of the registry's
    of the same key (Jockey's hands: counted on the phones, not scanned at the table), then
    the phones' others."""
    phones = {option.key: option for option in pages_of(kind).phone_options}
    declared = tuple(phones.get(option.key, option) for option in find_game(kind).options)
    keys = {option.key for option in declared}
    return declared + tuple(o for o in phones.values() if o.key not in keys)


def _label(kind: str, option: Option) -> str:
    """An option's label in the table's language: the phones' own from the pages' words."""
    if option in pages_of(kind).phone_options:
        return t(option.label)
    return _(option.label)


def _new_game(people: Sequence[str], folded: bool) -> str:
    """The new game's form: the game, the players (the room's people), the game's options;
    folded during a game (it would end it), open at the top between games."""
    games = "".join(f'<option value="{g.kind}">{e(g.title_in(current()))}</option>' for g in GAMES)
    sets = []
    for game in GAMES:
        fields = "".join(
            f'<label>{e(_label(game.kind, option))} <select name="{e(game.kind)}:{e(option.key)}">'
            + "".join(
                f'<option value="{e(json.dumps(value))}">{e(_(option.shown(value)))}</option>'
                for value in option.values
            )
            + "</select></label>"
            for option in host_options(game.kind)
        )
        hidden = "" if game is GAMES[0] else " hidden"  # the page's script shows the chosen one
        title = e(game.title_in(current()))
        sets.append(f'<fieldset data-game="{e(game.kind)}"{hidden}><legend>{title}</legend>'
                    f"{fields}</fieldset>")  # fmt: skip
    new, which, players, start = (
        e(t("New game")),
        e(t("Game")),
        e(t("Players (one name a line)")),
        e(t("Start")),
    )
    form = (
        f'<form class="command" data-do="new_game" data-game="{GAMES[0].kind}">'
        f'<label>{which} <select name="game" class="game">{games}</select></label>'
        f"<label>{players}"
        '<textarea name="players" rows="4" maxlength="200">'
        f"{e(chr(10).join(people))}</textarea></label>{''.join(sets)}"
        f'<button type="submit">{start}</button></form>'
    )
    if folded:
        return _fold("new", t("New game"), form)
    return f"<h2>{new}</h2>{form}"
