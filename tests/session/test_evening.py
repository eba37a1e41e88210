"""The evening's ranking: place points per game (ties share the better place), added up
across games of different kinds, wins breaking a tie."""

from __future__ import annotations

from companion.session.evening import Evening, EveningStanding, GameResult, place_points


def result(
    game_id: int, kind: str, figures: dict[str, int], winners: tuple[str, ...]
) -> GameResult:
    points = place_points(figures)
    return GameResult(
        game_id, kind, tuple(figures), winners, tuple(figures.items()), tuple(points.items())
    )


def test_places_give_points_and_players_level_share_the_better_place() -> None:
    assert place_points({"Anna": 3, "Ben": 1, "Cleo": 1}) == {"Anna": 3, "Ben": 2, "Cleo": 2}
    assert place_points({"Anna": -4, "Ben": 6, "Cleo": -2}) == {"Anna": 1, "Ben": 3, "Cleo": 2}
    assert place_points({"Anna": 0, "Ben": 0}) == {"Anna": 2, "Ben": 2}


def test_the_evening_adds_place_points_across_kinds_and_wins_break_a_tie() -> None:
    evening = Evening(
        (
            result(1, "jumpy_jack", {"Anna": 3, "Ben": 1, "Cleo": 1}, ("Anna",)),
            result(2, "course_hippique", {"Anna": -4, "Ben": 6, "Cleo": -2}, ("Ben",)),
            result(3, "jockey", {"Anna": 1900, "Ben": 700}, ("Anna",)),  # Cleo sat it out
        )
    )
    # By hand: Anna 3 + 1 + 2 = 6, Ben 2 + 3 + 1 = 6, Cleo 2 + 2 = 4; Anna won twice.
    assert evening.ranking(("Cleo", "Ben", "Anna")) == (
        EveningStanding("Anna", 6, 2, 3),
        EveningStanding("Ben", 6, 1, 3),
        EveningStanding("Cleo", 4, 0, 2),
    )
    assert Evening().ranking() == ()
