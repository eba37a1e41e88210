"""Petits chevaux de course: a small die race that lives only in the test suite.

It is the proof that a game needs only its own files: the suite registers it (``conftest.py``
names this package in ``COMPANION_EXTRA_GAMES``) and every test that runs over the games runs
over it too. Its parts, one module per layer: ``engine`` (the rules and ``GAME``), ``binding``
(the session), ``flow`` (the table), ``render`` (the displays), ``pages`` (the phones),
``bench`` (``companion bench``); ``board.toml`` (the LED strip) and ``rules.md`` (the rules).
"""
