"""Every word in the table's language: the scripted games played in French and German, their
LCD and OLED read after each event (with the pages' joining over them), every page (home,
join, host, each player's, the scoreboard) read every few events, and no English left.

Two nets: the forms put into the table's language one by one (the Jockey move line, card
labels and ranks, decimal points), and any word of the English catalogs that neither the
French nor the German catalog uses (a sentence left out of a catalog, or written in the code).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion.daemon.loop import Daemon
from companion.daemon.outputs import Panel
from companion.daemon.table import TableController
from companion.render.language import card_label, speaking
from companion.session import autoplay
from companion.session.log import NewGame
from companion.session.session import Session
from companion.web.hub import Hub
from companion.web.inputs import PageRefusal
from companion.web.joins import Joins
from companion.web.pages import home_page, host_page, join_page, play_page, scoreboard_page
from companion.web.seats import HOST, SeatBook
from companion.web.side import TableSide
from tests.golden.test_golden import EVENTS, _read, played

#: English the French and German tables must never show, with what it is.
ENGLISH = {
    "a move line": re.compile(r"\d+ to \d+|moved nothing|past the finish"),
    "a card's colour": re.compile(r"\b(red|blue|yellow|green|brown|white|black)\b \+\d+"),
    "a queen or jack": re.compile(r"(?<![\w+-])[JQ][♠♥♦♣]"),
    "a decimal point": re.compile(r"\d\.\d+ ?%"),
}
#: The French king is the roi: an English K is English there (German keeps its König).
FRENCH = {"a king": re.compile(r"(?<![\w+-])K[♠♥♦♣]")}
#: Phrases a French or German table once showed, now said in good French (German): the
#: state of a horse said as a game's ("rouge (terminée)", "bleu (course)"), a status twice
#: ("en cours (en cours)"), stilted phrases, the card's printed "No.", the LCD's English
#: RETOUR and its cryptic rows, a name cut to one letter without its dot ("A: ...").
LISTED = {
    "fr": re.compile(
        r"\((terminée|course)\)|en cours \(en cours\)|terminée \(en cours\)|personne encore"
        r"|A scellé|Ont scellé|le changer demande la table|Touchez d.abord votre choix"
        r"|No\.\d|RETOUR|Tournez: chacun|Bouton: suivante|\b10k:|scannées"
        r"|(?:^|\s)[^\W\d_]:\s"
    ),
    "de": re.compile(r"No\.\d|Knopf: nächstes|Drehen: alle|\b10k:|(?:^|\s)[^\W\d_]:\s"),
}
#: What a page sets as its language sets it (the LCD keeps its 20 columns): French's narrow
#: no-break space before ``: ; ! ?``, the typographic apostrophe in French and German, the
#: minus sign, one multiplication sign.
PAGE_TYPOGRAPHY = {
    "a mark without its narrow space": re.compile(r"[^\s\u202f][:;!?](?=\s|$)"),
    "a typewriter apostrophe": re.compile(r"\w'\w"),
    "a hyphen for a minus": re.compile(r"(?<![\w.,-])-\d"),
    "two multiplication signs": re.compile(r"\bx\d+ ×\d|×\d+ x\d"),
}


def listed_in(text: str, language: str) -> list[str]:
    """The phrases once shown (``LISTED``) found in ``text``."""
    return [f"a listed phrase: {m.group(0)!r}" for m in LISTED[language].finditer(text)]


def typography_of(page: str, language: str) -> list[str]:
    """What a page in ``language`` sets wrong (French spacing only in French)."""
    checks = dict(PAGE_TYPOGRAPHY)
    if language != "fr":
        del checks["a mark without its narrow space"]
    return [f"{kind}: {m.group(0)!r}" for kind, rx in checks.items() if (m := rx.search(page))]


#: Every page is read every this many events (and at the end): some twenty times a game;
#: the LCD and OLED after every event.
PAGES_EVERY = 40

SCRIPTS = {script["name"]: script for script in _read("table_scripts.jsonl.gz")}


def english_in(text: str, language: str) -> list[str]:
    """The kinds of English found in ``text`` with what matched."""
    checks = {**ENGLISH, **(FRENCH if language == "fr" else {})}
    return [f"{kind}: {m.group(0)!r}" for kind, rx in checks.items() if (m := rx.search(text))]


LOCALE = Path(__file__).resolve().parents[2] / "companion" / "locale"
#: Words of the English catalogs that are never a sign of English on a French or German page.
NOT_ENGLISH = frozenset({"companion", "jumpy", "jack", "course", "hippique", "jockey", "anna"})
_WORD = re.compile(r"[^\W\d_]{3,}")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}


@functools.cache
def catalog_english(language: str) -> frozenset[str]:
    """The words of the English sentences that ``language``'s catalogs never use."""
    english: set[str] = set()
    theirs: set[str] = set()
    for path in LOCALE.glob(f"{language}/LC_MESSAGES/*.po"):
        with path.open("rb") as handle:
            for message in read_po(handle):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                said = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in ids:
                    english |= _words(text)
                for text in said:
                    theirs |= _words(text or "")
    return frozenset(english - theirs - NOT_ENGLISH)


