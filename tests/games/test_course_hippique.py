"""Course hippique at the table: every rule of the table rules, played as scenarios."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.games.cards import Card, Suit
from companion.games.course_hippique import CourseHippiqueGame
from companion.games.course_hippique.table import CoursePhase, HippiqueOptions
from companion.games.errors import DataError, Refusal, fits_display

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
#: Spades 2 (QS 4S), hearts 3 (7H 9H JH), diamonds 1 (2D), clubs 1 (KC).
COURSE = "7H QS 2D 9H KC 4S JH"
#: The eight diamonds left after COURSE: diamonds win on the last one.
DIAMONDS = "3D 4D 5D 6D 7D 8D 9D 10D"


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def view(game: CourseHippiqueGame) -> dict[str, object]:
    """Everything a player could see of the game."""
    return {
        "phase": game.phase,
        "race": game.race_number,
        "croupier": game.croupier,
        "course": game.course,
        "max_bet": game.max_bet,
        "bets": game.bets,
        "turned": game.turned,
        "positions": game.positions(),
        "balances": game.balances(),
        "results": game.results,
        "actions": game.actions,
    }


def refused(game: CourseHippiqueGame, code: str, action: Callable[[], object]) -> Refusal:
    """Check that ``action`` is refused with ``code``, fits the LCD and changes nothing."""
    before = view(game)
    with pytest.raises(Refusal) as caught:
        action()
    assert caught.value.code == code, caught.value
    assert fits_display(caught.value.sentence)
    assert view(game) == before
    return caught.value


def dealt(
    players: list[str] = PLAYERS, course: str = COURSE, **options: object
) -> CourseHippiqueGame:
    game = CourseHippiqueGame.new(players, options)
    game.deal_course(cards(course))
    return game


def turn_all(game: CourseHippiqueGame, text: str) -> None:
    for card in cards(text):
        game.turn_card(card)


# ------------------------------------------------------------------ set-up


def test_three_to_ten_players_each_with_the_same_chips() -> None:
    refused_new = [["A", "B"], [f"P{i}" for i in range(11)]]
    for players in refused_new:
        with pytest.raises(Refusal) as caught:
            CourseHippiqueGame.new(players)
        assert caught.value.code == "player_count"
    game = CourseHippiqueGame.new(["A", "B", "C"])
    assert game.balances() == {"A": 100, "B": 100, "C": 100}
    ten = CourseHippiqueGame.new([f"P{i}" for i in range(10)], {"starting_chips": 50})
    assert set(ten.balances().values()) == {50}


@pytest.mark.parametrize(
    ("players", "code"),
    [(["Ann", "ann ", "Bob"], "same_name"), (["Ann", "", "Bob"], "bad_name")],
)
def test_players_need_distinct_names(players: list[str], code: str) -> None:
    with pytest.raises(Refusal) as caught:
        CourseHippiqueGame.new(players)
    assert caught.value.code == code


@pytest.mark.parametrize(
    "options",
    [
        {"course_length": 8},
        {"course_length": 4},
        {"setback": "sometimes"},
        {"rounds": 0},
        {"starting_chips": 0},
        {"starting_chips": 2.5},
        {"jokers": True},
    ],
)
def test_unknown_options_and_values_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(Refusal) as caught:
        CourseHippiqueGame.new(PLAYERS, options)
    assert caught.value.code == "bad_option"


def test_the_croupier_role_passes_to_the_next_player_after_every_race() -> None:
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"], {"rounds": 2})
    assert game.races_total == 6
    seen = []
    for _ in range(6):
        seen.append(game.croupier)
        game.deal_course(cards(COURSE))
        turn_all(game, DIAMONDS)
        if game.phase is CoursePhase.RACE_OVER:
            game.next_race()
    assert seen == ["Ann", "Bob", "Cy", "Ann", "Bob", "Cy"]
    assert game.phase is CoursePhase.GAME_OVER


def test_the_course_is_dealt_card_by_card_then_betting_opens() -> None:
    game = CourseHippiqueGame.new(PLAYERS)
    assert game.phase is CoursePhase.DEALING
    refused(game, "no_course", lambda: game.set_max_bet(10))
    refused(game, "no_course", lambda: game.turn_card("3D"))
    for card in cards(COURSE):
        assert game.phase is CoursePhase.DEALING
        game.deal_course_card(card)
    assert game.phase is CoursePhase.BETTING
    assert game.course == tuple(cards(COURSE))
    refused(game, "course_complete", lambda: game.deal_course_card("3D"))


def test_aces_are_the_horses_and_never_lie_in_the_course() -> None:
    game = CourseHippiqueGame.new(PLAYERS)
    game.deal_course(cards("7H QS"))
    refused(game, "ace_in_course", lambda: game.deal_course_card("AS"))
    refused(game, "card_seen", lambda: game.deal_course_card("QS"))
    refused(game, "not_a_card", lambda: game.deal_course_card("joker"))
    refused(game, "ace_in_course", lambda: game.deal_course(cards("2D 3D AD")))
    assert game.course == tuple(cards("7H QS"))


@pytest.mark.parametrize(
    "row", ["2H 3H 4H 5H 6H 7C 8C", "2H 3H 4H 5H 6H 7H 8C", "KS QS JS 10S 9S 8S 7S"]
)
def test_five_or_more_of_a_suit_means_a_new_course(row: str) -> None:
    game = dealt(course=row)
    assert game.phase is CoursePhase.REDEAL
    suit = cards(row)[0].suit
    assert game.odds()[suit] is None
    sentence = refused(game, "redeal_required", lambda: game.set_max_bet(5)).sentence
    assert suit.english in sentence
    refused(game, "redeal_required", lambda: game.place_bet("Bob", "H", 5))
    refused(game, "redeal_required", lambda: game.turn_card("9D"))
    refused(game, "redeal_required", lambda: game.chances())
    # The croupier shuffles the row back in: the cards of the old row may come again.
    game.deal_course(cards("2H 3S 4D 5C 6H 7S 8D"))
    assert game.phase is CoursePhase.BETTING
    assert game.course == tuple(cards("2H 3S 4D 5C 6H 7S 8D"))


def test_the_next_course_card_after_a_bad_row_starts_a_new_row() -> None:
    game = dealt(course="2H 3H 4H 5H 6H 7C 8C")
    game.deal_course_card("2H")
    assert game.phase is CoursePhase.DEALING and game.course == (Card.parse("2H"),)


def test_four_of_a_suit_is_a_legal_course_at_ten_to_one() -> None:
    game = dealt(course="2H 3H 4H 5H 6S 7S 8D")
    assert game.phase is CoursePhase.BETTING
    assert game.odds() == {S: 3, H: 10, D: 2, C: 1}


# ------------------------------------------------------------------ odds and bets


def test_odds_follow_the_number_of_the_horses_suit_in_the_course() -> None:
    assert dealt().odds() == {S: 3, H: 5, D: 2, C: 2}
    assert dealt(course="2S 3S 4S 5H 6H 7D 8S").odds() == {S: 10, H: 3, D: 2, C: 1}
    assert dealt(course="2S 3S 4S 5H 6H 7H 8D").odds() == {S: 5, H: 5, D: 2, C: 1}


def test_a_winning_stake_of_10_at_5_to_1_returns_60() -> None:
    game = dealt()
    game.set_max_bet(10)
    game.place_bet("Bob", H, 10)  # hearts: 3 in the course, 5 to 1
    assert game.balances() == {"Ann": 110, "Bob": 90, "Cy": 100, "Dee": 100}
    turn_all(game, "2H 3H 4H 5H 6H 8H 10H")
    assert game.winner is None and game.positions()[H] == 7
    game.turn_card("QH")
    assert game.winner is H
    assert game.balances() == {"Ann": 50, "Bob": 150, "Cy": 100, "Dee": 100}


def test_the_max_bet_is_announced_before_bets_and_may_change_until_the_first_card() -> None:
    game = dealt()
    refused(game, "no_max_bet", lambda: game.place_bet("Bob", S, 5))
    refused(game, "max_bet_not_positive", lambda: game.set_max_bet(0))
    refused(game, "max_bet_not_positive", lambda: game.set_max_bet(-5))
    game.set_max_bet(10)
    game.place_bet("Bob", S, 10)
    game.set_max_bet(5)  # bets already placed stand
    assert game.bet_of("Bob") is not None and game.bet_of("Bob").stake == 10  # type: ignore[union-attr]
    refused(game, "stake_over_max", lambda: game.place_bet("Cy", S, 6))
    game.place_bet("Cy", S, 5)
    game.turn_card("3D")
    refused(game, "betting_closed", lambda: game.set_max_bet(20))
    assert game.max_bet == 5


def test_every_limit_on_a_bet() -> None:
    game = dealt(starting_chips=8)
    game.set_max_bet(10)
    refused(game, "croupier_cannot_bet", lambda: game.place_bet("Ann", S, 1))
    refused(game, "unknown_player", lambda: game.place_bet("Zed", S, 1))
    refused(game, "not_a_horse", lambda: game.place_bet("Bob", "stars", 1))
    refused(game, "stake_not_positive", lambda: game.place_bet("Bob", S, 0))
    refused(game, "stake_not_positive", lambda: game.place_bet("Bob", S, -3))
    refused(game, "stake_not_whole", lambda: game.place_bet("Bob", S, 2.5))  # type: ignore[arg-type]
    refused(game, "stake_over_chips", lambda: game.place_bet("Bob", S, 9))
    bet = game.place_bet("bob", "hearts", 8)  # the whole stack is allowed
    assert (bet.player, bet.horse, bet.stake, bet.odds) == ("Bob", H, 8, 5)
    refused(game, "already_bet", lambda: game.place_bet("Bob", D, 1))
    game.turn_card("3D")
    refused(game, "betting_closed", lambda: game.place_bet("Cy", D, 1))


def test_stakes_go_to_the_croupier_when_placed_and_not_betting_is_allowed() -> None:
    game = dealt()
    game.set_max_bet(20)
    game.place_bet("Bob", S, 20)
    game.place_bet("Cy", D, 7)
    assert game.balances() == {"Ann": 127, "Bob": 80, "Cy": 93, "Dee": 100}
    turn_all(game, DIAMONDS)  # Dee never bet; the race runs all the same
    assert game.winner is D
    # Cy's 7 at 2 to 1 come back as 21 from the croupier; Bob's 20 stay with the croupier.
    assert game.balances() == {"Ann": 106, "Bob": 80, "Cy": 114, "Dee": 100}
    result = game.results[-1]
    assert [b.player for b in result.winning_bets] == ["Cy"]
    assert {p: result.change(p) for p in PLAYERS} == {"Ann": 6, "Bob": -20, "Cy": 14, "Dee": 0}


# ------------------------------------------------------------------ the race


def test_each_card_moves_its_horse_one_step_and_course_cards_do_not_count() -> None:
    game = dealt()
    turn = game.turn_card("5S")
    assert (turn.horse, turn.position, turn.winner, turn.row) == (S, 1, None, None)
    turn_all(game, "2H 3C")
    assert game.positions() == {S: 1, H: 1, D: 0, C: 1}
    assert game.phase is CoursePhase.RACING
    # Hearts have 3 cards in the course: the horse still needs 8 turned hearts.
    turn_all(game, "3H 4H 5H 6H 8H 10H")
    assert game.positions()[H] == 7 and game.winner is None
    assert game.turn_card("KH").winner is H


def test_the_race_stops_at_once_when_a_horse_finishes() -> None:
    game = dealt()
    turn_all(game, "3D 4D 5D 6D 7D 8D 9D")
    assert game.winner is None
    turn = game.turn_card("10D")
    assert turn.winner is D and game.phase is CoursePhase.RACE_OVER
    assert game.positions()[D] == game.finish == 8
    refused(game, "race_over", lambda: game.turn_card("JD"))
    refused(game, "race_over", lambda: game.place_bet("Bob", D, 1))


def test_the_race_refuses_aces_and_cards_already_seen() -> None:
    game = dealt()
    game.turn_card("3D")
    refused(game, "ace_in_race", lambda: game.turn_card("AD"))
    assert "course" in refused(game, "card_seen", lambda: game.turn_card("QS")).sentence
    assert "already turned" in refused(game, "card_seen", lambda: game.turn_card("3D")).sentence
    refused(game, "not_a_card", lambda: game.turn_card("15D"))
    refused(game, "betting_closed", lambda: game.deal_course_card("9C"))
    refused(game, "race_not_over", game.next_race)


def test_a_croupier_may_end_below_zero() -> None:
    game = dealt(starting_chips=10)
    game.set_max_bet(10)
    for player in ("Bob", "Cy", "Dee"):
        game.place_bet(player, H, 10)
    turn_all(game, "2H 3H 4H 5H 6H 8H 10H QH")
    assert game.winner is H
    # Three stakes of 10 at 5 to 1: the croupier pays 180 holding 40.
    assert game.balances() == {"Ann": -140, "Bob": 60, "Cy": 60, "Dee": 60}
    assert sum(game.balances().values()) == 40
    game.next_race()
    game.deal_course(cards(COURSE))
    game.set_max_bet(5)
    refused(game, "stake_over_chips", lambda: game.place_bet("Ann", S, 1))


def test_a_shorter_course_finishes_on_the_card_after_it() -> None:
    game = dealt(course="7H QS 2D 9H KC", course_length=5)
    assert game.phase is CoursePhase.BETTING and game.finish == 6
    turn_all(game, "3D 4D 5D 6D 7D")
    assert game.winner is None
    assert game.turn_card("8D").winner is D
    six = dealt(course="7H QS 2D 9H KC 4S", course_length=6)
    assert six.finish == 7
    refused(six, "course_complete", lambda: six.deal_course_card("JH"))


# ------------------------------------------------------------------ end of the game


def play_race(game: CourseHippiqueGame, bets: dict[str, tuple[Suit, int]]) -> None:
    game.deal_course(cards(COURSE))
    game.set_max_bet(50)
    for player, (horse, stake) in bets.items():
        game.place_bet(player, horse, stake)
    turn_all(game, DIAMONDS)


def test_the_game_ends_the_moment_the_last_race_has_a_winner() -> None:
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"])
    play_race(game, {"Bob": (D, 10)})
    game.next_race()
    play_race(game, {"Ann": (D, 10)})
    game.next_race()
    assert game.race_number == 3 and game.croupier == "Cy"
    assert game.winners() == ()
    play_race(game, {})
    assert game.phase is CoursePhase.GAME_OVER
    assert len(game.results) == 3
    refused(game, "game_over", game.next_race)
    refused(game, "game_over", lambda: game.turn_card("JD"))
    refused(game, "game_over", lambda: game.deal_course_card("JD"))
    refused(game, "game_over", lambda: game.set_max_bet(5))
    # Bob won 20 from Ann, then Ann won 20 from Bob: all level, all share the win.
    assert game.balances() == {"Ann": 100, "Bob": 100, "Cy": 100}
    assert game.winners() == ("Ann", "Bob", "Cy")
    assert [s.place for s in game.ranking()] == [1, 1, 1]


def test_the_ranking_shares_places_on_equal_chips() -> None:
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy", "Dee"])
    play_race(game, {"Bob": (D, 10), "Cy": (D, 10), "Dee": (S, 5)})
    assert [(s.place, s.player, s.chips) for s in game.ranking()] == [
        (1, "Bob", 120),
        (1, "Cy", 120),
        (3, "Dee", 95),
        (4, "Ann", 65),
    ]


# ------------------------------------------------------------------ saving


def test_the_whole_game_survives_a_json_round_trip() -> None:
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"], {"rounds": 2, "starting_chips": 40})
    play_race(game, {"Bob": (D, 10)})
    game.next_race()
    game.deal_course(cards(COURSE))
    game.set_max_bet(5)
    game.place_bet("Cy", S, 5)
    game.turn_card("3C")
    copy = CourseHippiqueGame.from_json(game.to_json())
    assert view(copy) == view(game)
    assert copy.options == game.options and copy.to_dict() == game.to_dict()
    copy.turn_card("4C")
    game.turn_card("4C")
    assert view(copy) == view(game)


def test_every_recorded_input_replays_through_apply() -> None:
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"])
    play_race(game, {"Bob": (D, 10), "Cy": (H, 3)})
    replay = CourseHippiqueGame.new(["Ann", "Bob", "Cy"])
    for action in game.actions:
        replay.apply(action)
    assert view(replay) == view(game)
    with pytest.raises(DataError):
        replay.apply({"do": "fly"})
    with pytest.raises(DataError):
        replay.apply({"do": "turn_card"})
    with pytest.raises(DataError):
        replay.apply({"do": "turn_card", "card": 7})


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(game="jockey"), "'game'"),
        (lambda d: d.update(version=99), "'version'"),
        (lambda d: d.update(players="Ann"), "'players'"),
        (lambda d: d.update(players=["Ann", "Bob"]), "players"),
        (lambda d: d["actions"].append({"do": "turn_card", "card": "AD"}), "actions[3]"),
        (lambda d: d["actions"].insert(0, {"do": "next_race"}), "actions[0]"),
        (lambda d: d["summary"].update(race=2), "'summary'"),
    ],
)
def test_a_damaged_saved_game_is_a_data_error_saying_where(
    change: Callable[[dict[str, object]], None], words: str
) -> None:
    game = CourseHippiqueGame.new(["Ann", "Bob", "Cy"])
    game.deal_course(cards(COURSE))
    turn_all(game, "3D 4D")
    data = game.to_dict()
    change(data)
    with pytest.raises(DataError, match=words.replace("[", r"\[")):
        CourseHippiqueGame.from_dict(data)


def test_text_that_is_not_json_is_a_data_error() -> None:
    with pytest.raises(DataError, match="not JSON"):
        CourseHippiqueGame.from_json("{course")


def test_long_names_are_cut_so_every_refusal_fits_the_lcd() -> None:
    long = "Marie-Christine de la Tour d'Auvergne"
    game = dealt(players=[long, "Bob", "Cy"])
    game.set_max_bet(5)
    sentence = refused(game, "croupier_cannot_bet", lambda: game.place_bet(long, S, 1)).sentence
    assert sentence.startswith("Marie-C.")
    refused(game, "unknown_player", lambda: game.place_bet("x" * 80, S, 1))


def test_options_round_trip_as_plain_data() -> None:
    options = HippiqueOptions(starting_chips=30, rounds=2, course_length=6)
    assert HippiqueOptions.from_dict(options.to_dict()) == options


def test_a_course_may_be_entered_as_one_text_but_not_empty() -> None:
    game = CourseHippiqueGame.new(PLAYERS)
    refused(game, "no_cards", lambda: game.deal_course([]))
    refused(game, "no_cards", lambda: game.deal_course(" , "))
    game.deal_course("7H, QS 2D,9H KC 4S JH")
    assert game.course == tuple(cards(COURSE)) and game.phase is CoursePhase.BETTING
    with pytest.raises(Refusal) as caught:
        CourseHippiqueGame.new("Ann")
    assert caught.value.code == "player_count"


def test_the_rules_page_lists_every_reason_code_the_engine_can_give() -> None:
    root = Path(__file__).resolve().parents[2]
    sources = ["cards.py", *(f"course_hippique/{m}.py" for m in ("game", "rules", "table"))]
    raised: set[str] = set()
    for name in sources:
        text = (root / "companion" / "games" / name).read_text(encoding="utf-8")
        raised |= set(re.findall(r'(?:Refusal|super\(\).__init__)\(\s*"([a-z_]+)"', text))
    raised.discard("not_a_suit")  # Suit.parse's own code; the game says not_a_horse
    raised.add("nothing_to_undo")  # the session's: it undoes for every game
    page = (root / "docs" / "rules" / "course-hippique.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)?", page, re.MULTILINE))
    documented = {code for pair in listed for code in pair if code}
    assert raised == documented
