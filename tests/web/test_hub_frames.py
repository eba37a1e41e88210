"""The live frames: every page sent the same parts of a picture shares one written frame."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.web import hub as hub_module
from companion.web.hub import Hub, PageSocket, Snapshot


def _page(seat: str | None = None) -> PageSocket:
    return PageSocket(socket=None, seat=seat, host=False)  # type: ignore[arg-type]


def test_ten_scoreboards_share_one_frame_and_a_seat_gets_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written: list[Any] = []
    real = json.dumps

    def counted(value: Any) -> str:
        written.append(value)
        return real(value)

    monkeypatch.setattr(hub_module.json, "dumps", counted)
    hub = Hub()
    boards = [_page() for _ in range(10)]
    anna = _page("Anna")
    hub.publish(Snapshot(1, "<p>race 1</p>", {"Anna": "<p>bet: red</p>"}, language="fr"))
    frames = [hub.message(board) for board in boards]
    assert len(written) == 1, "one frame written for ten scoreboards"
    assert frames[0] is not None and all(frame is frames[0] for frame in frames)
    assert json.loads(frames[0]) == {"v": 1, "lang": "fr", "public": "<p>race 1</p>"}
    assert json.loads(hub.message(anna) or "{}") == {
        "v": 1,
        "lang": "fr",
        "public": "<p>race 1</p>",
        "private": "<p>bet: red</p>",
    }
    assert hub.message(boards[3]) is None, "a page that has seen it all gets nothing"

    hub.publish(Snapshot(2, "<p>race 1</p>", {"Anna": ""}, language="fr"))
    assert all(hub.message(board) is None for board in boards)
    assert json.loads(hub.message(anna) or "{}") == {"v": 2, "lang": "fr", "private": ""}
    hub.publish(Snapshot(3, "<p>race 2</p>", {"Anna": ""}, language="fr"))
    late = _page()  # a scoreboard opened now gets the whole picture
    assert json.loads(hub.message(late) or "{}") == {
        "v": 3,
        "lang": "fr",
        "public": "<p>race 2</p>",
    }
    assert json.loads(hub.message(boards[0]) or "{}") == {
        "v": 3,
        "lang": "fr",
        "public": "<p>race 2</p>",
    }
    assert json.loads(hub.message(anna) or "{}") == {
        "v": 3,
        "lang": "fr",
        "public": "<p>race 2</p>",
    }
