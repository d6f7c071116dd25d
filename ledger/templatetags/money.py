"""``{% load money %}``: ``{{ paise|rupees }}`` shows cash minor units as ``₹1,234.50`` (digits
grouped as the viewer's locale says: ``₹1,00,000.00``); ``{{ memo|memo_words }}`` a stored
transaction memo in the viewer's language."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..currencies import format_amount

register = template.Library()


@register.filter
def rupees(value: object) -> str:
    if value is None or value == "":
        return _("no limit")
    return format_amount(int(value), "cash")  # type: ignore[call-overload]


# The memos the system itself writes (stored in English; a staff reason is shown as typed).
_MEMOS = {
    "Deposit": gettext_lazy("Deposit"),
    "Withdrawal": gettext_lazy("Withdrawal"),
    "Withdrawal requested": gettext_lazy("Withdrawal requested"),
    "Daily free practice chips": gettext_lazy("Daily free practice chips"),
    "Entry refunded": gettext_lazy("Entry refunded"),
    "Game cancelled: every entry refunded": gettext_lazy("Game cancelled: every entry refunded"),
    "Practice chips": gettext_lazy("Practice chips"),
    "Deposit (sandbox)": gettext_lazy("Deposit (sandbox)"),
    "Entry fee": gettext_lazy("Entry fee"),
    "Refund": gettext_lazy("Refund"),
    "Rejoin fee": gettext_lazy("Rejoin fee"),
    "Payout": gettext_lazy("Payout"),
    "Settlement": gettext_lazy("Settlement"),
}


@register.filter
def memo_words(memo: object) -> str:
    """A stored memo as the viewer reads it: the system's own memos translated."""
    text = str(memo or "")
    words = _MEMOS.get(text)
    return str(words) if words is not None else text
