"""The host's part of the host page: joins to confirm, the join code, games, a new game."""

from __future__ import annotations

from collections.abc import Sequence

from companion.session.journal import GameRecord
from companion.web.fragments import GAME_TITLES, e
from companion.web.joins import JoinRequest
from companion.web.qr import qr_svg
from companion.web.seats import HOST


def host_html(
    join_url: str,
    code: str,
    pending: Sequence[JoinRequest],
    games: Sequence[GameRecord],
    current: int | None,
    taken: frozenset[str],
) -> str:
    """Return the host's part: what only the host sees and does."""
    parts = ['<section id="host">']
    if pending:
        parts.append("<h2>Phones asking for a seat</h2>")
        for request in pending:
            seat = "host" if request.seat == HOST else request.seat
            parts.append(
                f'<form class="command" data-do="confirm"><input type="hidden" name="request" '
                f'value="{e(request.key)}"><span>{e(seat)}</span>'
                '<button type="submit">Confirm</button>'
                '<button type="submit" name="decline" value="1">Decline</button></form>'
            )
    parts.append(
        f'<h2>Join</h2><div class="qr">{qr_svg(f"{join_url}#{code}")}</div>'
        f'<p>Address: <b>{e(join_url)}</b> · join code <b class="code">{e(code)}</b></p>'
    )
    if current is not None:
        seated = ", ".join(sorted(s for s in taken if s != HOST)) or "nobody yet"
        parts.append(f"<p>Seated phones: {e(seated)}</p>")
        parts.append(
            '<form class="command" data-do="undo" data-confirm="Undo the last input?">'
            '<button type="submit">Undo the last input</button></form>'
        )
    parts.append(_new_game())
    parts.append(
        "<h2>Games</h2><table><tr><th>id</th><th>game</th><th>status</th>"
        "<th>players</th><th></th></tr>"
    )
    for game in reversed(games[-20:]):
        actions = f'<a href="/host/log/{game.id}" download>log</a>'
        if game.id != current and game.status != "finished":
            actions += _command("resume", game.id, "Resume")
        if game.status == "active":
            actions += _command("abandon", game.id, "Abandon", "Abandon this game?")
        parts.append(
            f"<tr><td>{game.id}</td><td>{e(GAME_TITLES.get(game.kind, game.kind))}</td>"
            f"<td>{e(game.status)}{' (on)' if game.id == current else ''}</td>"
            f"<td>{e(', '.join(game.players))}</td><td>{actions}</td></tr>"
        )
    parts.append("</table></section>")
    return "".join(parts)


def _command(do: str, game_id: int, label: str, confirm: str = "") -> str:
    asked = f' data-confirm="{e(confirm)}"' if confirm else ""
    return (
        f'<form class="command inline" data-do="{do}"{asked}><input type="hidden" name="game" '
        f'value="{game_id}"><button type="submit">{e(label)}</button></form>'
    )


def _new_game() -> str:
    games = "".join(f'<option value="{k}">{e(t)}</option>' for k, t in GAME_TITLES.items())
    return (
        '<h2>New game</h2><form class="command" data-do="new_game">'
        f'<label>Game <select name="game">{games}</select></label>'
        '<label>Players (one name a line)<textarea name="players" rows="4" maxlength="200">'
        "</textarea></label>"
        '<label>Jumpy Jack target <input name="target" type="number" value="16" min="1" '
        'max="99"></label>'
        '<label>Course hippique chips <input name="starting_chips" type="number" value="100" '
        'min="1" max="10000"></label>'
        '<label><input name="hands" type="checkbox" value="1"> Jockey: track hands</label>'
        '<button type="submit">Start</button></form>'
    )
