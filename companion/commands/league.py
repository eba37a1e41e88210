"""`companion league`: the club's league service: results from every table, standings, a page."""

from __future__ import annotations

import argparse
import logging
import signal
import socket
import sys
from pathlib import Path

NAME = "league"
HELP = "run the club's league: take every table's results from the broker, serve the board"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the league's options."""
    parser.add_argument(
        "--config", metavar="FILE", help="configuration file with a [league] section"
    )
    parser.add_argument(
        "--database",
        metavar="FILE",
        type=Path,
        help="the league's SQLite file (overrides the file's)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="debug-level log")


def run(args: argparse.Namespace) -> int:
    """Open the league's file, listen to the broker and serve the board until stopped."""
    import uvicorn

    from companion.club.league import League, LeagueError
    from companion.club.listener import Listener
    from companion.club.page import create_league_app
    from companion.devices.config import ConfigError, load_config

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"companion league: {error}", file=sys.stderr)
        return 2
    section = config.league
    if section is None:
        print(
            f"companion league: {config.source} has no [league] section "
            '(at least: [league] club = "myclub")',
            file=sys.stderr,
        )
        return 2
    database = args.database or section.database
    try:
        league = League.open(database)
    except (LeagueError, OSError) as error:
        print(f"companion league: {error}", file=sys.stderr)
        return 2
    listener = Listener(section, league)
    listener.start()
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((section.bind, section.page_port))
        listening.listen(64)
    except OSError as error:
        print(
            f"companion league: cannot serve the board on {section.bind}:{section.page_port}: "
            f"{error.strerror or error}",
            file=sys.stderr,
        )
        listener.stop()
        league.close()
        return 2
    port = listening.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            create_league_app(league, listener.live, section.names),
            log_level="warning",
            access_log=False,
            proxy_headers=False,
            server_header=False,
        )
    )

    def stop(number: int, frame: object) -> None:  # before uvicorn has its own handlers
        server.should_exit = True

    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, stop)
    # One write, so that no log line (on stderr, maybe the same pipe) cuts the address.
    sys.stdout.write(f"companion league: the board is at http://{section.bind}:{port}/\n")
    sys.stdout.flush()
    try:
        server.run(sockets=[listening])
    finally:
        listener.stop()
        league.close()
        listening.close()
    return 0
