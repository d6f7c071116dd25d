"""``{% load money %}``: ``{{ paise|rupees }}`` shows cash minor units as ``₹1,234.50``."""

from __future__ import annotations

from django import template

from ..currencies import format_amount

register = template.Library()


@register.filter
def rupees(value: object) -> str:
    if value is None or value == "":
        return "no limit"
    return format_amount(int(value), "cash")  # type: ignore[call-overload]
