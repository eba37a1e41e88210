"""The session at Course hippique and Jockey tables: sealed bets, private hands, races, undo."""

from __future__ import annotations

import dataclasses
import random

from companion.games.registry import KINDS
from companion.session import autoplay
from companion.session.binding import binding_module
from companion.session.log import (
    BetEntry,
    DealCourse,
    Hand,
    LogEntry,
    NextRace,
    PassEntry,
    PlayCard,
    SetMaxBet,
    TurnCard,
)
from companion.session.session import Session

COURSE = ("7H", "QS", "2C", "9D", "KH", "5S", "8C")
HEARTS_RUN = ("2H", "3H", "4H", "5H", "6H", "8H", "9H", "10H")


def hippique(*bets: BetEntry | PassEntry) -> Session:
    session = Session.in_memory()
    session.new_game("course_hippique", ("Anna", "Bob", "Chloé"), {})
    assert session.submit(DealCourse(COURSE, "Anna")).accepted
    assert session.submit(SetMaxBet(10, "Anna")).accepted
    for bet in bets:
        assert session.submit(bet).accepted
    return session


def test_the_first_card_waits_for_the_max_bet_and_every_bet_or_pass() -> None:
    session = Session.in_memory()
    session.new_game("course_hippique", ("Anna", "Bob", "Chloé"), {})
    assert session.submit(DealCourse(COURSE, "Anna")).accepted
    early = session.submit(TurnCard("2S", "Anna"))
    assert (early.code, early.sentence) == (
        "no_max_bet",
        "The croupier has not announced the max bet yet.",
    )
    assert session.offers().waiting == ("Anna",)
    assert session.submit(SetMaxBet(10, "Anna")).accepted
    assert session.offers().waiting == ("Bob", "Chloé")
    assert session.submit(BetEntry("Bob", "H", 5)).accepted
    open_ = session.submit(TurnCard("2S"))
    assert (open_.code, open_.sentence) == ("bets_open", "Bets first: Chloé to bet or pass.")
    assert session.view().phase == "betting" and session.view().sealed == ("Bob",)
    assert session.submit(PassEntry("Chloé")).accepted
    again = session.submit(PassEntry("Chloé"))
    assert again.code == "already_passed"
    assert session.offers().waiting == ("Anna",)
    assert session.submit(TurnCard("2S")).accepted


def test_course_hippique_bets_and_the_stakes_they_move_stay_sealed_until_the_first_card() -> None:
    one = hippique(BetEntry("Bob", "H", 5), BetEntry("Chloé", "S", 7))
    other = hippique(BetEntry("Bob", "C", 10), BetEntry("Chloé", "D", 1))
    assert one.view() == other.view()
    view = one.view()
    assert view.sealed == ("Bob", "Chloé") and view.board.bets == ()
    assert view.board.balances == {"Anna": 100, "Bob": 100, "Chloé": 100}
    bob = one.private_view("Bob").details
    assert (bob.bet.player, bob.bet.horse.letter, bob.bet.stake, bob.bet.odds) == ("Bob", "H", 5, 3)
    assert bob.balance == 95
    assert one.private_view("Chloé").details.bet.horse.letter == "S"
    # The first card closes the book: now the table sees every bet and the chips moved.
    assert one.submit(TurnCard("3H", "Anna")).accepted
    view = one.view()
    assert view.sealed == ()
    assert [(b.player, b.horse.letter, b.stake) for b in view.board.bets] == [
        ("Bob", "H", 5),
        ("Chloé", "S", 7),
    ]
    assert view.board.balances == {"Anna": 112, "Bob": 95, "Chloé": 93}


def test_only_the_croupier_handles_the_cards() -> None:
    session = hippique(PassEntry("Bob"), PassEntry("Chloé"))
    refused = session.submit(TurnCard("3H", "Bob"))
    assert (refused.code, refused.sentence) == ("not_your_turn", "It is Anna's turn.")
    assert session.submit(TurnCard("3H")).accepted  # no player named: the croupier's


def test_course_hippique_race_is_paid_and_undo_walks_back_over_the_next_race() -> None:
    session = hippique(BetEntry("Bob", "H", 5), PassEntry("Chloé"))
    for card in HEARTS_RUN:
        assert session.submit(TurnCard(card)).accepted
    over = session.view()
    assert over.phase == "race_over" and over.board.winner.letter == "H"
    # Hearts had 2 cards in the course: 3 to 1, so Bob's 5 brings back 20.
    assert over.board.balances == {"Anna": 85, "Bob": 115, "Chloé": 100}
    assert session.submit(NextRace()).accepted
    assert session.view().board.croupier == "Bob" and session.view().race == 2
    assert session.undo().accepted
    assert session.view() == dataclasses.replace(over, events=over.events + 2, last="undo")
    assert session.undo().accepted  # the card that won the race
    back = session.view()
    assert back.phase == "racing" and back.board.winner is None
    assert back.board.balances == {"Anna": 105, "Bob": 95, "Chloé": 100}


