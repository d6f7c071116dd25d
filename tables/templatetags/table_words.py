"""Template filters of the table page (a refusal in the words a player uses, a card) and of the
support pages (money in minor units shown as money, a stored value in plain words)."""

from __future__ import annotations

import functools
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.translation import get_language

from tables.presenters import money
from tables.web.messages import refusal_words

register = template.Library()


@register.filter
def player_words(message: Any) -> str:
    """``{{ error|player_words }}``: no seat numbers or card codes, a capital and a full stop
    (a Hindi sentence keeps its own full stop, ।)."""
    return refusal_words(message)


@register.filter
def money_in(amount: Any, currency: str) -> str:
    """``{{ amount|money_in:currency }}``: minor units as money (``₹50.00``, ``100 chips``)."""
    return money(int(amount), currency) if isinstance(amount, int) else ""


@register.filter
def words(name: str) -> str:
    """``{{ key|words }}``: a stored name read as words (``seats_per_table``: seats per table)."""
    return str(name).replace("_", " ")


@register.filter
def plain(value: Any) -> str:
    """``{{ value|plain }}``: a stored value (a setting, a list, a flag) in plain words: lists
    joined with commas, a mapping as "key: value" pairs, yes or no, nothing for none."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(plain(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{words(key)}: {plain(item)}" for key, item in value.items())
    return str(value)


@register.simple_tag
def card(face: Any, in_hand: bool = False) -> str:
    """``{% card c %}``, ``{% card c in_hand=True %}``: ``tables/_card.html`` for one card face,
    rendered once per face, place and language in this process (a table shows the same few
    dozen faces over and over; the template is the only source of the markup)."""
    if face is None:
        return ""
    return _card_html(face, bool(in_hand), get_language())


@functools.lru_cache(maxsize=4096)
def _card_html(face: Any, in_hand: bool, language: str | None) -> str:
    return render_to_string("tables/_card.html", {"c": face, "in_hand": in_hand})
