"""Home Assistant's MQTT discovery: the table announces itself as a device with a few entities.

On each connection the publisher sends, retained, one ``config`` message per entity under
``homeassistant/<component>/companion-<club>-<table>/<entity>/config``: whether a game is
in progress, its phase, who leads, the last winners, and a ``race_over`` event sent on
``companion/<club>/<table>/event`` each time a race is scored (an automation can flash the
room's lights). Every entity is available while the table's ``status`` says ``online``.
"""

from __future__ import annotations

from typing import Any

from companion import __version__
from companion.club.payloads import Names, dump
from companion.session.view import View

#: Where Home Assistant looks for devices by default.
PREFIX = "homeassistant"
#: The event types of the ``race_over`` event entity.
EVENT_TYPES = ("race_over",)
#: Each entity a table announces: its object id and its component. The club broker's ACL
#: lets a table write these config topics only, under its own node id.
ENTITIES = (
    ("game_in_progress", "binary_sensor"),
    ("phase", "sensor"),
    ("leader", "sensor"),
    ("last_winner", "sensor"),
    ("race_over", "event"),
)


def node(names: Names) -> str:
    """The node id of the table's entities (letters, digits, - and _ only)."""
    return f"companion-{names.club}-{names.table}"


def discovery(names: Names) -> dict[str, dict[str, Any]]:
    """Every entity's config topic and payload."""
    device = {
        "identifiers": [node(names)],
        "name": f"Companion {names.club} {names.table}",
        "manufacturer": "The companion developers",
        "model": "Companion table",
        "sw_version": __version__,
    }
    availability = [
        {"topic": names.topic("status"), "payload_available": "online",
         "payload_not_available": "offline"},
    ]  # fmt: skip
    state = names.topic("state")
    entities: dict[str, dict[str, Any]] = {
        "game_in_progress": {
            "name": "Game in progress", "state_topic": state,
            "value_template": "{{ 'ON' if value_json.game and not value_json.finished "
                              "else 'OFF' }}",
        },
        "phase": {
            "name": "Phase", "state_topic": state,
            "value_template": "{{ value_json.phase }}",
        },
        "leader": {
            "name": "Leader", "state_topic": state,
            "value_template": "{{ value_json.leaders | join(', ') }}",
        },
        "last_winner": {
            "name": "Last winner", "state_topic": names.topic("results"),
            "value_template": "{{ value_json.winners | join(', ') }}",
        },
        "race_over": {
            "name": "Race over", "state_topic": names.topic("event"),
            "event_types": list(EVENT_TYPES),
        },
    }  # fmt: skip
    found = {}
    for object_id, component in ENTITIES:
        config = entities[object_id]
        topic = f"{PREFIX}/{component}/{node(names)}/{object_id}/config"
        found[topic] = {
            **config,
            "unique_id": f"{node(names)}-{object_id}",
            "availability": availability,
            "device": device,
        }
    return found


def races_scored(view: View) -> int:
    """How many races of the game the public board counts as scored."""
    results = view.board.to_json().get("results")
    return len(results) if isinstance(results, list) else 0


def race_over(view: View, at: str) -> str:
    """The ``race_over`` event's payload for the race just scored at ``at`` (an event sent
    late, once the broker is back, says when the race was over)."""
    payload = {"event_type": "race_over", "race": races_scored(view), "game": view.game, "at": at}
    return dump(payload)
