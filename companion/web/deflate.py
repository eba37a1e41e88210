"""The live frames compressed once for every page sent them, not once per page.

Pages ask for permessage-deflate (RFC 7692). With the server's context takeover, each socket
compresses every frame again with its own history, so ten scoreboards cost ten compressions
of the same picture. Without it, a message's compressed bytes depend only on the message and
the settings, so the latest few are kept and shared by every socket that sends the same one.
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from collections.abc import Sequence

from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.typing import ExtensionParameter

#: The server's largest window (uvicorn's own choice: 4 KB; a page may ask for a smaller one)
#: and zlib's memory level.
WINDOW_BITS = 12
MEMORY_LEVEL = 5
#: How many compressed messages are kept (a change's public part, private parts, host part).
KEPT = 8


class Compressed:
    """The latest messages' compressed bytes, shared by every socket (on the pages' loop)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self.messages: OrderedDict[tuple[int, bytes], bytes] = OrderedDict()

    def of(self, data: bytes, bits: int = WINDOW_BITS) -> bytes:
        """``data`` compressed as one message in a window of ``bits`` (the sync flush's empty
        block taken off)."""
        key = (bits, data)
        found = self.messages.get(key)
        if found is None:
            encoder = zlib.compressobj(wbits=-bits, memLevel=MEMORY_LEVEL)
            found = (encoder.compress(data) + encoder.flush(zlib.Z_SYNC_FLUSH))[:-4]
            self.messages[key] = found
            if len(self.messages) > self.kept:
                self.messages.popitem(last=False)
        else:
            self.messages.move_to_end(key)
        return found


#: The one store of the pages' server (its sockets all run on its loop's thread).
COMPRESSED = Compressed()


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate whose whole messages come from ``COMPRESSED``; a fragmented one
    (the pages send none) is compressed by the library as usual."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in CTRL_OPCODES or frame.opcode is Opcode.CONT or not frame.fin:
            return super().encode(frame)
        data = COMPRESSED.of(bytes(frame.data), self.local_max_window_bits)
        return Frame(frame.opcode, data, frame.fin, True, frame.rsv2, frame.rsv3)


class SharedDeflateFactory(ServerPerMessageDeflateFactory):
    """Accept a page's permessage-deflate without the server's context takeover, and
    compress its messages through ``COMPRESSED``."""

    def __init__(self) -> None:
        super().__init__(
            server_no_context_takeover=True,
            server_max_window_bits=WINDOW_BITS,
            client_max_window_bits=WINDOW_BITS,
            compress_settings={"memLevel": MEMORY_LEVEL},
            require_client_max_window_bits=False,
        )

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        answer, made = super().process_request_params(params, accepted_extensions)
        shared = SharedDeflate(
            made.remote_no_context_takeover,
            True,
            made.remote_max_window_bits,
            made.local_max_window_bits,
            {"memLevel": MEMORY_LEVEL},
        )
        return answer, shared
