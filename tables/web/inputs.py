"""Reading untrusted input safely: JSON with a size and nesting limit, whole numbers in ASCII
digits only. A refusal is an ``InputRefused`` (a ``ValueError`` with a code, its params and a
status; or a form error) with words a player can read, never a crash: the size limit comes
first, a nesting deep enough to overflow the JSON reader is refused as too deep, and so is a
parsed value nested deeper than allowed."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from django import forms
from django.forms.fields import InvalidJSONInput
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from ledger.currencies import (
    CURRENCY_INFO,
    MAX_TYPED_AMOUNT,
    AmountProblem,
    AmountRefused,
    amount_to_minor,
)

MAX_JSON_CHARS = 4000
MAX_JSON_DEPTH = 4
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}", re.ASCII)


class InputRefusal(StrEnum):
    """Why an input was refused, one code per sentence of ``INPUT_WORDS``."""

    TOO_LONG = "too_long"
    TOO_DEEP = "too_deep"
    UNREADABLE = "unreadable"
    NOT_WHOLE = "not_whole"
    NOT_RUPEES = "not_rupees"
    NOT_CHIPS = "not_chips"
    WHOLE_CHIPS = "whole_chips"
    TOO_MANY_DECIMALS = "too_many_decimals"
    MONEY_TOO_LARGE = "money_too_large"
    NOT_PERCENT = "not_percent"


IR = InputRefusal
INPUT_WORDS: Final[Mapping[InputRefusal, StrOrPromise]] = MappingProxyType(
    {
        IR.TOO_LONG: _("The %(what)s are too long (at most %(count)s characters)."),
        IR.TOO_DEEP: _("The %(what)s are nested too deeply."),
        IR.UNREADABLE: _("The %(what)s could not be read."),
        IR.NOT_WHOLE: _("The %(what)s must be a whole number written with the digits 0-9."),
        IR.NOT_RUPEES: _("Enter an amount in rupees, e.g. 25.00, with the digits 0-9."),
        IR.NOT_CHIPS: _("Enter an amount in whole chips, e.g. 100, with the digits 0-9."),
        IR.WHOLE_CHIPS: _("Practice chips have no fractions: enter whole chips, e.g. 100."),
        IR.TOO_MANY_DECIMALS: _("Enter at most %(decimals)s decimals, e.g. 25.50."),
        IR.MONEY_TOO_LARGE: _("That amount is too large (at most %(amount)s)."),
        IR.NOT_PERCENT: _("Enter a percentage with the digits 0-9, e.g. 10 or 12.5."),
    }
)
del IR

# What an input is called in the words (``what``): the names the callers give, translated.
INPUT_NAMES: Final[Mapping[str, StrOrPromise]] = MappingProxyType(
    {
        "card groups": _("card groups"),
        "card place": _("card place"),
        "game": _("game"),
        "game version": _("game version"),
        "meld": _("meld"),
        "settings": _("settings"),
        "value": _("value"),
    }
)


class InputRefused(ValueError):
    """Input that is malformed, too long or too deep: a ``code`` (``InputRefusal``: which, for
    a caller that words it itself), its ``params`` (``what`` the input is, a ``count``...) and
    ``status`` 400; ``str(exc)`` is the sentence, in the language active when it is shown."""

    status = 400

    def __init__(self, code: InputRefusal, /, **params: object) -> None:
        self.code = code
        self.params: dict[str, object] = params
        super().__init__(code.value)

    def __str__(self) -> str:
        what = self.params.get("what")
        shown = dict(self.params)
        if isinstance(what, str):
            shown["what"] = INPUT_NAMES.get(what, what)
        return INPUT_WORDS[self.code] % shown


def _depth(value: object) -> int:
    """How deeply arrays/objects nest in a parsed JSON value (a scalar: 0)."""
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def parse_json(
    raw: str, *, what: str, max_chars: int = MAX_JSON_CHARS, max_depth: int = MAX_JSON_DEPTH
) -> Any:
    """``raw`` parsed, or ``InputRefused`` if it is too long, nested too deep or not JSON."""
    if len(raw) > max_chars:
        raise InputRefused(InputRefusal.TOO_LONG, what=what, count=max_chars)
    try:
        parsed = json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError as exc:  # only a very deep nesting overflows the reader
        raise InputRefused(InputRefusal.TOO_DEEP, what=what) from exc
    except ValueError as exc:
        raise InputRefused(InputRefusal.UNREADABLE, what=what) from exc
    if _depth(parsed) > max_depth:
        raise InputRefused(InputRefusal.TOO_DEEP, what=what)
    return parsed


def _refuse_constant(name: str) -> Any:
    """JSON's non-standard NaN and Infinity are not numbers anything here can use."""
    raise ValueError(f"{name} is not allowed")


