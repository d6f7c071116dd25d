"""``{% load money %}``: ``{{ paise|rupees }}`` shows cash minor units as ``₹1,234.50`` (digits
grouped as the viewer's locale says: ``₹1,00,000.00``); ``{{ memo|memo_words }}`` a stored
transaction memo in the viewer's language; ``{{ transaction|statement_words }}`` the one label
of a statement line."""

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


@register.filter
def amount_in(value: object, currency: str) -> str:
    """An amount in minor units as the currency shows it (``{{ fee|amount_in:"cash" }}``)."""
    return format_amount(int(value), currency)  # type: ignore[call-overload]


# The memos the system itself writes (stored in English; a staff reason is shown as typed).
_MEMOS = {
    "Deposit": gettext_lazy("Deposit"),
    "Withdrawal": gettext_lazy("Withdrawal"),
    "Withdrawal requested": gettext_lazy("Withdrawal requested"),
    "Daily free practice chips": gettext_lazy("Daily free practice chips"),
    "Welcome practice chips": gettext_lazy("Welcome practice chips"),
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


# Kinds whose own label says more than the memo the system writes with them.
_KIND_SAYS_MORE = ("withdraw_hold", "withdraw_return")


@register.filter
def statement_words(transaction: object) -> str:
    """What a statement line says, once: the system's memo when it says more than the kind
    ("Deposit (sandbox)", "Entry refunded"), else the kind ("Withdrawal requested (held)").
    A memo staff typed (an adjustment's or a decision's reason) is their internal note and is
    not shown to the player."""
    kind = str(transaction.get_kind_display())  # type: ignore[attr-defined]
    memo = str(getattr(transaction, "memo", "") or "")
    words = _MEMOS.get(memo)
    if words is None or getattr(transaction, "kind", "") in _KIND_SAYS_MORE:
        return kind
    return str(words)
