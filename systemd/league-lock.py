#!/usr/bin/env python3
"""Write requirements-league.lock: the pins of requirements.lock that `companion league` needs.

The league runs on a laptop or a server with none of the table's hardware libraries: it
needs the board's web server, the MQTT client, the ratings and the catalogs (and the tools
that build the companion). Each pin is copied with its hashes from requirements.lock, so
both locks always agree (`make lock` runs this after pip-compile; a test checks it).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: What the league imports, with what those import, and the companion's build tools.
LEAGUE = (
    "anyio", "babel", "click", "h11", "idna", "openskill", "paho-mqtt", "setuptools",
    "starlette", "typing-extensions", "uvicorn",
)  # fmt: skip

HEADER = """\
# The pins of requirements.lock that the league alone needs (systemd/install-league.sh).
# Made from requirements.lock by systemd/league-lock.py (`make lock`); do not edit by hand.
"""


def blocks(text: str) -> dict[str, str]:
    """Each pinned package of a lock (its name in lower case) and its whole block."""
    found = {}
    for block in re.split(r"\n(?=\S)", text):
        pinned = re.match(r"([A-Za-z0-9_.\-]+)==", block)
        if pinned:
            found[pinned.group(1).lower().replace("_", "-")] = block.rstrip("\n") + "\n"
    return found


def league_lock(full: str) -> str:
    """The league's lock made from the whole one's text."""
    pins = blocks(full)
    missing = [name for name in LEAGUE if name not in pins]
    if missing:
        raise SystemExit(f"league-lock: requirements.lock has no {', '.join(missing)}")
    return HEADER + "".join(pins[name] for name in sorted(LEAGUE))


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    lock = league_lock((root / "requirements.lock").read_text())
    (root / "requirements-league.lock").write_text(lock)
    print("wrote requirements-league.lock", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
