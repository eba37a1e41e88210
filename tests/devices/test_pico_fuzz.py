"""The Pi's receive path from a Pico, fuzzed over a real pty: whatever mix of events, repeats,
noise, overlong lines and stray replies arrives, every new event becomes exactly one device
event in order, nothing else does, and the link keeps answering."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.devices.base import ButtonPressed, CardScanned, Event
from companion.devices.fake_pico import FakePico
from companion.devices.pico import PicoButtons, PicoCardReader
from tests.devices.test_pico import Sink, make_link

uids = st.sampled_from(["0A0B0C0D", "04A1B2C3D4E5F6", "DEADBEEF"])
events = st.tuples(st.just("CARD"), uids) | st.tuples(
    st.just("BUTTON"), st.sampled_from(["spare1", "spare2", "spare4"])
)
noise = st.binary(max_size=80).map(lambda data: ("noise", data))
overlong = st.integers(1025, 1400).map(lambda size: ("noise", b"7" * size))
replies = st.tuples(st.just("reply"), st.sampled_from(["ACK", "PONG"]), st.integers(0, 9999))
repeats = st.just(("repeat",))
items = st.lists(events | noise | overlong | replies | repeats, max_size=10)


def expected_event(name: str, value: str) -> Event:
    if name == "CARD":
        return CardScanned(value, None, "pico")
    return ButtonPressed(value)


def test_any_mix_of_lines_gives_each_new_event_once(tmp_path: Path) -> None:
    with FakePico(tmp_path / "pico") as pico:
        link = make_link(pico.path)
        sink = Sink()
        reader = PicoCardReader(link)
        buttons = PicoButtons(link)
        reader.start(sink)
        buttons.start(sink)
        link.wait_ready(5)

        @settings(
            max_examples=200,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(items)
        def each_new_event_once(sent: list[tuple[Any, ...]]) -> None:
            expected: list[Event] = []
            last: bytes | None = None
            for item in sent:
                if item[0] in ("CARD", "BUTTON"):
                    last = pico.say(item[0], item[1])
                    expected.append(expected_event(item[0], item[1]))
                elif item[0] == "repeat" and last is not None:
                    pico.emit(last)
                elif item[0] == "noise":
                    pico.emit(item[1] + b"\n")
                elif item[0] == "reply":
                    pico.say(item[1], item[2])
            # The PONG comes after every line above, and the link reads in order.
            assert link.ping() < 2.0
            sink.statuses()  # takes in every event queued so far
            got = [e for e in sink.seen if isinstance(e, CardScanned | ButtonPressed)]
            sink.seen.clear()
            assert got == expected
            assert link.connected

        each_new_event_once()
        reader.close()
        buttons.close()
