"""Argument checks shared by every posting: amounts, currencies, references, idempotency keys,
reasons, users and staff, and the request fingerprint used to recognise a replay.

Users are whatever ``settings.AUTH_USER_MODEL`` names (``get_user_model()``): the ledger does
not import the accounts app."""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model

from ..currencies import CURRENCY_INFO
from ..errors import (
    InvalidAmount,
    InvalidCurrency,
    InvalidReference,
    LedgerRefusal,
    ReasonRequired,
    StaffRequired,
    UnknownUser,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL

# Largest single amount accepted (10^15 minor units = ₹10 lakh crore): far above any real
# movement, far below the 64-bit limit of the balance columns.
MAX_AMOUNT = 10**15
MAX_KEY_LENGTH = 200
MAX_REF_LENGTH = 64
REF_PATTERN = re.compile(r"^[a-z][a-z0-9_-]*:[A-Za-z0-9._:-]+$")


# --- argument checks ------------------------------------------------------------------------


def check_amount(value: object, *, allow_zero: bool = False, signed: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAmount(LedgerRefusal.AMOUNT_NOT_WHOLE, amount=repr(value))
    if value == 0 and not allow_zero:
        raise InvalidAmount(LedgerRefusal.AMOUNT_ZERO, amount=value)
    if value < 0 and not signed:
        raise InvalidAmount(LedgerRefusal.AMOUNT_NEGATIVE, amount=value)
    if abs(value) > MAX_AMOUNT:
        raise InvalidAmount(LedgerRefusal.AMOUNT_TOO_LARGE, amount=value)
    return value


def check_currency(currency: object) -> str:
    if not isinstance(currency, str) or currency not in CURRENCY_INFO:
        raise InvalidCurrency(LedgerRefusal.CURRENCY_UNKNOWN, currency=repr(currency))
    return currency


def check_ref(ref: object, *, required: bool) -> str:
    if ref == "" and not required:
        return ""
    if not isinstance(ref, str) or len(ref) > MAX_REF_LENGTH or not REF_PATTERN.fullmatch(ref):
        raise InvalidReference(LedgerRefusal.REFERENCE_MALFORMED, ref=repr(ref))
    return ref


def check_key(key: object) -> str:
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_KEY_LENGTH:
        raise InvalidReference(LedgerRefusal.KEY_INVALID, key=repr(key))
    return key


def check_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ReasonRequired()
    return reason.strip()


def check_staff(staff_user: object) -> User:
    if (
        not isinstance(staff_user, get_user_model())
        or not staff_user.is_staff
        or not staff_user.is_active
    ):
        raise StaffRequired()
    return staff_user


def check_user(user: object) -> User:
    if not isinstance(user, get_user_model()) or user.pk is None:
        raise UnknownUser()
    return user


def request_fingerprint(op: str, **fields: Any) -> str:
    """Digest of the request (not of its computed legs): a replay is recognised by what was
    asked, even when the state it acted on has moved since."""
    payload = json.dumps({"op": op, **fields}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()
