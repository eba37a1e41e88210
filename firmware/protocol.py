"""The Pico's codec for the serial protocol: line framing, CRC-16 checksum, table-driven fields."""

# MicroPython subset: no typing, no dataclasses, no str.rjust/zfill/bytes.hex.
# Decoded values: int and text types are int and str; an rgb is an int 0xRRGGBB; colours are a
# list of [rgb, count] runs; a path is a list of ints.

WORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-"
HEX_CHARS = "0123456789ABCDEFabcdef"
DIGITS = "0123456789"
MAX_WORD = 32
MAX_TEXT = 200
MAX_PATH = 256


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data):
    """Return the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of bytes ``data``."""
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


class ProtocolError(Exception):
    """A line that cannot be accepted: ``code`` from the table's errors, ``detail`` a sentence.

    ``seq`` is the line's sequence number once its checksum held, else 0.
    """

    def __init__(self, code, detail, seq=0):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.seq = seq


def _is_digits(text):
    return bool(text) and all(ch in DIGITS for ch in text)


def _is_hex(text):
    return bool(text) and all(ch in HEX_CHARS for ch in text)


def _parse_int(text, low, high, what):
    if not _is_digits(text) or len(text) > 6 or (len(text) > 1 and text[0] == "0"):
        raise ValueError(what + " is not a decimal number")
    value = int(text)
    if value < low or value > high:
        raise ValueError(f"{what} {value} is outside {low}..{high}")
    return value


def _parse_rgb(text):
    if len(text) != 6 or not _is_hex(text):
        raise ValueError("colour " + text[:12] + " is not 6 hex digits")
    return int(text, 16)


def _hex6(value):
    return f"{value:06X}"


