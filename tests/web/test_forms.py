"""The forms a page offers and what a tap on them enters: the host's options, Jockey cards tapped
by kind (with and without hand tracking), the guess variant, the chances beside the odds, the
fixture game's pick of one horse and its move buttons."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.games.course_hippique import CourseHippiqueGame
from companion.games.registry import GAMES
from companion.render.language import speaking
from companion.session.log import LogEntry, Roll
from companion.session.session import Session
from companion.web.fragments import private_html, public_html
from companion.web.games import pages_of
from companion.web.host import host_html
from companion.web.inputs import PageRefusal, seat_entry, seat_request
from companion.web.side import new_game_entry
from companion.web.state import private_state, public_state


def tap(session: Session, player: str, data: dict[str, Any]) -> LogEntry:
    """Enter ``data`` from ``player``'s phone as the daemon does; fail if the table refuses."""
    entry = seat_entry(seat_request(player, data), session)
    outcome = session.submit(entry)
    assert outcome.accepted, outcome.sentence
    return entry


def page_of(session: Session, player: str) -> str:
    public = public_state(session)
    return private_html(player, private_state(session, player), public)


def picker(page: str, kind: str) -> dict[str, str]:
    """The buttons of the ``kind`` form on a page: value to label."""
    form = re.search(rf'<form class="entry picker" data-type="{kind}">(.*?)</form>', page)
    assert form is not None, f"no {kind} picker"
    return dict(
        re.findall(r'value="([^"]+)">(?:<svg class="dot".*?</svg>)?([^<]+)</button>', form.group(1))
    )


def test_the_host_form_offers_every_option_the_registry_declares() -> None:
    form = host_html("http://table:8080/join", "1234", (), (), None, frozenset())
    for game in GAMES:
        phones = {o.key: o for o in pages_of(game.kind).phone_options}
        for declared in game.options:
            option = phones.get(declared.key, declared)  # the phones' own, where they have one
            select = re.search(rf'<select name="{game.kind}:{option.key}">(.*?)</select>', form)
            assert select is not None, f"{game.kind} {option.key} is not on the form"
            values = re.findall(r'<option value="([^"]+)">', select.group(1))
            assert [json.loads(v.replace("&quot;", '"')) for v in values] == list(option.values)
    assert '<select name="jockey:hands">' in form  # hands are counted on the phones
    assert "Hands counted on the phones" in form and "scan" not in form

    chosen = {"game": "course_hippique", "players": "Anna\nBob\nChloé"}
    entry = new_game_entry({**chosen, "course_hippique": {"rounds": "2", "setback": '"all"'}})
    assert entry.options == {"starting_chips": 100, "rounds": 2, "course_length": 7,
                             "setback": "all"}  # fmt: skip
    jockey = {"game": "jockey", "players": "Anna\nBob", "jockey": {"hands": "true"}}
    deck = {"colour": [], "neutral": []}
    assert new_game_entry(jockey, {"deck": deck}).options == {
        "deck": deck,
        "track_length": 80,
        "hands": True,
    }  # the configured deck file goes with the options chosen, as from the panel's menu
    with pytest.raises(PageRefusal) as refused:
        new_game_entry({**chosen, "course_hippique": {"rounds": "7"}})
    assert refused.value.code == "bad_option"


def test_the_host_form_takes_a_name_alike_a_person_of_the_room_as_that_person() -> None:
    form = {"game": "jockey", "players": " anna\nZOE\u0301\nBen"}
    entry = new_game_entry(form, None, ("Zoé", "Anna"))
    assert entry.players == ("Anna", "Zoé", "Ben")  # not three newcomers: two of the room
    twice = new_game_entry({"game": "jockey", "players": "Ben\nBEN"}, None, ("Anna",))
    refused = Session.in_memory().submit(twice)  # the session's name rule, as for the panel
    assert (refused.code, refused.sentence) == (
        "duplicate_player",
        "Ben and BEN count as one name.",
    )


