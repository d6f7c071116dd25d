"""Money and fees in the admin as staff type them: rupees for cash ("12.50"), chips for
practice, a fee in percent ("10" for 10 %), whatever the model keeps (minor units, basis
points). One base for every admin form with money: table templates and tournaments."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from tables.web.inputs import (
    InputRefused,
    bps_to_percent,
    minor_to_money,
    money_to_minor,
    percent_to_bps,
)


class TypedMoneyForm(forms.ModelForm):  # type: ignore[type-arg]
    """A model form whose ``money_fields`` (minor units in the model) are typed as money in the
    row's currency, and whose ``fee_field`` (basis points) is typed in percent. Each of them
    is declared on the form as a ``forms.CharField``."""

    money_fields: ClassVar[tuple[str, ...]] = ()
    fee_field: ClassVar[str] = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        currency = self.initial.get("currency") or getattr(self.instance, "currency", "") or "cash"
        for name in self.money_fields:
            value = self.initial.get(name)
            if isinstance(value, int):  # the model's minor units, shown as typed
                self.initial[name] = minor_to_money(value, currency=currency)
        fee = self.initial.get(self.fee_field) if self.fee_field else None
        if isinstance(fee, int):
            self.initial[self.fee_field] = bps_to_percent(fee)

    def _post_clean(self) -> None:
        # A value that could not be read is reported alone: the whole row is judged (the
        # model's checks) once every field reads. Django's private form hooks, which
        # django-stubs leave out.
        if self._errors:  # type: ignore[attr-defined]
            return
        super()._post_clean()  # type: ignore[misc]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what ModelForm.clean returns
        currency = data.get("currency") or "cash"
        for name in self.money_fields:
            raw = self.data.get(name, "") if self.is_bound else ""
            if name in self.errors:
                continue
            try:
                data[name] = money_to_minor(raw, currency=currency) if str(raw).strip() else 0
            except InputRefused as exc:
                self.add_error(name, str(exc))
        if self.fee_field and self.fee_field not in self.errors:
            try:
                data[self.fee_field] = percent_to_bps(self.data.get(self.fee_field, ""))
            except InputRefused as exc:
                self.add_error(self.fee_field, str(exc))
        return data
