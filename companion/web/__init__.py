"""The phone and scoreboard pages: one more input device and one more view of the session."""
