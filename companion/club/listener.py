"""The league's ear on the broker: a persistent session that takes every table's messages.

Results are checked (``checks.py``) and stored before paho acknowledges them to the broker
(its PUBACK goes out when ``on_message`` returns), so a league killed at any moment gets
again from the broker what it had not stored. Each table has a budget (``budget.py``): what
it sends beyond it is dropped unread, and its causes are logged once a minute at most. The
retained ``state`` and ``status`` of each table are read into the live board.

Nothing lost: the league knows which of a table's outbox numbers it has had, from 1, and
the table's state says how many of its results the broker acknowledged. A number missing
for a moment is asked for, by number, on the table's own retained request topic
(``companion/<club>/league/resend/<table>``): one request per table at a time, asked again
a few times if nothing comes, cleared once nothing is missing. A result the league refuses
is told to its table, with the reason, on ``companion/<club>/league/refused/<table>``
(retained: the table's refused results the league keeps, the latest first).
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as paho

from companion.club.budget import Budgets, QuietLog
from companion.club.checks import (
    MAX_RESULT_BYTES,
    MessageRefused,
    TableBoard,
    Where,
    check_result,
    check_state,
    check_status,
    read_json,
    where,
)
from companion.club.league import League, now_text
from companion.club.mqtt import client_for, persistent
from companion.club.payloads import refused_topic, resend_topic
from companion.devices.config.sections import RESERVED_TABLES, LeagueSection

log = logging.getLogger("companion.league")

#: How long a number may be missing before it is asked for (results of one table may cross
#: on the way, and a table's state may come before its last result).
GRACE_S = 0.5
#: How long the league waits for an answer before it asks the same again, and how many
#: times it asks before it gives up on numbers the table does not send.
RETRY_S, MAX_TRIES = 30.0, 5
#: The shortest time between two lists of a table's refused results (seconds).
REFUSALS_EVERY_S = 2.0
#: How often the league looks at what it has to ask or tell (seconds).
TICK_S = 0.25
#: The league's first and longest wait before it connects again to a broker that went away
#: (seconds, doubling in between): a broker restarted is found again within a moment, and
#: the results the tables sent meanwhile come at once.
RECONNECT_S = (0.1, 30.0)


@dataclass
class LiveTable:
    """What the league knows of one table now: online or not, and its last public board."""

    name: str
    status: str = "offline"
    board: TableBoard = field(default_factory=TableBoard)


@dataclass
class ListenerFigures:
    """Counts for tests and the bench."""

    stored: int = 0
    repeats: int = 0
    refused: int = 0
    dropped: int = 0
    requests: int = 0


@dataclass
class Asking:
    """What the league asks one table to send again, and when it looks at it next."""

    announced: int = 0
    due: float | None = None
    asked: tuple[tuple[int, int], ...] = ()
    asked_at: float = 0.0
    tries: int = 0
    given_up: tuple[tuple[int, int], ...] = ()


class Listener:
    """Subscribe to ``companion/<club>/+/{results,state,status}`` and feed the league."""

    def __init__(
        self,
        section: LeagueSection,
        league: League,
        *,
        reconnect_s: tuple[float, float] = RECONNECT_S,
        client_id: str | None = None,
        on_result: Callable[[dict[str, Any]], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.section = section
        self.league = league
        self.figures = ListenerFigures()
        self.tables: dict[str, LiveTable] = {}
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self.budgets = Budgets(float(section.max_results), clock)
        self.noise = QuietLog(log, clock=clock)
        self._clock = clock
        self._on_result = on_result
        self._asking: dict[str, Asking] = {}
        #: Tables whose list of refused results is to be told, and when it may be.
        self._refusals_due: dict[str, float] = {}
        self._refusals_told: dict[str, float] = {}
        self._stopping = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="league-asks", daemon=True)
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
        self._ticker.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._ticker.is_alive():
            self._ticker.join(5)
        self.client.disconnect()
        self.client.loop_stop()

    # -- paho's thread --------------------------------------------------------------------

    def _on_connect(self, client: paho.Client, data: Any, flags: Any, reason: Any, _: Any) -> None:
        if reason.is_failure:
            log.error("the broker refused the league: %s", reason)
            return
        base = f"companion/{self.section.club}/+/"
        client.subscribe([(base + "results", 1), (base + "state", 0), (base + "status", 1)])
        log.info("listening to the tables of %s (session kept: %s)", base, flags.session_present)
        now = self._clock()
        with self.lock:  # a broker that lost its retained messages is told them again
            for _, table in self.league.tables_refused():
                self._refusals_due.setdefault(table, now)
            for asking in self._asking.values():
                asking.asked, asking.tries = (), 0
                asking.due = now + GRACE_S
        self.connected.set()

    def _on_disconnect(
        self, client: paho.Client, data: Any, flags: Any, reason: Any, _: Any
    ) -> None:
        self.connected.clear()

    def _on_message(self, client: paho.Client, data: Any, message: paho.MQTTMessage) -> None:
        topic = message.topic
        levels = topic.split("/", 3)
        if len(levels) == 4 and self.budgets.muted(levels[2]):
            self.figures.dropped += 1
            self.figures.refused += 1
            return
        try:
            self.take(topic, bytes(message.payload))
        except MessageRefused as refusal:
            self.figures.refused += 1
            table = topic.split("/")[2][:32] if topic.count("/") >= 2 else "?"
            self.noise.warn(table, refusal.code, f"refused a message on {topic[:120]}: {refusal}")
        except Exception:
            log.exception("a message on %s could not be taken", topic[:120])

    def take(self, topic: str, payload: bytes) -> None:
        """Take one message (raises MessageRefused for one the league will not have)."""
        place = where(topic)
        if place.club != self.section.club:
            raise MessageRefused("wrong_club", f"not this league's club: {place.club}")
        if place.table in RESERVED_TABLES:
            raise MessageRefused("reserved_name", f"{place.table} is not a table's name")
        if not self.budgets.message(place.table, len(payload)):
            self.figures.dropped += 1
            raise MessageRefused(
                "over_budget", f"{place.table} sends more than the league reads: dropped unread"
            )
        began = time.perf_counter()
        try:
            self._take(place, payload)
        finally:
            self.budgets.took(place.table, time.perf_counter() - began)

    def _take(self, place: Where, payload: bytes) -> None:
        if place.leaf == "status":
            word = check_status(payload)
            with self.lock:
                self.tables.setdefault(place.table, LiveTable(place.table)).status = word
        elif place.leaf == "state":
            board = check_state(place, payload)
            with self.lock:
                self.tables.setdefault(place.table, LiveTable(place.table)).board = board
                asking = self._asking.setdefault(place.table, Asking())
                if board.results_sent != asking.announced:
                    asking.announced = board.results_sent
                    self._look_soon(asking)
        else:
            self._take_result(place, payload)

    def _take_result(self, place: Where, payload: bytes) -> None:
        club, table = place.club, place.table
        result = read_json(payload, MAX_RESULT_BYTES)
        with self.lock:
            self._look_soon(self._asking.setdefault(table, Asking()))
        try:
            check_result(place, result)
            if not self.league.has(result["id"]) and not self.budgets.result(table):
                raise MessageRefused(
                    "over_budget",
                    f"{table} sent more than {self.section.max_results} new results in a row "
                    "(one more a minute): raise [league] max_results, then send it again",
                )
            was_refused = self.league.is_refused(club, table, result["seq"])
            try:
                said = self.league.add(result)
            except ValueError as error:
                raise MessageRefused("replay_changed", str(error)) from None
        except MessageRefused as refusal:
            if self.league.refuse(club, table, result, refusal.code, refusal.sentence):
                self._tell_refusals(table)
            raise
        if was_refused:
            self._tell_refusals(table)
        if said in ("repeat", "stale"):  # already counted, or an ending since taken back
            self.figures.repeats += 1
            return
        self.figures.stored += 1
        log.info("result %s of %s stored (%s)", result["id"], table, said)
        if self._on_result is not None:
            self._on_result(result)

    def _look_soon(self, asking: Asking) -> None:
        """Look at a table's missing numbers in a moment (under ``self.lock``)."""
        soon = self._clock() + GRACE_S
        if asking.due is None or asking.due > soon:
            asking.due = soon

    def _tell_refusals(self, table: str) -> None:
        with self.lock:
            told = self._refusals_told.get(table, -REFUSALS_EVERY_S)
            self._refusals_due.setdefault(table, told + REFUSALS_EVERY_S)

    # -- the ticker's thread: requests and refusals, each table at its pace ----------------

    def _tick(self) -> None:
        while not self._stopping.wait(TICK_S):
            if not self.connected.is_set():
                continue
            try:
                self._tick_once()
            except Exception:
                log.exception("the league's requests failed; it goes on")

    def _tick_once(self) -> None:
        now = self._clock()
        with self.lock:
            due = [t for t, a in self._asking.items() if a.due is not None and a.due <= now]
            for table in due:
                self._asking[table].due = None
            telling = [t for t, at in self._refusals_due.items() if at <= now]
            for table in telling:
                del self._refusals_due[table]
                self._refusals_told[table] = now
        for table in due:
            self._consider(table, self._asking[table], now)
        for table in telling:
            refused = [
                {"seq": r.seq, "id": r.id, "code": r.code, "reason": r.reason}
                for r in self.league.refusals(self.section.club, table)
            ]
            message = json.dumps({"at": now_text(), "refused": refused})
            self.client.publish(refused_topic(self.section.club, table), message, 1, retain=True)

    def _consider(self, table: str, asking: Asking, now: float) -> None:
        """Ask ``table`` for what is missing of it, clear a request answered, or wait."""
        missing = tuple(self.league.missing(self.section.club, table, asking.announced))
        topic = resend_topic(self.section.club, table)
        if not missing:
            if asking.asked or asking.given_up:
                self.client.publish(topic, b"", 1, retain=True)
                log.info("%s sent every result the league asked for", table)
            asking.asked, asking.given_up, asking.tries = (), (), 0
            return
        if missing == asking.given_up:
            return
        if missing == asking.asked:
            if now - asking.asked_at < RETRY_S:
                asking.due = asking.asked_at + RETRY_S
                return
            if asking.tries >= MAX_TRIES:
                asking.given_up, asking.asked = missing, ()
                self.client.publish(topic, b"", 1, retain=True)
                log.warning(
                    "%s did not send its results %s after %s requests: the league stops "
                    "asking until something changes", table, _ranges_text(missing), MAX_TRIES,
                )  # fmt: skip
                return
        if not self.budgets.request(table):
            asking.due = now + RETRY_S
            self.noise.warn(table, "requests", f"{table} is asked for results too often")
            return
        asking.tries = asking.tries + 1 if missing == asking.asked else 1
        asking.asked, asking.asked_at, asking.due = missing, now, now + RETRY_S
        request = {"id": uuid.uuid4().hex, "at": now_text(), "seqs": [list(r) for r in missing]}
        self.client.publish(topic, json.dumps(request), 1, retain=True)
        self.figures.requests += 1
        log.info("asked %s to send again its results %s", table, _ranges_text(missing))

    def live(self) -> list[LiveTable]:
        """The tables seen so far, by name."""
        with self.lock:
            return [self.tables[name] for name in sorted(self.tables)]


def _ranges_text(ranges: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)
