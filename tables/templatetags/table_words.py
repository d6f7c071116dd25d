"""Template filters of the table page (a refusal in the words a player uses, a card, a block
remembered by what it reads) and of the support pages (money in minor units shown as money, a
stored value in plain words)."""

from __future__ import annotations

import functools
import itertools
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
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


REMEMBERED_MAX = 4096  # blocks kept in this process, the least recently used dropped first
_remembered: OrderedDict[tuple[Hashable, ...], str] = OrderedDict()
_remembered_lock = threading.Lock()
_places = itertools.count()


class RememberNode(template.Node):
    """``{% remember a b %}...{% endremember %}``: the block rendered once for each set of
    values of ``a``, ``b``... (hashable: a frozen presenter, a string) in each language, and the
    same text given back while they are the same. Every value the block reads must be named
    (the words it translates follow the language). The felt's seats use it: a move changes one
    or two of them, and the felt is rendered whole for every move."""

    def __init__(self, nodelist: NodeList, values: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.values = values
        self.place = next(_places)  # this block of this compiled template

    def render(self, context: Context) -> str:
        key = (
            self.place,
            get_language(),
            context.autoescape,
            context.use_l10n,
            *(value.resolve(context) for value in self.values),
        )
        with _remembered_lock:
            found = _remembered.get(key)
            if found is not None:
                _remembered.move_to_end(key)
                return found
        text = self.nodelist.render(context)
        with _remembered_lock:
            _remembered[key] = text
            while len(_remembered) > REMEMBERED_MAX:
                _remembered.popitem(last=False)
        return text


@register.tag
def remember(parser: Parser, token: Token) -> RememberNode:
    values = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    if not values:
        raise template.TemplateSyntaxError("remember needs the values its block reads")
    nodelist = parser.parse(("endremember",))
    parser.delete_first_token()
    return RememberNode(nodelist, values)
