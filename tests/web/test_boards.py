"""Boards that tell the truth: a Jockey double bet with both its horses, Jumpy Jack horses that
left the track shown where they are, a white horse's bar that can be seen, chart labels that
never cover each other, the Jockey move line in the table's language."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from companion.games.jockey import HORSES
from companion.games.jumpy_jack import HorseState, JumpyJackBoard
from companion.render.language import figure, speaking, word
from companion.session import autoplay
from companion.session.log import BetEntry
from companion.session.session import Session
from companion.web.chart import BOTTOM, LABEL_HEIGHT, TOP, chart_svg, label_heights
from companion.web.fragments import private_html, public_html
from companion.web.html import fill
from companion.web.state import Series, private_state, public_state

LANE = re.compile(
    r'<div class="lane"><span class="name">([^<]*)</span>.*?<rect width="(\d+)"[^>]*?'
    r'fill="([^"]*)"([^>]*)/>.*?<span class="at">([^<]*)</span></div>'
)


def settle(session: Session, seed: int) -> None:
    """Play random legal cards until the race is settled."""
    rng = random.Random(seed)
    while session.view().phase in ("betting", "racing"):
        entry = autoplay.legal_input(session.table, rng)  # type: ignore[arg-type]
        assert entry is not None
        assert session.submit(entry).accepted


def test_a_jockey_double_bet_shows_both_horses_on_the_phone_and_in_the_settlement() -> None:
    session = Session.in_memory()
    session.new_game("jockey", ("Anna", "Bob", "Chloé"), {})
    bets = (
        BetEntry("Anna", "yellow", 200, "double", "brown"),
        BetEntry("Bob", "red", 300, "order", "blue", 100),
        BetEntry("Chloé", "red", 100),
    )
    for bet in bets:
        assert session.submit(bet).accepted
    phone = private_html("Anna", private_state(session, "Anna"), public_state(session))
    assert "Your bet: double yellow + brown 200" in phone
    settle(session, 3)
    board = public_html(public_state(session))
    assert "<td>Anna</td><td>double yellow + brown 200</td>" in board
    assert "<td>Bob</td><td>order red 300, blue 100</td>" in board
    assert "<td>Chloé</td><td>win red 100</td>" in board


def test_jumpy_jack_lanes_show_finished_and_out_horses_where_they_are() -> None:
    seen: set[HorseState] = set()
    for seed in range(6):
        if seen == set(HorseState):
            break
        rng = random.Random(seed)
        session = Session.in_memory()
        session.new_game("jumpy_jack", ("Anna", "Bob"), {})
        while (entry := autoplay.legal_input(session.table, rng)) is not None:  # type: ignore[arg-type]
            assert session.submit(entry).accepted
            board = session.view().board
            assert isinstance(board, JumpyJackBoard)
            lanes = LANE.findall(public_html(public_state(session)))
            assert len(lanes) == len(board.horses)
            for horse, (name, width, colour, outline, at) in zip(board.horses, lanes, strict=True):
                seen.add(horse.state)
                assert name.startswith(horse.name) and colour == fill(horse.colour)
                assert 'stroke="#222"' in outline  # a white bar has an edge on the light track
                if horse.state is HorseState.FINISHED:
                    assert (width, at) == ("100", ("1st", "2nd", "3rd")[horse.place - 1]), name
                    assert "(finished)" in name
                elif horse.state is HorseState.OUT:  # the podium place it may hold, said
                    held = horse.place is not None and horse.place <= 3
                    assert (width, at) == (
                        "0",
                        ("1st", "2nd", "3rd")[horse.place - 1] if held else "–",
                    )
                    assert "(out)" in name
                else:
                    assert at == str(horse.square)
            if session.view().phase == "race_over" and seen == set(HorseState):
                break
    assert seen == set(HorseState)


def label_boxes(svg: str) -> list[tuple[str, int]]:
    """The chart's end labels: their words and their baselines."""
    return [
        (words, int(y))
        for y, words in re.findall(r'<text class="end" x="\d+" y="(\d+)"[^>]*>([^<]+)<', svg)
    ]


