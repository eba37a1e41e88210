"""Enrolling a deck's tags card by card, listing them, printing a deck's labels."""

from __future__ import annotations

import argparse
import io
import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from companion.devices.base import CardScanned, DeviceStatus, Event, InputDevice
from companion.devices.cards_file import (
    DECKS,
    CardBook,
    card_label,
    deck_cards,
    deck_of,
    load_cards,
    save_cards,
)
from companion.devices.config import Config, ConfigError, ReaderSection, load_config
from companion.devices.decks import DeckCard
from companion.devices.readers import normalize_uid, reader_from_config

INSTRUCTIONS = (
    "Lay each card on the reader when it is asked for (or type its tag and Enter).\n"
    "Enter alone skips a card, u goes back one card, q stops; every card is saved at once."
)


# --- the enrollment, without any terminal or reader ---


@dataclass(frozen=True)
class Scan:
    """A tag the reader read."""

    uid: str


@dataclass(frozen=True)
class Typed:
    """A line typed in the terminal (a command, or a tag typed by a keyboard reader)."""

    text: str


@dataclass(frozen=True)
class Notice:
    """Something to tell the person enrolling (the reader vanished, came back...)."""

    text: str


Entry = Scan | Typed | Notice


@dataclass(frozen=True)
class _Step:
    """One card dealt with: the tag it got (None if skipped) and what that replaced."""

    card: str
    uid: str | None
    old_tag: str | None = None
    old_owner: str | None = None


