"""`companion odds`: a course's chances against the announced odds, and clear refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from companion.cli import main

COURSE = "7H,QS,2D,9H,KC,4S,JH"


def odds(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["odds", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_course_prints_every_horse_with_odds_chance_fair_odds_and_margin(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = odds(capsys, "--course", COURSE)
    assert status == 0
    assert "Course: 7H QS 2D 9H KC 4S JH" in out
    rows = {line.split()[1]: line for line in out.splitlines() if line and line[0] in "♠♥♦♣"}
    assert set(rows) == {"spades", "hearts", "diamonds", "clubs"}
    assert "5 to 1" in rows["hearts"] and "8.48%" in rows["hearts"]
    assert "2 to 1" in rows["diamonds"] and "35.93%" in rows["diamonds"]
    assert "-7.8%" in rows["clubs"]  # paying 2 to 1 on a 36% horse favours the bettors
    assert "exact" in out


def test_json_gives_exact_fractions_that_sum_to_one(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = odds(capsys, "--course", COURSE, "--turned", "3H,4D,5D,6D", "--json")
    assert status == 0
    report = json.loads(out)
    assert report["exact"] is True and report["turned"] == ["3H", "4D", "5D", "6D"]
    horses = {h["horse"]: h for h in report["horses"]}
    assert sum(Fraction(h["fraction"]) for h in horses.values()) == 1
    assert horses["D"]["position"] == 3 and horses["D"]["course_cards"] == 1
    assert horses["H"]["odds"] == 5
    p = horses["D"]["probability"]
    assert horses["D"]["house_margin"] == pytest.approx(1 - 3 * p)
    assert horses["D"]["fair_odds"] == pytest.approx((1 - p) / p)


def test_a_finished_race_shows_its_winner(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = odds(capsys, "--course", COURSE, "--turned", "3D,4D,5D,6D,7D,8D,9D,10D")
    assert status == 0 and "diamonds won" in out


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--course", "7H,QS,ZZ,9H,KC,4S,JH"], "not_a_card"),
        (["--course", "7H,QS,7H,9H,KC,4S,JH"], "card_seen"),
        (["--course", "7H,QS,AD,9H,KC,4S,JH"], "ace_in_course"),
        (["--course", "7H,2H,3H,9H,KH,4S,JH"], "redeal_required"),
        (["--course", COURSE, "--turned", "3D,QS"], "card_seen"),
        (["--course", COURSE, "--turned", "3D,3D"], "card_seen"),
        (["--course", COURSE, "--turned", "AS"], "ace_in_race"),
        (["--course", COURSE, "--turned", "3D,4D,5D,6D,7D,8D,9D,10D,JD"], "race_over"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message_and_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], code: str
) -> None:
    status, out, err = odds(capsys, *args)
    assert status == 2 and out == ""
    assert err.startswith("companion odds: ") and f"({code})" in err


def test_a_course_must_have_5_to_7_cards(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = odds(capsys, "--course", "7H,QS,2D")
    assert status == 2 and "5, 6 or 7 cards" in err
    status, out, _ = odds(capsys, "--course", "7H,QS,2D,9H,KC")
    assert status == 0 and "needs 6 cards" in out


def test_setback_prints_a_labelled_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = odds(capsys, "--setback", "first", "--turned", "3H,4H", "--samples", "1000")
    assert status == 0 and "ESTIMATE from 1000" in out and "±" in out
    status, _, err = odds(capsys, "--setback", "all", "--course", COURSE)
    assert status == 2 and "face down" in err


def test_the_installed_program_exits_2_on_a_bad_card() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "odds", "--course", "7H,QS,2D,9H,KC,4S,XX"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert '"XX" is not one of the 52 cards' in done.stderr
