"""Forms for the staff tools (adjustment, reversal). Amounts are typed in display units
("12.50" for cash) and converted exactly to integer minor units."""

from __future__ import annotations

import uuid
from decimal import Decimal, InvalidOperation

from django import forms

from .currencies import CURRENCY_INFO


def to_minor_units(value: str, currency: str) -> int:
    """``"12.50"`` cash -> 1250; refuses more decimals than the currency has."""
    info = CURRENCY_INFO[currency]
    try:
        number = Decimal(value.strip().replace(",", ""))
    except (InvalidOperation, AttributeError) as error:
        raise forms.ValidationError("Enter a number, e.g. 12.50 or -5.") from error
    if not number.is_finite():
        raise forms.ValidationError("Enter a number, e.g. 12.50 or -5.")
    scaled = number * (10**info.decimals)
    if scaled != scaled.to_integral_value():
        raise forms.ValidationError(
            f"{info.label} amounts have at most {info.decimals} decimal places."
        )
    return int(scaled)


class AdjustmentForm(forms.Form):
    amount = forms.CharField(
        max_length=24,
        help_text="Positive credits the wallet, negative (e.g. -5.00) debits it.",
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args: object, currency: str, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.currency = currency
        if not self.is_bound:
            self.initial.setdefault("key", uuid.uuid4().hex)

    def clean_amount(self) -> int:
        amount = to_minor_units(self.cleaned_data["amount"], self.currency)
        if amount == 0:
            raise forms.ValidationError("The amount cannot be zero.")
        return amount

    def clean_reason(self) -> str:
        reason: str = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("A reason is required.")
        return reason


class ReversalForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    def clean_reason(self) -> str:
        reason: str = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("A reason is required.")
        return reason
