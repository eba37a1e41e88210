"""Random presses, turns, rolls and scans: the table never fails and every LCD row reads well.

The rule for the rows, checked on every screen of random games of every game (long
names, the most players, every variant):

1. Nothing is cut at the 20th column: no row the renderers build is longer than the LCD,
   so the text layer never has to cut one (``cut`` is made to fail the test if it must).
2. Every word on the LCD is whole. A *word* is a run of letters; it must be a word of the
   companion's own texts (the string literals of the renderers and the flows), part of a
   name in play (a player, a horse, a Jockey card's label), or a name shortened on purpose:
   the start of such a name part followed by ".", as ``short`` writes it ("Barth.").
3. A message of the moment (a refusal, an announcement) shows its whole sentence: the
   bottom rows of the LCD are exactly the sentence word-wrapped, no word broken or left out.
"""

from __future__ import annotations

import ast
import importlib
import logging
import random
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import companion.render.text as text
from companion.daemon.flows.base import HORSE_BUTTONS
from companion.daemon.flows.cards import jockey_number
from companion.daemon.table import TableController
from companion.devices.base import (
    ButtonHeld,
    ButtonPressed,
    CardScanned,
    DeviceStatus,
    DieIgnored,
    DieRolled,
    EncoderTurned,
    Event,
)
from companion.games.jockey.deck import default_deck
from companion.games.jumpy_jack import Board
from companion.games.registry import GAMES as MENU
from companion.games.registry import HOMES, find_game, part
from companion.render.language import LANGUAGE_NAMES, speaking
from companion.session.session import Session

ROOT = Path(__file__).resolve().parents[2]
BUTTONS = ("die", "horse1", "horse2", "horse3", "horse4", "horse5", "push", "push", "undo")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PLAYING = [r + s for s in "SHDC" for r in RANKS]
JOCKEY = [f"jockey:{n}" for n in range(1, 55)]
#: Names as long as tables use, one sharing its start with another, one with an accent.
LONG_NAMES = (
    "Chloé-Marie",
    "Bartholomew",
    "Maximiliane",
    "Anna",
    "Annabelle",
    "Jean-Baptiste Durand",  # the longest name the configuration allows
    "Oluwaseun",
    "Bo",
    "Wilhelmina",
    "Kristoffer",
)

LETTERS = re.compile(r"[^\W\d_]+")
#: One-letter words the texts use on their own ("Anna's" gives "s"; "10k").
ONE_LETTER = {"s", "k", "a"}


