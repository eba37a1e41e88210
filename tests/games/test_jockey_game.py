"""A game of Jockey at the table: turns, sealed bets, three races, refusals, undo, saving."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.games.errors import DataError, Refusal, fits_display
from companion.games.jockey import JockeyGame
from companion.games.jockey.deck import JockeyHorse
from companion.games.jockey.state import JockeyPhase

BROWN, YELLOW, BLUE, RED = JockeyHorse.BROWN, JockeyHorse.YELLOW, JockeyHorse.BLUE, JockeyHorse.RED
PLAYERS = ("Ann", "Bob", "Cy")


def new_game(players: tuple[str, ...] = PLAYERS, track: int = 80) -> JockeyGame:
    return JockeyGame.new(players, {"track_length": track})


def everyone_bets(
    game: JockeyGame, kind: str = "place", horses: tuple[str, ...] = ("red",)
) -> None:
    for player in game.players:
        game.bet(player, kind, list(horses), [100] * (2 if kind == "order" else 1))


def refused(game: JockeyGame, action: Callable[[], object]) -> str:
    """Run a refused input; check it changed nothing and its sentence fits the LCD."""
    before = game.to_json()
    with pytest.raises(Refusal) as refusal:
        action()
    assert fits_display(refusal.value.sentence)
    assert game.to_json() == before
    return refusal.value.code


def short_race(game: JockeyGame, first: str = "red", second: str = "blue") -> None:
    """On a track of 5 squares: two +7 cards finish the race, ``first`` then ``second``."""
    game.play(f"{first}+7#1")
    game.play(f"{second}+7#1")


# -- players and turns -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [("Ann",), ("A", "B", "C", "D", "E", "F", "G"), ()])
def test_jockey_is_for_two_to_six_players(players: tuple[str, ...]) -> None:
    with pytest.raises(Refusal) as refusal:
        JockeyGame.new(players)
    assert refusal.value.code == "player_count"


def test_players_need_different_names() -> None:
    with pytest.raises(Refusal) as refusal:
        JockeyGame.new(["Ann", "ann"])
    assert refusal.value.code == "player_named_twice"
    with pytest.raises(Refusal) as refusal:
        JockeyGame.new(["Ann", " "])
    assert refusal.value.code == "bad_player_name"


def test_bad_options_are_data_errors() -> None:
    with pytest.raises(DataError, match="unknown option 'laps'"):
        JockeyGame.new(PLAYERS, {"laps": 2})
    with pytest.raises(DataError, match="track_length"):
        JockeyGame.new(PLAYERS, {"track_length": 0})


def test_the_oldest_player_starts_and_play_goes_round_the_table() -> None:
    game = new_game()
    assert game.phase is JockeyPhase.BETTING and game.current_player == "Ann"
    everyone_bets(game)
    seen = []
    for card in ("brown+7#1", "yellow+7#1", "blue+7#1", "red+7#1"):
        seen.append(game.current_player)
        game.play(card)
    assert seen == ["Ann", "Bob", "Cy", "Ann"]
    assert game.current_player == "Bob"


def test_each_later_race_is_started_by_the_next_player() -> None:
    game = new_game(track=5)
    starters = []
    for _ in range(3):
        starters.append(game.current_player)
        everyone_bets(game)
        short_race(game)
        if game.phase is JockeyPhase.RACE_OVER:
            game.next_race()
    assert starters == ["Ann", "Bob", "Cy"]


def test_a_card_out_of_turn_is_refused() -> None:
    game = new_game()
    everyone_bets(game)
    assert refused(game, lambda: game.play("red+7#1", "Bob")) == "not_your_turn"
    assert game.play("red+7#1", "Ann").end == 7


def test_a_long_name_still_fits_the_display() -> None:
    game = new_game(("Anastasia-Konstantina Papadopoulou", "Bob"))
    everyone_bets(game)
    assert refused(game, lambda: game.play("red+7#1", "Bob")) == "not_your_turn"
    game.play("red+7#1")
    assert game.current_player == "Bob"


def test_one_physical_card_cannot_be_played_twice_in_a_race() -> None:
    game = new_game()
    everyone_bets(game)
    game.play("red+7#2")
    assert refused(game, lambda: game.play("red+7#2")) == "card_played_twice"
    assert refused(game, lambda: game.play("RED+7#2")) == "card_played_twice"
    game.play("red+7#3")


def test_unknown_cards_players_and_horses_are_refused() -> None:
    game = new_game()
    assert refused(game, lambda: game.bet("Zed", "win", ["red"], [100])) == "unknown_player"
    assert refused(game, lambda: game.bet("Ann", "win", ["green"], [100])) == "unknown_horse"
    everyone_bets(game)
    assert refused(game, lambda: game.play("red+11#1")) == "unknown_card"
    assert refused(game, lambda: game.play("red+7#1", "Zed")) == "unknown_player"


# -- bets --------------------------------------------------------------------------------------


def test_every_player_must_bet_before_the_first_card() -> None:
    game = new_game()
    game.bet("Ann", "win", ["red"], [100])
    assert game.bets_missing == ("Bob", "Cy")
    assert refused(game, lambda: game.play("red+7#1")) == "bets_missing"
    game.bet("Bob", "win", ["red"], [100])
    game.bet("Cy", "win", ["red"], [100])
    assert game.bets_missing == ()
    game.play("red+7#1")


def public(game: JockeyGame) -> tuple[object, ...]:
    """Everything the view may show the whole table before the reveal."""
    return (
        game.bets_placed,
        game.bets_missing,
        game.phase,
        game.current_player,
        game.balances,
        game.markers,
        game.progress,
        game.standings,
        game.results,
        game.ranking,
        game.limit("Bob"),
        repr(game),
    )


def test_the_table_sees_who_has_bet_but_not_what() -> None:
    one, other = new_game(), new_game()
    one.bet("Bob", "order", ["red", "blue"], [300, 200])
    other.bet("Bob", "win", ["brown"], [1000])
    assert one.bets_placed == other.bets_placed == ("Bob",)
    assert public(one) == public(other)


def test_a_player_may_see_their_own_sealed_bet() -> None:
    game = new_game()
    game.bet("Bob", "order", ["red", "blue"], [300, 200])
    bet = game.sealed_bet("Bob")
    assert bet is not None and bet.text() == "order red 300 blue 200"
    assert game.sealed_bet("Ann") is None


def test_bets_close_at_the_races_first_card() -> None:
    game = new_game()
    game.bet("Ann", "win", ["red"], [100])
    game.bet("Bob", "win", ["red"], [100])
    game.bet("Cy", "win", ["red"], [100])
    game.play("red+7#1")
    assert refused(game, lambda: game.bet("Ann", "win", ["blue"], [100])) == "betting_closed"


def test_one_bet_per_player_per_race() -> None:
    game = new_game()
    game.bet("Ann", "win", ["red"], [100])
    assert refused(game, lambda: game.bet("Ann", "place", ["blue"], [100])) == "already_bet"


@pytest.mark.parametrize(
    ("kind", "horses", "stakes", "code"),
    [
        ("win", ["red"], [150], "stake_not_hundreds"),
        ("win", ["red"], [0], "stake_under_minimum"),
        ("order", ["red", "blue"], [100, 0], "stake_under_minimum"),
        ("double", ["red", "blue"], [50], "stake_under_minimum"),
        ("win", ["red"], [1100], "stake_over_limit"),
        ("order", ["red", "blue"], [600, 500], "stake_over_limit"),
        ("double", ["red", "red"], [100], "horse_named_twice"),
        ("order", ["red", "red"], [100, 100], "horse_named_twice"),
        ("trifecta", ["red"], [100], "unknown_bet"),
        ("place", ["red", "blue"], [100], "bet_incomplete"),
    ],
)
def test_a_bad_bet_is_refused_with_its_reason(
    kind: str, horses: list[str], stakes: list[int], code: str
) -> None:
    game = new_game()
    assert refused(game, lambda: game.bet("Ann", kind, horses, stakes)) == code
    assert game.bets_placed == ()


def test_the_whole_balance_may_be_staked() -> None:
    game = new_game()
    assert game.limit("Ann") == 1000
    game.bet("Ann", "order", ["red", "blue"], [500, 500])


# -- the end of a race -------------------------------------------------------------------------


def test_the_race_ends_when_the_second_horse_passes_and_every_bet_is_settled() -> None:
    game = new_game(track=5)
    game.bet("Ann", "win", ["red"], [500])
    game.bet("Bob", "win", ["red"], [200])
    game.bet("Cy", "order", ["blue", "red"], [300, 400])
    game.play("red+7#1")
    assert game.phase is JockeyPhase.RACING and game.finish_order == (RED,)
    effect = game.play("blue+7#1")
    assert effect.finished and game.finish_order == (RED, BLUE)
    assert game.phase is JockeyPhase.RACE_OVER and game.current_player is None
    # red won, backed to win by Ann and Bob: shared, so double; Cy's order was reversed.
    assert game.balances == {"Ann": 2000, "Bob": 1400, "Cy": 300}
    result = game.results[0]
    assert (result.number, result.first, result.second) == (1, RED, BLUE)
    assert [(p.player, p.bet.text(), p.shared, p.change) for p in result.payouts] == [
        ("Ann", "win red 500", True, 1000),
        ("Bob", "win red 200", True, 400),
        ("Cy", "order blue 300 red 400", False, -700),
    ]
    assert game.markers["Ann"].columns() == (("10000", 0), ("1000", 2), ("100", 0))
    assert game.bets_placed == () and game.bets_missing == ()


def test_nothing_is_played_or_bet_once_the_race_is_over() -> None:
    game = new_game(track=5)
    everyone_bets(game)
    short_race(game)
    assert refused(game, lambda: game.play("brown+7#1")) == "race_over"
    assert refused(game, lambda: game.bet("Ann", "win", ["red"], [100])) == "race_over"


def test_the_next_race_waits_for_the_end_of_this_one() -> None:
    game = new_game(track=5)
    assert refused(game, game.next_race) == "race_not_over"
    everyone_bets(game)
    game.play("red+7#1")
    assert refused(game, game.next_race) == "race_not_over"


def test_the_next_race_starts_afresh_with_the_balances_kept() -> None:
    game = new_game(track=5)
    everyone_bets(game, "win", ("red",))
    short_race(game)
    balances = game.balances
    game.next_race()
    assert game.race_number == 2 and game.phase is JockeyPhase.BETTING
    assert set(game.progress.values()) == {0} and game.pile == () and game.last_effect is None
    assert game.balances == balances and game.bets_missing == PLAYERS
    everyone_bets(game, "win", ("blue",))
    game.play("red+7#1")  # the deck was reshuffled: last race's cards are back


def test_a_player_in_debt_bets_on_credit_and_the_markers_show_the_debt() -> None:
    game = new_game(track=5)
    for horses, stakes in (
        (["brown"], [1000]),
        (["yellow", "brown"], [300, 100]),
        (["brown"], [1000]),
    ):
        game.bet("Ann", "win" if len(horses) == 1 else "order", horses, stakes)
        game.bet("Bob", "place", ["red"], [100])
        game.bet("Cy", "place", ["red"], [100])
        assert game.limit("Ann") == 1000
        short_race(game)
        if game.phase is JockeyPhase.RACE_OVER:
            game.next_race()
    assert [r.payouts[0].balance for r in game.results] == [0, -400, -1400]
    assert game.balances["Ann"] == -1400
    assert game.markers["Ann"].columns() == (("-1000", 1), ("-100", 4))


def test_three_races_make_a_game_and_equal_best_balances_share_the_win() -> None:
    game = new_game(track=5)
    for _ in range(3):
        game.bet("Ann", "place", ["red"], [100])
        game.bet("Bob", "place", ["blue"], [100])
        game.bet("Cy", "place", ["brown"], [100])
        short_race(game)
        if game.phase is JockeyPhase.RACE_OVER:
            assert game.winners == ()
            game.next_race()
    assert game.phase is JockeyPhase.GAME_OVER and len(game.results) == 3
    assert game.balances == {"Ann": 1300, "Bob": 1300, "Cy": 700}
    assert game.winners == ("Ann", "Bob")
    assert [(s.place, s.player) for s in game.ranking] == [(1, "Ann"), (1, "Bob"), (3, "Cy")]
    assert refused(game, game.next_race) == "game_over"
    assert refused(game, lambda: game.play("brown+7#1")) == "game_over"


# -- card effects in play ---------------------------------------------------------------------


def test_a_card_that_moves_nothing_is_still_played_and_passes_the_turn() -> None:
    game = new_game()
    everyone_bets(game)
    effect = game.play("no2+15#1")  # every horse on the start: No. 2 is shared
    assert not effect.moved and game.last_effect == effect
    assert set(game.progress.values()) == {0}
    assert game.current_player == "Bob" and game.pile == ("no2+15#1",)
    assert game.last_effect is not None
    assert game.last_effect.sentence() == "No.2 +15 moved nothing: No.2 is shared."


def test_positions_in_play() -> None:
    game = new_game()
    everyone_bets(game)
    for card in ("red+10#1", "blue+7#1", "brown+7#1"):
        game.play(card)
    assert [(p.first, p.last, p.horses) for p in game.standings] == [
        (1, 1, (RED,)),
        (2, 3, (BROWN, BLUE)),
        (4, 4, (YELLOW,)),
    ]
    assert game.play("no4+20#1").horse is YELLOW
    assert game.progress == {BROWN: 7, YELLOW: 20, BLUE: 7, RED: 10}


# -- saving -------------------------------------------------------------------------------------


def test_a_game_survives_its_saved_form_at_every_step() -> None:
    game = new_game(track=5)
    saves = [game.to_json()]
    everyone_bets(game, "order", ("red", "blue"))
    saves.append(game.to_json())
    game.play("red+7#1")
    saves.append(game.to_json())
    game.play("blue+7#1")
    saves.append(game.to_json())
    game.next_race()
    saves.append(game.to_json())
    for text in saves:
        loaded = JockeyGame.from_json(text)
        assert loaded.to_json() == text
    assert JockeyGame.from_json(game.to_json()) == game
    loaded = JockeyGame.from_json(saves[3])
    # Everyone backed red first in order: shared, so 3 times both stakes.
    assert loaded.phase is JockeyPhase.RACE_OVER and loaded.balances["Ann"] == 1000 + 3 * 200


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"game": "jockey"', '"game": "jumpy_jack"', "not a saved Jockey game"),
        ('"version": 1', '"version": 7', "version 7"),
        ('"plays": 1', '"plays": -1', "plays"),
        ('"red+7#1"', '"red+70#1"', "unknown card"),
        ('"race_number": 1', '"race_number": 4', "race_number is past 3"),
        ('"Bob": 1000', '"Bob": 1050', "hundreds"),
        ('"Bob": 1000', '"Rob": 1000', "balances must name every player"),
        ('"steps": 7', '"steps": 0', "steps"),
    ],
)
def test_a_damaged_save_is_a_data_error_that_says_where(old: str, new: str, message: str) -> None:
    game = new_game(track=5)
    everyone_bets(game)
    game.play("red+7#1")
    text = game.to_json().replace("\n", "").replace("  ", " ")
    text = " ".join(text.split())
    assert old in text, text
    with pytest.raises(DataError, match=r"saved game|options") as error:
        JockeyGame.from_json(text.replace(old, new, 1))
    assert message in str(error.value)


def test_a_save_that_is_not_json_is_a_data_error() -> None:
    with pytest.raises(DataError, match="not JSON"):
        JockeyGame.from_json("{")