_HIDDEN = re.compile(r"<(script|style)\b.*?</\1>", re.S)
_READ_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')


def readable(html: str) -> str:
    """What a reader of a page sees or hears: its text and its labels, without markup."""
    html = _HIDDEN.sub(" ", html)
    labels = " ".join(_READ_ATTRIBUTES.findall(html))
    said = unescape(re.sub(r"<[^>]+>", " ", html) + " " + labels)
    return re.sub(r"https?://\S+", " ", said)  # an address is no word


def english_words(text: str, language: str, names: frozenset[str]) -> list[str]:
    """The English catalogs' words in ``text`` that ``language`` never uses (not names)."""
    english = catalog_english(language)
    return sorted(w for w in _words(text) - {n.lower() for n in names} if w in english)


class Shown:
    """A scripted table with its pages' side: the words of every screen and page."""

    def __init__(self, script: dict[str, Any], language: str) -> None:
        self.script = script
        now = [0.0]
        self.now = now
        names = script["names"]
        self.table = TableController(
            Session.in_memory(), player_names=names, clock=lambda: now[0], language=language
        )
        daemon = Daemon(self.table, Panel(), [], _Quiet(), clock=lambda: now[0])
        self.seats = SeatBook(None)
        self.side = TableSide(
            daemon, self.table, self.seats, Joins(lambda: now[0]), Hub(), "10.0.0.2:8080"
        )
        self.names = frozenset(names)

    def steps(self) -> Iterator[int]:
        """Play the script; yield after each event (its number)."""
        for number, step in enumerate(self.script["steps"]):
            data = dict(step)
            name = data.pop("event")
            if name == "tick":
                self.now[0] += data["seconds"]
                self.table.tick(self.now[0])
                continue
            self.table.handle(EVENTS[name](**data))
            self._seat_everyone()
            yield number

    def _seat_everyone(self) -> None:
        """Every player of the game on (and the host) has a phone."""
        session = self.table.session
        self.side.refresh()
        if session.table is None:
            return
        taken = self.seats.taken()
        for seat in (*session.table.start.players, HOST):
            if seat not in taken:
                self.seats.issue(seat)
        self.side.refresh()

    def screens(self) -> str:
        """The LCD and OLED as the table shows them (with the pages' joining over them)."""
        screen, _key = self.side.overlay(self.table.screen())
        return "\n".join([*screen.lcd, *screen.oled.lines])

    def pages(self) -> str:
        """Every page as a reader sees it now: home, join, host, each player's, scoreboard."""
        snap = self.side.drawn()
        players = self.side.joinable()
        with speaking(self.side.language):
            html = [
                home_page(),
                join_page(players, self.seats.taken(), host=False),
                join_page(players, self.seats.taken(), host=True),
                host_page(snap.public, snap.host),
                scoreboard_page(snap.public),
                *(play_page(snap.public, private) for private in snap.private.values()),
            ]
        return "\n".join(readable(page) for page in html)


