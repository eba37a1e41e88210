"""The TV's scoreboard follows a whole race of every game in Chromium: after every input each
horse stands in its square (its place drawn where the engine says it is), the horse that moved
walks there square by square, finished horses stand on the podium in order, OUT horses off
the track, no two labels cover each other, and the page never scrolls sideways on a TV or a
phone; the end of a race is cheered, except on a screen that asks for reduced motion (where
horses do not walk either); the Jockey settlement names both horses of a double bet."""

from __future__ import annotations

from typing import Any

from companion.games.course_hippique import CourseHippiqueBoard
from companion.games.jockey import JockeyBoard
from companion.games.jumpy_jack import HorseState, JumpyJackBoard, Landing
from companion.session.log import BetEntry, MoveEntry
from tests.fixture_game.engine import GAME as FIXTURE
from tests.fixture_game.engine import ChevauxBoard
from tests.web.conftest import PHONE, TV
from tests.web.tv import REPLACE, Race, open_board

#: Replace the public part as a live frame does, let every walk run to its end, and read
#: where each horse is drawn and where each place of the track is.
LOOK = (
    "async html => {\n  ("
    + REPLACE
    + """)(html);
  await Promise.resolve();  // the script hears of the new picture (a mutation record) first
  const walks = document.getAnimations().map(a => ({
    horse: a.effect.target.getAttribute("data-horse"),
    frames: a.effect.getKeyframes().length,
  }));
  document.getAnimations().forEach(a => a.finish());
  const box = el => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const horses = [...document.querySelectorAll("#public g.horse")].map(h => ({
    name: h.getAttribute("data-horse"), where: h.getAttribute("data-square"),
    box: box(h.querySelector("circle:last-of-type")),
  }));
  const places = {}, squares = [];
  document.querySelectorAll("#public [data-place]").forEach(p => {
    const where = p.getAttribute("data-place");
    if (horses.some(h => h.where === where)) { places[where] = box(p); }
    if (/^[0-9]+$|^ring-0$/.test(where)) { squares.push(p); }
  });
  const out = horses.filter(h => h.where === "out").map(h => h.box);
  const middle = b => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
  const onSquare = out.some(o => squares.some(p => {
    const b = box(p), m = middle(o);
    return b[0] <= m[0] && m[0] <= b[2] && b[1] <= m[1] && m[1] <= b[3];
  }));
  return {walks, horses, places, onSquare};
}"""
)
#: Every label of the track and every end label of the chart, as boxes on the screen.
LABELS = """() => [...document.querySelectorAll(
  "#public .hurdle-name, #public .box-name, #public .label, #public .chart text[fill], " +
  "#public .narration")].map(t => {
    const r = t.getBoundingClientRect();
    return [t.textContent, r.left, r.top, r.right, r.bottom];
  })"""
OVER = ("race_over", "match_over", "game_over")


def expected(board: Any) -> dict[str, str]:
    """Where the engine says each horse is, as the drawing names places."""
    if isinstance(board, JumpyJackBoard):
        return {  # the podium holds places 1-3, eliminated horses too (as they score)
            h.name: f"podium-{h.place}"
            if h.state is HorseState.FINISHED or (h.place is not None and h.place <= 3)
            else "out"
            if h.state is HorseState.OUT
            else str(h.square or 0)
            for h in board.horses
        }
    if isinstance(board, CourseHippiqueBoard):
        return {
            s.letter: "podium-1" if board.winner == s else f"{s.letter}-{p}"
            for s, p in board.positions.items()
        }
    assert isinstance(board, JockeyBoard)
    order = [str(h) for h in board.finish_order]
    return {
        str(h): f"podium-{order.index(str(h)) + 1}" if p > board.track_length else str(max(p, 0))
        for h, p in board.progress.items()
    }