class Codec:
    """Encode and decode lines for one side ("pi" or "pico") using the shared message table."""

    def __init__(self, table, side):
        self.side = side
        self.protocol = table["protocol"]
        self.max_line = table["max_line"]
        self.max_leds = table["max_leds"]
        self.max_seq = table["max_seq"]
        self.errors = table["errors"]
        self.specs = {}
        for spec in table["messages"]:
            self.specs[spec["name"]] = spec

    def line_buffer(self):
        """Return a LineBuffer sized for this protocol's longest line."""
        return LineBuffer(self.max_line)

    def decode(self, line):
        """Return ``(seq, name, values)`` for one received line (bytes, no newline).

        Raises ProtocolError (never anything else) for any line that is not a valid message
        sent by the other side.
        """
        if line and line[-1] == 13:
            line = line[:-1]
        if len(line) > self.max_line:
            raise ProtocolError("too_long", f"line longer than {self.max_line} bytes")
        for byte in line:
            if byte < 32 or byte > 126:
                raise ProtocolError("framing", f"byte {byte} is not printable ASCII")
        text = line.decode()
        if len(text) < 9 or text[-6:-4] != " *":
            raise ProtocolError("framing", "no checksum field at the end of the line")
        body = text[:-6]
        given = text[-4:]
        if not _is_hex(given):
            raise ProtocolError("framing", "checksum " + given + " is not 4 hex digits")
        expected = crc16(line[:-6])
        if int(given, 16) != expected:
            raise ProtocolError("checksum", f"checksum {given}, expected {expected:04X}")
        head = body.split(" ", 2)
        if len(head) < 2:
            raise ProtocolError("framing", "no message name")
        try:
            seq = _parse_int(head[0], 1, self.max_seq, "sequence number")
        except ValueError as exc:
            raise ProtocolError("framing", str(exc)) from None
        name = head[1]
        spec = self.specs.get(name)
        if spec is None:
            raise ProtocolError("unknown", "unknown message " + name[:MAX_WORD], seq)
        if spec["from"] == self.side:
            raise ProtocolError("unknown", name + " is not sent by the " + self._other(), seq)
        rest = head[2] if len(head) > 2 else None
        try:
            values = self._decode_fields(spec, rest)
        except ValueError as exc:
            raise ProtocolError("args", name + ": " + str(exc), seq) from None
        return seq, name, values

    def _other(self):
        return "pico" if self.side == "pi" else "pi"

    def _decode_fields(self, spec, rest):
        fields = spec["fields"]
        if not fields:
            if rest is not None:
                raise ValueError("takes no fields")
            return []
        if rest is None:
            raise ValueError(f"takes {len(fields)} fields, got 0")
        if fields[-1]["type"] == "text":
            tokens = rest.split(" ", len(fields) - 1)
        else:
            tokens = rest.split(" ")
        if len(tokens) != len(fields):
            raise ValueError(f"takes {len(fields)} fields, got {len(tokens)}")
        values = []
        for index in range(len(fields)):
            values.append(self._decode_value(fields[index], tokens[index]))
        return values

    def _decode_value(self, field, token):
        kind = field["type"]
        label = field["name"]
        if kind == "int":
            return _parse_int(token, field["min"], field["max"], label)
        if kind == "word":
            if not token or len(token) > MAX_WORD:
                raise ValueError(f"{label} must be 1..{MAX_WORD} characters")
            for ch in token:
                if ch not in WORD_CHARS:
                    raise ValueError(label + " has a character outside letters, digits, _.+-")
            return token
        if kind == "version":
            parts = token.split(".")
            if len(parts) != 2:
                raise ValueError(label + " is not major.minor")
            _parse_int(parts[0], 0, 999, label + " major")
            _parse_int(parts[1], 0, 999, label + " minor")
            return token
        if kind == "rgb":
            return _parse_rgb(token)
        if kind == "colours":
            return self._decode_runs(token)
        if kind == "path":
            items = token.split(",")
            if len(items) > MAX_PATH:
                raise ValueError(f"path has more than {MAX_PATH} steps")
            return [_parse_int(item, 0, self.max_leds - 1, "LED index") for item in items]
        if kind == "hex":
            if len(token) < field["min"] or len(token) > field["max"] or len(token) % 2:
                low = field["min"]
                high = field["max"]
                raise ValueError(f"{label} must be {low}..{high} hex digits, even")
            if not _is_hex(token):
                raise ValueError(label + " is not hexadecimal")
            return token.upper()
        if kind == "text":
            if not token or len(token) > MAX_TEXT:
                raise ValueError(f"{label} must be 1..{MAX_TEXT} characters")
            return token
        raise ValueError("field type " + kind + " is unknown")

    def _decode_runs(self, token):
        runs = []
        total = 0
        for item in token.split(","):
            count = 1
            cut = item.find("x")
            if cut >= 0:
                count = _parse_int(item[cut + 1 :], 1, self.max_leds, "run length")
                item = item[:cut]
            total += count
            if total > self.max_leds:
                raise ValueError(f"colours cover more than {self.max_leds} LEDs")
            runs.append([_parse_rgb(item), count])
        return runs

    def encode(self, seq, name, values):
        """Return the line (bytes, newline included) carrying message ``name``.

        Raises ValueError if the message is not this side's or a value does not fit its field.
        """
        spec = self.specs.get(name)
        if spec is None or spec["from"] != self.side:
            raise ValueError("the " + self.side + " does not send " + str(name))
        fields = spec["fields"]
        if len(values) != len(fields):
            raise ValueError(f"{name} takes {len(fields)} fields")
        parts = [str(seq), name]
        for index in range(len(fields)):
            parts.append(self._encode_value(fields[index], values[index]))
        body = " ".join(parts).encode()
        line = body + f" *{crc16(body):04X}\n".encode()
        if len(line) - 1 > self.max_line:
            raise ValueError(f"{name} line is longer than {self.max_line} bytes")
        return line

    def _encode_value(self, field, value):
        kind = field["type"]
        if kind == "rgb":
            return _hex6(value)
        if kind == "colours":
            items = []
            for run in value:
                if run[1] == 1:
                    items.append(_hex6(run[0]))
                else:
                    items.append(_hex6(run[0]) + "x" + str(run[1]))
            return ",".join(items)
        if kind == "path":
            return ",".join([str(index) for index in value])
        if kind == "text":
            return _printable(str(value))[:MAX_TEXT] or "-"
        return str(value)


def _printable(text):
    out = []
    for ch in text:
        out.append(ch if " " <= ch <= "~" else "?")
    return "".join(out)


class LineBuffer:
    """Cut a byte stream into lines of at most ``max_line`` bytes, without unbounded memory.

    ``feed`` returns the complete lines (bytes, newline removed); an overlong line is dropped up
    to its newline and stands in the list as None.
    """

    def __init__(self, max_line):
        self.max_line = max_line
        self.buffer = bytearray()
        self.dropping = False

    def feed(self, data):
        out = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            if not self.dropping:
                if len(self.buffer) + len(chunk) > self.max_line + 1:
                    self.dropping = True
                    self.buffer = bytearray()
                else:
                    self.buffer.extend(chunk)
            if end < 0:
                break
            out.append(None if self.dropping else bytes(self.buffer))
            self.dropping = False
            self.buffer = bytearray()
            start = end + 1
        return out
