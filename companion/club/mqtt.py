"""One way to make a paho-mqtt client for the club: MQTT 5, credentials, TLS, a last will."""

from __future__ import annotations

import ssl

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from companion.devices.config.sections import Broker

#: How long the broker keeps a persistent session (the league's) while it is away: a week.
SESSION_EXPIRY_S = 7 * 24 * 3600


def client_for(
    broker: Broker,
    client_id: str,
    *,
    will: tuple[str, str] | None = None,
    reconnect_s: tuple[float, float] = (1.0, 30.0),
) -> paho.Client:
    """A client set up for ``broker`` (not connected yet); ``will`` is (topic, payload)."""
    client = paho.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=paho.MQTTv5,
    )
    if broker.username:
        client.username_pw_set(broker.username, broker.password or None)
    if broker.tls:
        ca = str(broker.ca_file) if broker.ca_file is not None else None
        client.tls_set(ca_certs=ca, cert_reqs=ssl.CERT_REQUIRED)
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    low, high = reconnect_s
    client.reconnect_delay_set(min_delay=low, max_delay=high)  # type: ignore[arg-type]
    return client


def persistent() -> Properties:
    """The CONNECT properties of a session the broker keeps while the client is away."""
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SESSION_EXPIRY_S
    return properties