def _literals(path: Path) -> Iterable[str]:
    """The string literals of a module that can reach a display (not docstrings or formats)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            skip.update(id(n) for n in ast.walk(node.format_spec))
        logged = ("debug", "info", "warning", "error", "exception", "compile")
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in logged:
            skip.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.value


def vocabulary() -> set[str]:
    """Every word the renderers and the flows write."""
    words: set[str] = set()
    added = [  # the screens and flow of each game added from outside the package
        Path(str(importlib.import_module(part(kind, layer)).__file__))
        for kind in HOMES
        for layer in ("render", "flow")
    ]
    folders = ("render", "daemon/flows")
    shipped = [p for f in folders for p in sorted(ROOT.glob(f"companion/{f}/*.py"))]
    for path in [*shipped, *added]:
        for literal in _literals(path):
            words.update(LETTERS.findall(literal))
    words.update(LETTERS.findall("".join(_literals(ROOT / "companion/daemon/table.py"))))
    for game in MENU:  # the titles and option labels each game declares for the menu
        titles = [game.title, *dict(game.titles).values()]  # the menu says it in each language
        words.update(LETTERS.findall(" ".join([*titles, *(o.label for o in game.options)])))
    for po in sorted((ROOT / "companion/locale").glob("*/LC_MESSAGES/companion.po")):
        with po.open("rb") as handle:  # the same sentences in French and German
            for message in read_po(handle):
                said = [message.string] if isinstance(message.string, str) else message.string
                words.update(LETTERS.findall(" ".join(said)))
    words.update(LETTERS.findall(" ".join(LANGUAGE_NAMES.values())))
    return {w.lower() for w in words if len(w) > 1 or w in ONE_LETTER}


WORDS = vocabulary()


def name_parts(names: Iterable[str]) -> set[str]:
    return {part for name in names for part in LETTERS.findall(name)}


def bad_words(row: str, parts: set[str]) -> list[str]:
    """The letter runs of ``row`` that are neither words, name parts nor shortened names."""
    bad = []
    for match in LETTERS.finditer(row):
        word = match.group()
        if word.lower() in WORDS or word in parts:
            continue
        shortened = row[match.end() : match.end() + 1] == "."
        if shortened and any(part.startswith(word) for part in parts):
            continue
        bad.append(word)
    return bad


def test_the_word_rule_catches_what_players_saw() -> None:
    parts = name_parts(["Player 1", "Bartholomew", "Chloé-Marie", "red", "blue", "yellow"])
    assert bad_words("Player 1's tur die 1", parts) == ["tur"]
    assert bad_words("Player 1: press the ", parts) == []  # rule 1 catches this one
    assert bad_words("Chloé-Mari, Bartholome,", parts) == ["Mari", "Bartholome"]
    assert bad_words("red blue green yello", parts) == ["yello"]
    assert bad_words("C+300 B-100 M-100 A-", parts) == ["C", "B", "M"]
    assert bad_words("Barth.: bet  max 10", parts) == []
    assert bad_words("Chloé-M. +2 Player 1 -1", parts) == []


def test_the_text_layer_never_cuts_a_sentence_or_a_list() -> None:
    assert text.spread("Bartholomew's turn", "die 6") == "Bartholomew's turn"
    assert text.spread_name("Bartholomew", "'s card", "Race 1/3", least=99) == (
        "Bartholomew's card"
    )
    assert text.spread_name("Chloé-Marie", ": bet", "max 10") == "Chloé-M.: bet max 10"
    assert text.named("Jean-Baptiste Durand", "'s turn") == "Jean-B.'s turn"
    assert text.short("Player 12", 5) == "Pl.12"
    assert text.name_list(["Chloé-Marie", "Bartholomew", "Anna"]) == ("Chloé., Barth., Anna",)
    assert text.name_score_row([("Anna", 4), ("Annabelle", 2)], 13) == "Anna 4 Ann. 2"
    assert text.name_score_row([(f"Player {n}", 0) for n in range(1, 9)], fallback="x") == "x"


def sensible_event(rng: random.Random, table: TableController) -> list[Event]:
    """An input that makes sense at this point of the game (a legal move, an unseen card)."""
    view = table.session.view()
    board = view.board
    if view.phase == "move" and board.legal_horses:
        horses = list(board.horse_names)
        return [ButtonPressed(f"horse{horses.index(rng.choice(board.legal_horses)) + 1}")]
    if view.phase in ("roll", "predict") and rng.random() < 0.5:
        return [ButtonPressed("die"), DieRolled(rng.randint(1, 6))]
    if view.game == "course_hippique" and view.phase in ("dealing", "redeal", "racing"):
        seen = {*(c.code for c in board.course if c), *(c.code for c in board.turned)}
        unseen = [c for c in PLAYING if c not in seen and not c.startswith("A")]
        return [CardScanned("04", rng.choice(unseen), "reader")] if unseen else []
    if view.game == "jockey" and view.phase == "racing":
        pile = {f"jockey:{jockey_number(c, default_deck())}" for c in board.pile}
        return [CardScanned("04", rng.choice([c for c in JOCKEY if c not in pile]), "reader")]
    if view.phase in ("race_over", "match_over", "game_over"):
        if rng.random() < 0.5:
            return [EncoderTurned(rng.choice((-1, 1, 2)))]  # read the result pages
    elif view.game is not None and find_game(view.game).uses_die and rng.random() < 0.5:
        return [ButtonPressed("die"), DieRolled(rng.randint(1, 6))]  # any other die game
    return [ButtonPressed(rng.choice(("horse1", "horse2", "horse3", "push", "push")))]


def random_event(rng: random.Random) -> Event:
    roll = rng.random()
    if roll < 0.45:
        return ButtonPressed(rng.choice(BUTTONS))
    if roll < 0.55:
        return EncoderTurned(rng.choice((-3, -1, 1, 1, 2, 5)))
    if roll < 0.65:
        return DieRolled(rng.randint(1, 6))
    if roll < 0.85:
        card = rng.choice(PLAYING + JOCKEY + [None, "junk"])  # type: ignore[list-item]
        return CardScanned(f"{rng.getrandbits(32):08X}", card, "reader")
    if roll < 0.88:
        return ButtonHeld("undo")
    if roll < 0.96:
        return DieIgnored()
    return DeviceStatus("LED strip", rng.random() < 0.5, "LED strip not responding")


def check_screen(table: TableController, parts: set[str]) -> None:
    """Rules 2 and 3 on the picture now (rule 1 is checked by ``cut`` itself); the LEDs
    drawn on their own (first, as the loop does for a move) are the picture's."""
    leds = table.leds()
    screen = table.screen()
    assert screen.leds == leds
    assert len(screen.lcd) == 4
    with speaking(table.language):  # the flow alone draws in the table's language too
        steady = table.flow.screen().lcd
    flash = table._flash
    shown = len(flash.lcd) if flash is not None else 0
    for index, row in enumerate(screen.lcd):
        assert len(row) <= 20, row
        if index < 4 - shown:
            assert row == steady[index] or index == 3, (row, steady)
            if row == steady[index]:
                assert not bad_words(row, parts), (row, screen.lcd)
    if flash is not None and flash.text:
        assert screen.lcd[4 - shown :] == flash.lcd, (flash, screen.lcd)
        assert " ".join(flash.lcd).split() == flash.text.split(), flash
    assert len(screen.oled.lines) <= 5
    for line in screen.oled.lines:
        assert len(line) <= 21, line
    assert all(len(c) == 3 and all(0 <= v <= 255 for v in c) for c in screen.leds)