def test_without_hand_tracking_a_jockey_card_is_tapped_by_its_kind() -> None:
    session = Session.in_memory()
    session.new_game("jockey", ["Anna", "Bob"])
    for player in ("Anna", "Bob"):
        tap(session, player, {"type": "bet", "kind": "win", "horse": "red", "stake": "100"})
    cards = picker(page_of(session, "Anna"), "play_card")
    assert len(cards) == 19  # every kind of card: 4 kinds a colour, 3 neutral ones
    assert cards["red+7"] == "red +7 ×4" and cards["no3+18"] == "No.3 +18 ×3"
    assert "play_card" not in page_of(session, "Bob")  # not Bob's turn
    played = [tap(session, session.view().turn or "", {"type": "play_card", "card": "red+7"})]
    played += [tap(session, session.view().turn or "", {"type": "play_card", "card": "red+7"})]
    assert [e.card for e in played] == ["red+7#1", "red+7#2"]  # type: ignore[attr-defined]
    assert picker(page_of(session, "Anna"), "play_card")["red+7"] == "red +7 ×2"
    for _ in range(2):
        tap(session, session.view().turn or "", {"type": "play_card", "card": "red+7"})
    assert "red+7" not in picker(page_of(session, "Anna"), "play_card")
    with pytest.raises(PageRefusal) as refused:
        seat_entry(seat_request("Anna", {"type": "play_card", "card": "red+7"}), session)
    assert refused.value.said() == "Every red +7 was played."
    outcome = session.submit(
        seat_entry(seat_request("Anna", {"type": "play_card", "card": "x"}), session)
    )
    assert outcome.code == "unknown_card"  # no card of the deck: the engine says so


def test_with_hand_tracking_cards_are_counted_by_kind_and_played_from_the_hand() -> None:
    session = Session.in_memory()
    session.new_game("jockey", ["Anna", "Bob", "Chloé"], {"hands": True})
    page = page_of(session, "Anna")
    assert "count the 12 dealt to you" in page and 'name="cards:red+7"' in page
    anna = tap(
        session, "Anna", {"type": "hand", "cards": {"no2+15": 2, "red+7": "4", "red+10": 3,
                                                    "blue+10": 3}},
    )  # fmt: skip
    bob = tap(session, "Bob", {"type": "hand", "cards": {"no2+15": 2, "blue+7": 4, "brown+10": 3,
                                                          "yellow+10": 3}})  # fmt: skip
    assert anna.cards[:2] == ("no2+15#1", "no2+15#2")  # type: ignore[attr-defined]
    # Copies are bookkeeping, given from the deck, the pile and one's own hand alone: Bob's
    # count never depends on Anna's hand (which copies she holds is hers to know).
    assert bob.cards[:2] == ("no2+15#1", "no2+15#2")  # type: ignore[attr-defined]
    with pytest.raises(PageRefusal) as refused:  # the deck has 3 of them
        seat_entry(seat_request("Chloé", {"type": "hand", "cards": {"no3+18": 4}}), session)
    assert refused.value.code == "too_many_copies"
    with pytest.raises(PageRefusal) as refused:
        seat_entry(seat_request("Chloé", {"type": "hand", "cards": {"joker": 1}}), session)
    assert refused.value.code == "unknown_card"
    tap(session, "Chloé", {"type": "hand", "cards": {"no3+18": 3, "no4+20": 3, "brown+7": 4,
                                                     "yellow+7": 2}})  # fmt: skip
    for player in ("Anna", "Bob", "Chloé"):
        tap(session, player, {"type": "bet", "kind": "win", "horse": "red", "stake": "100"})
    page = page_of(session, "Anna")
    assert "Your hand (12): red +7 ×4, blue +10 ×3, red +10 ×3, No.2 +15 ×2" in page
    assert set(picker(page, "play_card")) == {"red+7", "blue+10", "red+10", "no2+15"}
    assert "cards:" not in page  # her cards are counted: no more counting form
    with pytest.raises(PageRefusal) as refused:
        seat_entry(seat_request("Anna", {"type": "play_card", "card": "blue+7"}), session)
    assert refused.value.code == "card_not_in_hand"
    assert tap(session, "Anna", {"type": "play_card", "card": "red+7"}).card == "red+7#1"  # type: ignore[attr-defined]


def test_the_guess_form_opens_once_everyone_has_predicted_with_the_variant_only() -> None:
    for variant in (False, True):
        session = Session.in_memory()
        session.new_game("jumpy_jack", ["Anna", "Bob"], {"guess": variant})
        tap(session, "Anna", {"type": "predict", "horses": ["red", "blue", "green"]})
        assert "Seal my guess" not in page_of(session, "Anna")  # Bob has not predicted yet
        tap(session, "Bob", {"type": "predict", "horses": ["white", "blue", "green"]})
        assert ("Seal my guess" in page_of(session, "Anna")) is variant
    tap(session, "Anna", {"type": "guess", "target": "Bob", "horses": ["white", "red", "blue"]})
    assert "Your guess of Bob's prediction: white red blue" in page_of(session, "Anna")
    assert "white red blue" not in page_of(session, "Bob") + public_html(public_state(session))


