"""The payment provider interface and the registry of providers.

A provider is a hosted checkout: the site asks it for a checkout of an amount and sends the
player there; the provider later tells the site what happened through a signed callback to
``/payments/webhook/<name>/``. The site credits nothing on the player's return, only on a
verified callback (``services.deposit_callback_apply``).

Providers are named in ``settings.PAYMENTS_PROVIDERS`` (name -> dotted class path) and
``PAYMENTS_PROVIDER`` picks the one new deposits use: ``sandbox`` (development, refused in
production) and ``stripe`` (Stripe Checkout, ``ledger/payments/stripe.py``). Another gateway
implements the three methods with its API client (``checkout_create(*, reference, amount,
return_url) -> Checkout``, ``callback_verify(*, body, headers) -> PaymentEvent`` raising
``CallbackRefused``, ``payment_lookup(*, reference) -> PaymentEvent | None``) and a ``name``:
see README, "Money in and out"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

from ..errors import LedgerError, LedgerRefusal


class CallbackRefused(LedgerError):
    """A callback that is not proven to come from the provider (bad or missing signature,
    unreadable body). Logged and answered 400; nothing changes."""

    default_code = LedgerRefusal.CALLBACK_REFUSED


class PaymentsUnavailable(LedgerError):
    default_code = LedgerRefusal.PAYMENTS_UNAVAILABLE


@dataclass(frozen=True)
class Checkout:
    """Where to send the player, and the provider's own id of the payment (if any)."""

    url: str
    provider_payment_id: str = ""


REFUNDED = "refunded"
IGNORED = "ignored"


@dataclass(frozen=True)
class PaymentEvent:
    """A verified statement by the provider about one payment: ``status`` is ``paid``,
    ``failed`` or ``cancelled`` (``amount`` in paise, checked against the deposit),
    ``refunded`` (``amount``: refunded in all, the payment named by ``intent_id``) or
    ``ignored`` (a genuine event that moves nothing, answered 200 so it is not resent)."""

    reference: str
    status: str
    amount: int
    event_id: str = ""
    intent_id: str = ""


def provider_get(name: str) -> Any:
    paths: dict[str, str] = getattr(
        settings, "PAYMENTS_PROVIDERS", {"sandbox": "ledger.payments.sandbox.SandboxProvider"}
    )
    if name not in paths:
        raise PaymentsUnavailable(LedgerRefusal.PROVIDER_UNKNOWN, provider=repr(name))
    return import_string(paths[name])()


def provider_default() -> str:
    return str(getattr(settings, "PAYMENTS_PROVIDER", "sandbox"))
