"""Jockey hands: dealing, cards in hand, running out, the played pile dealt again, kept cards."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.games.errors import Refusal, fits_display
from companion.games.jockey import JockeyGame
from companion.games.jockey.deck import default_deck
from companion.games.jockey.state import JockeyPhase

DECK = [card.id for card in default_deck().cards]
#: A track so long that no race ends while a test runs through the deck.
ENDLESS = 10**7


def new_game(count: int, hands: bool = True, track: int = ENDLESS) -> JockeyGame:
    players = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")[:count]
    game = JockeyGame.new(players, {"hands": hands, "track_length": track})
    for player in players:
        game.bet(player, "place", ["red"], [100])
    return game


def deal_in_order(game: JockeyGame, cards: list[str] | None = None) -> list[str]:
    """Deal each player a full hand from ``cards`` (the deck in order); return the rest."""
    rest = list(DECK if cards is None else cards)
    for player in game.players:
        game.deal(player, rest[: game.hand_size])
        rest = rest[game.hand_size :]
    return rest


def play_turns(game: JockeyGame, count: int) -> list[str]:
    """Play ``count`` cards, each the current player's first playable card."""
    played = []
    for _ in range(count):
        card = game.playable()[0]
        game.play(card)
        played.append(card)
    return played


def refused(game: JockeyGame, action: Callable[[], object]) -> str:
    before = game.to_json()
    with pytest.raises(Refusal) as refusal:
        action()
    assert fits_display(refusal.value.sentence)
    assert game.to_json() == before
    return refusal.value.code


# -- dealing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "size"), [(2, 15), (3, 12), (4, 10), (5, 9), (6, 9)])
def test_hands_are_dealt_by_the_number_of_players(count: int, size: int) -> None:
    game = new_game(count)
    assert game.hand_size == size
    assert all(game.owed(p) == size for p in game.players)
    rest = deal_in_order(game)
    assert len(rest) == 54 - count * size
    assert all(len(game.hand(p)) == size and game.owed(p) == 0 for p in game.players)


def test_the_first_card_waits_for_every_hand() -> None:
    game = new_game(3)
    game.deal("Ann", DECK[:12])
    assert game.deals_missing == ("Bob", "Cy")
    assert refused(game, lambda: game.play(DECK[0])) == "deal_missing"
    assert game.playable() == ()


def test_a_hand_may_be_scanned_one_card_at_a_time() -> None:
    game = new_game(2)
    for card in DECK[:15]:
        game.deal("Ann", [card])
    assert game.owed("Ann") == 0 and len(game.hand("Ann")) == 15
    assert refused(game, lambda: game.deal("Ann", [DECK[20]])) == "no_cards_owed"


def test_a_deal_is_checked_card_by_card() -> None:
    game = new_game(3)
    game.deal("Ann", DECK[:10])
    assert refused(game, lambda: game.deal("Ann", DECK[10:13])) == "too_many_cards"
    assert refused(game, lambda: game.deal("Ann", [DECK[3]])) == "card_in_a_hand"  # her own
    assert refused(game, lambda: game.deal("Bob", [DECK[20], DECK[20]])) == "card_scanned_twice"
    assert refused(game, lambda: game.deal("Bob", [])) == "no_cards"
    assert refused(game, lambda: game.deal("Bob", ["red+99#1"])) == "unknown_card"
    assert refused(game, lambda: game.deal("Zed", [DECK[20]])) == "unknown_player"


def test_a_deal_never_depends_on_another_players_hand() -> None:
    game = new_game(3)
    game.deal("Ann", DECK[:12])
    game.deal("Bob", DECK[:12])  # the same copy numbers: bookkeeping, Ann's hand is hers
    assert game.hand("Bob") == game.hand("Ann")
    game.deal("Cy", DECK[12:24])
    first = sorted(game.hand("Ann"), key=DECK.index)[0]
    game.play(first, "Ann")
    game.play(first, "Bob")  # Bob's copy of that number is his own card, not the one played
    assert game.pile == (first, first)
    assert type(game).from_json(game.to_json()).to_json() == game.to_json()


def test_without_hands_the_table_deals_nothing() -> None:
    game = new_game(3, hands=False)
    assert refused(game, lambda: game.deal("Ann", DECK[:12])) == "hands_off"
    assert game.hand("Ann") == frozenset() and game.owed("Ann") == 0


# -- playing from a hand ----------------------------------------------------------------------


def test_a_card_not_in_the_players_hand_is_refused() -> None:
    game = new_game(3)
    rest = deal_in_order(game)
    assert refused(game, lambda: game.play(rest[0])) == "card_not_in_hand"
    bobs = sorted(game.hand("Bob"))[0]
    assert refused(game, lambda: game.play(bobs, "Ann")) == "card_not_in_hand"


def test_a_card_from_another_players_hand_is_out_of_turn_and_its_holder_stays_secret() -> None:
    game = new_game(3)
    deal_in_order(game)
    bobs = sorted(game.hand("Bob"))[0]
    assert refused(game, lambda: game.play(bobs)) == "not_your_turn"
    with pytest.raises(Refusal) as refusal:
        game.play(bobs)
    assert "Bob" not in refusal.value.sentence  # the table is not told who holds the card


