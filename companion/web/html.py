"""Pieces of HTML every part of the pages shares: escaping, tables, lanes, forms and pickers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape


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
    Content-Security-Policy allows no inline style); it has a dark outline, so a white or
    yellow horse's bar reads on the light track."""
    width = 0 if top <= 0 else max(0, min(100, round(100 * value / top)))
    at = e(value) if shown is None else e(shown)
    return (
        f'<div class="lane"><span class="name">{e(label)}</span>'
        '<span class="bar"><svg viewBox="0 0 100 1" preserveAspectRatio="none" '
        f'aria-hidden="true"><rect width="{width}" height="1" fill="{e(colour)}" '
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


def card_picker(kind: str, cards: Iterable[tuple[str, str]]) -> str:
    """A row of card buttons: tapping one makes an entry of ``kind`` with that ``card``."""
    buttons = "".join(
        f'<button type="submit" name="card" value="{e(code)}">{e(label)}</button>'
        for code, label in cards
    )
    return f'<form class="entry picker" data-type="{e(kind)}">{buttons}</form>'
