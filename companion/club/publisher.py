"""The table's publisher: its board, its status and its finished games, on a thread of its own.

The table's loop only hands it the public view after each change (``board``: a put on a
queue, never a wait). The publisher's thread turns the newest view into the retained
``state`` message at most ``STATE_EVERY_S`` apart, and sends each result of the journal's
outbox with QoS 1, oldest first, marking it sent only when the broker acknowledges it
(PUBACK). paho-mqtt's own network thread connects, reconnects and resends what was not
acknowledged; results still unsent when the table stops go out after its next start.

The state also says the number of the last result the broker acknowledged, so the league
can tell one it never got. The league's requests come on the table's own retained topic:
each request (by number) is answered once; the league clears it once nothing is missing.
The league's refusals come on another: each refused result keeps the league's reason in the
outbox (the host page shows it) until it is sent again (``companion outbox --send-again``).
Home Assistant's ``race_over`` events are kept until the broker acknowledges them too.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as paho

from companion.club.assistant import discovery, race_over, races_scored
from companion.club.link import LinkWatch
from companion.club.mqtt import client_for
from companion.club.outbox import OutboxReader
from companion.club.payloads import (
    Names,
    addressed,
    dump,
    refused_topic,
    resend_topic,
    state_payload,
)
from companion.devices.config.sections import ClubSection
from companion.session.journal import utc_now
from companion.session.view import View

log = logging.getLogger("companion.club")

#: The shortest time between two ``state`` messages (seconds): at most four a second.
STATE_EVERY_S = 0.25
#: How often the outbox is read again even when nothing said it changed (seconds): a result
#: queued again by `companion outbox --send-again` goes out within this time.
OUTBOX_EVERY_S = 2.0
#: The largest message of the league read (a request names at most 16 ranges; a list of
#: refusals at most 100 results).
MAX_LEAGUE_BYTES = 64 * 1024
#: The most race_over events kept for Home Assistant while the broker is away (the latest).
MOST_EVENTS = 100
#: The first and longest wait before the table connects again to a broker that went away
#: (seconds, doubling in between).
RECONNECT_S = (0.25, 30.0)


@dataclass
class PublisherFigures:
    """What the publisher has done, for tests and the bench."""

    results_handed: int = 0
    results_sent: int = 0
    states_sent: int = 0
    connects: int = 0
    requests: int = 0
    answered: int = 0
    events_sent: int = 0


class Publisher:
    """Publish one table to the club's broker; ``start``, then ``board`` after each change."""

    def __init__(
        self,
        section: ClubSection,
        journal: Path,
        *,
        reconnect_s: tuple[float, float] = RECONNECT_S,
        on_verdict: Callable[[], None] | None = None,
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
        #: Messages handed to paho and not acknowledged yet: message id -> (kind, key).
        self._in_flight: dict[int, tuple[str, int]] = {}
        #: Results the broker refused: held back until the next connection.
        self._held: set[int] = set()
        self._view: View | None = None
        self._view_sent: View | None = None
        self._state_at = 0.0
        #: The number of the newest result the broker acknowledged (read as the thread starts).
        self._results_sent = 0
        #: The league's last request to send results again that this table answered.
        self._answered: str | None = None
        #: Races scored in the game on (for Home Assistant's race_over event), by game id.
        self._races: tuple[int | None, int] = (None, 0)
        #: race_over events not acknowledged yet, by their number.
        self._events: OrderedDict[int, str] = OrderedDict()
        self._event_number = 0
        #: Called when a result's verdict changes (the league refused it, or it is sent again).
        self._on_verdict = on_verdict

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
            club, table = self.names.club, self.names.table
            client.subscribe([(resend_topic(club, table), 1), (refused_topic(club, table), 1)])
        self._inbox.put(("connected", not reason.is_failure))

    def _on_disconnect(
        self, client: paho.Client, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        self.link.disconnected(reason)
        self._inbox.put(("connected", False))

    def _on_message(self, client: paho.Client, data: Any, message: paho.MQTTMessage) -> None:
        refused = message.topic == refused_topic(self.names.club, self.names.table)
        kind = "refused" if refused else "resend"
        self._inbox.put((kind, bytes(message.payload[: MAX_LEAGUE_BYTES + 1])))

    def _on_publish(
        self, client: paho.Client, userdata: Any, mid: int, reason: Any, props: Any
    ) -> None:
        self._inbox.put(("acked", mid, not reason.is_failure))

    # -- the publisher's thread -----------------------------------------------------------

    def _run(self) -> None:
        try:
            self._results_sent = self._outbox.last_sent()
        except Exception:
            log.exception("the journal's outbox cannot be read; the publisher goes on")
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
                self._connect()
            elif not message[1] and self._connected:
                self._connected = False
        elif kind == "resend":
            self._resend(message[1])
        elif kind == "refused":
            self._refused(message[1])
        elif kind == "acked":
            self._acked(message[1], message[2])

    def _connect(self) -> None:
        self.figures.connects += 1
        self._client.publish(self.names.topic("status"), "online", qos=1, retain=True)
        self._view_sent = None
        if self.section.home_assistant:
            for topic, config in discovery(self.names).items():
                self._client.publish(topic, dump(config), qos=1, retain=True)
        self._connected = True
        self._held.clear()
        self._send_results()
        self._send_events()

    def _acked(self, mid: int, accepted: bool) -> None:
        kind, key = self._in_flight.pop(mid, ("", 0))
        if kind == "result" and accepted:
            self._outbox.mark_sent(key)
            self.figures.results_sent += 1
            if key > self._results_sent:
                self._results_sent = key
                self._view_sent = None  # the state says the new number
        elif kind == "result":
            self._held.add(key)
            log.warning("the broker refused result %s; it is sent again after a reconnection", key)
        elif kind == "event" and accepted:
            self._events.pop(key, None)
            self.figures.events_sent += 1

    def _announce_race(self, view: View) -> None:
        """Queue Home Assistant's race_over event when the board counts one more scored race
        (sent now, or when the broker is back)."""
        scored = races_scored(view)
        game, before = self._races
        self._races = (view.game_id, scored)
        if view.game_id == game and scored > before:
            self._event_number += 1
            self._events[self._event_number] = race_over(view, utc_now())
            while len(self._events) > MOST_EVENTS:
                self._events.popitem(last=False)
            self._send_events()

    def _send_events(self) -> None:
        if not self._connected:
            return
        holding = {key for kind, key in self._in_flight.values() if kind == "event"}
        for number, payload in self._events.items():
            if number not in holding:
                info = self._client.publish(self.names.topic("event"), payload, qos=1)
                self._in_flight[info.mid] = ("event", number)

    def _resend(self, payload: bytes) -> None:
        """Answer the league's request to send results again, once per request: {"id": its
        id, "at": when, "seqs": [[first, last], ...]} (an empty message: nothing asked)."""
        if not payload:
            return
        try:
            if len(payload) > MAX_LEAGUE_BYTES:
                raise ValueError("too long")
            request = json.loads(payload.decode("utf-8"))
            ident, seqs = request["id"], request["seqs"]
            if not isinstance(ident, str) or not isinstance(seqs, list) or len(seqs) > 64:
                raise ValueError("not a request")
            ranges = [(int(a), int(b)) for a, b in seqs]
        except (ValueError, TypeError, KeyError, UnicodeDecodeError):
            log.warning("a request to send the results again was not understood")
            return
        self.figures.requests += 1
        if ident == self._answered:
            return
        self._answered = ident
        again = self._outbox.sent_in(ranges)
        self.figures.answered += 1
        log.info("the league asked for results again: %s sent again", len(again))
        for pending in again:
            self._publish_result(pending.id, pending.payload)

    def _refused(self, payload: bytes) -> None:
        """Keep the league's refusals of this table's results: {"at": when, "refused":
        [{"seq", "id", "code", "reason"}, ...]} (every refusal the league keeps)."""
        try:
            if len(payload) > MAX_LEAGUE_BYTES:
                raise ValueError("too long")
            listed = json.loads(payload.decode("utf-8"))["refused"]
            verdicts = {
                int(r["seq"]): (str(r["id"]), f"{str(r['code'])[:40]}: {str(r['reason'])[:200]}")
                for r in listed
            }
        except (ValueError, TypeError, KeyError, UnicodeDecodeError):
            if payload:
                log.warning("the league's list of refused results was not understood")
            return
        changes = self._outbox.mark_refused(verdicts)
        for row, reason in changes:
            if reason is not None:
                log.warning("the league refused result %s: %s", row, reason)
        if changes and self._on_verdict is not None:
            self._on_verdict()

    def _publish_result(self, row: int, payload: str) -> None:
        text = addressed(payload, self.names, row)
        info = self._client.publish(self.names.topic("results"), text, qos=1)
        self._in_flight[info.mid] = ("result", row)
        self.figures.results_handed += 1

    def _send_results(self) -> None:
        """Hand paho the unsent results it does not hold yet, oldest first (only when
        connected; paho sends again itself what it holds after a reconnection)."""
        if not self._connected:
            return
        holding = {key for kind, key in self._in_flight.values() if kind == "result"}
        again = False
        for pending in self._outbox.pending():
            if pending.id not in holding and pending.id not in self._held:
                again |= pending.id <= self._results_sent  # sent before: queued again
                self._publish_result(pending.id, pending.payload)
        if again and self._on_verdict is not None:
            self._on_verdict()

    def _send_state(self) -> None:
        view = self._view
        if view is None or view is self._view_sent or not self._connected:
            return
        if time.monotonic() < self._state_at + STATE_EVERY_S:
            return
        payload = state_payload(view, self.names, utc_now(), self._results_sent)
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
