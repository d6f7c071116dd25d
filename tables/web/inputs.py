"""Reading untrusted input safely: JSON with a size and nesting limit, whole numbers in ASCII
digits only. A refusal is an ``InputRefused`` (or a form error) with a message a player can
read, never a crash: the size limit comes first, a nesting deep enough to overflow the JSON
reader is refused as too deep, and so is a parsed value nested deeper than allowed."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.forms.fields import InvalidJSONInput

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


class InputRefused(ValueError):
    """Input that is malformed, too long or too deep; the message says which, in words, and
    ``code`` says which for a caller that words it itself (``"too_long"``, ``"too_deep"``,
    ``"unreadable"``, ``"not_whole"``, ``"not_money"``, ``"not_percent"``)."""

    def __init__(self, message: str, *, code: str = "unreadable") -> None:
        self.code = code
        super().__init__(message)


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
        raise InputRefused(
            f"The {what} are too long (at most {max_chars} characters).", code="too_long"
        )
    try:
        parsed = json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError as exc:  # only a very deep nesting overflows the reader
        raise InputRefused(f"The {what} are nested too deeply.", code="too_deep") from exc
    except ValueError as exc:
        raise InputRefused(f"The {what} could not be read.") from exc
    if _depth(parsed) > max_depth:
        raise InputRefused(f"The {what} are nested too deeply.", code="too_deep")
    return parsed


def _refuse_constant(name: str) -> Any:
    """JSON's non-standard NaN and Infinity are not numbers anything here can use."""
    raise ValueError(f"{name} is not allowed")


def whole_number(raw: str, *, what: str) -> int:
    """A whole number written with ASCII digits (at most 18), or ``InputRefused``."""
    text = raw.strip()
    if not _WHOLE_NUMBER.fullmatch(text):
        raise InputRefused(
            f"The {what} must be a whole number written with the digits 0-9.", code="not_whole"
        )
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
                raise InputRefused(
                    "Practice chips have no fractions: enter whole chips, e.g. 100.",
                    code="not_money",
                ) from refused
            raise InputRefused(
                f"Enter at most {info.decimals} decimals, e.g. 25.50.", code="not_money"
            ) from refused
        if refused.problem == AmountProblem.TOO_LARGE:
            most = minor_to_money(MAX_TYPED_AMOUNT, currency=currency)
            raise InputRefused(
                f"That amount is too large (at most {most}).", code="not_money"
            ) from refused
        unit = "rupees, e.g. 25.00" if info.decimals else "whole chips, e.g. 100"
        raise InputRefused(
            f"Enter an amount in {unit}, with the digits 0-9.", code="not_money"
        ) from refused


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
        raise InputRefused(
            "Enter a percentage with the digits 0-9, e.g. 10 or 12.5.", code="not_percent"
        )
    whole, _, fraction = text.partition(".")
    return int(whole) * 100 + int(fraction.ljust(2, "0") or 0)


def bps_to_percent(bps: int | None) -> str:
    """Basis points as a percentage: 1000 -> ``"10"``, 1250 -> ``"12.5"``."""
    if bps is None:
        return ""
    whole, rest = divmod(int(bps), 100)
    return f"{whole}.{rest:02d}".rstrip("0").rstrip(".") if rest else str(whole)
