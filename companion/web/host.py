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
    club's broker stands (a sentence, and the broker's own words), when the table has one."""
    parts = ['<section id="host">']
    if pending:
        parts.append("<h2>" + e(t("Phones asking for a seat")) + "</h2>")
        confirm, decline = e(t("Confirm")), e(t("Decline"))
        for request in pending:
            seat = _asked(request, taken)
            yes = "" if request.seat == HOST else f'<button type="submit">{confirm}</button>'
            parts.append(
                f'<form class="command" data-do="confirm"><input type="hidden" name="request" '
                f'value="{e(request.key)}"><span>{e(seat)}</span>{yes}'
                f'<button type="submit" name="decline" value="1">{decline}</button></form>'
            )
        every = e(t("Decline all"))
        parts.append(
            f'<form class="command" data-do="decline_all"><button type="submit">{every}</button>'
            "</form>"
        )
    where = t("Address: {address} · join code {code}").format(
        address=f"<b>{e(join_url)}</b>", code=f'<b class="code">{e(code)}</b>'
    )
    parts.append(
        "<h2>"
        + e(t("Join"))
        + f'</h2><div class="qr">{qr_svg(f"{join_url}#{code}")}</div><p>{where}</p>'
    )
    if club[0]:
        parts.append(f'<p id="club">{e(club[0])} <small>{e(club[1])}</small></p>')
    parts.append(_room(people, taken))
    if current is not None:
        ask, undo = e(t("Undo the last input?")), e(t("Undo the last input"))
        parts.append(
            f'<form class="command" data-do="undo" data-confirm="{ask}">'
            f'<button type="submit">{undo}</button></form>'
        )
    parts.append(_new_game(people))
    head = (t("id"), t("game"), t("status"), t("players"))
    parts.append("<h2>" + e(t("Games")) + '</h2><table class="games"><tr>')
    parts.append("".join(f"<th>{e(h)}</th>" for h in head) + "<th></th></tr>")
    statuses = {"active": t("active"), "finished": t("finished"), "abandoned": t("abandoned")}
    log, on = e(t("log")), e(t(" (on)"))
    for game in reversed(games[-20:]):
        actions = ""
        if game.status == "finished":  # the log holds sealed inputs until the game is over
            actions = f'<a href="/host/log/{game.id}" download>{log}</a>'
        if game.id != current and game.status != "finished":
            actions += _command("resume", game.id, t("Resume"))
        if game.status == "active":
            actions += _command("abandon", game.id, t("Abandon"), t("Abandon this game?"))
        status = statuses.get(game.status, game.status)
        if game.status == "active" and game.id != current:
            status = t("paused")  # started, not over, and not the one played now
        if game.refused:  # the league's reason, until `companion outbox --send-again`
            status += " · " + t("refused by the league: {reason}").format(reason=game.refused)
        parts.append(
            f"<tr><td>{game.id}</td><td>{e(game_title(game.kind))}</td>"
            f"<td>{e(status)}{on if game.id == current else ''}</td>"
            f"<td>{e(', '.join(game.players))}</td><td>{actions}</td></tr>"
        )
    parts.append("</table></section>")
    return "".join(parts)


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
    """The room of the evening: its people in seat order, whose phone is seated, a person
    added by name (their phone may join later), and the button that ends the evening."""
    phone = t("{person} (phone)")
    listed = ", ".join(phone.format(person=p) if p in taken else p for p in people)
    ask, end = e(t("End the evening? Every phone joins again next time.")), e(t("End the evening"))
    name, add = e(t("Name")), e(t("Add to the room"))
    return (
        "<h2>" + e(t("The room")) + "</h2><p>" + e(listed or t("nobody yet")) + "</p>"
        f'<form class="command" data-do="add_person"><label>{name} <input name="name" '
        f'maxlength="{NAME_MAX}" autocomplete="off" required></label>'
        f'<button type="submit">{add}</button></form>'
        f'<form class="command" data-do="end_evening" data-confirm="{ask}">'
        f'<button type="submit">{end}</button></form>'
    )


def _command(do: str, game_id: int, label: str, confirm: str = "") -> str:
    asked = f' data-confirm="{e(confirm)}"' if confirm else ""
    return (
        f'<form class="command inline" data-do="{do}"{asked}><input type="hidden" name="game" '
        f'value="{game_id}"><button type="submit">{e(label)}</button></form>'
    )


def host_options(kind: str) -> tuple[Option, ...]:
    """The options the host page offers for ``kind``: the registry's, then those only phones
    make playable (``phone_options`` of the game's part of the pages) it does not declare."""
    declared = find_game(kind).options
    keys = {option.key for option in declared}
    return declared + tuple(o for o in pages_of(kind).phone_options if o.key not in keys)


def _label(kind: str, option: Option) -> str:
    """An option's label in the table's language: the phones' own from the pages' words."""
    if option in pages_of(kind).phone_options:
        return t(option.label)
    return _(option.label)


def _new_game(people: Sequence[str]) -> str:
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
    return (
        f"<h2>{new}</h2>"
        f'<form class="command" data-do="new_game" data-game="{GAMES[0].kind}">'
        f'<label>{which} <select name="game" class="game">{games}</select></label>'
        f"<label>{players}"
        '<textarea name="players" rows="4" maxlength="200">'
        f"{e(chr(10).join(people))}</textarea></label>{''.join(sets)}"
        f'<button type="submit">{start}</button></form>'
    )
