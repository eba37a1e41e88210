"""The TV's scoreboard read from the sofa: for every game, at 1920x1080 and 1280x720, in
English, French and German, with six players where the game takes six, mid-race, between two
races and at the game's end, the page never scrolls; the track takes at least 55 % of the
width; every horse's disc is at least 48 px across at 1080p; every name and figure is at
least 28 px high at 1080p and the headings are larger; no two words cover each other, no
horse hides another, no line of the chart crosses one of its labels; between races and at the
end the winner screen stands in place of the track; at the end the evening's standings are on
the screen too. (Sizes at 720p are the same shares of the screen: two thirds.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games.registry import GAMES, find_game
from companion.session.session import Session
from companion.web.games import pages_of
from companion.web.shared import Public
from tests.web.tv import Race, open_board

SCREENS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
LANGUAGES = ("en", "fr", "de")
SIX = ("Anna", "Benoît", "Chloé", "Dominique", "Éloïse", "François")
#: At 1080p: the least disc across, the least size of a name or a figure.
DISC, TEXT = 48, 28

#: What a TV's screen shows now, measured in the browser.
MEASURE = """() => {
  const seen = el => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    for (let at = el; at && at.nodeType === 1; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.display === "none" || style.visibility === "hidden") return false;
    }
    return true;
  };
  const box = r => [r.left, r.top, r.right, r.bottom];
  const pub = document.getElementById("public");
  // Every word: each text node of the HTML (its own box), each SVG text; how big it is drawn.
  const words = [];
  const walker = document.createTreeWalker(pub, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest("svg") || !seen(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      words.push({said: node.textContent.trim(), box: box(r),
                  size: parseFloat(getComputedStyle(el).fontSize), kind: "html",
                  heading: !!el.closest("h1, h2, summary, .champions"),
                  side: !!el.closest(".side")});
    }
  }
  for (const t of pub.querySelectorAll("svg text")) {
    if (!t.textContent.trim() || !seen(t) || t.closest("title")) continue;
    const scale = t.getScreenCTM().a;
    const kind = t.closest(".sq") || t.classList.contains("sq-n") ? "square"
      : t.closest("g.horse") ? "mark" : t.closest(".chart") ? "chart" : "track";
    words.push({said: t.textContent.trim(), box: box(t.getBoundingClientRect()),
                size: scale * parseFloat(getComputedStyle(t).fontSize), kind, heading: false});
  }
  const discs = [...pub.querySelectorAll("g.horse circle:last-of-type, .result svg.disc")]
    .filter(seen).map(c => {
      const r = c.getBoundingClientRect();
      return {name: (c.closest("[data-horse]") || c).getAttribute("data-horse") || "result",
              box: box(r), across: Math.min(r.width, r.height)};
    });
  // The chart's lines, as segments on the screen.
  const lines = [];
  for (const line of pub.querySelectorAll(".chart polyline")) {
    if (!seen(line)) continue;
    const m = line.getScreenCTM();
    const points = [...line.points].map(p => [m.a * p.x + m.c * p.y + m.e,
                                              m.b * p.x + m.d * p.y + m.f]);
    for (let i = 1; i < points.length; i++) lines.push([...points[i - 1], ...points[i]]);
  }
  const track = pub.querySelector(".track-svg");
  let drawn = 0;
  if (track && seen(track)) {
    const r = track.getBoundingClientRect(), v = track.viewBox.baseVal;
    drawn = v.width * Math.min(r.width / v.width, r.height / v.height);
  }
  const all = [...document.querySelectorAll("body *")].filter(seen);
  const result = pub.querySelector(".result");
  const evening = pub.querySelector("details.evening");
  return {
    height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth,
    bottom: Math.max(...all.map(el => el.getBoundingClientRect().bottom)),
    right: Math.max(...all.map(el => el.getBoundingClientRect().right)),
    words, discs, lines, drawn,
    result: result && seen(result) ? result.innerText : null,
    evening: evening && seen(evening) ? evening.innerText : null,
    track: !!(track && seen(track)),
  };
}"""


def apart(a: list[float], b: list[float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share no area (touching is apart)."""
    return a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5


def crosses(segment: list[float], box: list[float]) -> bool:
    """Whether a line segment passes through a box (sampled finely: a line is 4 px wide)."""
    x1, y1, x2, y2 = segment
    steps = max(2, int(max(abs(x2 - x1), abs(y2 - y1)) / 2))
    return any(
        box[0] - 2 <= x1 + (x2 - x1) * i / steps <= box[2] + 2
        and box[1] - 2 <= y1 + (y2 - y1) * i / steps <= box[3] + 2
        for i in range(steps + 1)
    )


