"""Forms for the staff tools (adjustment, reversal). Amounts are typed in display units
("12.50" for cash) and converted exactly to integer minor units."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .currencies import (
    AmountProblem,
    AmountRefused,
    amount_to_minor,
)


def to_minor_units(value: str, currency: str, *, signed: bool = True) -> int:
    """``"12.50"`` cash -> 1250 (``currencies.amount_to_minor``), its refusals in words
    (``AmountRefused``'s): more decimals than the currency has, anything that is not a plain
    number in the digits 0-9 (``1e999999``, ``NaN``, ``١٢``) and huge amounts. ``signed=True``
    (staff's adjustment): the words of an unreadable number suggest a negative one too."""
    try:
        return amount_to_minor(value, currency, signed=signed)
    except AmountRefused as refused:
        if signed and refused.code == AmountProblem.NOT_A_NUMBER:
            raise forms.ValidationError(
                _(
                    "Enter a number with the digits 0-9 and at most one decimal point, e.g. "
                    "12.50 or -5."
                )
            ) from refused
        raise forms.ValidationError(str(refused)) from refused


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