def whole_number(raw: str, *, what: str) -> int:
    """A whole number written with ASCII digits (at most 18), or ``InputRefused``."""
    text = raw.strip()
    if not _WHOLE_NUMBER.fullmatch(text):
        raise InputRefused(InputRefusal.NOT_WHOLE, what=what)
    return int(text)


class AsciiIntegerField(forms.IntegerField):
    """An integer form field that accepts only the digits 0-9 (Python's ``int`` would also read
    Arabic-Indic or full-width digits) and at most 18 of them."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        try:
            return whole_number(str(value), what="value")
        except InputRefused as exc:
            raise forms.ValidationError(str(exc), code="invalid") from exc


_PLAIN_DECIMAL = re.compile(r"[+-]?[0-9]{1,12}(\.[0-9]{1,6})?", re.ASCII)


class AsciiFloatField(forms.FloatField):
    """A number form field (seconds, ...) that accepts only plain decimals in the digits 0-9:
    no exponent, no infinity, no other scripts' digits."""

    # django-stubs gives FloatField the to_python of IntegerField (int); Django's returns a float.
    def to_python(self, value: Any) -> float | None:  # type: ignore[override]
        if value in self.empty_values:
            return None
        if not _PLAIN_DECIMAL.fullmatch(str(value).strip()):
            raise forms.ValidationError(
                "Enter a plain number written with the digits 0-9, e.g. 30 or 2.5.", code="invalid"
            )
        return super().to_python(value)


class LimitedJSONField(forms.JSONField):
    """A JSON object form field with a size and nesting limit (Django's would crash on deep
    nesting) that refuses anything but an object and the non-standard NaN/Infinity."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and value not in self.empty_values:
            try:
                parsed = parse_json(value, what="settings", max_chars=20_000, max_depth=8)
            except InputRefused as exc:
                raise forms.ValidationError(str(exc), code="invalid") from exc
            if not isinstance(parsed, dict):
                raise forms.ValidationError(
                    'The settings must be a JSON object, e.g. {} or {"key": 1}.', code="invalid"
                )
            return parsed
        return super().to_python(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        """What an invalid form shows again: the text as typed, not parsed."""
        if self.disabled:
            return initial
        if isinstance(data, str):
            try:
                parse_json(data, what="settings", max_chars=20_000, max_depth=8)
            except InputRefused:
                return InvalidJSONInput(data)
        return super().bound_data(data, initial)


def money_to_minor(raw: str, *, currency: str) -> int:
    """An amount as staff type it, in rupees ("25", "25.00", "₹1,000.50") or chips ("100"), as
    integer minor units (read by ``ledger.currencies.amount_to_minor``); ``InputRefused`` (in
    words) for anything else: a negative amount, more decimals than the currency has, other
    scripts' digits, an exponent, a huge amount."""
    info = CURRENCY_INFO[currency]
    text = str(raw).strip().replace(",", "").removeprefix("₹").strip()
    if text.endswith("chips"):
        text = text.removesuffix("chips").strip()
    try:
        return amount_to_minor(text, currency, signed=False)
    except AmountRefused as refused:
        if refused.problem == AmountProblem.TOO_PRECISE:
            if info.decimals == 0:
                raise InputRefused(InputRefusal.WHOLE_CHIPS) from refused
            raise InputRefused(InputRefusal.TOO_MANY_DECIMALS, decimals=info.decimals) from refused
        if refused.problem == AmountProblem.TOO_LARGE:
            most = minor_to_money(MAX_TYPED_AMOUNT, currency=currency)
            raise InputRefused(InputRefusal.MONEY_TOO_LARGE, amount=most) from refused
        code = InputRefusal.NOT_RUPEES if info.decimals else InputRefusal.NOT_CHIPS
        raise InputRefused(code) from refused


def minor_to_money(amount: int | None, *, currency: str) -> str:
    """Integer minor units as staff type them: ``2500`` cash -> ``"25.00"``, chips as is."""
    if amount is None:
        return ""
    decimals = CURRENCY_INFO[currency].decimals
    if not decimals:
        return str(int(amount))
    whole, fraction = divmod(int(amount), 10**decimals)
    return f"{whole}.{fraction:0{decimals}d}"


def percent_to_bps(raw: str) -> int:
    """A percentage as typed ("10", "12.5", "10 %") as basis points (1000, 1250)."""
    text = str(raw).strip().removesuffix("%").strip()
    if not re.fullmatch(r"[0-9]{1,3}(\.[0-9]{1,2})?", text, re.ASCII):
        raise InputRefused(InputRefusal.NOT_PERCENT)
    whole, _, fraction = text.partition(".")
    return int(whole) * 100 + int(fraction.ljust(2, "0") or 0)


def bps_to_percent(bps: int | None) -> str:
    """Basis points as a percentage: 1000 -> ``"10"``, 1250 -> ``"12.5"``."""
    if bps is None:
        return ""
    whole, rest = divmod(int(bps), 100)
    return f"{whole}.{rest:02d}".rstrip("0").rstrip(".") if rest else str(whole)
