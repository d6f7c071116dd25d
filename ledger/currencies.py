"""The ledger's currencies and how their integer minor units are shown.

Amounts are always ``int`` minor units. ``cash`` is real-money style (paise: 1250 is ₹12.50);
``practice`` chips are free play money with no fractional unit. The two never mix in a
transaction.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from django.db import models
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy
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


# The largest amount anyone may type, in minor units (far above any real fee, deposit or
# adjustment, far below what the database's bigint holds).
MAX_TYPED_AMOUNT = 10**12
# A plain number in the digits 0-9: a sign, the whole part, the fraction. No exponent, no
# infinity, no other scripts' digits (Python's ``int`` and ``Decimal`` would read those).
_TYPED_NUMBER = re.compile(r"([+-]?)([0-9]+)(?:\.([0-9]+))?", re.ASCII)


class AmountProblem(StrEnum):
    """Why a typed amount was refused: the code of an ``AmountRefused``, one per sentence of
    ``AMOUNT_WORDS`` (a form may word one its own way)."""

    NOT_A_NUMBER = "not_a_number"
    NEGATIVE = "negative"  # a minus sign where only amounts above zero make sense
    TOO_PRECISE = "too_precise"  # more decimals than the currency has
    TOO_LARGE = "too_large"  # above ``MAX_TYPED_AMOUNT``


AMOUNT_WORDS: Final[Mapping[AmountProblem, StrOrPromise]] = MappingProxyType(
    {
        AmountProblem.NOT_A_NUMBER: _(
            "Enter an amount with the digits 0-9 and at most one decimal point, e.g. 500 or 499.50."
        ),
        AmountProblem.NEGATIVE: _("Enter an amount above %(zero)s."),
        AmountProblem.TOO_PRECISE: ngettext_lazy(
            "%(currency)s amounts have at most %(decimals)s decimal place.",
            "%(currency)s amounts have at most %(decimals)s decimal places.",
            "decimals",
        ),
        AmountProblem.TOO_LARGE: _("That amount is too large (at most %(amount)s)."),
    }
)


class AmountRefused(ValueError):
    """A typed amount refused: ``code`` (= ``problem``, an ``AmountProblem``), ``params`` (the
    currency's name and decimals, zero and the largest amount in it) and ``status`` 400;
    ``str(exc)`` is the sentence, in the language active when it is shown."""

    status = 400

    def __init__(self, problem: AmountProblem, /, *, currency: str = "cash") -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.code = problem
        info = CURRENCY_INFO[currency]
        self.params: dict[str, object] = {
            "currency": info.label,
            "decimals": info.decimals,
            "zero": format_amount(0, currency),
            "amount": format_amount(MAX_TYPED_AMOUNT, currency),
        }

    def __str__(self) -> str:
        return AMOUNT_WORDS[self.code] % self.params


def amount_to_minor(text: object, currency: str, *, signed: bool = True) -> int:
    """An amount as typed in display units, exactly as integer minor units: ``"12.50"`` cash ->
    1250, ``"1,000"`` chips -> 1000 (commas are ignored, trailing zeros of a fraction too).
    ``signed=False``: a minus sign is refused. ``AmountRefused`` says why anything else is refused.
    The one reader of typed money: the ledger's forms and the staff's table templates use it."""
    decimals = CURRENCY_INFO[currency].decimals
    match = (
        _TYPED_NUMBER.fullmatch(text.strip().replace(",", "")) if isinstance(text, str) else None
    )
    if match is None:
        raise AmountRefused(AmountProblem.NOT_A_NUMBER, currency=currency)
    sign, whole, fraction = match.group(1), match.group(2), (match.group(3) or "").rstrip("0")
    if sign == "-" and not signed:
        raise AmountRefused(AmountProblem.NEGATIVE, currency=currency)
    if len(fraction) > decimals:
        raise AmountRefused(AmountProblem.TOO_PRECISE, currency=currency)
    if len(whole) > 15:  # not worth converting (Python refuses thousands of digits)
        raise AmountRefused(AmountProblem.TOO_LARGE, currency=currency)
    minor = int(whole + fraction.ljust(decimals, "0"))  # "12" "5" -> 1250 for two decimals
    if minor > MAX_TYPED_AMOUNT:
        raise AmountRefused(AmountProblem.TOO_LARGE, currency=currency)
    return -minor if sign == "-" else minor


def money_games_on() -> bool:
    """``settings.MONEY_GAMES``: with it off the whole site runs on practice chips (no cash
    tables, no cash wallet in the header, the cashier refuses)."""
    from django.conf import settings

    return bool(getattr(settings, "MONEY_GAMES", True))


def currencies_shown() -> tuple[str, ...]:
    """The currencies a player sees: practice only when money games are off."""
    return CURRENCY_ORDER if money_games_on() else ("practice",)
