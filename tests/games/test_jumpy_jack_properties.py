"""Jumpy Jack under random legal play, on the default board and on random boards.

The legal moves are checked against a plain square-by-square reading of the rules written
here (no barrage or occupied STOP may be landed on or passed; a DOUBLE bounce must be free
too), and every position reached must keep the table's invariants.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.jumpy_jack import (
    Board,
    Horse,
    JumpyJackMatch,
    JumpyPhase,
    Landing,
    MatchOptions,
    Position,
    guess_points,
    play_out,
    prediction_points,
)

NAMES = ("red", "blue", "green", "yellow", "white")
FAST = settings(max_examples=120, deadline=None)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Any board the rules allow: 8 to 40 squares, four hurdles on distinct squares."""
    squares = draw(st.integers(8, 40))
    spots = draw(st.lists(st.integers(1, squares - 1), min_size=4, max_size=4, unique=True))
    return Board(
        squares=squares,
        stop=spots[0],
        double=spots[1],
        out=spots[2],
        restart=spots[3],
        horses=tuple(Horse(n, n) for n in NAMES),
        exact_finish=draw(st.booleans()),
    )


def blocks(position: Position, square: int) -> bool:
    """A square nobody may land on or pass: two horses, or one horse on STOP."""
    board = position.board
    if square <= 0 or square >= board.squares:
        return False
    here = len(position.occupants(square))
    return here >= 2 or (square == board.stop and here >= 1)


def expected(position: Position, horse: str, die: int) -> tuple[str, int]:
    """Read the rules square by square: ("ok", final progress) or ("refused", reason)."""
    board = position.board
    start = position.square(horse)
    assert start is not None
    for square in range(start + 1, start + die + 1):
        if blocks(position, square):
            return ("refused", "stop_occupied" if square == board.stop else "barrage")
    landing = start + die
    if board.exact_finish and landing > board.squares:
        return ("refused", "overshoot")
    if landing != board.double:
        return ("ok", landing)
    for square in range(landing + 1, landing + die + 1):
        if blocks(position, square):
            return ("refused", "double_blocked")
    if board.exact_finish and landing + die > board.squares:
        return ("refused", "double_blocked")
    return ("ok", landing + die)


def check_invariants(position: Position) -> None:
    board = position.board
    for square in range(1, board.squares):
        here = len(position.occupants(square))
        assert here <= 2, f"three horses on {square}: {position}"
        if square == board.stop:
            assert here <= 1, f"two horses on STOP: {position}"
        if square in (board.double, board.out, board.restart):
            assert here == 0, f"a horse rests on a hurdle: {position}"
    places = [h for h in position.podium.places if h is not None]
    assert len(places) == len(set(places))
    off_track = {h for h in NAMES if position.square(h) is None}
    assert set(places) == off_track
    assert Position.from_text(position.to_text(), board) == position


def race_randomly(board: Board, rng: random.Random, max_rolls: int = 20_000) -> int:
    """Play a race with random legal moves, checking every rule at every roll."""
    position = Position.start(board)
    rolls = 0
    while not position.over:
        rolls += 1
        assert rolls <= max_rolls, f"race never ends: {position}"
        die = rng.randint(1, 6)
        moves = {m.horse: m for m in position.legal_moves(die)}
        for horse in position.racing():
            verdict = expected(position, horse, die)
            if verdict[0] == "ok":
                assert horse in moves, (position.to_text(), horse, die)
                assert moves[horse].final == verdict[1]
            else:
                assert horse not in moves, (position.to_text(), horse, die, verdict)
                try:
                    position.check(horse, die)
                except Exception as refusal:
                    assert getattr(refusal, "code", None) == verdict[1]
                else:
                    raise AssertionError(f"{horse} {die} accepted in {position}")
        assert position.can_move(die) == bool(moves)
        if not moves:
            continue
        move = rng.choice(list(moves.values()))
        before_places = position.podium.places
        position = position.after(move)
        check_invariants(position)
        if move.effect in (Landing.FINISH, Landing.OUT):
            assert before_places[move.place - 1] is None  # type: ignore[operator]
            assert position.podium.at(move.place) == move.horse  # type: ignore[arg-type]
    return rolls


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_random_races_on_the_default_board_obey_every_rule(seed: int) -> None:
    race_randomly(Board.default(), random.Random(seed))


