"""A game's own styles come with the game: the shared stylesheets hold none of them, and the
pages load every registered game's file (the fixture game's own folder included)."""

from __future__ import annotations

import re
from importlib import resources

from companion.games.registry import KINDS, style_file
from companion.render.language import speaking
from companion.web.pages import scoreboard_page
from companion.web.routes.pages import games_css

SELECTOR = re.compile(r"^([^{/*][^{]*)\{", re.M)


def test_each_games_styles_are_its_own_and_every_page_loads_them() -> None:
    shared = resources.files("companion.web").joinpath("static", "tv.css").read_text("utf-8")
    served = games_css().decode("utf-8")
    brought = [kind for kind in KINDS if style_file(kind).is_file()]
    assert {"jumpy_jack", "petits_chevaux"} <= set(brought)
    for kind in brought:
        own = style_file(kind).read_text(encoding="utf-8")
        assert own in served, f"{kind}: its styles are not served"
        for selector in SELECTOR.findall(own):
            assert selector.strip() not in shared, f"{kind}: {selector.strip()} is in tv.css"
    with speaking("en"):
        assert '<link rel="stylesheet" href="/static/games.css">' in scoreboard_page("")