def jockey(hands: bool = False) -> Session:
    session = Session.in_memory()
    session.new_game("jockey", ("Anna", "Bob", "Chloé"), {"hands": hands})
    return session


def test_jockey_bets_stay_sealed_until_the_race_is_settled() -> None:
    one, other = jockey(), jockey()
    one_bets = [
        BetEntry("Anna", "red", 300),
        BetEntry("Bob", "blue", 200, "place"),
        BetEntry("Chloé", "red", 100),
    ]
    other_bets = [
        BetEntry("Anna", "brown", 500, "order", "yellow", 200),
        BetEntry("Bob", "red", 100, "double", "blue"),
        BetEntry("Chloé", "yellow", 900),
    ]
    for mine, theirs in zip(one_bets, other_bets, strict=True):
        assert one.submit(mine).accepted and other.submit(theirs).accepted
        assert one.view() == other.view()
    assert one.view().sealed == ("Anna", "Bob", "Chloé") and one.view().waiting_for == ()
    # Same cards for both tables until one of them settles the race.
    rng = random.Random(4)
    while one.view().phase == "betting" or one.view().phase == "racing":
        entry = autoplay.legal_input(one.table, rng)  # type: ignore[arg-type]
        assert entry is not None
        assert one.submit(entry).accepted and other.submit(entry).accepted
        if one.view().phase == "racing":
            assert one.view() == other.view()
    settled = one.view()
    assert settled.phase == "race_over" and settled.sealed == ()
    payouts = settled.board.results[0].payouts
    bet = payouts[0].bet
    assert (bet.kind, bet.horses, bet.stakes) == ("win", ("red",), (300,))
    assert one.view().board.results != other.view().board.results


def test_jockey_hands_are_private_and_the_turn_is_kept() -> None:
    session = jockey(hands=True)
    view = session.view()
    assert view.waiting_for == ("Anna", "Bob", "Chloé")
    deck = list(session.table.binding.game.options.deck.by_id)  # type: ignore[union-attr]
    for seat, player in enumerate(("Anna", "Bob", "Chloé")):
        assert session.submit(BetEntry(player, "red", 100)).accepted
        assert session.submit(Hand(player, tuple(deck[seat * 12 : seat * 12 + 12]))).accepted
    view = session.view()
    assert view.waiting_for == () and view.turn == "Anna"
    assert view.board.hand_sizes == {"Anna": 12, "Bob": 12, "Chloé": 12}
    shown = str(view.to_json())
    for card in deck[:36]:
        assert f"'{card}'" not in shown
    anna = session.private_view("Anna").details
    assert list(anna.hand) == sorted(deck[:12]) and sorted(anna.playable) == list(anna.hand)
    assert session.private_view("Bob").details.playable == ()
    out_of_turn = session.submit(PlayCard(deck[12], "Bob"))
    assert out_of_turn.code == "not_your_turn"
    not_hers = session.submit(PlayCard(deck[12], "Anna"))
    assert not_hers.code == "card_not_in_hand"
    assert session.submit(PlayCard(deck[0])).accepted
    assert session.view().board.pile == (deck[0],)
    assert session.view().turn == "Bob"


def test_every_game_plays_to_its_end_through_the_session() -> None:
    for kind in KINDS:
        rng = random.Random(8)
        session = Session.in_memory()
        players, options = binding_module(kind).SET_UP
        session.new_game(kind, players, options)
        steps = 0
        while not session.view().finished:
            entry: LogEntry | None = autoplay.legal_input(session.table, rng)  # type: ignore[arg-type]
            assert entry is not None
            assert session.submit(entry).accepted
            steps += 1
            assert steps < 5000
        assert session.view().winners
        assert session.view().turn is None or kind == "jumpy_jack"


def test_a_player_who_passed_cannot_bet_the_same_race() -> None:
    session = hippique(PassEntry("Bob"))
    late = session.submit(BetEntry("Bob", "H", 5))  # Bob's phone, after his pass at the panel
    assert (late.accepted, late.code) == (False, "already_passed")
    assert session.undo().accepted  # the pass taken back: now he may bet
    assert session.submit(BetEntry("Bob", "H", 5)).accepted
