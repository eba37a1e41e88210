"""The Pi's codec for the Pico serial protocol: the shared message table, framing and fields.

The table is ``pico_messages.json`` beside this module (the firmware carries a copy). A line is
``<seq> <NAME> <fields...> *<CRC>`` in printable ASCII, ended by a newline; the CRC is the
CRC-16/CCITT-FALSE of everything before `` *``, in four hex digits. See docs/protocol.md.
"""

from __future__ import annotations

import binascii
import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources

from companion.devices.base import RGB

#: A run of equal colours: the colour and how many LEDs in a row show it.
Run = tuple[RGB, int]
Value = int | str | RGB | tuple[Run, ...] | tuple[int, ...]

MAX_WORD = 32
MAX_TEXT = 200
MAX_PATH = 256
_INT = re.compile(r"0|[1-9][0-9]{0,5}")
_WORD = re.compile(r"[A-Za-z0-9_.+-]{1,32}")
_HEX6 = re.compile(r"[0-9A-Fa-f]{6}")
_HEX = re.compile(r"[0-9A-Fa-f]+")


@dataclass(frozen=True)
class MessageField:
    """One field of a message: its name, its type, and bounds for ints and hex strings."""

    name: str
    type: str
    min: int | None = None
    max: int | None = None


@dataclass(frozen=True)
class MessageSpec:
    """One row of the table: who sends it, since which minor version, its reply and fields."""

    name: str
    sender: str
    since: int
    reply: str | None
    fields: tuple[MessageField, ...]
    doc: str


@dataclass(frozen=True)
class MessageTable:
    """The whole message table with the protocol's version and limits."""

    protocol: str
    max_line: int
    max_leds: int
    max_seq: int
    errors: Mapping[str, str]
    messages: Mapping[str, MessageSpec]

    @property
    def major(self) -> int:
        return int(self.protocol.split(".")[0])

    @property
    def minor(self) -> int:
        return int(self.protocol.split(".")[1])


def parse_table(data: Mapping[str, object]) -> MessageTable:
    """Build a Table from the JSON structure of pico_messages.json."""
    rows = data["messages"]
    assert isinstance(rows, list)
    messages = {}
    for row in rows:
        fields = tuple(
            MessageField(f["name"], f["type"], f.get("min"), f.get("max")) for f in row["fields"]
        )
        spec = MessageSpec(row["name"], row["from"], row["since"], row["reply"], fields, row["doc"])
        messages[spec.name] = spec
    errors = data["errors"]
    assert isinstance(errors, dict)
    return MessageTable(
        protocol=str(data["protocol"]),
        max_line=int(str(data["max_line"])),
        max_leds=int(str(data["max_leds"])),
        max_seq=int(str(data["max_seq"])),
        errors=dict(errors),
        messages=messages,
    )


def table_text() -> str:
    """Return the text of the shipped table file."""
    return resources.files("companion.devices").joinpath("pico_messages.json").read_text("utf-8")


@functools.cache
def load_table() -> MessageTable:
    """Return the shipped message table."""
    return parse_table(json.loads(table_text()))


def crc16(data: bytes) -> int:
    """Return the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of ``data``."""
    return binascii.crc_hqx(data, 0xFFFF)


class ProtocolError(ValueError):
    """A line that is not a valid message: ``code`` is one of the table's error codes.

    ``seq`` is the line's sequence number once its checksum held, else 0.
    """

    def __init__(self, code: str, detail: str, seq: int = 0) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.seq = seq


@dataclass(frozen=True)
class PicoMessage:
    """One decoded message: its sequence number, name and field values by name."""

    seq: int
    name: str
    fields: Mapping[str, Value]

    def number(self, field: str) -> int:
        """Return an int field."""
        value = self.fields[field]
        assert isinstance(value, int)
        return value

    def text(self, field: str) -> str:
        """Return a word, version, hex or text field."""
        value = self.fields[field]
        assert isinstance(value, str)
        return value


def runs_of(frame: Sequence[RGB]) -> tuple[Run, ...]:
    """Return ``frame`` as runs of equal neighbouring colours."""
    runs: list[Run] = []
    for colour in frame:
        if runs and runs[-1][0] == colour:
            runs[-1] = (colour, runs[-1][1] + 1)
        else:
            runs.append((colour, 1))
    return tuple(runs)


