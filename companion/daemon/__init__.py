"""The companion daemon: one event loop that owns the session, the devices and the watchdog."""
