"""The pages' address on the command line: `--web-bind` and `--web-port` (`run`, `simulate`)."""

from __future__ import annotations

import argparse
import dataclasses
import ipaddress
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.devices.config import Config


def _bind(text: str) -> str:
    try:
        return str(ipaddress.IPv4Address(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an IPv4 address of this machine (0.0.0.0 for every one)"
        ) from None


def _port(text: str) -> int:
    if not (text.isascii() and text.isdecimal()) or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535, 0: any)")
    return int(text)


def add_options(parser: argparse.ArgumentParser) -> None:
    """Add the options that set where the phone pages are served."""
    parser.add_argument(
        "--web-bind",
        metavar="ADDRESS",
        type=_bind,
        help="serve the phone pages on this address (turns the pages on; overrides [web] bind)",
    )
    parser.add_argument(
        "--web-port",
        metavar="PORT",
        type=_port,
        help="serve the phone pages on this port (turns the pages on; overrides [web] port)",
    )


def with_options(config: Config, args: argparse.Namespace) -> Config:
    """``config`` with the pages' address the command line gave, if it gave one."""
    bind: str | None = args.web_bind
    port: int | None = args.web_port
    if bind is None and port is None:
        return config
    web = dataclasses.replace(
        config.web,
        enabled=True,
        bind=config.web.bind if bind is None else bind,
        port=config.web.port if port is None else port,
    )
    return dataclasses.replace(config, web=web)
