"""Put a companion together and run it: configuration, devices, journal, table, event loop."""

from __future__ import annotations

import gc
import logging
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from companion.daemon.loop import Daemon, Notify
from companion.daemon.notify import Notifier
from companion.daemon.rig import JockeyRace, Rig, hardware_rig, simulated_rig
from companion.daemon.signals import SignalRelay
from companion.daemon.table import TableController
from companion.devices.base import Event
from companion.devices.config import Config, card_mode, die_mode
from companion.devices.readers.base import Lookup
from companion.render.language import LANGUAGES, read_figures, system_language
from companion.session.journal import GameNotRebuilt
from companion.session.session import Session

if TYPE_CHECKING:
    from companion.club.publisher import Publisher
    from companion.web.server import WebServer

log = logging.getLogger("companion")

JOURNAL_NAME = "journal.sqlite3"

#: How long the simulator waits for the loop to read the Jockey race (seconds).
RACE_WAIT_S = 5.0


class CardsLookup:
    """Name the card behind a tag from the enrolled-cards file, re-read when it changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: float | None = None
        self._cards: Callable[[str], str | None] = lambda uid: None

    def __call__(self, uid: str) -> str | None:
        from companion.devices.cards_file import load_cards

        try:
            stamp = self.path.stat().st_mtime
        except OSError:
            return None
        if stamp != self._stamp:
            self._cards = load_cards(self.path).card_for
            self._stamp = stamp
        return self._cards(uid)


@dataclass
class Companion:
    """A companion ready to run: its loop, its devices and its session."""

    daemon: Daemon
    rig: Rig
    session: Session
    #: The phone and scoreboard pages, when the [web] section has them on.
    web: WebServer | None = None
    #: The club's publisher, when the configuration has a [club] section.
    club: Publisher | None = None

    def run(self, *, handle_signals: bool = True) -> int:
        """Run until SIGTERM or SIGINT (or ``daemon.stop()``); then release everything."""
        relay = None
        if handle_signals and threading.current_thread() is threading.main_thread():
            relay = SignalRelay((signal.SIGTERM, signal.SIGINT), self._on_signal)
        if self.web is not None:  # the pages come up beside the table, once it plays
            self.daemon.after_ready.append(self.web.start)
        if self.club is not None:
            self.club.start()
        try:
            return self.daemon.run()
        finally:
            if self.club is not None:
                self.club.stop()
            if self.web is not None:
                self.web.stop()
            self.rig.close()
            if relay is not None:
                relay.close()

    def _on_signal(self, number: int) -> None:
        self.daemon.stop(f"signal {signal.Signals(number).name}")


def collect_from_now_on() -> None:
    """Turn the garbage collector back on once the companion is ready.

    The commands that start it hold the collector off meanwhile: a start makes many objects
    that stay (modules, classes, the table) and almost no garbage, so collecting then only
    costs time. What the start made is also left out of every later collection (frozen), so
    a collection during a game looks only at what the game made since.
    """
    gc.freeze()
    gc.enable()


#: The file beside the journal that keeps the language chosen at the table.
LANGUAGE_NAME = "language"


def journal_path(config: Config, state_dir: Path | None = None) -> Path:
    """Where the journal lives: ``state_dir``, $STATE_DIRECTORY (systemd), or the config's."""
    if state_dir is None:
        systemd_state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
        state_dir = Path(systemd_state) if systemd_state else config.companion.state_dir
    return state_dir / JOURNAL_NAME


class LanguageChoice:
    """The language chosen at the table (menu options), kept in a file beside the journal.

    It wins over ``[companion] language`` until another is chosen at the table.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> str | None:
        """The language chosen last, or None when none was (or the file is unreadable)."""
        try:
            word = self.path.read_text(encoding="utf-8").strip()
        except OSError:
            return None
        return word if word in LANGUAGES else None

    def write(self, language: str) -> None:
        """Keep ``language`` for the next start (a failure is logged: the table goes on)."""
        try:
            self.path.write_text(language + "\n", encoding="utf-8")
        except OSError as error:
            log.warning("the language chosen cannot be kept in %s: %s", self.path, error)


def build(
    config: Config,
    *,
    simulate: bool,
    state_dir: Path | None = None,
    notifier: Notify | None = None,
) -> Companion:
    """Open the devices, the journal and the table; the loop is ready to run."""
    path = journal_path(config, state_dir)
    try:
        session = Session.open(path)
    except GameNotRebuilt as error:
        # One game that no longer replays must not keep the table from playing a new one.
        log.error("%s; starting on the menu (export or abandon that game)", error)
        session = Session.open(path, resume=False)
    early: list[Event] = []  # what devices report before the loop exists waits for it
    queue_sink: list[Callable[[Event], None]] = [early.append]

    def report(event: Event) -> None:
        queue_sink[-1](event)

    try:
        if simulate:
            rig = simulated_rig(config, report)
        else:
            lookup: Lookup | None = (
                CardsLookup(config.reader.cards_file) if config.reader is not None else None
            )
            rig = hardware_rig(config, report, lookup)
    except Exception:
        session.close()
        raise
    chosen = LanguageChoice(path.parent / LANGUAGE_NAME)
    language = chosen.read() or config.companion.language or system_language()
    table = TableController(
        session,
        player_names=config.companion.players,
        language=language,
        remember_language=chosen.write,
        die=die_mode(config),
        cards=card_mode(config),
    )
    daemon = Daemon(table, rig.panel, rig.inputs, notifier or Notifier())
    daemon.hand = table.hand
    daemon.after_ready.append(lambda: read_figures_aside(language))
    queue_sink.append(daemon.post)
    for event in early:
        daemon.post(event)
    if rig.simulation is not None:
        rig.simulation.jockey = lambda: _jockey_race(daemon, session)
    web = None
    if config.web.enabled:
        from companion.web.server import install

        try:
            web = install(config.web, daemon, table, path)
        except OSError as error:
            # The table plays without its pages rather than not at all.
            log.error(
                "the pages cannot be served on %s:%s (%s)",
                config.web.bind,
                config.web.port,
                error.strerror or error,
            )
    club = None
    if config.club is not None:
        from companion.club.hook import install as install_club
        from companion.daemon.clubline import ClubNotices

        club = install_club(config.club, daemon, session, path)
        ClubNotices(daemon, table).follow(club)
    return Companion(daemon, rig, session, web, club)


def read_figures_aside(language: str) -> None:
    """Read the table language's number formats on a thread of their own, once the table
    plays: the first figure drawn (a Course hippique chance on the OLED, a page's balance)
    would otherwise read them from disk in the middle of a press."""

    def read() -> None:
        try:
            read_figures(language)
        except Exception as error:  # the first figure drawn meets it again, and says so
            log.warning("the number formats of %s cannot be read: %s", language, error)

    threading.Thread(target=read, name="figures", daemon=True).start()


def _jockey_race(daemon: Daemon, session: Session) -> JockeyRace:
    """Read the Jockey race on the loop's thread (the default deck if the loop is not on)."""
    try:
        race = daemon.call(lambda: JockeyRace.of(session)).result(RACE_WAIT_S)
    except (CancelledError, TimeoutError):
        return JockeyRace()
    assert isinstance(race, JockeyRace)
    return race
