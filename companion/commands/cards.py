"""`companion cards`: enroll a deck's tags card by card, list them, print the deck's labels."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.devices.decks import DECKS

NAME = "cards"
HELP = "enroll card tags (a whole deck, card by card), list them, print a deck's labels"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the enroll, list and labels actions."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: $COMPANION_CONFIG, then /etc/companion/companion.toml)",
    )
    common.add_argument(
        "--file", metavar="FILE", type=Path,
        help="the enrolled-cards file (default: cards_file of the configuration's [reader])",
    )  # fmt: skip
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    enroll_parser = actions.add_parser(
        "enroll", parents=[common], help="enroll a deck, card by card",
        description="Ask for each card of the deck in turn and store its tag.",
    )  # fmt: skip
    enroll_parser.add_argument("deck", choices=sorted(DECKS), help="the deck to enroll")
    enroll_parser.add_argument(
        "--reader", metavar="READER",
        help="terminal (type tags, or let a keyboard reader type them), pico[:PORT], mfrc522, "
        "evdev:PATH, rdm6300:PORT or lines:PORT (default: the configuration's [reader])",
    )  # fmt: skip
    enroll_parser.add_argument(
        "--again", action="store_true",
        help="ask for every card, not only those without a tag (tags may move between cards)",
    )  # fmt: skip
    actions.add_parser("list", parents=[common], help="show the enrolled tags, deck by deck")
    labels = actions.add_parser("labels", help="print a deck's card names and labels, in order")
    labels.add_argument("deck", choices=sorted(DECKS), help="the deck")


def run(args: argparse.Namespace) -> int:
    """Run the chosen action; 2 for a bad configuration, cards file or reader."""
    from companion.devices.enrollment import run_action

    return run_action(args)
