"""The table's publisher: its board, its status and its finished games, on a thread of its own.

The table's loop only hands it the public view after each change (``board``: a put on a
queue, never a wait). The publisher's thread turns the newest view into the retained
``state`` message at most ``STATE_EVERY_S`` apart, and sends each result of the journal's
outbox with QoS 1, oldest first, marking it sent only when the broker acknowledges it
(PUBACK). paho-mqtt's own network thread connects, reconnects and resends what was not
acknowledged; results still unsent when the table stops go out after its next start.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho

from companion.club.assistant import discovery, race_over, races_scored
from companion.club.link import LinkWatch
from companion.club.mqtt import client_for
from companion.club.outbox import OutboxReader
from companion.club.payloads import Names, addressed, dump, resend_topic, state_payload
from companion.devices.config.sections import ClubSection
from companion.session.journal import utc_now
from companion.session.view import View

log = logging.getLogger("companion.club")

#: The shortest time between two ``state`` messages (seconds): at most four a second.
STATE_EVERY_S = 0.25
#: How often the outbox is read again even when nothing said it changed (seconds).
OUTBOX_EVERY_S = 5.0

#: A request of the league to send results again is answered within this time of it.
REQUEST_LIFETIME = timedelta(hours=1)
#: The largest request read (a real one is some fifty bytes).
MAX_REQUEST_BYTES = 1024

#: What the thread may be told, from the loop or from paho's thread.
_Board = tuple[str, View]
_Connected = tuple[str, bool]
_Acked = tuple[str, int, bool]


@dataclass
class PublisherFigures:
    """What the publisher has done, for tests and the bench."""

    results_sent: int = 0
    states_sent: int = 0
    connects: int = 0


class Publisher:
    """Publish one table to the club's broker; ``start``, then ``board`` after each change."""

    def __init__(
        self,
        section: ClubSection,
        journal: Path,
        *,
        reconnect_s: tuple[float, float] = (1.0, 30.0),
    ) -> None:
        self.names = Names(section.club, section.table)
        self.section = section
        self.figures = PublisherFigures()
        self._outbox = OutboxReader(journal)
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._client = client_for(
            section.broker,
            f"companion-{section.club}-{section.table}",
            will=(self.names.topic("status"), "offline"),
            reconnect_s=reconnect_s,
        )
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        #: How the connection stands, and why it is down (logged once a change).
        self.link = LinkWatch(self._client, section.broker)
        self._thread = threading.Thread(target=self._run, name="club", daemon=True)
        self._connected = False
        #: Results handed to paho and not acknowledged yet: message id -> outbox row.
        self._in_flight: dict[int, int] = {}
        self._last_queued = 0
        self._view: View | None = None
        self._view_sent: View | None = None
        self._state_at = 0.0
        #: The league's last request to send results again that this table answered.
        self._served: str | None = None
        #: Races scored in the game on (for Home Assistant's race_over event), by game id.
        self._races: tuple[int | None, int] = (None, 0)

    # -- the table's side (any thread, never waits) ---------------------------------------

    def board(self, view: View) -> None:
        """Hand over the public view after a change (the newest one wins)."""
        self._inbox.put(("board", view))

    def start(self) -> None:
        """Connect in the background and start the thread; a dead broker is retried forever."""
        b = self.section.broker
        self._client.connect_async(b.host, b.port, keepalive=30)
        self._client.loop_start()
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Say ``offline``, disconnect and stop both threads (unsent results stay queued)."""
        self._inbox.put(("stop",))
        self._thread.join(timeout)
        self._client.loop_stop()
        self._outbox.close()

    # -- paho's thread --------------------------------------------------------------------

    def _on_connect(
        self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self.link.connected(reason)
        if not reason.is_failure:
            client.subscribe(resend_topic(self.names.club), qos=1)
        self._inbox.put(("connected", not reason.is_failure))

    def _on_disconnect(
        self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self.link.disconnected(reason)
        self._inbox.put(("connected", False))

    def _on_message(self, client: paho.Client, data: Any, message: paho.MQTTMessage) -> None:
        self._inbox.put(("resend", bytes(message.payload[: MAX_REQUEST_BYTES + 1])))

    def _on_publish(
        self, client: paho.Client, userdata: Any, mid: int, reason: Any, props: Any
    ) -> None:
        self._inbox.put(("acked", mid, not reason.is_failure))

    # -- the publisher's thread -----------------------------------------------------------

    def _run(self) -> None:
        next_read = time.monotonic() + OUTBOX_EVERY_S
        while True:
            wait = next_read - time.monotonic()
            if self._view is not self._view_sent and self._connected:
                wait = min(wait, self._state_at + STATE_EVERY_S - time.monotonic())
            try:
                message = self._inbox.get(timeout=max(wait, 0.0))
            except queue.Empty:
                message = None
            try:
                if message is not None and message[0] == "stop":
                    self._goodbye()
                    return
                if message is not None:
                    self._handle(message)
                now = time.monotonic()
                if now >= next_read:
                    self._send_results()
                    next_read = now + OUTBOX_EVERY_S
                self._send_state()
            except Exception:
                log.exception("the club publisher failed; it goes on")

    def _handle(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "board":
            view: View = message[1]
            self._view = view
            if self.section.home_assistant:
                self._announce_race(view)
            if view.finished:
                self._send_results()
        elif kind == "connected":
            if message[1] and not self._connected:
                self.figures.connects += 1
                self._client.publish(self.names.topic("status"), "online", qos=1, retain=True)
                self._view_sent = None
                if self.section.home_assistant:
                    for topic, config in discovery(self.names).items():
                        self._client.publish(topic, dump(config), qos=1, retain=True)
                self._connected = True
                self._send_results(everything=True)
            elif not message[1] and self._connected:
                self._connected = False
        elif kind == "resend":
            self._resend(message[1])
        elif kind == "acked":
            row = self._in_flight.pop(message[1], None)
            if row is not None and message[2]:
                self._outbox.mark_sent(row)
                self.figures.results_sent += 1
            elif row is not None:
                log.warning(
                    "the broker refused result %s; it is sent again after a reconnection", row
                )

    def _announce_race(self, view: View) -> None:
        """Send Home Assistant's race_over event when the board counts one more scored race."""
        scored = races_scored(view)
        game, before = self._races
        self._races = (view.game_id, scored)
        if view.game_id == game and scored > before and self._connected:
            self._client.publish(self.names.topic("event"), race_over(view), qos=1)

    def _resend(self, payload: bytes) -> None:
        """Send again the results acknowledged since the time the league asks from (each once
        per request; a request is {"at": when asked, "since": UTC time or null for all})."""
        try:
            if len(payload) > MAX_REQUEST_BYTES:
                raise ValueError("too long")
            request = json.loads(payload.decode("utf-8"))
            at, since = request["at"], request["since"]
            asked = datetime.fromisoformat(at)
            if asked.tzinfo is None or (since is not None and not isinstance(since, str)):
                raise ValueError("no time zone")
            if since is not None:
                datetime.fromisoformat(since)
        except (ValueError, TypeError, KeyError, UnicodeDecodeError):
            log.warning("a request to send the results again was not understood")
            return
        if at == self._served or datetime.now(UTC) - asked > REQUEST_LIFETIME:
            return
        self._served = at
        again = self._outbox.sent_since(since)
        log.info("the league asked for the results again: %s sent again", len(again))
        for pending in again:
            payload_text = addressed(pending.payload, self.names, pending.id)
            info = self._client.publish(self.names.topic("results"), payload_text, qos=1)
            self._in_flight[info.mid] = pending.id

    def _send_results(self, *, everything: bool = False) -> None:
        """Hand paho the unsent results not handed yet, oldest first (only when connected).

        Just after a connection, ``everything`` unsent goes again but what paho still holds
        (paho sends that again itself): a result the broker refused gets another chance.
        """
        if not self._connected:
            return
        holding = set(self._in_flight.values())
        for pending in self._outbox.pending(after=0 if everything else self._last_queued):
            if pending.id in holding:
                continue
            payload = addressed(pending.payload, self.names, pending.id)
            info = self._client.publish(self.names.topic("results"), payload, qos=1)
            self._in_flight[info.mid] = pending.id
            self._last_queued = pending.id

    def _send_state(self) -> None:
        view = self._view
        if view is None or view is self._view_sent or not self._connected:
            return
        if time.monotonic() < self._state_at + STATE_EVERY_S:
            return
        payload = state_payload(view, self.names, utc_now())
        self._client.publish(self.names.topic("state"), payload, qos=0, retain=True)
        self._view_sent, self._state_at = view, time.monotonic()
        self.figures.states_sent += 1

    def _goodbye(self) -> None:
        if self._connected:
            info = self._client.publish(self.names.topic("status"), "offline", qos=1, retain=True)
            try:
                info.wait_for_publish(1.0)
            except (RuntimeError, ValueError):
                pass
        self._client.disconnect()
