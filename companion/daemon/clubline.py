"""What the table says of its connection to the club's broker: every change on the host page,
and once on the panel a failure (what to check) and the connection that ends it."""

from __future__ import annotations

from collections.abc import Sequence

from companion.club.link import FAILURES, Link, LinkState
from companion.club.publisher import Publisher
from companion.daemon.flows.base import ClubLine, Context, Reply, notice
from companion.daemon.loop import Daemon
from companion.daemon.table import TableController
from companion.games.text import N_, Message
from companion.render.language import say
from companion.render.screen import Cue

#: The table's sentence for each state of the connection.
SENTENCES = {
    LinkState.CONNECTING: N_("Club: connecting to the broker."),
    LinkState.CONNECTED: N_("Club: connected."),
    LinkState.NOT_AUTHORISED: N_("Club: login refused: check username and password."),
    LinkState.TURNED_AWAY: N_("Club: the broker turned the table away."),
    LinkState.UNREACHABLE: N_("Club: broker unreachable: check address and network."),
    LinkState.TLS: N_("Club: TLS failed: check the broker's certificate."),
    LinkState.HUNG_UP: N_("Club: the broker hung up: check port and TLS."),
    LinkState.LOST: N_("Club: connection lost; results wait."),
}


def club_line(link: Link) -> ClubLine:
    """What the host page says of ``link``."""
    detail = f"{link.broker}: {link.detail}" if link.detail else link.broker
    return ClubLine(Message.of(SENTENCES[link.state]), detail)


class ClubNotices:
    """Keep the context's club line up to date and flash what the panel must hear (on the
    loop's thread, through ``Daemon.enter``; the link changes on paho's thread)."""

    def __init__(self, daemon: Daemon, controller: TableController) -> None:
        self.daemon = daemon
        self.controller = controller
        #: The last state the panel was told of (a failure), or None.
        self.told: LinkState | None = None

    def follow(self, publisher: Publisher) -> None:
        """Hear every change of ``publisher``'s connection from now on."""
        self.controller.ctx.club = club_line(publisher.link.link)
        publisher.link.on_change = self.changed

    def changed(self, link: Link) -> None:
        """The connection changed (on paho's thread): the loop says it in its turn."""
        self.daemon.enter(lambda: self._on_loop(link))

    def _on_loop(self, link: Link) -> Sequence[Cue]:
        if link.state in FAILURES and link.state is not self.told:
            self.told = link.state
        elif link.state is LinkState.CONNECTED and self.told is not None:
            self.told = None
        else:
            self.controller.ctx.club = club_line(link)  # the host page only
            return ()
        return self.controller.apply(lambda ctx: self._tell(ctx, link))

    def _tell(self, ctx: Context, link: Link) -> Reply:
        ctx.club = club_line(link)
        return notice(say(ctx.club.message), tone=None)
