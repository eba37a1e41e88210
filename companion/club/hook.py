"""Put the club's publisher beside a running table: after each change, hand it the public view.

The daemon calls ``install`` when the configuration has a [club] section. The table's loop
then only queues the view for the publisher's thread after drawing its displays; the
journal's session writes each finished game's result into the outbox.
"""

from __future__ import annotations

from pathlib import Path

from companion.club.payloads import result_payload
from companion.club.publisher import Publisher
from companion.daemon.loop import Daemon, Outputs, OutputsBeside
from companion.devices.config.sections import ClubSection
from companion.render.screen import Screen
from companion.session.session import Session


class ClubOutputs(OutputsBeside):
    """The panel's outputs, and the club's broker as one more (it never waits for it)."""

    def __init__(self, panel: Outputs, publisher: Publisher, session: Session) -> None:
        super().__init__(panel)
        self.publisher = publisher
        self.session = session

    def show(self, screen: Screen) -> None:
        self.panel.show(screen)
        self.publisher.board(self.session.view())


def install(section: ClubSection, daemon: Daemon, session: Session, journal: Path) -> Publisher:
    """Queue results in the journal's outbox and publish the table; ``start`` it with the table.

    When the league refuses a result, or a refused one is sent again, the table's outputs
    are drawn again (the host page says which games' results the league refused, and why).
    """
    session.results = result_payload

    def redraw() -> None:
        daemon.call(lambda: daemon.outputs.show(daemon.table.screen()))

    publisher = Publisher(section, journal, on_verdict=redraw)
    daemon.outputs = ClubOutputs(daemon.outputs, publisher, session)
    return publisher
