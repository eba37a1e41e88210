"""Petits chevaux de course: a small die race that lives only in the test suite.

It is the proof that a game needs only its own files, and the template a new game copies:
a sealed pick before each race, several races, a horse chosen for each roll and a TV track.
The suite registers it (``conftest.py`` names this package in ``COMPANION_EXTRA_GAMES``) and
every test that runs over the games runs over it too. Its parts, one module per layer:
``engine`` (the rules and ``GAME``), ``binding`` (the session), ``flow`` (the table),
``render`` (the displays), ``pages`` (the phones and the TV), ``bench`` (``companion
bench``), ``e2e`` (its whole-game script); ``board.toml`` (the LED strip), ``rules.md`` (the
rules and every refusal) and ``pages.css`` (its styles).
"""