@pytest.mark.parametrize(
    "ends",
    [
        {"Anna": (100, 100), "Bob": (100, 90), "Chloé": (100, 80)},
        {"Anna": (0, 700), "Bob": (0, 20), "Chloé": (0, 500), "Dan": (0, 510)},
        {name: (1000, 1000) for name in ("Anna", "Bob", "Chloé", "Dan", "Eve", "Finn")},
        {"Anna": (0, 0), "Bob": (0, 1), "Chloé": (0, 2), "Dan": (0, 100)},
    ],
)
def test_no_two_chart_labels_overlap(ends: dict[str, tuple[int, int]]) -> None:
    svg = chart_svg(tuple(Series(p, points) for p, points in ends.items()), "chips")
    labels = label_boxes(svg)
    assert sorted(w for w, _ in labels) == sorted(f"{p} {figure(v[-1])}" for p, v in ends.items())
    heights = sorted(y for _, y in labels)
    assert all(b - a >= LABEL_HEIGHT for a, b in itertools.pairwise(heights))
    height = int(re.search(r'viewBox="0 0 \d+ (\d+)"', svg).group(1))  # type: ignore[union-attr]
    assert heights[0] > TOP and heights[-1] <= height - BOTTOM  # inside the plot, under the unit


def test_a_chart_label_stands_at_its_line_when_there_is_room() -> None:
    assert label_heights([200.0, 60.0, 130.4], 55, 236) == (200, 60, 130)
    assert label_heights([100.0, 100.0, 101.0], 55, 236) == (100, 134, 168)
    assert label_heights([236.0, 236.0], 55, 236) == (202, 236)


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", r"(?P<c>\w+) \+\d+: (?P=c) \d+ to \d+\."),
        ("fr", r"(?P<c>\w+) \+\d+\u202f: (?P=c) de \d+ à \d+\."),  # set as French sets it
        ("de", r"(?P<c>\w+) \+\d+: (?P=c) von \d+ bis \d+\."),
    ],
)
def test_the_jockey_move_line_is_said_in_the_table_s_language(language: str, line: str) -> None:
    session = Session.in_memory()
    session.new_game("jockey", ("Anna", "Bob"), {})
    for player in ("Anna", "Bob"):
        assert session.submit(BetEntry(player, "red", 100)).accepted
    rng = random.Random(1)
    said = None
    while said is None:
        entry = autoplay.legal_input(session.table, rng)  # type: ignore[arg-type]
        assert entry is not None and session.submit(entry).accepted
        with speaking(language):
            page = public_html(public_state(session))
        said = re.search(rf'<p class="status">{line}</p>', page)
    colour = said.group("c")
    with speaking(language):
        assert colour in {word(h.value) for h in HORSES}
    assert (colour in {h.value for h in HORSES}) is (language == "en")


def test_who_has_sealed_is_said_in_the_singular_or_plural_in_french() -> None:
    """In plain French ("Choix faits", never "Ont scellé"), set as French sets it."""
    session = Session.in_memory()
    session.new_game("jockey", ("Anna", "Bob", "Chloé"), {})
    said = []
    for player in ("Anna", "Bob", "Chloé"):
        assert session.submit(BetEntry(player, "red", 100)).accepted
        with speaking("fr"):
            said.append(
                re.findall(
                    r'<p class="status">(Choix[^<]*)</p>', public_html(public_state(session))
                )
            )
    assert said == [
        ["Choix fait\u202f: Anna ✓"],
        ["Choix faits\u202f: Anna, Bob ✓"],
        ["Choix faits\u202f: Anna, Bob, Chloé ✓"],
    ]


def test_the_jumpy_jack_reveal_shows_the_podium_the_scores_count_out_horses_included() -> None:
    """An eliminated horse that holds place 1, 2 or 3 stands on the revealed podium, in its
    place, as the points were counted, and its lane names its place."""
    for seed in range(40):
        rng = random.Random(seed)
        session = Session.in_memory()
        session.new_game("jumpy_jack", ("Anna", "Bob"), {})
        while session.view().phase != "race_over":
            entry = autoplay.legal_input(session.table, rng)  # type: ignore[arg-type]
            assert entry is not None and session.submit(entry).accepted
        board = session.view().board
        assert isinstance(board, JumpyJackBoard)
        podium = board.results[-1].podium
        if set(podium.top3) & set(podium.eliminated):
            break
    else:
        pytest.fail("no race of these seeds put an eliminated horse on the podium")
    page = public_html(public_state(session))
    said = re.search(r'<div class="reveal"><h2>[^<]*</h2><p>Podium: ([^<]*)</p>', page)
    assert said is not None
    out = set(podium.eliminated)
    assert said.group(1) == " · ".join(
        f"{place} {horse}" + (" (out)" if horse in out else "")
        for place, horse in zip(("1st", "2nd", "3rd"), podium.top3, strict=True)
    )
    lanes = {name.split(" ")[0]: at for name, _, _, _, at in LANE.findall(page)}
    for place, horse in zip(("1st", "2nd", "3rd"), podium.top3, strict=True):
        assert lanes[str(horse)] == place
