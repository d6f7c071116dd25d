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
from django.utils.html import conditional_escape
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


# The characters of the blocks kept in this process (about as many bytes: the markup is ASCII
# but for the words), the least recently used dropped first. Every seat of every table in play
# keeps a few (its place on the felt as it was this turn and the last, its actions): a budget
# counted in blocks thrashed under a few hundred tables, and each miss renders the block again.
REMEMBERED_CHARS = 16_000_000
_remembered: OrderedDict[tuple[Hashable, ...], str] = OrderedDict()
_remembered_chars = [0]
_remembered_lock = threading.Lock()
_places = itertools.count()


def _stamp_mark(name: str) -> str:
    """What stands for a stamped value in a remembered block: characters of Unicode's private
    use area, which no template writes and HTML escaping leaves as they are."""
    return f"\ue000{name}\ue001"


class RememberNode(template.Node):
    """``{% remember a b %}...{% endremember %}``: the block rendered once for each set of
    values of ``a``, ``b``... (hashable: a frozen presenter, a string) in each language, and the
    same text given back while they are the same. Every value the block reads must be named
    (the words it translates follow the language). The felt's seats use it: a move changes one
    or two of them, and the felt is rendered whole for every move.

    ``{% remember a b stamp version=s.version %}``: the block reads ``{{ version }}``, which
    is not part of what it is remembered by: it is rendered once with a mark in its place, and
    the value (escaped) is put in the marks' places every time. A stamped value is printed as it
    is, never tested or filtered in the block (a seat's action forms carry the version, which
    every move changes, and nothing else of them does)."""

    def __init__(
        self,
        nodelist: NodeList,
        values: list[FilterExpression],
        stamps: dict[str, FilterExpression],
    ) -> None:
        self.nodelist = nodelist
        self.values = values
        self.stamps = stamps
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
        if found is None:
            if self.stamps:
                with context.push({name: _stamp_mark(name) for name in self.stamps}):
                    found = self.nodelist.render(context)
            else:
                found = self.nodelist.render(context)
            with _remembered_lock:
                before = _remembered.pop(key, None)
                _remembered[key] = found
                _remembered_chars[0] += len(found) - (len(before) if before is not None else 0)
                while _remembered_chars[0] > REMEMBERED_CHARS and _remembered:
                    _remembered_chars[0] -= len(_remembered.popitem(last=False)[1])
        for name, value in self.stamps.items():
            shown = conditional_escape(value.resolve(context))
            found = found.replace(_stamp_mark(name), shown)
        return found


@register.tag
def remember(parser: Parser, token: Token) -> RememberNode:
    bits = token.split_contents()[1:]
    stamps: dict[str, FilterExpression] = {}
    if "stamp" in bits:
        at = bits.index("stamp")
        for bit in bits[at + 1 :]:
            name, equals, expression = bit.partition("=")
            if not equals or not name.isidentifier() or not expression:
                raise template.TemplateSyntaxError(f"remember: stamp takes name=value, not {bit}")
            stamps[name] = parser.compile_filter(expression)
        bits = bits[:at]
        if not stamps:
            raise template.TemplateSyntaxError("remember: stamp names no value")
    values = [parser.compile_filter(bit) for bit in bits]
    if not values:
        raise template.TemplateSyntaxError("remember needs the values its block reads")
    nodelist = parser.parse(("endremember",))
    parser.delete_first_token()
    return RememberNode(nodelist, values, stamps)
