from __future__ import annotations

import re
from decimal import Decimal

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import SelfExclusionPeriod, User


class SignUpForm(UserCreationForm[User]):
    """Sign-up; while money games are on (``settings.MONEY_GAMES``) the player must confirm
    being 18 or older (the time is stored on the account)."""

    age_confirmed = forms.BooleanField(
        required=True,
        label=_("I am 18 or older"),
        error_messages={"required": _("You must be 18 or older to play for money here.")},
    )

    class Meta:
        model = User
        fields = ("username", "display_name", "email")
        help_texts = {
            "display_name": _("Shown to other players. Leave empty to use your username.")
        }

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        if not getattr(settings, "MONEY_GAMES", True):
            del self.fields["age_confirmed"]


# Rupees as a player types them: digits 0-9 only (no exponent, no other scripts' digits), at
# most two decimals; the same rules as the ledger's amount parser (ledger/forms.py), which this
# app may not import (accounts sits beside the ledger, not above it).
_RUPEES = re.compile(r"[0-9]{1,10}(\.[0-9]{1,2})?", re.ASCII)
MAX_LIMIT_RUPEES = 10**10


def rupees_to_paise(text: str) -> int:
    value = str(text).strip().replace(",", "").removeprefix("₹").strip()
    if not _RUPEES.fullmatch(value):
        raise forms.ValidationError(
            _("Enter an amount in rupees with the digits 0-9, e.g. 5000 or 499.50.")
        )
    paise = Decimal(value).scaleb(2)
    if paise > MAX_LIMIT_RUPEES * 100:
        raise forms.ValidationError(_("That amount is too large."))
    return int(paise)


class DepositLimitsForm(forms.Form):
    """Daily and monthly deposit limits in rupees; empty means no limit."""

    daily = forms.CharField(max_length=20, required=False, label=_("Daily limit (₹)"))
    monthly = forms.CharField(max_length=20, required=False, label=_("Monthly limit (₹)"))

    def _limit(self, name: str) -> int | None:
        text = self.cleaned_data.get(name, "")
        return None if not str(text).strip() else rupees_to_paise(text)

    def clean_daily(self) -> int | None:
        return self._limit("daily")

    def clean_monthly(self) -> int | None:
        return self._limit("monthly")


class SelfExclusionForm(forms.Form):
    period = forms.ChoiceField(choices=SelfExclusionPeriod.choices, label=_("Exclude me for"))
    confirm = forms.BooleanField(
        required=True,
        label=_("I understand this cannot be undone before it ends"),
        error_messages={
            "required": _("Tick the box to confirm: a self-exclusion cannot be undone.")
        },
    )


class ProfileForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("display_name", "language", "time_zone")

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"].strip()
        if name and len(name) < 2:
            raise forms.ValidationError(_("A display name needs at least 2 characters."))
        return name


# A password longer than this is not one anybody types; it is refused before it is hashed.
MAX_PASSWORD_CHARS = 4096


class _BoundedCredentials:
    """Django's log-in forms size the username field but do not validate its length, so an
    overlong username reached ``authenticate`` (and the failed-attempt log, a 500 on
    PostgreSQL). Here both fields are checked first; a refused field never authenticates."""

    cleaned_data: dict[str, object]
    fields: dict[str, forms.Field]

    def clean_username(self) -> str:
        username = str(self.cleaned_data.get("username") or "")
        field = self.fields["username"]
        limit = (field.max_length if isinstance(field, forms.CharField) else None) or 150
        if len(username) > limit:
            raise forms.ValidationError(
                _("A username has at most %(limit)s characters.") % {"limit": limit}
            )
        return username

    def clean_password(self) -> str:
        password = str(self.cleaned_data.get("password") or "")
        if len(password) > MAX_PASSWORD_CHARS:
            raise forms.ValidationError(_("That password is too long."))
        return password


class LoginForm(_BoundedCredentials, AuthenticationForm):
    pass


class AdminLoginForm(_BoundedCredentials, AdminAuthenticationForm):
    pass
