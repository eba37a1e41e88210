"""Enrolling a deck as the person at the table does it: card after card, mistakes caught."""

from __future__ import annotations

import io
import os
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.devices import cards_file
from companion.devices.cards_file import (
    CardBook,
    CardsFileError,
    card_label,
    deck_cards,
    load_cards,
    parse_cards,
    save_cards,
)
from companion.devices.enrollment import (
    Enrollment,
    Entry,
    Notice,
    Scan,
    Typed,
    enroll,
    run_enrollment,
)
from companion.devices.readers import LineReader

PLAYING = [card.name for card in deck_cards("playing")]


def tag(number: int) -> str:
    return f"04{number:06X}"


class Screen(list[str]):
    """What the person enrolling reads, line by line."""

    def __call__(self, text: str) -> None:
        self.extend(text.splitlines())

    def after(self, index: int) -> list[str]:
        return self[index:]


def walk(
    book: CardBook, entries: list[Entry], deck: str = "playing", again: bool = False
) -> tuple[Enrollment, Screen, list[dict[str, str]], bool]:
    saved: list[dict[str, str]] = []
    enrollment = Enrollment(deck, book, lambda b: saved.append(dict(iter(b))), again=again)
    screen = Screen()
    complete = run_enrollment(enrollment, entries, screen)
    return enrollment, screen, saved, complete


# --- the decks ---


def test_the_playing_deck_is_ace_to_king_in_four_suits() -> None:
    assert len(PLAYING) == len(set(PLAYING)) == 52
    assert PLAYING[:3] == ["AS", "2S", "3S"] and PLAYING[-1] == "KC"
    assert {"QS", "10H", "JD", "AC"} <= set(PLAYING)
    assert card_label("10H") == "ten of hearts (10♥)"


def test_the_jockey_deck_is_numbered_like_the_default_deck_file() -> None:
    from companion.games.jockey.deck import default_deck

    cards = deck_cards("jockey")
    assert [c.name for c in cards] == [f"jockey:{n}" for n in range(1, 55)]
    engine = default_deck().cards
    assert [c.label.rsplit(" (", 1)[0] for c in cards] == [c.label for c in engine]
    assert card_label("jockey:45") == "No.2 +15 (1 of 4)"


def test_an_unknown_deck_is_refused() -> None:
    with pytest.raises(KeyError, match="playing or jockey"):
        deck_cards("tarot")


# --- the book and its file ---


def test_a_card_gets_one_tag_and_a_tag_is_one_card() -> None:
    book = CardBook()
    book.enroll("04:a2:3b:11", "QS")
    assert book.card_for("04A23B11") == "QS" and book.tag_for("QS") == "04A23B11"
    book.enroll("DEADBEEF", "QS")
    assert book.card_for("04A23B11") is None, "a new sticker replaces the old one"
    with pytest.raises(ValueError, match="already QS"):
        book.enroll("DEADBEEF", "KS")
    with pytest.raises(ValueError, match="no card"):
        book.enroll("CAFE", "1Z")


def test_the_file_round_trips_in_deck_order(tmp_path: Path) -> None:
    path = tmp_path / "state" / "cards.toml"
    book = CardBook({tag(3): "jockey:7", tag(1): "KC", tag(2): "AS"})
    save_cards(path, book)
    again = load_cards(path)
    assert list(again) == [(tag(2), "AS"), (tag(1), "KC"), (tag(3), "jockey:7")]
    text = path.read_text(encoding="utf-8")
    assert '"04000002" = "AS"  # ace of spades (A♠)' in text


def test_a_missing_file_is_an_empty_book(tmp_path: Path) -> None:
    assert len(load_cards(tmp_path / "none.toml")) == 0


def test_a_failed_save_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cards.toml"
    save_cards(path, CardBook({tag(1): "AS"}))
    before = path.read_text()

    def power_cut(src: str, dst: str) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(cards_file.os, "replace", power_cut)
    with pytest.raises(OSError, match="power cut"):
        save_cards(path, CardBook({tag(1): "AS", tag(2): "2S"}))
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["cards.toml"]


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        ('[tags]\n"CAFE" = "1Z"\n', "tags.CAFE", "no card"),
        ('[tags]\n"CAFE" = "QS"\n"BEEF" = "QS"\n', "tags.BEEF", "QS already has the tag CAFE"),
        ('[tags]\n"CA FE!" = "QS"\n', "tags.CA FE!", "not a tag UID"),
        ('[tags]\n"CAFE" = 3\n', "tags.CAFE", "card name"),
        ('[cards]\n"CAFE" = "QS"\n', "cards", "unknown key"),
        ("[tags\n", "", "not valid TOML"),
    ],
)
def test_a_bad_cards_file_names_the_tag_and_the_reason(text: str, key: str, words: str) -> None:
    with pytest.raises(CardsFileError) as caught:
        parse_cards(text, "cards.toml")
    assert (caught.value.file, caught.value.key) == ("cards.toml", key)
    assert words in caught.value.reason


