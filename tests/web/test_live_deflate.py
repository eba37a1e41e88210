"""The live frames are compressed once for every page sent them, and every page reads them."""

from __future__ import annotations

import contextlib
import json
import zlib

import pytest
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from companion.web import deflate
from companion.web.deflate import Compressed, SharedDeflateFactory
from tests.web.conftest import Table


def _negotiated(
    offer: ClientPerMessageDeflateFactory,
) -> tuple[PerMessageDeflate, PerMessageDeflate]:
    """A server's and a page's ends of permessage-deflate, as a handshake makes them."""
    server_params, server_end = SharedDeflateFactory().process_request_params(
        offer.get_request_params(), []
    )
    page_end = offer.process_response_params(server_params, [])
    assert isinstance(page_end, PerMessageDeflate)
    return server_end, page_end


def test_ten_pages_sent_one_frame_cost_one_compression_and_each_page_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[int] = []
    real = zlib.compressobj

    def counted(*args: object, **kwargs: object) -> object:
        made.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(deflate, "COMPRESSED", Compressed())
    monkeypatch.setattr(deflate.zlib, "compressobj", counted)
    picture = json.dumps({"v": 7, "public": "<section>" + "Jumpy Jack " * 800 + "</section>"})
    pages = [_negotiated(ClientPerMessageDeflateFactory()) for _ in range(10)]
    made.clear()  # the pages' own ends made theirs
    sent = [server.encode(Frame(Opcode.TEXT, picture.encode())) for server, _ in pages]
    assert len(made) == 1, "one compression for ten pages"
    assert len(sent[0].data) < len(picture) // 5
    monkeypatch.setattr(deflate.zlib, "compressobj", real)
    for frame, (_, page) in zip(sent, pages, strict=True):
        assert page.decode(frame).data.decode() == picture


def test_a_page_asking_for_a_smaller_window_gets_frames_in_that_window() -> None:
    server, page = _negotiated(ClientPerMessageDeflateFactory(server_max_window_bits=9))
    picture = ("<li>Anna 12</li><li>Bruno 7</li>" * 300).encode()
    frame = server.encode(Frame(Opcode.TEXT, picture))
    assert page.decode(frame).data == picture
    assert server.local_max_window_bits == 9


def test_scoreboards_on_a_real_table_share_one_picture(table: Table) -> None:
    url = table.url.replace("http", "ws") + "/live?page=board"
    with contextlib.ExitStack() as stack:
        boards = [
            stack.enter_context(connect(url, origin=table.url, source_address=("127.0.0.3", 0)))
            for _ in range(3)
        ]
        offered = {b.response.headers.get("Sec-WebSocket-Extensions") for b in boards}
        frames = [json.loads(b.recv(timeout=10)) for b in boards]
    assert offered == {
        "permessage-deflate; server_no_context_takeover; server_max_window_bits=12;"
        " client_max_window_bits=12"
    }
    assert frames[0] == frames[1] == frames[2] and "<" in frames[0]["public"]
