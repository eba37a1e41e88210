"""The session's part of each game, one module per game kind: its binding and its random input."""
