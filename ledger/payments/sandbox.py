"""The sandbox provider: a hosted checkout played by this site, for development, demos and
tests. ``/payments/sandbox/<reference>/`` shows the amount with Pay, Fail and Cancel buttons,
like a gateway's payment page. The outcome is then reported the way a gateway does: a JSON body
signed with HMAC-SHA256 (``PAYMENTS_SANDBOX_SECRET``) delivered from the server side to the
webhook handling (never from the browser), after the database commit, sometimes twice
(``PAYMENTS_SANDBOX_DUPLICATE_RATE``) and sometimes late (``PAYMENTS_SANDBOX_LATE_RATE``, by
``PAYMENTS_SANDBOX_DELAY_S`` seconds: a Celery task with a countdown when Celery runs the
timers, else a timer thread in this process)."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import random
import secrets
import threading
from collections.abc import Mapping
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, transaction
from django.urls import reverse

from ..errors import LedgerRefusal
from .models import DepositStatus, SandboxPayment
from .providers import CallbackRefused, Checkout, PaymentEvent

logger = logging.getLogger("ledger.payments")

SIGNATURE_HEADER = "X-Sandbox-Signature"
SANDBOX_TASK = "ledger.payments.sandbox_deliver"
MAX_BODY = 4096
OUTCOMES = {
    "pay": DepositStatus.PAID,
    "fail": DepositStatus.FAILED,
    "cancel": DepositStatus.CANCELLED,
}


def _secret() -> bytes:
    return str(getattr(settings, "PAYMENTS_SANDBOX_SECRET", "")).encode()


def sandbox_sign(body: bytes) -> str:
    """``sha256=<hex HMAC-SHA256 of the raw body>``, the value of the signature header."""
    return "sha256=" + hmac.new(_secret(), body, hashlib.sha256).hexdigest()


def sandbox_body(*, reference: str, status: str, amount: int, event_id: str = "") -> bytes:
    payload = {
        "event_id": event_id or f"evt_{secrets.token_hex(8)}",
        "reference": reference,
        "status": status,
        "amount": amount,
        "currency": "INR",
    }
    return json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()


class SandboxProvider:
    name = "sandbox"

    def checkout_create(self, *, reference: str, amount: int, return_url: str) -> Checkout:
        SandboxPayment.objects.get_or_create(reference=reference, defaults={"amount": amount})
        return Checkout(
            url=reverse("payments_sandbox_checkout", args=[reference]),
            provider_payment_id=f"sbx_{reference}",
        )

    def callback_verify(self, *, body: bytes, headers: Mapping[str, str]) -> PaymentEvent:
        if not _secret():
            raise CallbackRefused(LedgerRefusal.CALLBACK_NO_SECRET, provider="sandbox")
        if len(body) > MAX_BODY:
            raise CallbackRefused(LedgerRefusal.CALLBACK_TOO_LARGE)
        signature = str(headers.get(SIGNATURE_HEADER, ""))
        if not hmac.compare_digest(signature.encode(), sandbox_sign(body).encode()):
            raise CallbackRefused(LedgerRefusal.CALLBACK_BAD_SIGNATURE, provider="sandbox")
        try:
            data = json.loads(body)
            event = PaymentEvent(
                reference=str(data["reference"]),
                status=str(data["status"]),
                amount=int(data["amount"]),
                event_id=str(data.get("event_id", "")),
            )
        except (ValueError, KeyError, TypeError) as error:
            raise CallbackRefused(
                LedgerRefusal.CALLBACK_NOT_AN_EVENT, provider="sandbox"
            ) from error
        if event.status not in OUTCOMES.values() or data.get("currency") != "INR":
            raise CallbackRefused(LedgerRefusal.CALLBACK_UNKNOWN_STATUS)
        return event

    def payment_lookup(self, *, reference: str) -> PaymentEvent | None:
        payment = SandboxPayment.objects.filter(reference=reference).first()
        if payment is None or payment.status == DepositStatus.PENDING:
            return None
        return PaymentEvent(reference=reference, status=payment.status, amount=payment.amount)


def sandbox_checkout_complete(*, reference: str, outcome: str) -> SandboxPayment:
    """The player pressed Pay, Fail or Cancel on the sandbox page. The sandbox records it on
    its side and, once committed, reports it to the webhook handling like a gateway would.
    Pressing again changes nothing (the checkout is over)."""
    if outcome not in OUTCOMES:
        raise CallbackRefused(LedgerRefusal.CHECKOUT_OUTCOME_UNKNOWN, outcome=outcome)
    with transaction.atomic():
        payment = SandboxPayment.objects.select_for_update().get(reference=reference)
        if payment.status != DepositStatus.PENDING:
            return payment
        payment.status = OUTCOMES[outcome]
        payment.save(update_fields=["status"])
        body = sandbox_body(reference=reference, status=payment.status, amount=payment.amount)
        transaction.on_commit(lambda: sandbox_deliveries_schedule(body=body))
    return payment


def _rate(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def sandbox_deliveries_schedule(*, body: bytes) -> None:
    """Deliver the callback now (or late), and sometimes once more later."""
    delay = _rate("PAYMENTS_SANDBOX_DELAY_S", 2.0)
    late = random.random() < _rate("PAYMENTS_SANDBOX_LATE_RATE", 0.3)
    twice = random.random() < _rate("PAYMENTS_SANDBOX_DUPLICATE_RATE", 0.3)
    if late:
        sandbox_deliver_later(body=body, delay=delay)
    else:
        sandbox_deliver(body=body)
    if twice:
        sandbox_deliver_later(body=body, delay=delay * 1.5)


def sandbox_deliver(*, body: bytes) -> None:
    """One delivery: the signed body through the same handling as ``POST
    /payments/webhook/sandbox/``. A refusal is logged (as a gateway would see a 400)."""
    from .services import deposit_callback_apply

    try:
        deposit_callback_apply(
            provider="sandbox", body=body, headers={SIGNATURE_HEADER: sandbox_sign(body)}
        )
    except ValueError as error:
        logger.warning("payments: sandbox delivery refused: %s", error)


def _deliver_in_thread(body: bytes) -> None:
    try:
        sandbox_deliver(body=body)
    finally:
        close_old_connections()


def sandbox_deliver_later(*, body: bytes, delay: float) -> None:
    if getattr(settings, "TIMERS_BACKEND", "loop") == "celery":
        # By name: the task module imports this one (ledger/payments/tasks.py).
        current_app.send_task(SANDBOX_TASK, args=[body.decode()], countdown=delay)
        return
    timer = threading.Timer(delay, _deliver_in_thread, args=[body])
    timer.daemon = True
    timer.start()


def headers_of(request_meta: Mapping[str, Any]) -> dict[str, str]:
    """The signature header from a Django ``request.META``."""
    key = "HTTP_" + SIGNATURE_HEADER.upper().replace("-", "_")
    return {SIGNATURE_HEADER: str(request_meta.get(key, ""))}