def _hex6(colour: RGB) -> str:
    red, green, blue = colour
    return f"{red:02X}{green:02X}{blue:02X}"


class Codec:
    """Encode the lines one side sends and decode the lines it receives.

    ``side`` is "pi" (the default) or "pico"; a line the receiving side would itself send is
    refused as ``unknown``.
    """

    def __init__(self, table: MessageTable | None = None, side: str = "pi") -> None:
        self.table = table or load_table()
        self.side = side
        self.other = "pico" if side == "pi" else "pi"

    def decode(self, line: bytes) -> PicoMessage:
        """Decode one received line (newline removed; a trailing CR is dropped).

        Raises ProtocolError, never anything else.
        """
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > self.table.max_line:
            raise ProtocolError("too_long", f"line longer than {self.table.max_line} bytes")
        bad = next((byte for byte in line if not 32 <= byte <= 126), None)
        if bad is not None:
            raise ProtocolError("framing", f"byte {bad} is not printable ASCII")
        text = line.decode("ascii")
        if len(text) < 9 or text[-6:-4] != " *":
            raise ProtocolError("framing", "no checksum field at the end of the line")
        given = text[-4:]
        if not _HEX.fullmatch(given):
            raise ProtocolError("framing", f"checksum {given} is not 4 hex digits")
        expected = crc16(line[:-6])
        if int(given, 16) != expected:
            raise ProtocolError("checksum", f"checksum {given}, expected {expected:04X}")
        head = text[:-6].split(" ", 2)
        if len(head) < 2:
            raise ProtocolError("framing", "no message name")
        try:
            seq = self._int(head[0], 1, self.table.max_seq, "sequence number")
        except ValueError as exc:
            raise ProtocolError("framing", str(exc)) from None
        name = head[1]
        spec = self.table.messages.get(name)
        if spec is None:
            raise ProtocolError("unknown", f"unknown message {name[:MAX_WORD]}", seq)
        if spec.sender != self.other:
            raise ProtocolError("unknown", f"{name} is not sent by the {self.other}", seq)
        try:
            values = self._decode_fields(spec, head[2] if len(head) > 2 else None)
        except ValueError as exc:
            raise ProtocolError("args", f"{name}: {exc}", seq) from None
        return PicoMessage(seq, name, values)

    def encode(self, seq: int, name: str, /, **fields: Value) -> bytes:
        """Return the line (newline included) carrying ``name`` with ``fields``.

        Raises ValueError for a message this side does not send, a missing or extra field, or
        a value its field does not accept (so every line sent decodes on the other side).
        """
        spec = self.table.messages.get(name)
        if spec is None or spec.sender != self.side:
            raise ValueError(f"the {self.side} does not send {name}")
        if set(fields) != {f.name for f in spec.fields}:
            raise ValueError(f"{name} takes the fields {[f.name for f in spec.fields]}")
        self._int(str(seq), 1, self.table.max_seq, "sequence number")
        parts = [str(seq), name]
        for field in spec.fields:
            token = self._encode_value(field, fields[field.name])
            self._decode_value(field, token)
            parts.append(token)
        body = " ".join(parts).encode("ascii")
        line = body + f" *{crc16(body):04X}\n".encode("ascii")
        if len(line) - 1 > self.table.max_line:
            raise ValueError(f"{name} line is {len(line) - 1} bytes, over {self.table.max_line}")
        return line

    @staticmethod
    def _int(token: str, low: int, high: int, what: str) -> int:
        if not _INT.fullmatch(token):
            raise ValueError(f"{what} is not a decimal number")
        value = int(token)
        if not low <= value <= high:
            raise ValueError(f"{what} {value} is outside {low}..{high}")
        return value

    def _decode_fields(self, spec: MessageSpec, rest: str | None) -> dict[str, Value]:
        if not spec.fields:
            if rest is not None:
                raise ValueError("takes no fields")
            return {}
        if rest is None:
            raise ValueError(f"takes {len(spec.fields)} fields, got 0")
        if spec.fields[-1].type == "text":
            tokens = rest.split(" ", len(spec.fields) - 1)
        else:
            tokens = rest.split(" ")
        if len(tokens) != len(spec.fields):
            raise ValueError(f"takes {len(spec.fields)} fields, got {len(tokens)}")
        return {f.name: self._decode_value(f, t) for f, t in zip(spec.fields, tokens, strict=True)}

    def _decode_value(self, field: MessageField, token: str) -> Value:
        kind, label = field.type, field.name
        if kind == "int":
            assert field.min is not None and field.max is not None
            return self._int(token, field.min, field.max, label)
        if kind == "word":
            if not _WORD.fullmatch(token):
                raise ValueError(f"{label} must be 1..{MAX_WORD} letters, digits or _.+-")
            return token
        if kind == "version":
            major, dot, minor = token.partition(".")
            self._int(major, 0, 999, f"{label} major")
            self._int(minor if dot else "", 0, 999, f"{label} minor")
            return token
        if kind == "rgb":
            return self._rgb(token)
        if kind == "colours":
            return self._runs(token)
        if kind == "path":
            items = token.split(",")
            if len(items) > MAX_PATH:
                raise ValueError(f"path has more than {MAX_PATH} steps")
            return tuple(self._int(i, 0, self.table.max_leds - 1, "LED index") for i in items)
        if kind == "hex":
            assert field.min is not None and field.max is not None
            if not field.min <= len(token) <= field.max or len(token) % 2:
                raise ValueError(f"{label} must be {field.min}..{field.max} hex digits, even")
            if not _HEX.fullmatch(token):
                raise ValueError(f"{label} is not hexadecimal")
            return token.upper()
        if kind == "text":
            if not 1 <= len(token) <= MAX_TEXT:
                raise ValueError(f"{label} must be 1..{MAX_TEXT} characters")
            return token
        raise ValueError(f"field type {kind} is unknown")

    @staticmethod
    def _rgb(token: str) -> RGB:
        if not _HEX6.fullmatch(token):
            raise ValueError(f"colour {token[:12]} is not 6 hex digits")
        value = int(token, 16)
        return (value >> 16, (value >> 8) & 255, value & 255)

    def _runs(self, token: str) -> tuple[Run, ...]:
        runs: list[Run] = []
        total = 0
        for item in token.split(","):
            colour, cut, times = item.partition("x")
            count = self._int(times, 1, self.table.max_leds, "run length") if cut else 1
            total += count
            if total > self.table.max_leds:
                raise ValueError(f"colours cover more than {self.table.max_leds} LEDs")
            runs.append((self._rgb(colour), count))
        return tuple(runs)

    @staticmethod
    def _encode_value(field: MessageField, value: Value) -> str:
        if field.type == "rgb":
            assert isinstance(value, tuple) and len(value) == 3
            return _hex6(value)  # type: ignore[arg-type]
        if field.type == "colours":
            assert isinstance(value, tuple)
            items = []
            for colour, count in value:  # type: ignore[misc]
                items.append(_hex6(colour) if count == 1 else f"{_hex6(colour)}x{count}")
            return ",".join(items)
        if field.type == "path":
            assert isinstance(value, tuple)
            return ",".join(str(index) for index in value)
        if field.type == "text":
            text = "".join(ch if " " <= ch <= "~" else "?" for ch in str(value))
            return text[:MAX_TEXT] or "-"
        return str(value)


class LineSplitter:
    """Cut received bytes into lines of at most ``max_line`` bytes with bounded memory.

    ``feed`` returns complete lines (newline removed); an overlong line is dropped up to its
    newline and stands in the list as None.
    """

    def __init__(self, max_line: int) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._dropping = False

    def feed(self, data: bytes) -> list[bytes | None]:
        out: list[bytes | None] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            if not self._dropping:
                if len(self._buffer) + len(chunk) > self.max_line + 1:
                    self._dropping = True
                    self._buffer.clear()
                else:
                    self._buffer += chunk
            if end < 0:
                break
            out.append(None if self._dropping else bytes(self._buffer))
            self._dropping = False
            self._buffer.clear()
            start = end + 1
        return out