def test_the_exact_chances_stand_beside_the_odds() -> None:
    course = ["5S", "7S", "QC", "KH", "QS", "8C", "9H"]
    session = Session.in_memory()
    session.new_game("course_hippique", ["Anna", "Bob", "Chloé"])
    assert "chance" not in public_html(public_state(session))  # no course yet
    tap(session, "Anna", {"type": "deal_course", "cards": ",".join(course)})
    game = CourseHippiqueGame.new(("Anna", "Bob", "Chloé"), {})
    game.deal_course(course)
    board = public_html(public_state(session))
    for chance in game.chances().horses:
        shown = re.search(
            rf"{chance.horse.english}</td><td>(\d+) to 1</td><td[^>]*>([^<]+)<", board
        )
        assert shown is not None
        assert shown.groups() == (str(chance.odds), f"{100 * chance.probability:.1f}%")
    assert "exact" in board
    assert "Place my bet" not in page_of(session, "Bob")  # not before the max bet
    tap(session, "Anna", {"type": "set_max_bet", "amount": "10"})
    bettor = page_of(session, "Bob")
    spades = game.chances().horses[0]
    assert f"♠ spades — {spades.odds} to 1, chance {100 * spades.probability:.1f}%" in bettor
    with speaking("fr"):  # a decimal comma and a no-break space before the sign in French
        french = public_html(public_state(session))
    comma = f"{100 * spades.probability:.1f}".replace(".", ",")
    assert f">{comma}\u00a0%<" in french and f"{100 * spades.probability:.1f}" not in french


def test_a_face_down_course_gives_an_estimate_said_as_such() -> None:
    session = Session.in_memory()
    session.new_game("course_hippique", ["Anna", "Bob", "Chloé"], {"setback": "all"})
    board = public_html(public_state(session))
    assert "an estimate" in board and board.count("≈ ") == 4


def test_from_the_second_race_a_player_keeps_two_cards_of_the_last() -> None:
    session = Session.in_memory()
    players = ("Anna", "Bob", "Chloé")
    session.new_game("jockey", list(players), {"hands": True})
    hands = {
        "Anna": {"blue+10": 1, "brown-chase": 1, "brown+7": 4, "yellow+7": 4, "no2+15": 2},
        "Bob": {"blue-lead": 1, "brown-chase": 1, "red+7": 4, "blue+7": 4, "no2+15": 2},
        "Chloé": {"blue-lead": 1, "yellow+10": 3, "red+10": 3, "no4+20": 3, "no3+18": 2},
    }
    for player in players:
        tap(session, player, {"type": "hand", "cards": hands[player]})
        tap(session, player, {"type": "bet", "kind": "win", "horse": "blue", "stake": 100})
    for player, kind in (("Anna", "blue+10"), ("Bob", "blue-lead"), ("Chloé", "blue-lead"),
                         ("Anna", "brown-chase"), ("Bob", "brown-chase")):  # fmt: skip
        tap(session, player, {"type": "play_card", "card": kind})
    tap(session, "Anna", {"type": "next_race"})
    page = page_of(session, "Anna")
    kept = re.findall(r'name="kept\[\]" value="([^"]+)"> ([^<]+)<', page)
    assert ("no2+15#1", "No.2 +15") in kept and len(kept) == 10  # Anna's unplayed cards
    counted = {"no2+15": 1, "red+10": 3, "blue+10": 3, "red+7": 3}
    dealt = tap(
        session, "Anna", {"type": "hand", "kept": ["no2+15#1", "brown+7#1"], "cards": counted}
    )
    assert dealt.kept == ("no2+15#1", "brown+7#1")  # type: ignore[attr-defined]
    assert "no2+15#1" not in dealt.cards  # type: ignore[attr-defined]
    assert "Your hand (12): brown +7, " in page_of(session, "Anna")


def test_the_fixture_game_s_pick_is_one_horse_sealed_on_its_own_seat_then_a_move() -> None:
    session = Session.in_memory()
    session.new_game("petits_chevaux", ["Anna", "Bob"], {"finish": 8})
    page = page_of(session, "Anna")
    assert 'name="horses.0"' in page and 'name="horses.1"' not in page  # one horse a pick
    assert page.count('class="chip" value=') == 4  # the four horses to tap
    tap(session, "Anna", {"type": "predict", "horses": ["blue"]})
    assert "Your prediction: blue" in page_of(session, "Anna")
    assert "Your prediction" not in page_of(session, "Bob")  # sealed: Anna's alone
    assert "Change my prediction" in page_of(session, "Anna")  # until the first roll
    tap(session, "Bob", {"type": "predict", "horses": ["red"]})
    assert session.submit(Roll(4)).accepted  # Anna's roll: she chooses the horse
    mine, theirs = page_of(session, "Anna"), page_of(session, "Bob")
    assert mine.count('data-type="move"') == 4 and 'data-type="move"' not in theirs
    assert 'data-type="predict"' not in mine  # the race has started: picks are sealed
    tap(session, "Anna", {"type": "move", "horse": "blue"})
    board = session.view().board.to_json()
    assert {h["name"]: h["square"] for h in board["horses"]}["blue"] == 4