@dataclass
class Enrollment:
    """Walk through a deck asking for each card in turn, storing tag → card in ``book``.

    A tag enrolled as another card is refused (with ``again``, a tag of this same deck may
    move to another card); a card scanned twice in the session is caught. ``save`` runs
    after every change, so stopping half-way loses nothing.
    """

    deck: str
    book: CardBook
    save: Callable[[CardBook], None]
    again: bool = False
    cards: list[DeckCard] = field(init=False)
    position: int = 0
    steps: list[_Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        every = deck_cards(self.deck)
        missing = set(self.book.missing(self.deck))
        self.cards = [c for c in every if self.again or c.name in missing]

    @property
    def done(self) -> bool:
        """Whether every card was asked for."""
        return self.position >= len(self.cards)

    @property
    def current(self) -> DeckCard:
        return self.cards[self.position]

    def prompt(self) -> str:
        """Ask for the current card."""
        card, count = self.current, f"[{self.position + 1}/{len(self.cards)}]"
        return f"{count} {card.name}: lay the {card.label} on the reader"

    def _session_card(self, uid: str) -> str | None:
        for step in self.steps:
            if step.uid == uid and self.book.card_for(uid) == step.card:
                return step.card
        return None

    def scan(self, raw: str) -> str:
        """Take a tag read for the current card; return what to tell the person."""
        uid = normalize_uid(raw)
        if uid is None:
            return f"{raw.strip()[:40]!r} is not a tag: scan {self.current.name} again."
        card = self.current.name
        owner = self.book.card_for(uid)
        twice = self._session_card(uid)
        if owner == card:
            self.steps.append(_Step(card, None))
            self.position += 1
            return f"{card} already has this tag: kept."
        if twice is not None:
            return f"That tag was just given to {twice}: a card scanned twice? Scan {card}."
        if owner is not None and not (self.again and deck_of(owner) == self.deck):
            return f"That tag is already {owner} ({card_label(owner)}). Scan {card}."
        if owner is not None:
            self.book.forget_tag(uid)
        old_tag = self.book.tag_for(card)
        self.book.enroll(uid, card)
        self.save(self.book)
        self.steps.append(_Step(card, uid, old_tag, owner))
        self.position += 1
        moved = f" (it was {owner})" if owner else ""
        return f"{card} enrolled: tag {uid}{moved}."

    def skip(self) -> str:
        """Leave the current card without a (new) tag."""
        card = self.current.name
        self.steps.append(_Step(card, None))
        self.position += 1
        return f"{card} skipped."

    def back(self) -> str:
        """Go back one card, undoing what was stored for it."""
        if not self.steps:
            return "Nothing to go back to."
        step = self.steps.pop()
        self.position -= 1
        if step.uid is not None:
            self.book.forget_tag(step.uid)
            if step.old_tag is not None:
                self.book.enroll(step.old_tag, step.card)
            if step.old_owner is not None:
                self.book.enroll(step.uid, step.old_owner)
            self.save(self.book)
        return f"Back to {step.card}."

    def summary(self) -> str:
        """Say what the session did and which cards still have no tag."""
        enrolled = sum(1 for step in self.steps if step.uid is not None)
        total = len(deck_cards(self.deck))
        missing = self.book.missing(self.deck)
        have = total - len(missing)
        text = f"{enrolled} tag(s) enrolled; {have} of {total} {self.deck} cards have a tag."
        if missing:
            shown = ", ".join(missing[:13]) + (", ..." if len(missing) > 13 else "")
            text += f"\nNo tag yet: {shown}"
        return text


def run_enrollment(
    enrollment: Enrollment, entries: Iterable[Entry], say: Callable[[str], None]
) -> bool:
    """Feed scans and typed lines to the enrollment until the deck is done or "q".

    Returns whether every card of the deck has a tag at the end.
    """
    if not enrollment.done:
        say(enrollment.prompt())
        for entry in entries:
            if isinstance(entry, Notice):
                say(entry.text)
                continue
            if isinstance(entry, Scan):
                reply = enrollment.scan(entry.uid)
            else:
                command = entry.text.strip().lower()
                if command in ("q", "quit"):
                    break
                if command == "":
                    reply = enrollment.skip()
                elif command in ("u", "back"):
                    reply = enrollment.back()
                elif command in ("?", "help"):
                    reply = INSTRUCTIONS
                else:
                    reply = enrollment.scan(entry.text)
            say(reply)
            if enrollment.done:
                break
            say(enrollment.prompt())
    say(enrollment.summary())
    return not enrollment.book.missing(enrollment.deck)


# --- the terminal and the reader ---

_END = object()


def _entries(events: queue.Queue[Entry | object], ends_with_input: bool) -> Iterator[Entry]:
    """Yield what arrives; the end of typed input ends them only when the terminal is the reader."""
    while True:
        item = events.get()
        if item is _END:
            if ends_with_input:
                return
            continue
        assert isinstance(item, Scan | Typed | Notice)
        yield item


def _read_lines(stream: TextIO, events: queue.Queue[Entry | object]) -> None:
    """Pass on each typed line; whatever ends the input, the end is passed on too."""
    try:
        for line in stream:
            events.put(Typed(line.rstrip("\r\n")))
    except (OSError, ValueError) as error:
        reason = "it is not UTF-8 text" if isinstance(error, UnicodeDecodeError) else error
        events.put(Notice(f"(typed input stopped: {reason})"))
    finally:
        events.put(_END)


def _tolerant(stream: TextIO) -> TextIO:
    """Read a terminal so that a byte that is not UTF-8 becomes a character, not an end."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")
    return stream


def _to_entry(events: queue.Queue[Entry | object]) -> Callable[[Event], None]:
    def sink(event: Event) -> None:
        if isinstance(event, CardScanned):
            events.put(Scan(event.uid))
        elif isinstance(event, DeviceStatus):
            events.put(Notice(f"({event.message})"))

    return sink


def choose_reader(spec: str | None, config: Config) -> tuple[InputDevice | None, str]:
    """Build the reader to enroll with; None means the terminal. Returns it and its description.

    ``spec`` is "terminal", "pico", "mfrc522" or KIND:DEVICE (evdev:, rdm6300:, lines:);
    without it the configuration's [reader] is used. Raises ValueError for a bad spec.
    """
    window = config.reader.repeat_window_s if config.reader is not None else 1.5
    if spec is None:
        if config.reader is None:
            return None, "this terminal"
        kind, device = config.reader.kind, config.reader.device
    elif spec == "terminal":
        return None, "this terminal"
    else:
        kind, _, device = spec.partition(":")
    if kind == "pico":
        return _pico_reader(config, device, window)
    needs_device = kind in ("evdev", "rdm6300", "lines")
    if kind not in ("evdev", "rdm6300", "lines", "mfrc522") or needs_device != bool(device):
        raise ValueError(
            f"unknown reader {spec!r}: use terminal, pico, mfrc522, evdev:PATH, rdm6300:PORT "
            "or lines:PORT"
        )
    section = ReaderSection(kind=kind, device=device, repeat_window_s=window)
    reader = reader_from_config(section)
    return reader, f"the {kind} reader {device}".rstrip()


def _pico_reader(config: Config, port: str, window: float) -> tuple[InputDevice, str]:
    from companion.devices.pico import PicoCardReader, PicoLink

    if not port:
        if config.pico is None:
            raise ValueError("the configuration has no [pico] section: use pico:PORT")
        port = config.pico.port
    baudrate = config.pico.baudrate if config.pico is not None else 115200
    reader = PicoCardReader(PicoLink(port, baudrate), repeat_window_s=window)
    return reader, f"the Pico's reader on {port}"


def enroll(
    deck: str,
    file: Path,
    reader: InputDevice | None,
    described: str,
    *,
    again: bool = False,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
) -> int:
    """Run an enrollment on a terminal; return 0 when every card of the deck has a tag."""
    stdin = stdin if stdin is not None else _tolerant(sys.stdin)
    out = out if out is not None else sys.stdout

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    book = load_cards(file)
    enrollment = Enrollment(deck, book, lambda b: save_cards(file, b), again=again)
    if enrollment.done:
        say(f"Every {deck} card has a tag in {file} already (--again enrolls the deck afresh).")
        return 0
    say(f"Enrolling {len(enrollment.cards)} {deck} card(s) into {file}, read by {described}.")
    say(INSTRUCTIONS)
    events: queue.Queue[Entry | object] = queue.Queue()
    threading.Thread(target=_read_lines, args=(stdin, events), daemon=True).start()
    if reader is not None:
        reader.start(_to_entry(events))
    try:
        complete = run_enrollment(enrollment, _entries(events, reader is None), say)
    except KeyboardInterrupt:
        say("")
        say(enrollment.summary())
        return 130
    finally:
        if reader is not None:
            reader.close()
    return 0 if complete else 1


# --- the command ---


def _cards_file(args: argparse.Namespace, config: Config) -> Path:
    if args.file is not None:
        return Path(args.file)
    if config.reader is not None:
        return config.reader.cards_file
    return config.companion.state_dir / "cards.toml"


def run_action(args: argparse.Namespace) -> int:
    """Run the chosen cards action; 2 for a bad configuration, cards file or reader."""
    action = getattr(args, "action", None)
    if action is None:
        print("usage: companion cards {enroll DECK | list | labels DECK}  (see --help)")
        return 2
    if action == "labels":
        for card in deck_cards(args.deck):
            print(f"{card.name:<10} {card.label}")
        return 0
    try:
        config = load_config(args.config)
        file = _cards_file(args, config)
        if action == "list":
            return _list(file)
        reader, described = choose_reader(args.reader, config)
        return enroll(args.deck, file, reader, described, again=args.again)
    except (ConfigError, ValueError) as error:
        print(f"companion cards: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"companion cards: {error}", file=sys.stderr)
        return 2


def _list(file: Path) -> int:
    book = load_cards(file)
    print(f"{file}: {len(book)} tag(s)")
    for deck in DECKS:
        total = len(deck_cards(deck))
        missing = book.missing(deck)
        print(f"  {deck}: {total - len(missing)} of {total} cards have a tag")
    for uid, card in book:
        print(f"{uid:<20} {card:<10} {card_label(card) or ''}")
    return 0
