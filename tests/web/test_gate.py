"""The gate's accounting: pages' sockets count like any connection, an idle one or a seatless
socket makes room (from the address holding the most first), a seated page's never does."""

from __future__ import annotations

from dataclasses import dataclass

from companion.web.gate import Gate


@dataclass(eq=False)
class Made:
    """A connection as the gate sees it."""

    address: str
    dropped: bool = False
    closes: int = 0

    def close(self) -> None:
        self.closes += 1


def let_in(gate: Gate, made: Made, *, socket: tuple[str, int] | None = None) -> Made:
    gate.opened(made, len(gate.open) + 1)
    if socket is not None:
        gate.socket_opened(made, socket)
    return made


def test_a_seatless_socket_makes_room_and_a_seated_one_never_does() -> None:
    gate = Gate(cap=3, per_address=10)
    seated = let_in(gate, Made("10.0.0.1"), socket=("10.0.0.1", 1))
    gate.keep(("10.0.0.1", 1))
    seatless = let_in(gate, Made("10.0.0.2"), socket=("10.0.0.2", 1))
    busy = let_in(gate, Made("10.0.0.3"))
    newcomer = let_in(gate, Made("10.0.0.4"))
    assert seatless.dropped and seatless.closes == 1
    assert not (seated.dropped or busy.dropped or newcomer.dropped)
    last = let_in(gate, Made("10.0.0.5"))  # nothing idle or seatless is left: it is closed
    assert last.dropped and not seated.dropped


def test_an_idle_connection_goes_before_a_seatless_socket_and_the_busiest_address_first() -> None:
    gate = Gate(cap=4, per_address=10)
    socket = let_in(gate, Made("10.0.0.1"), socket=("10.0.0.1", 1))
    idle = [let_in(gate, Made(address)) for address in ("10.0.0.2", "10.0.0.3", "10.0.0.3")]
    for made in idle:
        gate.wait(made)
    let_in(gate, Made("10.0.0.4"))  # 10.0.0.3 holds the most: its longest-waiting one goes
    assert [made.dropped for made in idle] == [False, True, False]
    let_in(gate, Made("10.0.0.5"))  # every address holds one: an idle one goes, not the socket
    assert idle[0].dropped and not socket.dropped


def test_sockets_count_in_their_address_share() -> None:
    gate = Gate(cap=100, per_address=3)
    sockets = [let_in(gate, Made("10.0.0.9"), socket=("10.0.0.9", n)) for n in range(3)]
    newest = let_in(gate, Made("10.0.0.9"), socket=("10.0.0.9", 3))
    assert sockets[0].dropped and not newest.dropped
    assert gate.per["10.0.0.9"] == 3
    gate.closed(sockets[0], ("10.0.0.9", 0))
    assert gate.leaving == 0 and ("10.0.0.9", 0) not in gate.sockets
