"""The phone pads drawn on the server: horses chosen on coloured chips with nothing chosen by
default, a refusal said once below the form that caused it, the sealed choice shown again,
the phase and turn as the table shows them, an undo that says what it took back, and the
files that install the pages on a home screen."""

from __future__ import annotations

import json
import re
from importlib import resources
from io import BytesIO

from PIL import Image

from companion.render.language import speaking
from companion.session.log import BetEntry, Predict
from companion.session.session import Session
from companion.web.fragments import public_html
from companion.web.routes.pages import STATIC
from companion.web.state import public_state
from companion.web.undone import undone_sentence
from tests.web.test_forms import page_of, tap
from tests.web.test_page_languages import pages, table_side


def chips_of(page: str, name: str) -> tuple[list[str], dict[str, str]]:
    """The places of the chip picker whose first field is ``name`` (their values), and each
    chip's value with its state (``aria-pressed``)."""
    box = re.search(
        rf'<fieldset class="chips"[^>]*>.*?name="{re.escape(name)}".*?</fieldset>', page
    )
    assert box is not None, f"no chips for {name}"
    places = re.findall(r'<input type="hidden" name="[^"]+" value="([^"]*)" data-chip', box[0])
    pressed = dict(re.findall(r'class="chip" value="([^"]+)" aria-pressed="(true|false)"', box[0]))
    return places, pressed


def test_a_podium_starts_empty_in_colours_and_shows_the_sealed_one_again() -> None:
    session = Session.in_memory()
    session.new_game("jumpy_jack", ["Anna", "Bob"])
    page = page_of(session, "Anna")
    places, pressed = chips_of(page, "horses.0")
    assert places == ["", "", ""] and set(pressed.values()) == {"false"}  # no default
    assert "<select" not in page
    assert '<circle cx="10" cy="10" r="8" fill="#ffffff" stroke="#222"' in page  # white, outlined
    tap(session, "Anna", {"type": "predict", "horses": ["blue", "white", "green"]})
    page = page_of(session, "Anna")
    places, pressed = chips_of(page, "horses.0")
    assert places == ["blue", "white", "green"]  # the sealed prediction, place by place
    assert [v for v, state in pressed.items() if state == "true"] == ["blue", "green", "white"]
    assert "Change my prediction" in page and "Your prediction: blue white green" in page
    assert chips_of(page_of(session, "Bob"), "horses.0")[0] == ["", "", ""]  # Bob's own, empty


def test_a_refusal_is_said_once_below_the_form_that_caused_it() -> None:
    session = Session.in_memory()
    session.new_game("jumpy_jack", ["Anna", "Bob"])
    outcome = session.submit(Predict("Anna", ("red", "red", "blue")))
    assert not outcome.accepted
    page = page_of(session, "Anna")
    said = re.findall(r'<p class="refusal"[^>]*>([^<]*)</p>', page)
    assert said == ["A prediction names 3 different horses of this race."]
    form_end = page.index("</form>", page.index('data-type="predict"'))
    assert page.index('<p class="refusal"') == form_end + len("</form>")  # just below it
    public = public_html(public_state(session))
    # The public part names the player, so that Anna's own page hides it (her phone says why).
    assert '<p class="refusal" data-player="Anna">Anna: prediction refused' in public
    assert "refusal" not in page_of(session, "Bob")


def test_the_jockey_phase_and_turn_are_the_tables() -> None:
    """The engine says ``betting`` until the race's first card; the pages said so too while
    the LCD (and the starter's phone) already asked for that card."""
    session = Session.in_memory()
    session.new_game("jockey", ["Anna", "Bob"])
    status = re.compile(r'<p class="status">(Phase: [^<]*)</p>')
    public = public_html(public_state(session))
    assert status.findall(public)[0] == "Phase: betting"  # no turn while bets are awaited
    assert "Waiting for: Anna, Bob" in public  # the LCD asks Anna first
    assert "Your turn" not in page_of(session, "Anna")
    tap(session, "Anna", {"type": "bet", "kind": "win", "horse": "red", "stake": "100"})
    public = public_html(public_state(session))
    assert status.findall(public)[0] == "Phase: betting" and "Waiting for: Bob" in public
    tap(session, "Bob", {"type": "bet", "kind": "win", "horse": "red", "stake": "100"})
    assert session.view().phase == "betting"  # the engine's word, unchanged
    public = public_html(public_state(session))
    assert status.findall(public)[0] == "Phase: racing · turn: Anna"
    anna = page_of(session, "Anna")
    assert 'class="turn"' in anna and "Your turn" in anna and "Play a card" in anna
    assert "Your turn" not in page_of(session, "Bob")
    tap(session, "Anna", {"type": "play_card", "card": "red+7"})
    public = public_html(public_state(session))
    assert status.findall(public)[0] == "Phase: racing · turn: Bob"
    assert "Play a card" in page_of(session, "Bob") and "Your turn" in page_of(session, "Bob")


