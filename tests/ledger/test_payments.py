"""Deposits through the sandbox provider: a deposit is credited only by a verified callback,
exactly once per provider reference, whatever the order or number of callbacks; failed and
cancelled payments credit nothing; forged callbacks are refused and logged."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from ledger import selectors
from ledger.models import Transaction
from ledger.payments import services
from ledger.payments.models import Deposit
from ledger.payments.providers import CallbackRefused
from ledger.payments.sandbox import SIGNATURE_HEADER, sandbox_body, sandbox_sign
from ledger.reconcile import reconcile_run

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("payments_sandbox")]

WEBHOOK = "/payments/webhook/sandbox/"


def _post(client: Any, body: bytes, signature: str | None = None) -> Any:
    headers = {SIGNATURE_HEADER: sandbox_sign(body) if signature is None else signature}
    return client.post(WEBHOOK, data=body, content_type="application/json", headers=headers)


def _callback(deposit: Deposit, status: str, amount: int | None = None) -> bytes:
    return sandbox_body(
        reference=deposit.reference,
        status=status,
        amount=deposit.amount if amount is None else amount,
    )


def cash(user: Any) -> int:
    return selectors.wallet_balance(user=user, currency="cash")


def assert_reconciled() -> None:
    report = reconcile_run()
    assert report.ok, report.discrepancies


def test_a_started_deposit_is_pending_and_credits_nothing(player):
    deposit = services.deposit_start(user=player, amount=50_000)
    assert deposit.status == "pending"
    assert deposit.checkout_url == f"/payments/sandbox/{deposit.reference}/"
    assert cash(player) == 0
    assert [e.detail for e in deposit.events.all()] == ["Checkout opened at sandbox"]


def test_a_paid_callback_delivered_twice_credits_once(client, player):
    deposit = services.deposit_start(user=player, amount=50_000)
    body = _callback(deposit, "paid")
    first = _post(client, body)
    second = _post(client, body)
    assert (first.status_code, second.status_code) == (200, 200)
    assert cash(player) == 50_000
    deposit.refresh_from_db()
    assert deposit.status == "paid"
    assert (
        Transaction.objects.filter(idempotency_key=f"deposit:sandbox:{deposit.reference}").count()
        == 1
    )
    details = [e.detail for e in deposit.events.all()]
    assert details[1].startswith("Paid: credited")
    assert details[2].startswith("Paid again")
    assert_reconciled()


def test_a_late_paid_callback_after_a_failed_one_still_credits_once(client, player):
    deposit = services.deposit_start(user=player, amount=20_000)
    assert _post(client, _callback(deposit, "failed")).status_code == 200
    deposit.refresh_from_db()
    assert deposit.status == "failed"
    assert cash(player) == 0
    assert _post(client, _callback(deposit, "paid")).status_code == 200
    assert _post(client, _callback(deposit, "paid")).status_code == 200
    deposit.refresh_from_db()
    assert deposit.status == "paid"
    assert cash(player) == 20_000


def test_a_failure_arriving_after_the_payment_changes_nothing(client, player):
    """Out of order: paid first, then an older 'failed' and 'cancelled' arrive late."""
    deposit = services.deposit_start(user=player, amount=20_000)
    _post(client, _callback(deposit, "paid"))
    _post(client, _callback(deposit, "failed"))
    _post(client, _callback(deposit, "cancelled"))
    deposit.refresh_from_db()
    assert deposit.status == "paid"
    assert cash(player) == 20_000
    assert "ignored, stays paid" in deposit.events.last().detail
    assert_reconciled()


@pytest.mark.parametrize("status", ["failed", "cancelled"])
def test_a_failed_or_cancelled_payment_credits_nothing(client, player, status):
    deposit = services.deposit_start(user=player, amount=20_000)
    assert _post(client, _callback(deposit, status)).status_code == 200
    assert _post(client, _callback(deposit, status)).status_code == 200
    deposit.refresh_from_db()
    assert deposit.status == status
    assert cash(player) == 0
    assert_reconciled()


@pytest.mark.parametrize(
    "forge",
    [
        lambda body: (body, "sha256=" + "0" * 64),
        lambda body: (body, ""),
        lambda body: (body.replace(b'"amount":20000', b'"amount":9000000'), None),
        lambda body: (body, sandbox_sign(body).upper()),
        lambda body: (b"not json at all", None),
    ],
    ids=["wrong-signature", "no-signature", "tampered-body", "mangled-signature", "not-json"],
)
def test_a_forged_callback_is_refused_and_logged(client, player, caplog, forge):
    deposit = services.deposit_start(user=player, amount=20_000)
    body = _callback(deposit, "paid")
    forged, signature = forge(body)
    if signature is None and forged != body:
        signature = sandbox_sign(body)  # the original's signature on a changed body
    with caplog.at_level(logging.WARNING, logger="ledger.payments"):
        response = _post(client, forged, signature)
    assert response.status_code == 400
    assert "refused" in response.content.decode()
    assert any("callback refused" in r.getMessage() for r in caplog.records)
    deposit.refresh_from_db()
    assert deposit.status == "pending"
    assert cash(player) == 0


def test_a_signed_callback_with_another_amount_or_reference_is_refused(client, player, caplog):
    deposit = services.deposit_start(user=player, amount=20_000)
    with caplog.at_level(logging.WARNING, logger="ledger.payments"):
        assert _post(client, _callback(deposit, "paid", amount=90_000)).status_code == 400
        unknown = sandbox_body(reference="dep_nobody", status="paid", amount=20_000)
        assert _post(client, unknown).status_code == 400
    assert len([r for r in caplog.records if r.name == "ledger.payments"]) == 2
    assert cash(player) == 0


def test_the_webhook_takes_only_post_and_needs_no_csrf(client, player):
    assert client.get(WEBHOOK).status_code == 405
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    deposit = services.deposit_start(user=player, amount=10_000)
    assert _post(strict, _callback(deposit, "paid")).status_code == 200


@hsettings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.sampled_from(["paid", "failed", "cancelled"]), min_size=1, max_size=6))
def test_callbacks_in_any_order_and_number_credit_exactly_once(user_factory, callbacks):
    player = user_factory()
    deposit = services.deposit_start(user=player, amount=12_345)
    for status in callbacks:
        body = _callback(deposit, status)
        services.deposit_callback_apply(
            provider="sandbox", body=body, headers={SIGNATURE_HEADER: sandbox_sign(body)}
        )
    deposit.refresh_from_db()
    paid = "paid" in callbacks
    assert cash(player) == (12_345 if paid else 0)
    assert deposit.status == ("paid" if paid else callbacks[-1])
    assert Transaction.objects.filter(idempotency_key__endswith=deposit.reference).count() == int(
        paid
    )
    assert_reconciled()


# --- the sandbox checkout page, as the player uses it --------------------------------------


def _checkout(client: Any, player: Any, amount: str = "500") -> Deposit:
    client.force_login(player)
    response = client.post(reverse("wallet_deposit"), {"amount": amount})
    deposit = Deposit.objects.get(user=player)
    assert response.status_code == 302
    assert response["Location"] == deposit.checkout_url
    page = client.get(deposit.checkout_url)
    assert page.status_code == 200
    assert "Pay ₹500.00" in page.content.decode()
    return deposit


def test_pay_on_the_checkout_page_credits_the_wallet_through_the_callback(
    client, player, django_capture_on_commit_callbacks
):
    deposit = _checkout(client, player)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(deposit.checkout_url, {"outcome": "pay"})
    assert response.status_code == 302
    deposit.refresh_from_db()
    assert deposit.status == "paid"
    assert cash(player) == 50_000
    wallet = client.get(reverse("wallet") + "?currency=cash").content.decode()
    assert "Paid" in wallet and deposit.reference in wallet
    # The checkout is over: pressing again changes nothing.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(deposit.checkout_url, {"outcome": "pay"})
    assert cash(player) == 50_000


@pytest.mark.parametrize(("outcome", "status"), [("fail", "failed"), ("cancel", "cancelled")])
def test_fail_or_cancel_on_the_checkout_page_credits_nothing(
    client, player, django_capture_on_commit_callbacks, outcome, status
):
    deposit = _checkout(client, player)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(deposit.checkout_url, {"outcome": outcome})
    deposit.refresh_from_db()
    assert deposit.status == status
    assert cash(player) == 0
    wallet = client.get(reverse("wallet") + "?currency=cash").content.decode()
    assert status.capitalize() in wallet


def test_the_sandbox_may_deliver_twice(
    client, player, settings, django_capture_on_commit_callbacks
):
    """With duplicates on, the second delivery comes later (a timer) and changes nothing."""
    from ledger.payments import sandbox

    later: list[bytes] = []
    settings.PAYMENTS_SANDBOX_DUPLICATE_RATE = 1.0
    original = sandbox.sandbox_deliver_later
    sandbox.sandbox_deliver_later = lambda *, body, delay: later.append(body)
    try:
        deposit = _checkout(client, player)
        with django_capture_on_commit_callbacks(execute=True):
            client.post(deposit.checkout_url, {"outcome": "pay"})
    finally:
        sandbox.sandbox_deliver_later = original
    assert len(later) == 1
    sandbox.sandbox_deliver(body=later[0])
    assert cash(player) == 50_000
    assert json.loads(later[0])["status"] == "paid"


def test_somebody_elses_checkout_is_not_found(client, player, user_factory):
    deposit = services.deposit_start(user=player, amount=10_000)
    client.force_login(user_factory())
    assert client.get(deposit.checkout_url).status_code == 404
    assert client.post(deposit.checkout_url, {"outcome": "pay"}).status_code == 404


@pytest.mark.parametrize(
    ("typed", "error"),
    [
        ("abc", "digits 0-9"),
        ("1e9", "digits 0-9"),
        ("NaN", "digits 0-9"),
        ("\u0661\u0660\u0660", "digits 0-9"),
        ("0", "above ₹0.00"),
        ("-5", "above ₹0.00"),
        ("10.005", "2 decimal places"),
        ("99999999999999", "too large"),
        ("12345678901234567890", "too large"),
        ("1" * 30, "too long"),
        ("", "Enter an amount in rupees"),
        ("0.50", "smallest deposit is ₹1.00"),
    ],
)
def test_a_bad_deposit_amount_is_refused_in_words(client, player, typed, error):
    client.force_login(player)
    response = client.post(reverse("wallet_deposit"), {"amount": typed}, follow=True)
    html = response.content.decode()
    assert error in html
    # a player's amount is never answered with a negative example ("e.g. 12.50 or -5")
    assert "-5" not in html and "or -" not in html
    assert not Deposit.objects.exists()


def test_callback_refused_is_a_ledger_error():
    assert issubclass(CallbackRefused, ValueError)
