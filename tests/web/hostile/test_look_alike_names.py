"""Names at the table's door: the host page's new game refuses two people who fold equal and a
name that mixes alphabets, with the table's sentence; the panel's menu offers one name a
person."""

from __future__ import annotations

import json

import pytest

from companion.daemon.flows.menu import seat_names
from tests.web.hostile.conftest import Served


@pytest.mark.parametrize(
    ("players", "code", "sentence"),
    [
        ("Anna\nanna", "duplicate_player", "Anna and anna count as one name."),
        ("Strauß\nStrauss", "duplicate_player", "Strauß and Strauss count as one name."),
        ("Ann a\nAnn  a", "duplicate_player", "Ann a and Ann  a count as one name."),
        ("Anna\nAn\u200bna", "duplicate_player", "Anna and An\u200bna count as one name."),
        ("\u0410nna\nBob", "mixed_scripts", "\u0410nna mixes alphabets: type it again."),
    ],
)
def test_the_host_page_refuses_two_people_who_fold_equal(
    served: Served, players: str, code: str, sentence: str
) -> None:
    host = served.host_cookie()
    form = {"do": "new_game", "game": "jumpy_jack", "players": players}
    answer = served.send("POST", "/api/host", json.dumps(form).encode(), Cookie=host)
    assert answer.status == 409, answer
    assert (answer.json()["code"], answer.json()["sentence"]) == (code, sentence)
    assert served.call(lambda: served.companion.session.table) is None  # nothing started


def test_the_menu_offers_one_name_a_person() -> None:
    configured = ["Anna", "anna", "Ann a", "Ann  a", "Strauß", "STRAUSS"]
    assert seat_names(configured, 4) == ("Anna", "Ann a", "Strauß", "Player 4")