class _Quiet:
    ping_every = None

    def ready(self, status: str = "ready") -> None: ...

    def alive(self) -> None: ...

    def stopping(self) -> None: ...


def test_the_checks_catch_the_english_they_look_for() -> None:
    english = "red +7: red 0 to 7. Q♠ K♥ 19.7 % blue +10 moved nothing"
    assert len(english_in(english, "fr")) == 5
    assert english_in("rouge +7: rouge de 0 à 7. D♠ R♥ 19,7 % No.2 +15 10♥", "fr") == []
    assert english_in("rot +7: rot von 0 bis 7. D♠ K♥ 19,7 % A♣", "de") == []


def test_the_catalog_net_catches_english_and_passes_the_tables_words() -> None:
    assert english_words("Seal my prediction. Anna", "fr", frozenset({"Anna"})) == [
        "prediction",
        "seal",
    ]
    assert english_words("Sceller mon pronostic: Anna", "fr", frozenset({"Anna"})) == []
    assert english_words("Tipp versiegeln. Start", "de", frozenset()) == []
    assert "phone" in catalog_english("fr") and "phone" in catalog_english("de")


@pytest.mark.parametrize("language", ["fr", "de"])
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_scripted_game_shows_no_english_in_french_and_german(name: str, language: str) -> None:
    found: dict[str, str] = {}

    def check(text: str, page: bool = False) -> None:
        for said in english_in(text, language):
            found.setdefault(said, text)
        for word in english_words(text, language, shown_.names):
            found.setdefault(f"an English word: {word!r}", text)
        for said in listed_in(text, language) + (typography_of(text, language) if page else []):
            found.setdefault(said, text)

    shown_ = Shown(SCRIPTS[name], language)
    with speaking(language):
        for number in shown_.steps():
            check(shown_.screens())
            if number % PAGES_EVERY == 0:
                check(shown_.pages(), page=True)
        check(shown_.pages(), page=True)  # the pages at the end of the game
    assert not found, "\n".join([*found, "", next(iter(found.values()))])


@pytest.mark.parametrize(("language", "turn"), [("fr", "À jouer: "), ("de", "Am Zug: ")])
def test_after_a_jockey_card_the_lcd_says_whose_turn_it_is_not_who_comes_later(
    language: str, turn: str
) -> None:
    with speaking(language):
        tops = {table.screen().lcd[0] for table, _ in played(SCRIPTS["jockey-short-11"], language)}
    assert any(top.startswith(turn) for top in tops)
    assert not any(top.startswith(("Puis: ", "Dann: ")) for top in tops)


@pytest.mark.parametrize(
    ("language", "lead", "chase", "played"),
    [
        ("fr", "rouge en tête x3", "marron chasse +50", "Toutes les cartes jaune +7 sont jouées."),
        ("de", "rot Führung x3", "braun Jagd +50", "Alle gelb +7 sind gespielt."),
    ],
)
def test_jockey_cards_and_their_refusals_are_said_in_the_tables_language(
    language: str, lead: str, chase: str, played: str
) -> None:
    with speaking(language):
        assert card_label("red lead x3") == lead
        assert card_label("brown chase +50") == chase
        refusal = PageRefusal("card_played_twice", "Every {label} was played.", label="yellow +7")
        assert refusal.said() == played


def test_the_nets_catch_each_phrase_once_shown_and_the_pages_typography() -> None:
    for phrase in (
        "rouge (terminée)", "bleu (course)", "en cours (en cours)", "terminée (en cours)",
        "personne encore", "A scellé: Anna", "Ont scellé: Anna, Ben",
        " (a un téléphone: le changer demande la table)",
        "Touchez d'abord votre choix: chaque place en demande un.", "No.2 +15",
        "RETOUR: rouge repart du départ.", "Tournez: chacun", "Bouton: suivante",
        "10k:0 1k:0 100:7", "Mains: non / scannées", "A: marron chasse +50",
    ):  # fmt: skip
        assert listed_in(phrase, "fr"), phrase
    assert listed_in("Knopf: nächstes · Drehen: alle · Nr.2 · No.2 +15", "de")
    assert len(typography_of("Phase: pronostics · l'hôte · -5 · rouge en tête x3 ×2", "fr")) == 4
    assert typography_of("Phase\u202f: pronostics · l’hôte · −5 · rouge en tête ×3 ×2", "fr") == []
    assert typography_of("Phase: Tipps · −5", "de") == []


