"""Home Assistant's MQTT discovery: the payloads a table sends follow the documented schema.

The facts checked, from Home Assistant's MQTT integration documentation: a config topic is
``<prefix>/<component>/<node_id>/<object_id>/config`` with ids of letters, digits, ``_`` and
``-``; an entity grouped under a device has a ``unique_id`` and a ``device`` with at least
``identifiers`` (or ``connections``); ``availability`` is a list of entries each with a
``topic`` (never beside ``availability_topic``); a sensor and a binary sensor need a
``state_topic``, a binary sensor's state is ``ON`` or ``OFF`` by default; an event entity
needs a ``state_topic`` and ``event_types``, and each event message is a JSON object whose
``event_type`` is one of them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.club.broker import LocalBroker
from companion.club.publisher import Publisher
from companion.devices.config.sections import ClubSection
from tests.club.conftest import CLUB, Reader, login, wait_for
from tests.club.games import open_table, whole_game

TOPIC = re.compile(r"homeassistant/(\w+)/([A-Za-z0-9_-]+)/([A-Za-z0-9_-]+)/config")
COMPONENTS = {"sensor", "binary_sensor", "event"}
DEVICE_KEYS = {
    "identifiers", "connections", "name", "manufacturer", "model", "model_id", "sw_version",
    "hw_version", "serial_number", "configuration_url", "suggested_area", "via_device",
}  # fmt: skip


def test_the_discovery_payloads_follow_home_assistants_schema(
    broker: LocalBroker, tmp_path: Path
) -> None:
    events = Reader(broker, f"companion/{CLUB}/#")
    path = tmp_path / "journal.sqlite3"
    session = open_table(path)
    section = ClubSection(CLUB, "table1", login(broker, "table1"), home_assistant=True)
    publisher = Publisher(section, path, reconnect_s=(0.05, 0.2))
    publisher.start()
    try:
        wait_for(lambda: publisher.figures.connects == 1, what="the table connected")
        for entry in whole_game():
            session.submit(entry)
            publisher.board(session.view())
        board = session.view().board.to_json()
        races = len(board["results"])
        event_topic = f"companion/{CLUB}/table1/event"
        fired = events.at_least(event_topic, races)
        result = events.at_least(f"companion/{CLUB}/table1/results", 1)[0]
        state = events.json_on(f"companion/{CLUB}/table1/state")[-1]
        # Home Assistant may start later: what it reads first are the retained configs.
        configs = Reader(broker, "homeassistant/#")
        wait_for(lambda: len(configs.messages) == 5, what="five entities announced")
        configs.close()
    finally:
        publisher.stop()
        events.close()
    seen_ids = set()
    payloads = {}
    for topic, raw, retained in configs.messages:
        match = TOPIC.fullmatch(topic)
        assert match is not None, topic
        component, node, object_id = match.groups()
        assert component in COMPONENTS and retained
        config = json.loads(raw)
        payloads[object_id] = (component, config)
        assert config["unique_id"] not in seen_ids
        seen_ids.add(config["unique_id"])
        assert config["device"]["identifiers"] == [node]
        assert set(config["device"]) <= DEVICE_KEYS
        assert "availability_topic" not in config
        for entry in config["availability"]:
            assert entry["topic"] == f"companion/{CLUB}/table1/status"
            assert {entry["payload_available"], entry["payload_not_available"]} == {
                "online", "offline",
            }  # fmt: skip
        assert config["state_topic"].startswith(f"companion/{CLUB}/table1/")
        if component == "event":
            assert config["event_types"] == ["race_over"]
    assert set(payloads) == {"game_in_progress", "phase", "leader", "last_winner", "race_over"}
    # Each template reads only fields the messages of its topic carry.
    carried = {"state": state, "results": result}
    for _, config in payloads.values():
        leaf = config["state_topic"].rsplit("/", 1)[1]
        for field in re.findall(r"value_json\.(\w+)", config.get("value_template", "")):
            assert field in carried[leaf], (config["name"], field)
    assert payloads["game_in_progress"][1]["value_template"].count("'ON'") == 1
    assert races >= 1 and len(fired) == races
    assert all(e["event_type"] == "race_over" for e in fired)
    assert [e["race"] for e in fired] == list(range(1, races + 1))
