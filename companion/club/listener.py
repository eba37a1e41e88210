"""The league's ear on the broker: a persistent session that takes every table's messages.

Results are checked (``checks.py``) and stored before paho acknowledges them to the broker
(its PUBACK goes out when ``on_message`` returns), so a league killed at any moment gets
again from the broker what it had not stored. The retained ``state`` and ``status`` of each
table are kept in memory for the live board.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import paho.mqtt.client as paho

from companion.club.checks import MessageRefused, check_result, read_json, where
from companion.club.league import League
from companion.club.mqtt import client_for, persistent
from companion.club.payloads import resend_topic
from companion.devices.config.sections import LeagueSection

log = logging.getLogger("companion.league")

#: How far before the last result stored the tables are asked to send again (it covers
#: clocks a little apart and results that crossed the broker's crash).
RESEND_MARGIN = timedelta(minutes=10)


@dataclass
class LiveTable:
    """What the league knows of one table now: online or not, and its last public board."""

    name: str
    status: str = "offline"
    state: dict[str, Any] = field(default_factory=dict)


@dataclass
class ListenerFigures:
    """Counts for tests and the bench."""

    stored: int = 0
    repeats: int = 0
    refused: int = 0


class Listener:
    """Subscribe to ``companion/<club>/+/{results,state,status}`` and feed the league."""

    def __init__(
        self,
        section: LeagueSection,
        league: League,
        *,
        reconnect_s: tuple[float, float] = (1.0, 30.0),
        client_id: str | None = None,
        on_result: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.section = section
        self.league = league
        self.figures = ListenerFigures()
        self.tables: dict[str, LiveTable] = {}
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self._on_result = on_result
        self.client = client_for(
            section.broker, client_id or f"companion-league-{section.club}", reconnect_s=reconnect_s
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self) -> None:
        """Connect in the background (the broker may be down: it is retried)."""
        b = self.section.broker
        self.client.connect_async(
            b.host, b.port, keepalive=30, clean_start=False, properties=persistent()
        )
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client: paho.Client, data: Any, flags: Any, reason: Any, _: Any) -> None:
        if reason.is_failure:
            log.error("the broker refused the league: %s", reason)
            return
        base = f"companion/{self.section.club}/+/"
        client.subscribe([(base + "results", 1), (base + "state", 0), (base + "status", 1)])
        log.info("listening to the tables of %s (session kept: %s)", base, flags.session_present)
        if not flags.session_present:
            self._ask_again(client)
        self.connected.set()

    def _ask_again(self, client: paho.Client) -> None:
        """The broker kept nothing for the league (its first start, or a broker that crashed
        before saving the league's session): ask every table to send again what it sent
        since shortly before the last result stored (everything, for an empty league)."""
        latest = self.league.latest_received()
        since = None
        if latest is not None:
            since = (datetime.fromisoformat(latest) - RESEND_MARGIN).isoformat(
                timespec="milliseconds"
            )
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        request = json.dumps({"at": now, "since": since})
        client.publish(resend_topic(self.section.club), request, qos=1, retain=True)
        log.info("asked the tables to send again their results since %s", since or "the start")

    def _on_disconnect(
        self, client: paho.Client, data: Any, flags: Any, reason: Any, _: Any
    ) -> None:
        self.connected.clear()

    def _on_message(self, client: paho.Client, data: Any, message: paho.MQTTMessage) -> None:
        try:
            self.take(message.topic, bytes(message.payload))
        except MessageRefused as refusal:
            self.figures.refused += 1
            log.warning("refused a message on %s: %s", message.topic[:120], refusal)
        except Exception:
            log.exception("a message on %s could not be taken", message.topic[:120])

    def take(self, topic: str, payload: bytes) -> None:
        """Take one message (raises MessageRefused for one the league will not have)."""
        place = where(topic)
        if place.club != self.section.club:
            raise MessageRefused("wrong_club", f"not this league's club: {place.club}")
        if place.leaf == "status":
            word = payload.decode("utf-8", errors="replace")
            if word not in ("online", "offline"):
                raise MessageRefused("bad_status", "a status is online or offline")
            with self.lock:
                self.tables.setdefault(place.table, LiveTable(place.table)).status = word
        elif place.leaf == "state":
            state = read_json(payload)
            if state.get("table") != place.table or state.get("club") != place.club:
                raise MessageRefused("wrong_table", "a state published for another table")
            with self.lock:
                self.tables.setdefault(place.table, LiveTable(place.table)).state = state
        else:
            result = check_result(place, payload)
            try:
                said = self.league.add(result)
            except ValueError as error:
                raise MessageRefused("replay_changed", str(error)) from None
            if self.league.missing_before(result):
                log.warning(
                    "a result of %s never came (before its number %s)", place.table, result["seq"]
                )
                self._ask_again(self.client)
            if said in ("repeat", "stale"):  # already counted, or an ending since taken back
                self.figures.repeats += 1
                return
            self.figures.stored += 1
            log.info("result %s of %s stored (%s)", result["id"], place.table, said)
            if self._on_result is not None:
                self._on_result(result)

    def live(self) -> list[LiveTable]:
        """The tables seen so far, by name."""
        with self.lock:
            return [self.tables[name] for name in sorted(self.tables)]
