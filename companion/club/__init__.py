"""Club nights: each table publishes its board and finished games to MQTT; a league reads."""
