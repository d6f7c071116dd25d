"""The ledger's currencies and how their integer minor units are shown.

Amounts are always ``int`` minor units. ``cash`` is real-money style (paise: 1250 is ₹12.50);
``practice`` chips are free play money with no fractional unit. The two never mix in a
transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import models
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_stubs_ext import StrOrPromise


class Currency(models.TextChoices):
    CASH = "cash", _("Cash")
    PRACTICE = "practice", _("Practice chips")


@dataclass(frozen=True)
class CurrencyInfo:
    code: str
    label: StrOrPromise  # a lazy translation: str() it in the viewer's language
    decimals: int
    prefix: str
    suffix: str
    withdrawable: bool


CURRENCY_INFO: dict[str, CurrencyInfo] = {
    "cash": CurrencyInfo(
        code="cash", label=_("Cash"), decimals=2, prefix="₹", suffix="", withdrawable=True
    ),
    "practice": CurrencyInfo(
        code="practice",
        label=_("Practice chips"),
        decimals=0,
        prefix="",
        suffix=" chips",
        withdrawable=False,
    ),
}

# Display order (the page header and the wallet page).
CURRENCY_ORDER: tuple[str, ...] = ("cash", "practice")


def format_amount(amount: int, currency: str) -> str:
    """Format integer minor units for display in the active language, digits grouped as the
    locale says (``NUMBER_GROUPING`` in ``rummy_site/formats``: lakhs and crores for English
    and Hindi): ``format_amount(1250, "cash") == "₹12.50"``, ``format_amount(10000000, "cash")
    == "₹1,00,000.00"``, ``format_amount(150000, "practice") == "1,50,000 chips"`` (Hindi:
    ``"1,50,000 चिप्स"``). Exact: the number is a ``Decimal``, no float involved."""
    info = CURRENCY_INFO[currency]
    sign = "-" if amount < 0 else ""
    units = abs(int(amount))
    value = Decimal(units).scaleb(-info.decimals) if info.decimals else Decimal(units)
    number = number_format(value, decimal_pos=info.decimals, use_l10n=True, force_grouping=True)
    if currency == "practice":
        return sign + ngettext("%(number)s chip", "%(number)s chips", units) % {"number": number}
    return f"{sign}{info.prefix}{number}{info.suffix}"


def money_games_on() -> bool:
    """``settings.MONEY_GAMES``: with it off the whole site runs on practice chips (no cash
    tables, no cash wallet in the header, the cashier refuses)."""
    from django.conf import settings

    return bool(getattr(settings, "MONEY_GAMES", True))


def currencies_shown() -> tuple[str, ...]:
    """The currencies a player sees: practice only when money games are off."""
    return CURRENCY_ORDER if money_games_on() else ("practice",)