def strict_cut(text_: str, width: int = 20) -> str:
    assert len(text_) <= width, f"a row had to be cut: {text_!r}"
    return text_


GAMES = {
    # game button, players (turns of the encoder from the offered count), option presses
    "jumpy": ("horse1", 8, ()),
    "jumpy-guess": ("horse1", 3, (1,)),
    "jumpy-teams": ("horse1", 6, (2,)),
    "course": ("horse2", 10, ()),
    "course-setback": ("horse2", 4, (3,)),
    "jockey": ("horse3", 6, ()),
}
# Every other registered game (one a horse button picks), with its most players.
GAMES.update(
    (game.kind, (button, game.high, ()))
    for button, game in zip(HORSE_BUTTONS, MENU, strict=False)
    if button not in {variant[0] for variant in GAMES.values()}
)


@pytest.mark.parametrize("names", ["short", "long"])
@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_never_break_the_table_and_every_row_reads_well(
    game: str,
    names: str,
    seed: int,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(text, "cut", strict_cut)
    rng = random.Random(seed)
    now = [0.0]
    configured = ("Anna", "Ben", "Chloé") if names == "short" else LONG_NAMES
    table = TableController(Session.in_memory(), player_names=configured, clock=lambda: now[0])
    button, players, option = GAMES[game]
    table.handle(ButtonPressed(button))
    table.handle(EncoderTurned(-20))
    table.handle(
        EncoderTurned(players - next(g.low for g in MENU if g.title == table.screen().lcd[0]))
    )
    table.handle(ButtonPressed("push"))
    for index in option:  # move the cursor up to the option, change it, back to Start
        table.handle(EncoderTurned(-20))
        table.handle(EncoderTurned(index))
        table.handle(ButtonPressed("push"))
        table.handle(EncoderTurned(20))
    table.handle(ButtonPressed("push"))
    view = table.session.view()
    assert view.game is not None and len(view.players) == players, table.screen().lcd
    # names of every game the random presses may start from the menu
    seats = ("Player", "Joueur", "Spieler")  # a seat is named in the table's language
    parts = name_parts([*configured, *(f"{s} {n}" for s in seats for n in range(1, 11))])
    parts |= name_parts(f"{t} {n}" for t in ("Team", "Équipe") for n in range(1, 6))
    parts |= name_parts(Board.default().horse_names)
    parts |= name_parts(card.label for card in default_deck().cards)
    parts |= name_parts(["brown", "yellow", "blue", "red", "spades", "hearts", "diamonds"])
    parts |= name_parts(["clubs", "A", "J", "Q", "K", "V", "D", "R", "B"])  # cards: "Q♠", "D♠"
    reached: set[tuple[str | None, str]] = set()
    with caplog.at_level(logging.ERROR, logger="companion.table"):
        for _ in range(900):
            now[0] += rng.choice((0.1, 0.5, 5.0))
            table.tick(now[0])
            noise = rng.random() < 0.08
            for event in [random_event(rng)] if noise else sensible_event(rng, table):
                table.handle(event)
                check_screen(table, parts)
            view = table.session.view()
            reached.add((view.game, view.phase))
            check_screen(table, parts)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    over = {"race_over", "match_over", "game_over"}
    assert any(phase in over for _, phase in reached), reached
