"""Pieces of HTML every part of the pages shares: escaping, tables, lanes, forms and pickers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

from companion.games.colours import rgb_of
from companion.session.offers import Offer
from companion.web.words import t


def e(value: object) -> str:
    """Escape ``value`` for HTML text and attributes."""
    return escape(str(value), quote=True)


def grid(head: Sequence[str], rows: Iterable[Sequence[object]], cls: str = "") -> str:
    """A table with a header row; every cell escaped."""
    header = "".join(f"<th>{e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><tr>{header}</tr>{body}</table>'


def lane(label: str, value: int, top: int, colour: str = "#555", shown: str | None = None) -> str:
    """One horse's lane: its name, a bar as far along as ``value`` is of ``top``, the value
    (or ``shown`` in its place: a horse that left the track is at no square).

    The bar is a little SVG (its length and colour are attributes, not a style: the pages'
    Content-Security-Policy allows no inline style) in the horse's colour as the LEDs show it
    (the one colour table's, never the browser's colour of the same name); it has a dark
    outline, so a white or yellow horse's bar reads on the light track."""
    width = 0 if top <= 0 else max(0, min(100, round(100 * value / top)))
    at = e(value) if shown is None else e(shown)
    return (
        f'<div class="lane"><span class="name">{e(label)}</span>'
        '<span class="bar"><svg viewBox="0 0 100 1" preserveAspectRatio="none" '
        f'aria-hidden="true"><rect width="{width}" height="1" fill="{e(fill(colour))}" '
        'stroke="#222" stroke-width="1.5" vector-effect="non-scaling-stroke"/></svg></span>'
        f'<span class="at">{at}</span></div>'
    )


def entry_form(kind: str, button: str, fields: str, cls: str = "") -> str:
    """A form that makes one table-log entry of ``kind`` (the page's script sends it)."""
    return (
        f'<form class="entry{cls}" data-type="{e(kind)}">{fields}'
        f'<button type="submit">{e(button)}</button></form>'
    )


def select(name: str, choices: Iterable[tuple[str, str]], label: str) -> str:
    """A labelled drop-down of (value, words) choices."""
    options = "".join(f'<option value="{e(v)}">{e(w)}</option>' for v, w in choices)
    return f'<label>{e(label)} <select name="{e(name)}">{options}</select></label>'


def stepper(name: str, label: str, top: int | None, step: int = 1, value: int | None = None) -> str:
    """A labelled whole number with − and + buttons (``step`` apart, at most ``top``)."""
    limit = f' max="{top}"' if top is not None else ""
    return (
        f'<label>{e(label)} <span class="stake"><button type="button" class="down">−</button>'
        f'<input name="{e(name)}" type="number" inputmode="numeric" min="0"{limit} '
        f'step="{step}" value="{step if value is None else value}" required>'
        '<button type="button" class="up">+</button></span></label>'
    )


#: A card as a picker offers it: the value sent, its label, and the colour of the horse it
#: moves (None for a card of no horse).
PickedCard = tuple[str, str, str | None]


def card_button(card: PickedCard, attributes: str) -> str:
    """One card's button, its horse's colour as a disc before its label."""
    code, label, colour = card
    swatch = dot(colour) if colour is not None else ""
    return f'<button {attributes} value="{e(code)}">{swatch}{e(label)}</button>'


def card_picker(kind: str, cards: Iterable[PickedCard]) -> str:
    """A row of card buttons: tapping one makes an entry of ``kind`` with that ``card``."""
    buttons = "".join(card_button(card, 'type="submit" name="card"') for card in cards)
    return f'<form class="entry picker" data-type="{e(kind)}">{buttons}</form>'


@dataclass(frozen=True)
class Chip:
    """One choice of a chip picker: the value sent, its words, and a horse's colour (a word or
    ``#rrggbb``; None for a choice that is no horse)."""

    value: str
    words: str
    colour: str | None = None


def fill(colour: str) -> str:
    """A colour word of the table (or ``#rrggbb``) as an SVG fill; grey for an unknown one."""
    rgb = rgb_of(colour)
    return "#888888" if rgb is None else "#{:02x}{:02x}{:02x}".format(*rgb)


def dot(colour: str) -> str:
    """A horse's colour as a disc with a dark outline (a white or yellow horse reads too): an
    SVG attribute, since the pages' Content-Security-Policy allows no inline style."""
    return (
        '<svg class="dot" viewBox="0 0 20 20" aria-hidden="true" focusable="false">'
        f'<circle cx="10" cy="10" r="8" fill="{e(fill(colour))}" stroke="#222" '
        'stroke-width="2"/></svg>'
    )


def places(offer: Offer) -> list[str]:
    """The fields of the horses ``offer`` names in order, one per place it asks for
    (``horses.0``, ``horses.1``...): the form sends them as the entry's ``horses``."""
    return [f"horses.{i}" for i in range(offer.places)]


def chips(
    names: Sequence[str],
    choices: Iterable[Chip],
    label: str,
    chosen: Sequence[str] = (),
    need: int | None = None,
) -> str:
    """A picker of chips tapped in order: each tap fills the next free place (the fields
    ``names``, in order), a chip tapped again frees its place; with one place a tap replaces
    the choice. ``chosen`` fills the places at first (a sealed choice shown again); nothing
    is chosen by default. ``need``: how many places must be filled before the form is sent
    (all of them by default); the page's script says so instead of sending it."""
    values = [*chosen[: len(names)], *[""] * (len(names) - len(chosen))]
    fields = "".join(
        f'<input type="hidden" name="{e(n)}" value="{e(v)}" data-chip="1">'
        for n, v in zip(names, values, strict=True)
    )
    buttons = []
    for chip in choices:
        place = values.index(chip.value) + 1 if chip.value and chip.value in values else 0
        badge = str(place) if place and len(names) > 1 else ""
        swatch = dot(chip.colour) if chip.colour is not None else ""
        buttons.append(
            f'<button type="button" class="chip" value="{e(chip.value)}" '
            f'aria-pressed="{"true" if place else "false"}">{swatch}<span>{e(chip.words)}</span>'
            f'<b class="place">{badge}</b></button>'
        )
    return (
        f'<fieldset class="chips" data-need="{len(names) if need is None else need}">'
        f'<legend>{e(label)}</legend>{fields}<div class="picker">{"".join(buttons)}</div>'
        "</fieldset>"
    )


def secret(said: str) -> str:
    """What only this seat may read (its own sealed choice), set apart as the pages set it."""
    return f'<p class="secret">{e(said)}</p>'


def move_buttons(horses: Iterable[Chip], said: str) -> str:
    """A button for each horse the roll may move, each sending that horse's ``move``:
    ``said`` is the button's words with the horse's in place of ``{horse}`` ("Move red")."""
    forms = "".join(
        f'<form class="entry" data-type="move"><input type="hidden" name="horse" '
        f'value="{e(chip.value)}"><button type="submit" class="chip">'
        f"{dot(chip.colour or chip.value)}{e(said.format(horse=chip.words))}</button></form>"
        for chip in horses
    )
    return f'<div class="picker">{forms}</div>'


def die_line(die: int | None) -> str:
    """The die's face while it waits for a move ("Die: 4"); nothing when none waits."""
    said = t("Die:")
    return f'<p class="die">{e(said)} <b>{e(die)}</b></p>' if die else ""