def inside(point: tuple[float, float], box: list[float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def check_places(seen: dict[str, Any], board: Any) -> None:
    """Every horse drawn where the engine says it is: in its square, box or podium step; an
    OUT horse on no square of the track."""
    assert not seen["onSquare"]
    want = expected(board)
    drawn = {h["name"]: h for h in seen["horses"]}
    assert {n: h["where"] for n, h in drawn.items()} == want
    for name, horse in drawn.items():
        left, top, right, bottom = horse["box"]
        middle = ((left + right) / 2, (top + bottom) / 2)
        where = horse["where"]
        place = seen["places"].get(where)
        if where.startswith("podium-"):
            if place is None:  # a fourth finisher stands beside the podium
                continue
            assert place[0] <= middle[0] <= place[2], (name, where)
            assert place[1] - 3 * (bottom - top) <= bottom <= place[1] + 2, (name, where)
        else:
            assert place is not None, where
            assert inside(middle, place), (name, where, middle, place)


def check_labels(page: Any) -> None:
    boxes = page.evaluate(LABELS)
    assert boxes
    for (said, *a), (other, *b) in ((x, y) for i, x in enumerate(boxes) for y in boxes[i + 1 :]):
        apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        assert apart, f"{said!r} covers {other!r}"


def check_fit(page: Any) -> None:
    for viewport in (TV, PHONE):
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.set_viewport_size(TV)


def walked_squares(board: JumpyJackBoard, squares: int = 30) -> int:
    """How many squares the last Jumpy Jack move passed, to where it ended."""
    move = board.last_move
    assert move is not None
    final = move.bounce if move.bounce is not None else move.landing
    return min(final, squares) - move.origin + (1 if move.effect is Landing.RESTART else 0)


def play_race(browser: Any, race: Race, moved: Any = None) -> Any:
    """Play ``race`` to the end of its race on a TV page, checking the picture after every
    input that moves a horse; return the page (still open), its context, and the whole page
    as it stood before the last move."""
    context, page = open_board(browser, race.page(), TV)
    shown = expected(race.session.view().board)
    before = last = race.page()
    for entry in race.until(lambda s: s.view().phase in OVER):
        board = race.session.view().board
        if expected(board) == shown:  # no horse moved: the picture is not worth a look
            continue
        shown = expected(board)
        before, last = last, race.page()
        seen = page.evaluate(LOOK, race.drawn())
        check_places(seen, board)
        if moved is not None:
            moved(entry, board, seen["walks"])
    page.evaluate(REPLACE, race.drawn())  # the race's end: its reveal and settlement
    marks = page.evaluate(
        "() => [...document.querySelectorAll('g.horse text')].map(t => t.textContent)"
    )
    assert len(set(marks)) == len(marks), marks  # the letters too tell the horses apart
    return context, page, before


def test_jumpy_jack_on_the_tv_through_a_whole_race(browser: Any) -> None:
    race = Race("jumpy_jack", "de", 17)  # gelb and grün: Ge and Gr; every hurdle is met
    walks: list[int] = []
    met: set[object] = set()

    def moved(entry: Any, board: Any, seen: list[dict[str, Any]]) -> None:
        if isinstance(entry, MoveEntry):
            walk = [w["frames"] for w in seen if w["horse"] == entry.horse]
            assert walk == [walked_squares(board) + 2], (entry, board.last_move)
            walks.append(walk[0])
            met.add(board.last_move.effect)
            if board.last_move.bounce is not None:
                met.add("bounce")

    context, page, _ = play_race(browser, race, moved)
    board = race.session.view().board
    assert isinstance(board, JumpyJackBoard)
    podium = page.evaluate(
        "() => [...document.querySelectorAll('g.horse[data-square^=podium]')]"
        ".sort((a, b) => a.getAttribute('data-square') < b.getAttribute('data-square') ? -1 : 1)"
        ".map(h => h.getAttribute('data-horse'))"
    )
    assert podium == [h for h in board.podium if h is not None]
    assert met == {*Landing, "bounce"}  # walked onto STOP, OUT, RESTART, over the line, a DOUBLE
    fills = page.evaluate(  # each hurdle in its colour: the game's own styles reach the TV
        "() => Object.fromEntries(['stop', 'double', 'out', 'restart'].map(h => [h,"
        " getComputedStyle(document.querySelector(`.sq.${h} circle`)).fill]))"
    )
    assert fills == {"stop": "rgb(179, 89, 0)", "double": "rgb(107, 47, 163)",
                     "out": "rgb(163, 18, 31)", "restart": "rgb(13, 115, 119)"}  # fmt: skip
    assert walks and max(walks) > 2  # horses walked square by square
    check_labels(page)
    check_fit(page)
    context.close()


def test_course_hippique_on_the_tv_through_a_whole_race(browser: Any) -> None:
    race = Race("course_hippique", "fr", 2)
    context, page, before = play_race(browser, race)
    cheering = "() => getComputedStyle(document.querySelector('.cheer')).animationName"
    assert page.evaluate(cheering) == "cheer"  # the race is won: a burst of light
    still, calm = open_board(browser, before, TV, still=True)
    calm.evaluate(REPLACE, race.drawn())  # reduced motion: no walk, no burst
    assert calm.evaluate("() => document.getAnimations().length") == 0
    assert (
        calm.evaluate("() => getComputedStyle(document.querySelector('.cheer')).display") == "none"
    )
    still.close()
    board = race.session.view().board
    assert isinstance(board, CourseHippiqueBoard) and board.winner is not None
    on_podium = page.evaluate("() => document.querySelector('g.horse[data-square=podium-1]').id")
    assert on_podium == f"horse-{board.winner.letter}"
    turned = page.evaluate("() => document.querySelectorAll('.card.turned').length")
    assert turned == 1
    check_labels(page)
    check_fit(page)
    context.close()


def test_jockey_on_the_tv_through_a_whole_race_and_a_double_bet(browser: Any) -> None:
    race = Race("jockey", "en", 8)
    for bet in (
        BetEntry("Anna", "yellow", 200, "double", "brown"),
        BetEntry("Ben", "red", 300, "order", "blue", 100),
        BetEntry("Chloé", "red", 100),
    ):
        race.play(bet)

    def moved(entry: Any, board: Any, seen: list[dict[str, Any]]) -> None:
        effect = board.last_effect
        if effect is not None and effect.moved and effect.horse is not None:
            walk = [w["frames"] for w in seen if w["horse"] == str(effect.horse)]
            step = 1 if effect.end >= effect.start else -1
            passed = range(effect.start + step, min(effect.end, 80) + step, step)
            squares = len([s for s in passed if 0 < s <= 80])
            assert walk == [squares + 2], (effect, walk)

    context, page, _ = play_race(browser, race, moved)
    board = race.session.view().board
    assert isinstance(board, JockeyBoard) and board.finish_order
    order = [str(h) for h in board.finish_order][:3]
    podium = page.evaluate(
        "n => [...Array(n).keys()].map(i => document.querySelector("
        "`g.horse[data-square=podium-${i + 1}]`).getAttribute('data-horse'))",
        len(order),
    )
    assert podium == order
    settlement = page.inner_text(".reveal")
    assert "double yellow + brown 200" in settlement
    check_labels(page)
    check_fit(page)
    context.close()


def test_the_added_game_on_the_tv_through_a_whole_race(browser: Any) -> None:
    """The fixture game brings its own track: every horse at its square after each input, the
    moved horse's walk drawn from where it was, the page fitting a TV and a phone."""
    race = Race(FIXTURE.kind, "fr", 11)
    context, page = open_board(browser, race.page(), TV)
    for _ in race.until(lambda s: s.view().finished):
        board = race.session.view().board
        assert isinstance(board, ChevauxBoard)
        page.evaluate(REPLACE, race.drawn())
        drawn = page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('.tv-track g.horse')]"
            ".map(h => [h.dataset.horse, [h.dataset.square, h.dataset.from || '']]))"
        )
        move = board.last_move
        assert drawn == {
            h.name: [str(h.square), str(move.origin) if move and move.horse == h.name else ""]
            for h in board.horses
        }
    check_labels(page)
    check_fit(page)
    context.close()
