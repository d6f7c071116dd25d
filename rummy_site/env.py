"""Typed reads of the environment for the settings: each returns ``default`` when the variable
is unset, else the value converted, and a value that does not convert raises
``ImproperlyConfigured`` naming the variable and the value (the process refuses to start rather
than run on a guess). Pure Python: importable before Django is set up."""

from __future__ import annotations

import math
import os

from django.core.exceptions import ImproperlyConfigured

__all__ = ["env_bool", "env_float", "env_int", "env_list", "env_str"]

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def _bad(name: str, what: str, value: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"{name} must be {what}, got {value!r}")


def env_str(name: str, default: str) -> str:
    """The text as set (an empty value is kept: it is a choice, e.g. ``STRIPE_API_BASE=``)."""
    return os.environ.get(name, default)


def env_int(name: str, default: int) -> int:
    """A whole number (``int()``'s syntax: surrounding spaces allowed; an empty value is bad)."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise _bad(name, "a whole number", value) from None


def env_float(name: str, default: float) -> float:
    """A finite number (``float()``'s syntax; ``nan`` and ``inf`` are bad)."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise _bad(name, "a number", value) from None
    if not math.isfinite(number):
        raise _bad(name, "a finite number", value)
    return number


def env_bool(name: str, default: bool) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case); unset or empty: ``default``."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise _bad(name, "one of 1/true/yes/on or 0/false/no/off", value)


def env_list(name: str, default: list[str]) -> list[str]:
    """Comma-separated items, each stripped, empty items dropped; unset or empty: ``default``."""
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]