def check(seen: dict[str, Any], screen: dict[str, int], where: str, *, track: bool) -> None:
    """Everything the sofa needs, on ``screen``."""
    share = screen["height"] / 1080
    assert seen["height"] <= screen["height"], f"{where}: the page scrolls ({seen['height']})"
    assert seen["width"] <= screen["width"], f"{where}: the page scrolls sideways"
    assert seen["bottom"] <= screen["height"] + 0.5, f"{where}: something below the screen"
    assert seen["right"] <= screen["width"] + 0.5, f"{where}: something right of the screen"
    if track:
        assert seen["drawn"] >= 0.55 * screen["width"], f"{where}: track {seen['drawn']:.0f} px"
    for disc in seen["discs"]:
        assert disc["across"] >= DISC * share - 0.5, f"{where}: {disc}"
    words = [w for w in seen["words"] if w["kind"] not in ("square", "mark")]
    small = [(w["said"], round(w["size"], 1)) for w in words if w["size"] < TEXT * share - 0.5]
    assert not small, f"{where}: too small: {small}"
    body = max((w["size"] for w in words if w.get("side") and not w["heading"]), default=0)
    for heading in (w for w in words if w["heading"]):  # (a board with no figures at its side)
        assert heading["size"] > body, f"{where}: heading {heading['said']!r} not larger"
    boxes = [(w["said"], w["box"]) for w in seen["words"] if w["kind"] != "mark"]
    for i, (said, one) in enumerate(boxes):
        for other, two in boxes[i + 1 :]:
            assert apart(one, two), f"{where}: {said!r} covers {other!r}"
    discs = seen["discs"]
    for i, one in enumerate(discs):
        middle = ((one["box"][0] + one["box"][2]) / 2, (one["box"][1] + one["box"][3]) / 2)
        for two in discs[i + 1 :]:
            there = ((two["box"][0] + two["box"][2]) / 2, (two["box"][1] + two["box"][3]) / 2)
            gap = ((middle[0] - there[0]) ** 2 + (middle[1] - there[1]) ** 2) ** 0.5
            assert gap >= (one["across"] + two["across"]) / 2, f"{where}: {one} hides {two}"
        for word in words:  # a disc stands on its square's number, never on a word
            assert apart(one["box"], word["box"]), f"{where}: {one['name']} on {word['said']!r}"
    for said, word in ((w["said"], w["box"]) for w in seen["words"] if w["kind"] == "chart"):
        for segment in seen["lines"]:
            assert not crosses(segment, word), f"{where}: a line crosses {said!r}"


def players_of(kind: str) -> tuple[str, ...]:
    """Six players where the game takes six (else as many as it takes)."""
    game = find_game(kind)
    return SIX[: max(game.low, min(game.high, len(SIX)))]


@pytest.mark.slow(12)
@pytest.mark.parametrize("kind", [game.kind for game in GAMES])
def test_the_tv_reads_from_the_sofa(browser: Any, kind: str, tmp_path: Path) -> None:
    players = players_of(kind)
    race = Race(kind, "en", 3, players, tmp_path / "journal.sqlite3")
    drawn_track = bool(race.drawn().count('class="tv-track"'))
    moments: dict[str, dict[str, str]] = {}

    def keep(moment: str) -> None:
        moments[moment] = {}
        for language in LANGUAGES:
            race.language = language
            moments[moment][language] = race.page()

    def between(session: Session) -> bool:
        """A race is over, not the game: the game's podium of horses is up."""
        view = session.view()
        public = Public(view.to_json(), view.board)
        return bool(pages_of(kind).finishers(public)) and not view.finished

    # Mid-race: into the second race, or a few inputs before the end of a one-race game (a
    # throwaway game of the same seed says how many inputs that takes).
    probe = Race(kind, "en", 3, players)
    second = len(list(probe.until(lambda s: s.view().race >= 2 or s.view().finished)))
    one_race = probe.session.view().finished
    mid = second - 3 if one_race else second
    for _, _entry in zip(range(mid), race.until(lambda s: s.view().finished), strict=False):
        pass
    for _ in range(0 if one_race else 12):
        if between(race.session) or race.session.view().finished:
            break
        race.step()
    keep("mid-race")
    list(race.until(lambda s: between(s) or bool(s.view().finished)))
    if between(race.session):
        keep("between races")
    list(race.until(lambda s: bool(s.view().finished)))
    keep("the end")
    assert set(moments) >= {"mid-race", "the end"}
    winners = race.session.view().winners
    for moment, pages in moments.items():
        for language, html in pages.items():
            context, page = open_board(browser, html, SCREENS[0], still=True)
            for screen in SCREENS:
                page.set_viewport_size(screen)
                where = f"{kind} {moment} {language} {screen['width']}x{screen['height']}"
                seen = page.evaluate(MEASURE)
                over = moment != "mid-race"
                check(seen, screen, where, track=drawn_track and not over)
                if over:
                    assert seen["result"] and not seen["track"], f"{where}: no winner screen"
                if moment == "the end":
                    assert all(name in seen["result"] for name in winners), where
                    assert seen["evening"], f"{where}: the evening's standings are not shown"
                    assert all(name in seen["evening"] for name in players), where
            context.close()