# --- the walk through a deck ---


def test_a_whole_deck_scanned_in_order_is_enrolled() -> None:
    book = CardBook()
    _, screen, saved, complete = walk(book, [Scan(tag(n)) for n in range(52)])
    assert complete
    assert [book.card_for(tag(n)) for n in range(52)] == PLAYING
    assert len(saved) == 52, "every card is saved as soon as it is scanned"
    assert screen[0] == "[1/52] AS: lay the ace of spades (A♠) on the reader"
    assert "52 of 52 playing cards have a tag" in screen[-1]


def test_a_tag_already_enrolled_as_another_card_is_caught() -> None:
    book = CardBook({"CAFE": "jockey:3"})
    _, screen, saved, _ = walk(book, [Scan("CAFE"), Scan(tag(0)), Typed("q")])
    assert screen[1] == "That tag is already jockey:3 (brown +7 (3 of 4)). Scan AS."
    assert book.card_for("CAFE") == "jockey:3" and book.card_for(tag(0)) == "AS"
    assert len(saved) == 1


def test_a_card_scanned_twice_is_caught() -> None:
    book = CardBook()
    entries: list[Entry] = [Scan(tag(0)), Scan(tag(1)), Scan(tag(0)), Scan(tag(2)), Typed("q")]
    _, screen, _, complete = walk(book, entries)
    assert "That tag was just given to AS: a card scanned twice? Scan 3S." in screen
    assert [book.card_for(tag(n)) for n in range(3)] == ["AS", "2S", "3S"]
    assert not complete


def test_going_back_takes_the_last_tag_away() -> None:
    book = CardBook({"CAFE": "2S"})
    entries: list[Entry] = [Scan(tag(0)), Scan(tag(9)), Typed("u"), Scan(tag(1)), Typed("q")]
    _, screen, saved, _ = walk(book, entries, again=True)
    assert "Back to 2S." in screen
    assert book.card_for(tag(9)) is None
    assert book.tag_for("2S") == tag(1)
    assert saved[1] == {tag(0): "AS", tag(9): "2S"}
    assert saved[2] == {tag(0): "AS", "CAFE": "2S"}, "going back restores the old tag"


def test_skipped_cards_are_listed_and_asked_for_next_time() -> None:
    book = CardBook()
    entries: list[Entry] = [Scan(tag(0)), Typed(""), *[Scan(tag(n)) for n in range(2, 52)]]
    _, screen, _, complete = walk(book, entries)
    assert not complete
    assert "2S skipped." in screen
    assert screen[-1] == "No tag yet: 2S"
    _, screen, _, complete = walk(book, [Scan("BEEF")])
    assert complete
    assert screen[0] == "[1/1] 2S: lay the two of spades (2♠) on the reader"
    assert book.tag_for("2S") == "BEEF"


def test_enrolling_again_may_move_tags_between_cards_of_the_deck() -> None:
    book = CardBook({tag(0): "2S", tag(1): "AS", "CAFE": "jockey:1"})
    _, screen, _, _ = walk(book, [Scan(tag(0)), Scan(tag(1)), Scan("CAFE"), Typed("q")], again=True)
    assert screen[1] == f"AS enrolled: tag {tag(0)} (it was 2S)."
    assert screen[3] == f"2S enrolled: tag {tag(1)}.", "AS's old tag was freed when AS got 2S's"
    assert screen[5].startswith("That tag is already jockey:1")


def test_a_card_that_already_has_the_tag_scanned_is_kept() -> None:
    book = CardBook({tag(0): "AS"})
    _, screen, saved, _ = walk(book, [Scan(tag(0)), Typed("q")], again=True)
    assert screen[1] == "AS already has this tag: kept."
    assert saved == []


def test_typed_tags_junk_and_reader_notices() -> None:
    book = CardBook()
    entries: list[Entry] = [
        Typed("0012345678"),
        Typed("hello!"),
        Notice("(Card reader lost)"),
        Typed("q"),
    ]
    _, screen, _, _ = walk(book, entries)
    assert book.card_for("0012345678") == "AS"
    assert "'hello!' is not a tag: scan 2S again." in screen
    assert "(Card reader lost)" in screen