@pytest.mark.parametrize(
    ("language", "started", "resumed", "abandoned"),
    [
        ("fr", "Partie lancée.", "Partie reprise.", "Partie abandonnée."),
        ("de", "Neues Spiel läuft.", "Spiel fortgesetzt.", "Spiel abgebrochen."),
    ],
)
def test_the_host_pages_commands_are_said_on_the_lcd_in_the_tables_language(
    language: str, started: str, resumed: str, abandoned: str, tmp_path: Path
) -> None:
    now = [0.0]
    table = TableController(
        Session.open(tmp_path / "journal.sqlite3"), clock=lambda: now[0], language=language
    )
    daemon = Daemon(table, Panel(), [], _Quiet(), clock=lambda: now[0])
    side = TableSide(daemon, table, SeatBook(None), Joins(lambda: now[0]), Hub(), "10.0.0.2:80")
    names = "Anna\nBen\nChloé"

    def command(name: str, **data: object) -> str:
        table.apply(lambda ctx: side._host(ctx, name, dict(data)))
        screen, _key = side.overlay(table.screen())
        return "\n".join([*screen.lcd, *screen.oled.lines])

    with speaking(language):
        first = command("new_game", game="jumpy_jack", players=names)
        game = table.session.game_id
        second = command("new_game", game="jockey", players=names)
        said = {
            started: first + second,
            resumed: command("resume", game=game),
            abandoned: command("abandon", game=table.session.game_id),
        }
    for sentence, screen in said.items():
        assert sentence in screen, screen
        assert not english_words(screen, language, frozenset({"Anna", "Ben", "Chloé"})), screen
        assert not listed_in(screen, language), screen


@pytest.mark.parametrize("language", ["fr", "de", "en"])
def test_every_page_of_a_course_hippique_race_s_result_has_its_page_mark(language: str) -> None:
    script = next(s for n, s in SCRIPTS.items() if n.startswith("course"))
    shown = Shown(script, language)
    tops: set[str] = set()
    with speaking(language):
        for _ in shown.steps():
            view = shown.table.session.view()
            if view.to_json()["phase"] == "race_over":
                tops.add(shown.table.screen().lcd[0])
    assert tops, "no race ended"
    assert all(re.search(r" \d+/\d+$", top) for top in tops), tops


@pytest.mark.parametrize("kind", ["jumpy_jack", "course_hippique", "jockey"])
def test_a_french_evening_and_winner_screen_are_set_as_french_sets_them(
    kind: str, tmp_path: Path
) -> None:
    now = [0.0]
    table = TableController(
        Session.open(tmp_path / "journal.sqlite3"), clock=lambda: now[0], language="fr"
    )
    daemon = Daemon(table, Panel(), [], _Quiet(), clock=lambda: now[0])
    seats = SeatBook(None)
    side = TableSide(daemon, table, seats, Joins(lambda: now[0]), Hub(), "10.0.0.2:80")
    names = ("Anna", "Ben", "Chloé")
    table.apply(lambda ctx: ctx.submit(NewGame(kind, names, {}))[1])
    rng = random.Random(3)
    while not table.session.view().finished:
        assert table.session.table is not None
        entry = autoplay.legal_input(table.session.table, rng)
        assert entry is not None
        table.apply(lambda ctx, entry=entry: ctx.submit(entry)[1])
    for seat in (*names, HOST):
        seats.issue(seat)
    side.refresh()
    snap = side.drawn()
    with speaking("fr"):
        pages = readable(scoreboard_page(snap.public)) + readable(host_page(snap.public, snap.host))
    assert "La soirée" in pages and "remporte" in pages
    assert typography_of(pages, "fr") == []
    assert not listed_in(pages, "fr") and not english_words(pages, "fr", frozenset(names))
