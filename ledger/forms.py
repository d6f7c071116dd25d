"""Forms for the staff tools (adjustment, reversal). Amounts are typed in display units
("12.50" for cash) and converted exactly to integer minor units."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .currencies import CURRENCY_INFO, format_amount

# Plain decimal numbers in ASCII digits: no exponent, no infinity, no other scripts' digits.
_AMOUNT = re.compile(r"[+-]?[0-9]{1,15}(\.[0-9]{1,6})?", re.ASCII)
# The largest amount a staff form accepts, in minor units (far above any real adjustment, far
# below what the database's bigint holds).
MAX_FORM_AMOUNT = 10**12


# Any plain number however long (a 20-digit amount is a number, only too large).
_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?", re.ASCII)


def to_minor_units(value: str, currency: str, *, signed: bool = True) -> int:
    """``"12.50"`` cash -> 1250; refuses more decimals than the currency has, anything that is
    not a plain number in the digits 0-9 (``1e999999``, ``NaN``, ``١٢``) and huge amounts.
    ``signed=False`` (a player's amount): the words suggest no negative amount."""
    info = CURRENCY_INFO[currency]
    not_a_number = (
        _("Enter a number with the digits 0-9 and at most one decimal point, e.g. 12.50 or -5.")
        if signed
        else _(
            "Enter an amount with the digits 0-9 and at most one decimal point, e.g. 500 or 499.50."
        )
    )
    if not isinstance(value, str):
        raise forms.ValidationError(not_a_number)
    text = value.strip().replace(",", "")
    if not _AMOUNT.fullmatch(text):
        if _NUMBER.fullmatch(text):
            raise forms.ValidationError(
                _("That amount is too large (at most %(amount)s).")
                % {"amount": format_amount(MAX_FORM_AMOUNT, currency)}
            )
        raise forms.ValidationError(not_a_number)
    if not signed and text.startswith("-"):
        raise forms.ValidationError(_("Enter an amount above ₹0.00."))
    try:
        number = Decimal(text)
    except InvalidOperation as error:  # pragma: no cover - the pattern admits only numbers
        raise forms.ValidationError(not_a_number) from error
    scaled = number.scaleb(info.decimals)
    if scaled != scaled.to_integral_value():
        raise forms.ValidationError(
            ngettext(
                "%(currency)s amounts have at most %(decimals)s decimal place.",
                "%(currency)s amounts have at most %(decimals)s decimal places.",
                info.decimals,
            )
            % {"currency": info.label, "decimals": info.decimals}
        )
    if abs(scaled) > MAX_FORM_AMOUNT:
        raise forms.ValidationError(
            _("That amount is too large (at most %(amount)s).")
            % {"amount": format_amount(MAX_FORM_AMOUNT, currency)}
        )
    return int(scaled)


class AdjustmentForm(forms.Form):
    amount = forms.CharField(
        max_length=24,
        help_text="Positive credits the wallet, negative (e.g. -5.00) debits it.",
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args: Any, currency: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.currency = currency
        if not self.is_bound:
            self.initial.setdefault("key", uuid.uuid4().hex)

    def clean_amount(self) -> int:
        amount = to_minor_units(self.cleaned_data["amount"], self.currency)
        if amount == 0:
            raise forms.ValidationError(_("The amount cannot be zero."))
        return amount

    def clean_reason(self) -> str:
        reason: str = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("A reason is required."))
        return reason


class ReversalForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    def clean_reason(self) -> str:
        reason: str = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("A reason is required."))
        return reason


class RupeesForm(forms.Form):
    """An amount of cash a player types in rupees (``500`` or ``499.50``), read with the same
    strict parser as the staff forms: digits 0-9, at most two decimals, not huge, above zero."""

    amount = forms.CharField(
        max_length=24,
        label=gettext_lazy("Amount in rupees (₹)"),
        error_messages={
            "required": gettext_lazy("Enter an amount in rupees, e.g. 500 or 499.50."),
            "max_length": gettext_lazy("That amount is too long: type at most 24 characters."),
        },
    )

    def clean_amount(self) -> int:
        amount = to_minor_units(self.cleaned_data["amount"], "cash", signed=False)
        if amount <= 0:
            raise forms.ValidationError(_("Enter an amount above ₹0.00."))
        return amount
