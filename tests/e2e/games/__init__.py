"""The whole-game scripts of the shipped games (see ``tests/e2e/scripts.py``)."""
