"""The ledger's currencies and how their integer minor units are shown.

Amounts are always ``int`` minor units. ``cash`` is real-money style (paise: 1250 is ₹12.50);
``practice`` chips are free play money with no fractional unit. The two never mix in a
transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models


class Currency(models.TextChoices):
    CASH = "cash", "Cash"
    PRACTICE = "practice", "Practice chips"


@dataclass(frozen=True)
class CurrencyInfo:
    code: str
    label: str
    decimals: int
    prefix: str
    suffix: str
    withdrawable: bool


CURRENCY_INFO: dict[str, CurrencyInfo] = {
    "cash": CurrencyInfo(
        code="cash", label="Cash", decimals=2, prefix="₹", suffix="", withdrawable=True
    ),
    "practice": CurrencyInfo(
        code="practice",
        label="Practice chips",
        decimals=0,
        prefix="",
        suffix=" chips",
        withdrawable=False,
    ),
}

# Display order (the page header and the wallet page).
CURRENCY_ORDER: tuple[str, ...] = ("cash", "practice")


def _group_indian(digits: str) -> str:
    """``1234567`` -> ``12,34,567`` (lakh/crore grouping: last three, then pairs)."""
    if len(digits) <= 3:
        return digits
    head, tail = digits[:-3], digits[-3:]
    pairs: list[str] = []
    while len(head) > 2:
        pairs.insert(0, head[-2:])
        head = head[:-2]
    if head:
        pairs.insert(0, head)
    return ",".join([*pairs, tail])


def format_amount(amount: int, currency: str) -> str:
    """Format integer minor units for display: ``format_amount(1250, "cash") == "₹12.50"``,
    ``format_amount(150000, "practice") == "1,50,000 chips"``. Exact: no floats involved."""
    info = CURRENCY_INFO[currency]
    sign = "-" if amount < 0 else ""
    units = abs(int(amount))
    if info.decimals:
        scale = 10**info.decimals
        whole, fraction = divmod(units, scale)
        number = f"{_group_indian(str(whole))}.{fraction:0{info.decimals}d}"
    else:
        number = _group_indian(str(units))
    suffix = info.suffix
    if units == 1 and suffix.endswith("s"):
        suffix = suffix[:-1]  # "1 chip"
    return f"{sign}{info.prefix}{number}{suffix}"


def money_games_on() -> bool:
    """``settings.MONEY_GAMES``: with it off the whole site runs on practice chips (no cash
    tables, no cash wallet in the header, the cashier refuses)."""
    from django.conf import settings

    return bool(getattr(settings, "MONEY_GAMES", True))


def currencies_shown() -> tuple[str, ...]:
    """The currencies a player sees: practice only when money games are off."""
    return CURRENCY_ORDER if money_games_on() else ("practice",)
