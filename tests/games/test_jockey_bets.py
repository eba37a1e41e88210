"""Jockey bets: validation with credit, every payout case, the shared-horse rule, markers."""

from __future__ import annotations

import pytest

from companion.games.errors import Refusal, fits_display
from companion.games.jockey.bets import JockeyBet, Ledger, Markers, rank
from companion.games.jockey.deck import JockeyHorse

BROWN, YELLOW, BLUE, RED = JockeyHorse.BROWN, JockeyHorse.YELLOW, JockeyHorse.BLUE, JockeyHorse.RED


def settle(bets: dict[str, JockeyBet], first: JockeyHorse, second: JockeyHorse) -> dict[str, int]:
    """Settle one race from 1000 each; return each player's change."""
    ledger = Ledger.opening(list(bets))
    for player, bet in bets.items():
        ledger = ledger.with_bet(player, bet)
    after, result = ledger.settle(1, first, second)
    changes = {p.player: p.change for p in result.payouts}
    assert {p: 1000 + c for p, c in changes.items()} == dict(
        zip(after.players, after.balances, strict=True)
    )
    return changes


def refusal(action: object, *args: object) -> str:
    assert callable(action)
    with pytest.raises(Refusal) as refused:
        action(*args)
    assert fits_display(refused.value.sentence)
    return refused.value.code


# -- the four bets ----------------------------------------------------------------------------


def test_a_win_bet_pays_three_times_the_stake() -> None:
    # The rulebook's example says "900 credited" for 500 on yellow; its x3 rule says 1500.
    assert settle({"Ann": JockeyBet.win("yellow", 500)}, YELLOW, RED) == {"Ann": 1500}


def test_a_lost_win_bet_costs_the_stake() -> None:
    assert settle({"Ann": JockeyBet.win("yellow", 500)}, RED, YELLOW) == {"Ann": -500}


def test_a_win_bet_on_a_horse_another_player_also_backed_pays_double_not_triple() -> None:
    changes = settle(
        {"Ann": JockeyBet.win("red", 500), "Bob": JockeyBet.win("red", 200)}, RED, BLUE
    )
    assert changes == {"Ann": 1000, "Bob": 400}


def test_a_finishing_order_naming_the_horse_first_also_shares_a_win() -> None:
    bets = {"Ann": JockeyBet.win("red", 500), "Bob": JockeyBet.order("red", 100, "blue", 100)}
    changes = settle(bets, RED, BROWN)
    assert changes["Ann"] == 1000


def test_only_a_win_or_a_first_horse_of_an_order_makes_a_horse_shared() -> None:
    bets = {
        "Ann": JockeyBet.win("red", 500),
        "Bob": JockeyBet.place("red", 100),
        "Cy": JockeyBet.double("red", "blue", 100),
        "Di": JockeyBet.order("blue", 100, "red", 100),
    }
    assert settle(bets, RED, BLUE)["Ann"] == 1500


def test_a_players_own_bet_does_not_share_a_horse_with_itself() -> None:
    bets = {"Ann": JockeyBet.win("red", 500), "Bob": JockeyBet.win("blue", 500)}
    assert settle(bets, RED, BLUE) == {"Ann": 1500, "Bob": -500}


def test_a_double_pays_the_stake_once_if_either_horse_wins() -> None:
    assert settle({"Ann": JockeyBet.double("red", "blue", 300)}, BLUE, BROWN) == {"Ann": 300}
    assert settle({"Ann": JockeyBet.double("red", "blue", 300)}, RED, BLUE) == {"Ann": 300}
    assert settle({"Ann": JockeyBet.double("red", "blue", 300)}, BROWN, RED) == {"Ann": -300}


def test_a_place_bet_pays_the_stake_for_first_or_second() -> None:
    assert settle({"Ann": JockeyBet.place("red", 400)}, RED, BLUE) == {"Ann": 400}
    assert settle({"Ann": JockeyBet.place("red", 400)}, BLUE, RED) == {"Ann": 400}
    assert settle({"Ann": JockeyBet.place("red", 400)}, BLUE, BROWN) == {"Ann": -400}


def test_a_finishing_order_in_order_pays_four_times_both_stakes() -> None:
    # The rulebook's example says "5600 credited" for 400 + 500; its x4 rule says 3600.
    assert settle({"Ann": JockeyBet.order("red", 400, "blue", 500)}, RED, BLUE) == {"Ann": 3600}


def test_a_shared_finishing_order_pays_three_times_both_stakes() -> None:
    bets = {"Ann": JockeyBet.order("red", 400, "blue", 500), "Bob": JockeyBet.win("red", 100)}
    assert settle(bets, RED, BLUE)["Ann"] == 2700


def test_a_finishing_order_with_only_the_first_horse_right_is_a_win_less_the_second_stake() -> None:
    assert settle({"Ann": JockeyBet.order("red", 400, "blue", 500)}, RED, BROWN) == {
        "Ann": 1200 - 500
    }


def test_only_the_first_horse_right_follows_the_shared_rule_too() -> None:
    bets = {
        "Ann": JockeyBet.order("red", 400, "blue", 500),
        "Bob": JockeyBet.order("red", 100, "brown", 100),
    }
    assert settle(bets, RED, YELLOW)["Ann"] == 800 - 500


def test_a_finishing_order_with_only_the_second_horse_right_pays_its_stake_less_the_first() -> None:
    assert settle({"Ann": JockeyBet.order("red", 400, "blue", 500)}, BROWN, BLUE) == {
        "Ann": 500 - 400
    }