def test_a_played_card_leaves_the_hand() -> None:
    game = new_game(3)
    deal_in_order(game)
    card = game.playable()[0]
    assert card in game.hand("Ann")
    game.play(card)
    assert card not in game.hand("Ann") and len(game.hand("Ann")) == 11
    assert game.playable() == tuple(c for c in DECK if c in game.hand("Bob"))


# -- running out ------------------------------------------------------------------------------


def test_when_hands_run_out_each_player_gets_two_more_from_the_reserve() -> None:
    game = new_game(2)
    reserve = deal_in_order(game)
    played = play_turns(game, 30)
    # Every hand is empty: 2 cards each are owed before the next card.
    assert game.phase is JockeyPhase.RACING and all(not game.hand(p) for p in game.players)
    assert game.owed("Ann") == game.owed("Bob") == 2
    assert refused(game, lambda: game.play(reserve[0])) == "deal_missing"
    # The reserve still holds 24 cards: nothing comes off the played pile yet.
    assert refused(game, lambda: game.deal("Ann", [played[0]])) == "card_on_pile"
    game.deal("Ann", reserve[:2])
    game.deal("Bob", reserve[2:4])
    assert game.current_player == "Ann"
    game.play(reserve[0])
    assert refused(game, lambda: game.play(played[5], "Bob")) == "card_played_twice"


def test_with_six_players_the_bottom_of_the_played_pile_is_dealt_out_again() -> None:
    game = new_game(6)
    assert deal_in_order(game) == []
    played = play_turns(game, 54)
    assert all(game.owed(p) == 2 for p in game.players)
    bottom, top = played[:12], played[12:]
    assert game.pile == tuple(top)
    assert refused(game, lambda: game.deal("Ann", [top[0]])) == "card_on_pile"
    for seat, player in enumerate(game.players):
        game.deal(player, bottom[2 * seat : 2 * seat + 2])
    # Dealt out again, the card may be played again in this race.
    game.play(bottom[0])
    assert game.pile == (*top, bottom[0])


def test_without_hands_only_the_bottom_of_the_pile_comes_back_into_play() -> None:
    game = new_game(6, hands=False)
    for card in DECK:
        game.play(card)
    assert game.cards_left == 12 and game.pile == tuple(DECK[12:])
    assert refused(game, lambda: game.play(DECK[12])) == "card_played_twice"
    game.play(DECK[11])
    assert refused(game, lambda: game.play(DECK[11])) == "card_played_twice"


def test_without_hands_the_reserve_comes_first() -> None:
    game = new_game(2, hands=False)
    for card in DECK[:30]:
        game.play(card)
    assert game.cards_left == 4 and game.pile == tuple(DECK[:30])
    assert refused(game, lambda: game.play(DECK[0])) == "card_played_twice"
    game.play(DECK[40])


# -- keeping cards between races --------------------------------------------------------------


def finished_race(count: int = 3) -> tuple[JockeyGame, dict[str, frozenset[str]]]:
    """Play race 1 on a 5-square track with dealt hands; return the game and what is left."""
    game = new_game(count, track=5)
    others = iter(c for c in DECK if c not in ("red+7#1", "blue+7#1"))
    firsts = {"Ann": ["red+7#1"], "Bob": ["blue+7#1"]}
    for player in game.players:
        cards = firsts.get(player, [])
        game.deal(player, cards + [next(others) for _ in range(game.hand_size - len(cards))])
    game.play("red+7#1")
    game.play("blue+7#1")
    assert game.phase is JockeyPhase.RACE_OVER
    return game, {p: game.hand(p) for p in game.players}


def test_each_player_may_keep_up_to_two_unplayed_cards_and_is_dealt_that_many_fewer() -> None:
    game, left = finished_race()
    game.next_race()
    assert game.leftover("Ann") == left["Ann"] and game.hand("Ann") == frozenset()
    kept = sorted(left["Ann"])[:2]
    fresh = [c for c in DECK if c not in kept][:10]
    game.deal("Ann", fresh, kept=kept)
    assert game.hand("Ann") == frozenset([*kept, *fresh]) and game.owed("Ann") == 0


def test_keeping_is_checked() -> None:
    game, left = finished_race()
    game.next_race()
    ann = sorted(left["Ann"])
    fresh = [c for c in DECK if c not in left["Ann"]]
    assert refused(game, lambda: game.deal("Ann", [], kept=ann[:3])) == "keep_too_many"
    assert refused(game, lambda: game.deal("Ann", [], kept=[fresh[0]])) == "card_not_left_over"
    assert refused(game, lambda: game.deal("Ann", ann[:1], kept=ann[:1])) == "card_scanned_twice"
    game.deal("Ann", fresh[:1])
    assert refused(game, lambda: game.deal("Ann", [], kept=ann[:1])) == "keep_too_late"


def test_a_kept_card_is_named_alone_or_with_the_first_cards() -> None:
    game, left = finished_race()
    game.next_race()
    game.deal("Bob", [], kept=sorted(left["Bob"])[:1])
    assert game.owed("Bob") == 11 and game.leftover("Bob") == frozenset()


def test_without_kept_cards_a_player_is_dealt_a_full_hand_again() -> None:
    game, _ = finished_race()
    game.next_race()
    assert all(game.owed(p) == 12 for p in game.players)
    deal_in_order(game)
    game.bet("Ann", "win", ["red"], [100])
    game.bet("Bob", "win", ["red"], [100])
    game.bet("Cy", "win", ["red"], [100])
    assert game.current_player == "Bob"
    game.play(game.playable()[0])
