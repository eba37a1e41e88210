"""Both codecs under random, truncated, corrupted and overlong input: a clear error, never a
crash; valid messages cross from one codec to the other unchanged."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.devices import pico_protocol as pi
from companion.devices.fake_pico import RecordingStrip, firmware_module

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TABLE = pi.load_table()
FW_TABLE: dict[str, Any] = __import__("json").loads(pi.table_text())
protocol = firmware_module("protocol")
ERRORS = set(TABLE.errors)
printable = st.characters(min_codepoint=32, max_codepoint=126)
rgb = st.tuples(*[st.integers(0, 255)] * 3)


def value_strategy(field: pi.MessageField) -> st.SearchStrategy[Any]:
    kind = field.type
    if kind == "int":
        assert field.min is not None and field.max is not None
        return st.integers(field.min, field.max)
    if kind == "word":
        return st.text(alphabet=protocol.WORD_CHARS, min_size=1, max_size=32)
    if kind == "version":
        return st.tuples(st.integers(0, 999), st.integers(0, 999)).map(lambda v: f"{v[0]}.{v[1]}")
    if kind == "rgb":
        return rgb
    if kind == "colours":
        runs = st.lists(st.tuples(rgb, st.integers(1, 8)), min_size=1, max_size=60)
        return runs.map(tuple)
    if kind == "path":
        return st.lists(st.integers(0, 1023), min_size=1, max_size=60).map(tuple)
    if kind == "hex":
        assert field.min is not None and field.max is not None
        size = st.integers(field.min // 2, field.max // 2)
        return size.flatmap(lambda n: st.binary(min_size=n, max_size=n)).map(
            lambda b: b.hex().upper()
        )
    if kind == "text":
        return st.text(alphabet=printable, min_size=1, max_size=120)
    raise AssertionError(kind)


@st.composite
def messages(draw: st.DrawFn, sender: str | None = None) -> tuple[str, int, str, dict[str, Any]]:
    specs = [s for s in TABLE.messages.values() if sender in (None, s.sender)]
    spec = draw(st.sampled_from(specs))
    fields = {f.name: draw(value_strategy(f)) for f in spec.fields}
    return spec.sender, draw(st.integers(1, 9999)), spec.name, fields


def encoded(message: tuple[str, int, str, dict[str, Any]]) -> bytes:
    sender, seq, name, fields = message
    try:
        return pi.Codec(side=sender).encode(seq, name, **fields)
    except ValueError:
        assume(False)
        raise


def receivers(sender: str) -> tuple[pi.Codec, Any]:
    side = "pico" if sender == "pi" else "pi"
    return pi.Codec(side=side), protocol.Codec(FW_TABLE, side)


def decode_both(sender: str, line: bytes) -> tuple[object, object]:
    """Decode with both codecs; return each result or its ProtocolError."""
    pi_codec, fw_codec = receivers(sender)
    results: list[object] = []
    for codec, error in ((pi_codec, pi.ProtocolError), (fw_codec, protocol.ProtocolError)):
        try:
            results.append(codec.decode(line))
        except error as exc:
            assert exc.code in ERRORS and str(exc)
            results.append(exc)
    return results[0], results[1]


@SETTINGS
@given(st.binary(max_size=1300), st.sampled_from(["pi", "pico"]))
def test_random_bytes_never_crash_either_codec(data: bytes, sender: str) -> None:
    decode_both(sender, data)


@SETTINGS
@given(messages())
def test_valid_messages_cross_between_the_codecs_unchanged(
    message: tuple[str, int, str, dict[str, Any]],
) -> None:
    sender, seq, name, fields = message
    line = encoded(message)
    on_pi, on_pico = decode_both(sender, line[:-1])
    assert isinstance(on_pi, pi.PicoMessage)
    assert (on_pi.seq, on_pi.name) == (seq, name)
    expected = {k: v.upper() if k == "uid" else v for k, v in fields.items()}
    assert dict(on_pi.fields) == expected
    fw_codec = protocol.Codec(FW_TABLE, sender)
    assert isinstance(on_pico, tuple) and on_pico[:2] == (seq, name)
    assert fw_codec.encode(seq, name, on_pico[2]) == line


@SETTINGS
@given(messages(), st.data())
def test_any_changed_byte_is_caught(
    message: tuple[str, int, str, dict[str, Any]], data: st.DataObject
) -> None:
    line = encoded(message)[:-1]
    at = data.draw(st.integers(0, len(line) - 1))
    new = data.draw(st.integers(0, 255).filter(lambda b: b != line[at] and b != 10))
    damaged = line[:at] + bytes([new]) + line[at + 1 :]
    assume(damaged.lower() != line.lower())
    for result in decode_both(message[0], damaged):
        assert isinstance(result, (pi.ProtocolError, protocol.ProtocolError))


@SETTINGS
@given(messages(), st.data())
def test_a_truncated_line_is_refused(
    message: tuple[str, int, str, dict[str, Any]], data: st.DataObject
) -> None:
    line = encoded(message)[:-1]
    cut = data.draw(st.integers(0, len(line) - 1))
    for result in decode_both(message[0], line[:cut]):
        assert isinstance(result, (pi.ProtocolError, protocol.ProtocolError))


@SETTINGS
@given(st.lists(st.binary(max_size=3000), max_size=8), st.data())
def test_line_splitting_is_bounded_and_does_not_depend_on_chunks(
    chunks: list[bytes], data: st.DataObject
) -> None:
    stream = b"".join(chunks)
    whole_pi = pi.LineSplitter(1024).feed(stream)
    pieces: list[bytes | None] = []
    splitter = pi.LineSplitter(1024)
    firmware = protocol.LineBuffer(1024)
    fw_pieces: list[bytes | None] = []
    at = 0
    while at < len(stream):
        step = data.draw(st.integers(1, 700))
        pieces += splitter.feed(stream[at : at + step])
        fw_pieces += firmware.feed(stream[at : at + step])
        assert len(splitter._buffer) <= 1025 and len(firmware.buffer) <= 1025
        at += step
    assert pieces == whole_pi == fw_pieces
    assert all(p is None or len(p) <= 1025 for p in pieces)
    expected = [None if len(line) > 1025 else line for line in stream.split(b"\n")[:-1]]
    assert pieces == expected


@SETTINGS
@given(st.lists(st.one_of(st.binary(max_size=200), messages("pi").map(encoded)), max_size=12))
def test_the_firmware_answers_every_line_exactly_once(chunks: list[bytes]) -> None:
    out: list[bytes] = []
    firmware = firmware_module("app").Firmware(
        protocol.Codec(FW_TABLE, "pico"),
        firmware_module("strip_anim").Track([RecordingStrip(30)], 64),
        out.append,
        window=firmware_module("cards").CardWindow(100),
    )
    stream = b"".join(chunk if chunk.endswith(b"\n") else chunk + b"\n" for chunk in chunks)
    for index in range(0, len(stream), 97):
        firmware.receive(stream[index : index + 97], index)
        firmware.poll(index)
    asked = [line for line in stream.split(b"\n")[:-1] if line not in (b"", b"\r")]
    answers = [pi.Codec(side="pi").decode(line) for line in b"".join(out).split(b"\n") if line]
    assert len(answers) == len(asked)
    for line, answer in zip(asked, answers, strict=True):
        if answer.name == "ERR":
            assert answer.text("code") in ERRORS
        else:
            assert answer.number("re") == int(line.split(b" ")[0])
