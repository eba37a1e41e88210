"""Both codecs (the Pi's and the firmware's) against the shared vectors and the one table."""

from __future__ import annotations

import binascii
import json
from pathlib import Path
from typing import Any

import pytest

from companion.devices import pico_protocol as pi
from companion.devices.fake_pico import FIRMWARE_DIR

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VECTORS = json.loads((HERE / "vectors.json").read_text())["vectors"]
GOOD = [v for v in VECTORS if "error" not in v]
BAD = [v for v in VECTORS if "error" in v]


def raw(vector: dict[str, Any]) -> bytes:
    line: bytes = vector["line"].encode("latin-1")
    return line * vector.get("times", 1)


def label(vector: dict[str, Any]) -> str:
    return vector.get("note") or vector["line"][:40]


def receiver(vector: dict[str, Any]) -> str:
    return "pico" if vector["from"] == "pi" else "pi"


def neutral_from_pi(message: pi.PicoMessage) -> dict[str, Any]:
    """The Pi codec's values in the vectors' neutral form."""
    out: dict[str, Any] = {}
    for name, value in message.fields.items():
        if name == "colours":
            out[name] = [[f"{r:02X}{g:02X}{b:02X}", n] for (r, g, b), n in value]  # type: ignore[union-attr, misc, str-unpack]
        elif name == "colour":
            out[name] = "{:02X}{:02X}{:02X}".format(*value)  # type: ignore[str-format, misc]
        elif name == "path":
            out[name] = list(value)  # type: ignore[arg-type]
        else:
            out[name] = value
    return out


def neutral_from_firmware(spec: dict[str, Any], values: list[Any]) -> dict[str, Any]:
    """The firmware codec's values (ints for colours) in the vectors' neutral form."""
    out: dict[str, Any] = {}
    for field, value in zip(spec["fields"], values, strict=True):
        if field["type"] == "colours":
            out[field["name"]] = [[f"{rgb:06X}", n] for rgb, n in value]
        elif field["type"] == "rgb":
            out[field["name"]] = f"{value:06X}"
        else:
            out[field["name"]] = value
    return out


def pi_fields(vector: dict[str, Any]) -> dict[str, Any]:
    """The vector's fields as the Pi codec takes them."""
    out: dict[str, Any] = {}
    for name, value in vector["fields"].items():
        if name == "colours":
            out[name] = tuple((pi.Codec._rgb(hex6), n) for hex6, n in value)
        elif name == "colour":
            out[name] = pi.Codec._rgb(value)
        elif name == "path":
            out[name] = tuple(value)
        else:
            out[name] = value
    return out


def firmware_values(codec: Any, vector: dict[str, Any]) -> list[Any]:
    spec = codec.specs[vector["name"]]
    values = []
    for field in spec["fields"]:
        value = vector["fields"][field["name"]]
        if field["type"] == "colours":
            value = [[int(hex6, 16), n] for hex6, n in value]
        elif field["type"] == "rgb":
            value = int(value, 16)
        values.append(value)
    return values


def test_every_vector_line_carries_an_independent_crc() -> None:
    for vector in GOOD:
        line = raw(vector).rstrip(b"\r")
        body, crc = line[:-6], line[-4:]
        assert int(crc, 16) == binascii.crc_hqx(body, 0xFFFF), label(vector)


def test_both_crc_implementations_agree_with_the_standard_check_value(fw: Any) -> None:
    # CRC-16/CCITT-FALSE of "123456789" is 0x29B1 by definition.
    assert pi.crc16(b"123456789") == 0x29B1
    assert fw.protocol.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("vector", GOOD, ids=label)
def test_the_pi_codec_reads_and_writes_every_vector(vector: dict[str, Any]) -> None:
    codec = pi.Codec(side=receiver(vector))
    message = codec.decode(raw(vector))
    assert (message.seq, message.name) == (vector["seq"], vector["name"])
    assert neutral_from_pi(message) == vector["fields"]
    if vector.get("canonical", True):
        sender = pi.Codec(side=vector["from"])
        line = sender.encode(vector["seq"], vector["name"], **pi_fields(vector))
        assert line == raw(vector) + b"\n"


@pytest.mark.parametrize("vector", GOOD, ids=label)
def test_the_firmware_codec_reads_and_writes_every_vector(
    fw: Any, table: dict[str, Any], vector: dict[str, Any]
) -> None:
    codec = fw.protocol.Codec(table, receiver(vector))
    seq, name, values = codec.decode(raw(vector))
    assert (seq, name) == (vector["seq"], vector["name"])
    assert neutral_from_firmware(codec.specs[name], values) == vector["fields"]
    if vector.get("canonical", True):
        sender = fw.protocol.Codec(table, vector["from"])
        line = sender.encode(vector["seq"], vector["name"], firmware_values(sender, vector))
        assert line == raw(vector) + b"\n"


@pytest.mark.parametrize("vector", BAD, ids=label)
def test_both_codecs_refuse_every_bad_vector_with_its_code(
    fw: Any, table: dict[str, Any], vector: dict[str, Any]
) -> None:
    with pytest.raises(pi.ProtocolError) as on_pi:
        pi.Codec(side=receiver(vector)).decode(raw(vector))
    with pytest.raises(fw.protocol.ProtocolError) as on_pico:
        fw.protocol.Codec(table, receiver(vector)).decode(raw(vector))
    for error in (on_pi.value, on_pico.value):
        assert (error.code, error.seq) == (vector["error"], vector["error_seq"])
        assert error.code in table["errors"]
        assert str(error)


def test_the_firmware_carries_the_same_table_as_the_package() -> None:
    shipped = pi.table_text()
    copy = (FIRMWARE_DIR / "pico_messages.json").read_text(encoding="utf-8")
    assert copy == shipped, (
        "firmware/pico_messages.json differs from companion/devices/pico_messages.json, the "
        "source: copy the latter over the former"
    )


def test_the_table_is_consistent() -> None:
    table = pi.load_table()
    kinds = {"int", "word", "version", "rgb", "colours", "path", "hex", "text"}
    for spec in table.messages.values():
        assert spec.sender in ("pi", "pico")
        assert (spec.reply is not None) == (spec.sender == "pi"), spec.name
        if spec.reply is not None:
            assert table.messages[spec.reply].sender == "pico"
        for index, field in enumerate(spec.fields):
            assert field.type in kinds
            assert field.type != "text" or index == len(spec.fields) - 1
            if field.type in ("int", "hex"):
                assert field.min is not None and field.max is not None
    assert table.major == 1


def test_docs_describe_every_message_and_error() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = pi.load_table()
    for name in table.messages:
        assert f"`{name}`" in text, f"docs/protocol.md does not describe {name}"
    for code in table.errors:
        assert f"`{code}`" in text, f"docs/protocol.md does not describe the error {code}"
    assert table.protocol in text


def test_the_examples_in_the_docs_are_real_lines() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    examples = [line for line in text.splitlines() if line.startswith(("> ", "< "))]
    assert len(examples) > 10
    damaged = 0
    for example in examples:
        side = "pico" if example[0] == ">" else "pi"
        line = example[2:].encode("ascii")
        try:
            pi.Codec(side=side).decode(line)
        except pi.ProtocolError as exc:
            assert exc.code == "checksum", example
            damaged += 1
    assert damaged == 1
