"""The join QR code on the OLED (luma's dummy device): there while the table in its menu has no
host, gone once a host is seated."""

from __future__ import annotations

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.devices.oled import Oled
from companion.session.session import Session
from companion.web.hub import Hub
from companion.web.joins import Joins
from companion.web.qr import OLED_MODULE, qr_rows
from companion.web.seats import HOST, SeatBook
from companion.web.side import TableSide, WebOutputs, WebTable


class Quiet:
    ping_every = None

    def ready(self, status: str = "ready") -> None: ...

    def alive(self) -> None: ...

    def stopping(self) -> None: ...


def test_the_oled_shows_the_join_code_as_qr_until_a_host_is_seated() -> None:
    now = [100.0]
    oled = Oled.dummy()
    panel = Panel(oled=oled)
    controller = TableController(Session.in_memory(), clock=lambda: now[0])
    daemon = Daemon(controller, panel, [], Quiet(), clock=lambda: now[0])
    seats = SeatBook(None)
    side = TableSide(daemon, controller, seats, Joins(lambda: now[0]), Hub(), "192.168.1.20:8080")
    outputs = WebOutputs(panel, side)
    table = WebTable(controller)
    Panel(oled=(plain := Oled.dummy())).show(controller.screen())
    menu = plain.image.copy()  # the menu's own picture, with no pages beside the table

    table.side = side
    outputs.show(table.screen())
    modules = qr_rows(side.join_url)
    top = (64 - len(modules) * OLED_MODULE) // 2
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            lit = oled.image.getpixel((x * OLED_MODULE, top + y * OLED_MODULE))
            assert bool(lit) is not dark, (x, y)

    seats.issue(HOST)
    outputs.show(table.screen())
    assert oled.image.tobytes() == menu.tobytes()  # the menu's picture is back