def test_a_finishing_order_in_reverse_order_loses_both_stakes() -> None:
    assert settle({"Ann": JockeyBet.order("red", 400, "blue", 500)}, BLUE, RED) == {"Ann": -900}


def test_a_finishing_order_with_neither_horse_loses_both_stakes() -> None:
    assert settle({"Ann": JockeyBet.order("red", 400, "blue", 500)}, BROWN, YELLOW) == {"Ann": -900}


# -- validation -------------------------------------------------------------------------------


def test_stakes_go_in_hundreds() -> None:
    assert refusal(JockeyBet.win, "red", 250) == "stake_not_hundreds"
    assert refusal(JockeyBet.order, "red", 100, "blue", 1050) == "stake_not_hundreds"


def test_each_staked_horse_needs_at_least_100() -> None:
    assert refusal(JockeyBet.win, "red", 0) == "stake_under_minimum"
    assert refusal(JockeyBet.place, "red", 50) == "stake_under_minimum"
    assert refusal(JockeyBet.order, "red", 500, "blue", 0) == "stake_under_minimum"
    assert refusal(JockeyBet.win, "red", -100) == "stake_under_minimum"


def test_a_double_needs_one_stake_of_at_least_100_for_both_horses() -> None:
    assert JockeyBet.double("red", "blue", 100).total == 100
    assert refusal(JockeyBet.double, "red", "blue", 0) == "stake_under_minimum"


def test_a_bet_naming_a_horse_twice_is_refused() -> None:
    assert refusal(JockeyBet.double, "red", "red", 100) == "horse_named_twice"
    assert refusal(JockeyBet.order, "blue", 100, "Blue", 100) == "horse_named_twice"


def test_an_unknown_horse_or_bet_kind_or_a_half_filled_slip_is_refused() -> None:
    assert refusal(JockeyBet.win, "green", 100) == "unknown_horse"
    assert refusal(JockeyBet.parse, "quinella", ["red"], [100]) == "unknown_bet"
    assert refusal(JockeyBet.parse, "double", ["red"], [100]) == "bet_incomplete"
    assert refusal(JockeyBet.parse, "order", ["red", "blue"], [100]) == "bet_incomplete"


def test_the_finishing_order_may_be_spelled_out() -> None:
    assert JockeyBet.parse("finishing order", ["red", "blue"], [100, 200]) == JockeyBet.order(
        "red", 100, "blue", 200
    )


def ledger_with(balance: int) -> Ledger:
    return Ledger(("Ann", "Bob"), (balance, 1000), (None, None))


def test_the_limit_is_the_balance() -> None:
    assert ledger_with(2500).with_bet("Ann", JockeyBet.win("red", 2500)).has_bet("Ann")
    assert (
        refusal(ledger_with(2500).with_bet, "Ann", JockeyBet.win("red", 2600)) == "stake_over_limit"
    )


def test_below_1000_a_player_may_still_stake_1000_on_credit() -> None:
    for balance in (900, 0, -1400):
        ledger = ledger_with(balance)
        assert ledger.limit("Ann") == 1000
        assert ledger.with_bet("Ann", JockeyBet.win("red", 1000)).has_bet("Ann")
        assert refusal(ledger.with_bet, "Ann", JockeyBet.win("red", 1100)) == "stake_over_limit"


def test_the_limit_counts_both_stakes_of_a_finishing_order() -> None:
    bet = JockeyBet.order("red", 600, "blue", 500)
    assert refusal(ledger_with(1000).with_bet, "Ann", bet) == "stake_over_limit"


def test_one_bet_per_player_per_race() -> None:
    ledger = ledger_with(1000).with_bet("Ann", JockeyBet.win("red", 100))
    assert refusal(ledger.with_bet, "Ann", JockeyBet.win("blue", 100)) == "already_bet"


def test_a_player_may_go_below_zero() -> None:
    ledger = ledger_with(0).with_bet("Ann", JockeyBet.win("red", 1000))
    ledger = ledger.with_bet("Bob", JockeyBet.win("blue", 100))
    after, _ = ledger.settle(1, BLUE, RED)
    assert after.balance("Ann") == -1000
    assert Markers.of(-1000).columns() == (("-1000", 1), ("-100", 0))


# -- markers and ranking ---------------------------------------------------------------------


def test_markers_for_52500_are_5_2_5() -> None:
    assert Markers.of(52_500).columns() == (("10000", 5), ("1000", 2), ("100", 5))


def test_markers_for_125000_are_12_5_0() -> None:
    assert Markers.of(125_000).columns() == (("10000", 12), ("1000", 5), ("100", 0))


def test_markers_for_a_debt_of_1400_are_1_and_4_in_the_credit_columns() -> None:
    markers = Markers.of(-1400)
    assert markers.debt
    assert markers.columns() == (("-1000", 1), ("-100", 4))


def test_markers_at_the_start_and_at_zero() -> None:
    assert Markers.of(1000).columns() == (("10000", 0), ("1000", 1), ("100", 0))
    assert Markers.of(0).columns() == (("10000", 0), ("1000", 0), ("100", 0))
    assert Markers.of(-300).columns() == (("-1000", 0), ("-100", 3))


def test_equal_balances_share_a_place() -> None:
    standings = rank(["Ann", "Bob", "Cy", "Di"], [1500, 2700, 1500, -200])
    assert [(s.place, s.player) for s in standings] == [
        (1, "Bob"),
        (2, "Ann"),
        (2, "Cy"),
        (4, "Di"),
    ]
