"""Stripe Checkout as a payment provider, through the official ``stripe`` package.

- ``checkout_create`` opens a Checkout Session (mode ``payment``, one line of the amount in
  paise, currency INR) with our reference as its ``client_reference_id`` and in its metadata
  (and the PaymentIntent's), and returns its hosted URL.
- ``callback_verify`` checks the ``Stripe-Signature`` header over the raw body with the
  package's own ``stripe.Webhook.construct_event`` (HMAC-SHA256 under the endpoint's signing
  secret ``STRIPE_WEBHOOK_SECRET``, timestamp within ``STRIPE_WEBHOOK_TOLERANCE_S``): offline,
  no network. Events: ``checkout.session.completed`` (paid when ``payment_status`` is
  ``paid``; an asynchronous method still pending moves nothing), ``checkout.session.
  async_payment_succeeded`` (paid), ``checkout.session.async_payment_failed`` (failed),
  ``checkout.session.expired`` (cancelled), ``charge.refunded`` (refunded, flagged for
  staff); anything else is ignored (answered 200, so Stripe does not resend it).
- ``payment_lookup`` retrieves the Checkout Session (a lost webhook, a settlement check).

Register ``https://<site>/payments/webhook/stripe/`` as the endpoint in the Stripe dashboard
with those events."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import stripe
from django.conf import settings

from ..errors import LedgerRefusal
from .providers import (
    IGNORED,
    REFUNDED,
    CallbackRefused,
    Checkout,
    PaymentEvent,
    PaymentsUnavailable,
)

SIGNATURE_HEADER = "Stripe-Signature"
SESSION_EVENTS = {
    "checkout.session.async_payment_succeeded": "paid",
    "checkout.session.async_payment_failed": "failed",
    "checkout.session.expired": "cancelled",
}


def stripe_client() -> stripe.StripeClient:
    """The API client, with the secret key of the environment. ``STRIPE_API_BASE`` (unset:
    Stripe's own) points it elsewhere: the tests' local server of recorded answers."""
    key = str(getattr(settings, "STRIPE_SECRET_KEY", ""))
    if not key:
        raise PaymentsUnavailable(
            LedgerRefusal.PROVIDER_NOT_CONFIGURED, provider="Stripe", setting="STRIPE_SECRET_KEY"
        )
    base = str(getattr(settings, "STRIPE_API_BASE", ""))
    if base:
        return stripe.StripeClient(key, base_addresses={"api": base}, max_network_retries=0)
    return stripe.StripeClient(key, max_network_retries=2)


def _absolute(path: str) -> str:
    origins = list(getattr(settings, "CSRF_TRUSTED_ORIGINS", []) or [])
    base = origins[0] if origins else "http://127.0.0.1:8000"
    return base.rstrip("/") + path


class StripeProvider:
    name = "stripe"

    def __init__(self, client: stripe.StripeClient | None = None) -> None:
        self._client = client

    @property
    def client(self) -> stripe.StripeClient:
        if self._client is None:
            self._client = stripe_client()
        return self._client

    def checkout_create(self, *, reference: str, amount: int, return_url: str) -> Checkout:
        currency = str(getattr(settings, "STRIPE_CURRENCY", "inr"))
        session = self.client.v1.checkout.sessions.create(
            params={
                "mode": "payment",
                "client_reference_id": reference,
                "metadata": {"reference": reference},
                "payment_intent_data": {"metadata": {"reference": reference}},
                "line_items": [
                    {
                        "quantity": 1,
                        "price_data": {
                            "currency": currency,
                            "unit_amount": amount,
                            "product_data": {"name": "Wallet deposit"},
                        },
                    }
                ],
                "success_url": _absolute(return_url),
                "cancel_url": _absolute(return_url),
            },
            options={"idempotency_key": f"checkout:{reference}"},
        )
        return Checkout(url=str(session.url), provider_payment_id=str(session.id))

    def callback_verify(self, *, body: bytes, headers: Mapping[str, str]) -> PaymentEvent:
        secret = str(getattr(settings, "STRIPE_WEBHOOK_SECRET", ""))
        if not secret:
            raise CallbackRefused(LedgerRefusal.CALLBACK_NO_SECRET, provider="Stripe")
        signature = str(headers.get(SIGNATURE_HEADER, ""))
        tolerance = int(getattr(settings, "STRIPE_WEBHOOK_TOLERANCE_S", 300))
        try:
            event = stripe.Webhook.construct_event(body, signature, secret, tolerance)
        except stripe.SignatureVerificationError as error:
            raise CallbackRefused(
                LedgerRefusal.CALLBACK_BAD_SIGNATURE, provider="Stripe"
            ) from error
        except (ValueError, KeyError, TypeError) as error:
            raise CallbackRefused(LedgerRefusal.CALLBACK_NOT_AN_EVENT, provider="Stripe") from error
        # Stripe's check refuses a signature older than the tolerance only: one dated in the
        # future is refused here the same way (a replay cannot be prepared ahead).
        if _signed_at(signature) > time.time() + tolerance:
            raise CallbackRefused(LedgerRefusal.CALLBACK_FUTURE_SIGNATURE, provider="Stripe")
        return _event_read(event.to_dict())

    def payment_lookup(self, *, reference: str) -> PaymentEvent | None:
        from .models import Deposit

        session_id = (
            Deposit.objects.filter(reference=reference, provider=self.name)
            .values_list("provider_payment_id", flat=True)
            .first()
        )
        if not session_id:
            return None
        return stripe_lookup(self, session_id=session_id)


def _signed_at(signature: str) -> int:
    """The ``t=`` timestamp of a ``Stripe-Signature`` header (0 when it has none)."""
    for item in signature.split(","):
        key, _, value = item.strip().partition("=")
        if key == "t" and value.isascii() and value.isdigit():
            return int(value)
    return 0


def _event_read(event: dict[str, Any]) -> PaymentEvent:
    kind = str(event.get("type", ""))
    event_id = str(event.get("id", ""))
    obj = (event.get("data") or {}).get("object") or {}
    try:
        if kind.startswith("checkout.session."):
            reference = str(obj.get("client_reference_id") or "")
            amount = int(obj.get("amount_total") or 0)
            currency = str(obj.get("currency") or "")
            intent = str(obj.get("payment_intent") or "")
            if kind == "checkout.session.completed":
                status = "paid" if obj.get("payment_status") == "paid" else IGNORED
            else:
                status = SESSION_EVENTS.get(kind, IGNORED)
            if status != IGNORED and (not reference or currency.lower() != "inr"):
                raise CallbackRefused(LedgerRefusal.CALLBACK_NOT_OURS, provider="Stripe")
            return PaymentEvent(
                reference=reference,
                status=status,
                amount=amount,
                event_id=event_id,
                intent_id=intent,
            )
        if kind == "charge.refunded":
            return PaymentEvent(
                reference=str((obj.get("metadata") or {}).get("reference") or ""),
                status=REFUNDED,
                amount=int(obj.get("amount_refunded") or 0),
                event_id=event_id,
                intent_id=str(obj.get("payment_intent") or ""),
            )
    except (TypeError, ValueError) as error:
        raise CallbackRefused(LedgerRefusal.CALLBACK_UNREADABLE, provider="Stripe") from error
    return PaymentEvent(reference="", status=IGNORED, amount=0, event_id=event_id)


def stripe_lookup(provider: StripeProvider, *, session_id: str) -> PaymentEvent | None:
    session = provider.client.v1.checkout.sessions.retrieve(session_id)
    data = session.to_dict()
    if data.get("payment_status") == "paid":
        status = "paid"
    elif data.get("status") == "expired":
        status = "cancelled"
    else:
        return None
    return PaymentEvent(
        reference=str(data.get("client_reference_id") or ""),
        status=status,
        amount=int(data.get("amount_total") or 0),
        intent_id=str(data.get("payment_intent") or ""),
    )


def headers_of(request_meta: Mapping[str, Any]) -> dict[str, str]:
    return {SIGNATURE_HEADER: str(request_meta.get("HTTP_STRIPE_SIGNATURE", ""))}
