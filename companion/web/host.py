"""The host's part of the host page: joins to confirm, the join code, games, a new game."""

from __future__ import annotations

import json
from collections.abc import Sequence

from companion.games.info import Option
from companion.games.registry import GAMES, find_game
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


#: Options only phones make playable, beside the ones the registry declares: a Jockey table
#: tracks hands when each player counts their cards on their phone (the panel cannot).
PHONE_OPTIONS: dict[str, tuple[Option, ...]] = {
    "jockey": (Option("hands", "Hands counted on the phones", (False, True)),),
}


def host_options(kind: str) -> tuple[Option, ...]:
    """The options the host page offers for ``kind``: the registry's, then the phones' own
    (those the registry does not declare itself)."""
    declared = find_game(kind).options
    keys = {option.key for option in declared}
    return declared + tuple(o for o in PHONE_OPTIONS.get(kind, ()) if o.key not in keys)


def _new_game() -> str:
    games = "".join(f'<option value="{g.kind}">{e(g.title)}</option>' for g in GAMES)
    sets = []
    for game in GAMES:
        fields = "".join(
            f'<label>{e(option.label)} <select name="{e(game.kind)}:{e(option.key)}">'
            + "".join(
                f'<option value="{e(json.dumps(value))}">{e(option.shown(value))}</option>'
                for value in option.values
            )
            + "</select></label>"
            for option in host_options(game.kind)
        )
        sets.append(f'<fieldset data-game="{e(game.kind)}"><legend>{e(game.title)}</legend>'
                    f"{fields}</fieldset>")  # fmt: skip
    shown = "".join(
        f"form[data-game={g.kind}] fieldset:not([data-game={g.kind}]){{display:none}}"
        for g in GAMES
    )  # only the chosen game's options
    return (
        f"<style>{shown}</style>"
        f'<h2>New game</h2><form class="command" data-do="new_game" data-game="{GAMES[0].kind}">'
        f'<label>Game <select name="game" class="game">{games}</select></label>'
        '<label>Players (one name a line)<textarea name="players" rows="4" maxlength="200">'
        f"</textarea></label>{''.join(sets)}"
        '<button type="submit">Start</button></form>'
    )
