"""The join QR code on the OLED (luma's dummy device): there while the table in its menu has no
host (the join code in words until the pages' thread has worked the QR code out), gone once a
host is seated."""

from __future__ import annotations

import threading

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.devices.oled import Oled
from companion.session.session import Session
from companion.web.hub import Hub
from companion.web.joins import Joins
from companion.web.qr import OLED_MODULE, Rows, oled_image, qr_rows
from companion.web.seats import HOST, SeatBook
from companion.web.side import TableSide, WebOutputs, WebTable
from tests.quiet import Quiet


def qr_drawn(oled: Oled, modules: Rows) -> bool:
    top = (64 - len(modules) * OLED_MODULE) // 2
    return all(
        bool(oled.image.getpixel((x * OLED_MODULE, top + y * OLED_MODULE))) is not dark
        for y, row in enumerate(modules)
        for x, dark in enumerate(row)
    )


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
    daemon.table, daemon.outputs = table, outputs
    loop = threading.Thread(target=daemon.run)
    loop.start()
    try:
        daemon.call(lambda: None).result(10)  # the first picture is out
        modules = qr_rows(side.join_url)
        assert not qr_drawn(oled, modules)  # the QR code is not worked out yet: the words
        assert oled.image.tobytes() == oled_image((), side.joins.code).tobytes()

        outputs.work_out_code()  # what the pages' thread does first
        daemon.call(lambda: None).result(10)
        assert qr_drawn(oled, modules)

        seats.issue(HOST)
        daemon.call(lambda: outputs.show(table.screen())).result(10)
        assert oled.image.tobytes() == menu.tobytes()  # the menu's picture is back
    finally:
        daemon.stop()
        loop.join(10)