def test_an_undo_says_what_it_took_back_in_the_tables_language() -> None:
    session = Session.in_memory()
    session.new_game("jockey", ["Anna", "Bob"])
    bet = tap(session, "Anna", {"type": "bet", "kind": "win", "horse": "red", "stake": "100"})
    outcome = session.undo()
    assert outcome.accepted and outcome.undone == bet
    assert isinstance(bet, BetEntry)
    said = {}
    for language in ("en", "fr", "de"):
        with speaking(language):
            said[language] = undone_sentence(outcome.undone)
    assert said == {
        "en": "Undone: Anna's bet.",  # a sealed bet is named, never shown
        "fr": "Annulé\u202f: la mise placée par Anna.",  # set as French sets it
        "de": "Rückgängig gemacht: die Wette von Anna.",
    }
    assert session.submit(Predict("Anna", ("red",))).undone is None


def test_the_pages_install_to_a_home_screen() -> None:
    """The manifest every page links is valid JSON, served as one of the pages' files, and
    its icons are there at the sizes it says (the browser test asks for them over HTTP)."""
    for page in pages(table_side("en", "jumpy_jack", ["Anna", "Bob"])).values():
        assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    static = resources.files("companion.web").joinpath("static")
    assert STATIC["manifest.webmanifest"] == "application/manifest+json"
    manifest = json.loads(static.joinpath("manifest.webmanifest").read_text())
    assert manifest["start_url"] == "/play" and manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        assert STATIC[name] == icon["type"] == "image/png"
        with Image.open(BytesIO(static.joinpath(name).read_bytes())) as picture:
            assert f"{picture.width}x{picture.height}" == icon["sizes"]
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes


def test_every_page_names_who_the_lcd_asks_never_the_roller_during_predictions() -> None:
    """The pages said "turn: Anna" (the first roller) while the LCD asked Bob for his
    prediction; now they name the players still to predict, in the LCD's order."""
    session = Session.in_memory()
    session.new_game("jumpy_jack", ["Anna", "Bob", "Chloé"])
    tap(session, "Anna", {"type": "predict", "horses": ["red", "blue", "green"]})
    public = public_html(public_state(session))
    status = re.findall(r'<p class="status">([^<]*)</p>', public)
    assert status[:2] == ["Phase: predictions", "Waiting for: Bob, Chloé"]
    assert "turn: Anna" not in public


def test_a_course_hippique_race_is_on_once_every_bet_is_in_as_the_lcd_says() -> None:
    """Every bet in, the LCD asks the croupier to turn: the pages no longer say "betting"."""
    session = Session.in_memory()
    session.new_game("course_hippique", ["Anna", "Bob", "Chloé"])
    tap(session, "Anna", {"type": "deal_course", "cards": "7H,QS,2C,9D,KH,5S,8C"})
    status = re.compile(r'<p class="status">([^<]*)</p>')
    assert status.findall(public_html(public_state(session)))[0] == "Phase: betting · turn: Anna"
    tap(session, "Anna", {"type": "set_max_bet", "amount": "5"})
    assert "Waiting for: Bob, Chloé" in public_html(public_state(session))
    tap(session, "Bob", {"type": "pass"})
    tap(session, "Chloé", {"type": "bet", "horse": "H", "stake": "2"})
    assert status.findall(public_html(public_state(session)))[0] == "Phase: racing · turn: Anna"
    assert "Your turn" in page_of(session, "Anna") and "Turn a card" in page_of(session, "Anna")
