"""Adapters to the hardware, each with a fake: the only place hardware libraries load."""