@FAST
@given(board=boards(), seed=st.integers(0, 2**32 - 1))
def test_random_races_on_any_board_obey_every_rule(board: Board, seed: int) -> None:
    race_randomly(board, random.Random(seed))


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_the_furthest_horse_can_always_move_on_a_board_allowing_overshoot(seed: int) -> None:
    rng = random.Random(seed)
    position = Position.start(Board.default())
    while not position.over:
        die = rng.randint(1, 6)
        assert position.can_move(die)
        position = position.after(rng.choice(position.legal_moves(die)))


@FAST
@given(board=boards(), seed=st.integers(0, 2**32 - 1))
def test_the_fast_play_out_races_exactly_like_the_engine(board: Board, seed: int) -> None:
    fast = play_out(Position.start(board), random.Random(seed))
    rng = random.Random(seed)
    position = Position.start(board)
    while not position.over:
        moves = position.legal_moves(int(rng.random() * 6) + 1)
        if moves:
            position = position.after(moves[int(rng.random() * len(moves))])
    assert fast == position.podium
    assert fast.complete and len(set(fast.top3)) == 3


@FAST
@given(
    prediction=st.permutations(NAMES).map(lambda p: tuple(p[:3])),
    order=st.permutations(NAMES),
    guess=st.permutations(NAMES).map(lambda p: tuple(p[:3])),
)
def test_points_are_always_zero_two_four_or_ten(
    prediction: tuple[str, ...], order: list[str], guess: tuple[str, ...]
) -> None:
    position = Position.from_text(" ".join(f"{h}=F{i}" for i, h in enumerate(order[:3], 1)))
    points = prediction_points(prediction, position.podium)
    right = sum(a == b for a, b in zip(prediction, order, strict=False))
    assert points == {0: 0, 1: 2, 2: 4, 3: 10}[right]
    assert guess_points(guess, prediction) in (0, 1, 2, 4)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(1, 4),
    guess=st.booleans(),
)
def test_random_matches_score_keep_their_state_and_undo_to_the_start(
    seed: int, players: int, guess: bool
) -> None:
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    match = JumpyJackMatch.new(names, MatchOptions(guess=guess and players > 1))
    inputs = 0
    save_at = rng.randrange(40, 400)
    while match.phase is not JumpyPhase.MATCH_OVER:
        inputs += 1
        assert inputs < 20_000
        phase = match.phase
        if phase is JumpyPhase.RACE_OVER:
            match.next_race()
        elif phase is JumpyPhase.PREDICT and match.missing_predictions():
            for player in names:
                match.predict(player, rng.sample(NAMES, 3))
            if match.options.guess:
                for player in names:
                    target = rng.choice([p for p in names if p != player])
                    match.guess(player, target, rng.sample(NAMES, 3))
        elif phase in (JumpyPhase.PREDICT, JumpyPhase.ROLL):
            match.roll(rng.randint(1, 6), player=match.current_player)
        elif match.must_forfeit:
            match.forfeit()
        else:
            match.move(rng.choice(match.legal_moves()).horse)
        if inputs == save_at:
            assert JumpyJackMatch.from_json(match.to_json()) == match
    for result in match.results:
        assert set(result.points.values()) <= {0, 2, 4, 10}
        assert set(result.bonus.values()) <= {0, 1, 2, 4}
    totals = match.scores()
    assert max(totals.values()) >= 16
    assert all(totals[w] == max(totals.values()) for w in match.winners())
    running = dict.fromkeys(names, 0)
    for number, result in enumerate(match.results, start=1):
        for player in names:
            running[player] += result.total(player)
        # the match goes on exactly until a race after which someone has 16 or more
        assert (max(running.values()) >= 16) == (number == len(match.results))
    assert JumpyJackMatch.from_json(match.to_json()) == match