# --- the command ---


def test_the_command_enrolls_tags_typed_into_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cards.toml"
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{tag(n)}\n" for n in range(52))))
    argv = ["cards", "enroll", "playing", "--reader", "terminal", "--file", str(path)]
    assert main(argv) == 0
    assert load_cards(path).card_for(tag(51)) == "KC"
    assert main(["cards", "list", "--file", str(path)]) == 0
    out = capsys.readouterr().out
    assert "playing: 52 of 52 cards have a tag" in out
    assert f"{tag(11)}             QS         queen of spades (Q♠)" in out


def test_the_command_stops_at_the_end_of_typed_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cards.toml"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{tag(0)}\n"))
    assert main(["cards", "enroll", "jockey", "--reader", "terminal", "--file", str(path)]) == 1
    assert load_cards(path).card_for(tag(0)) == "jockey:1"
    assert "No tag yet: jockey:2" in capsys.readouterr().out


def test_the_labels_list_the_deck_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "labels", "jockey"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 54
    assert lines[0].split(None, 1) == ["jockey:1", "brown +7 (1 of 4)"]


def test_a_bad_reader_or_cards_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cards.toml"
    empty = tmp_path / "companion.toml"
    empty.write_text("")
    argv = ["cards", "enroll", "playing", "--config", str(empty), "--file", str(path)]
    assert main([*argv, "--reader", "serial:/dev/ttyUSB0"]) == 2
    assert "unknown reader" in capsys.readouterr().err
    path.write_text('[tags]\n"CAFE" = "1Z"\n')
    assert main(["cards", "list", "--file", str(path)]) == 2
    assert "tags.CAFE" in capsys.readouterr().err


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_enrolling_with_a_serial_reader_and_a_card_held_on_it(
    tmp_path: Path, pty_pair: tuple[int, str]
) -> None:
    master, port = pty_pair
    path = tmp_path / "cards.toml"
    save_cards(path, CardBook({tag(n): name for n, name in enumerate(PLAYING[:-3])}))
    reader = LineReader(port, backoff_s=0.02)
    out = io.StringIO()
    done: list[int] = []
    worker = threading.Thread(
        target=lambda: done.append(
            enroll("playing", path, reader, "test", stdin=io.StringIO(""), out=out)
        )
    )
    worker.start()
    try:
        assert reader.connected.wait(5)
        os.write(master, f"{tag(49)}\n{tag(49)}\n{tag(49)}\n".encode())  # held: one scan
        wait_until(lambda: load_cards(path).card_for(tag(49)) == "JC")
        os.write(master, f"{tag(0)}\n".encode())  # AS's tag, by mistake
        wait_until(lambda: "That tag is already AS" in out.getvalue())
        os.write(master, f"{tag(50)}\n{tag(51)}\n".encode())
        worker.join(5)
    finally:
        reader.close()
    assert done == [0]
    book = load_cards(path)
    assert [book.tag_for(name) for name in ("JC", "QC", "KC")] == [tag(49), tag(50), tag(51)]
    assert "scanned twice" not in out.getvalue(), "a card held on the reader is one scan"


def test_enrolling_with_the_pico_s_reader(tmp_path: Path) -> None:
    from companion.devices.fake_pico import FakePico

    path = tmp_path / "cards.toml"
    save_cards(path, CardBook({tag(n): name for n, name in enumerate(PLAYING[:-2])}))
    with FakePico(tmp_path / "usb-pico") as pico:
        config = tmp_path / "companion.toml"
        config.write_text(f'[pico]\nport = "{pico.path}"\n[reader]\nrepeat_window_s = 0.3\n')
        done: list[int] = []
        argv = ["cards", "enroll", "playing", "--config", str(config), "--file", str(path)]
        stdin = io.StringIO("")
        worker = threading.Thread(target=lambda: done.append(_main_with_stdin(argv, stdin)))
        worker.start()
        assert pico.wait_for(lambda: pico.window_ms == 300)
        pico.scan("04A1B2C3D4E5F6", hold_s=0.5)
        wait_until(lambda: load_cards(path).card_for("04A1B2C3D4E5F6") == "QC")
        pico.scan("04A1B2C3D4E5F7", hold_s=0.5)
        worker.join(10)
    assert done == [0]
    assert load_cards(path).tag_for("KC") == "04A1B2C3D4E5F7"


def _main_with_stdin(argv: list[str], stdin: io.StringIO) -> int:
    import sys

    saved, sys.stdin = sys.stdin, stdin
    try:
        return main(argv)
    finally:
        sys.stdin = saved
