"""What seated phones send: a player's input or leaving, the host page's commands, a game's log."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from companion.render.language import speaking
from companion.web.inputs import PageRefusal, seat_request
from companion.web.routes.common import answered, body, is_host, refusal, refused, seat_of, served
from companion.web.seats import HOST


async def make_input(request: Request) -> Response:
    table = served(request)
    side = table.side
    data = await body(request)
    if isinstance(data, Response):
        return data
    seat = seat_of(request)
    if seat is None:
        return refused(side, "no_seat", "This phone has no seat: join first.", 401)
    if not table.inputs_limit.allow(seat):
        return refused(side, "too_many", "Too fast: wait a moment.", 429)
    game_id = side.seats.game_id
    try:
        fields = seat_request(seat, data)
    except PageRefusal as error:
        with speaking(side.language):
            return refusal(error.code, error.said())
    return answered(await side.seat_input(seat, game_id, fields))


async def leave(request: Request) -> Response:
    side = served(request).side
    data = await body(request)
    if isinstance(data, Response):
        return data
    seat = seat_of(request)
    if seat is None:
        return refused(side, "no_seat", "This phone has no seat: join first.", 401)
    return answered(await side.leave(seat))


async def host_command(request: Request) -> Response:
    table = served(request)
    side = table.side
    data = await body(request)
    if isinstance(data, Response):
        return data
    if not is_host(request):
        return refused(side, "not_host", "Only the host page can do that.", 401)
    if not table.inputs_limit.allow(HOST):
        return refused(side, "too_many", "Too fast: wait a moment.", 429)
    command = data.pop("do", None)
    if not isinstance(command, str):
        return refused(side, "malformed", "That was not a command.")
    return answered(await side.host_command(command, data))


async def game_log(request: Request) -> Response:
    side = served(request).side
    if not is_host(request):
        return refused(side, "not_host", "Only the host page can do that.", 401)
    game_id = int(request.path_params["game_id"])
    known, text = await side.read(lambda: side.game_log(game_id))
    if not known:
        return refused(side, "no_such_game", "There is no such game.", 404)
    if text is None:  # a game's log holds its sealed inputs
        return refused(side, "log_sealed", "A game's log opens once the game is over.", 403)
    return Response(
        text,
        media_type="application/jsonl",
        headers={"content-disposition": f'attachment; filename="game-{game_id}.jsonl"'},
    )


ROUTES: list[BaseRoute] = [
    Route("/api/input", make_input, methods=["POST"]),
    Route("/api/leave", leave, methods=["POST"]),
    Route("/api/host", host_command, methods=["POST"]),
    Route("/host/log/{game_id:int}", game_log),
]
