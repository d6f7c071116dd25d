"""Issue 21, point 3: switching money games off stops every path that moves cash in. A deposit
opened before the switch cannot be paid on the sandbox page, and a paid callback for it is
refused, reported (logged, in its history) and credits nothing; the player can still take out
the cash they own."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.urls import reverse

from ledger import selectors
from ledger.payments import services as payments
from ledger.payments.models import Deposit, DepositStatus
from ledger.payments.sandbox import SIGNATURE_HEADER, sandbox_body, sandbox_sign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _money_on(settings: Any) -> None:
    settings.MONEY_GAMES = True
    settings.PAYMENTS_SANDBOX_DUPLICATE_RATE = 0.0
    settings.PAYMENTS_SANDBOX_LATE_RATE = 0.0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_the_sandbox_pay_of_a_deposit_opened_before_the_switch_credits_nothing(
    client, user_factory, settings, fund
):
    player = user_factory(identity_verified=True)
    fund(player, 100_000)
    client.force_login(player)
    opened = client.post(reverse("wallet_deposit"), {"amount": "25"})
    checkout = opened["Location"]
    settings.MONEY_GAMES = False
    paid = client.post(checkout, {"outcome": "pay"}, follow=True)
    assert "this deposit was cancelled" in paid.content.decode()
    assert selectors.wallet_balance(user=player, currency="cash") == 100_000
    deposit = Deposit.objects.get(user=player)
    assert deposit.status == DepositStatus.CANCELLED
    # The player takes out what they own.
    out = client.post(reverse("wallet_withdraw"), {"amount": "1000"})
    assert out.status_code == 302
    assert selectors.wallet_balance(user=player, currency="cash") == 0


def test_a_paid_webhook_while_money_games_are_off_is_refused_and_reported(
    client, player, settings, caplog
):
    deposit = payments.deposit_start(user=player, amount=2_500)
    settings.MONEY_GAMES = False
    body = sandbox_body(reference=deposit.reference, status="paid", amount=2_500)
    with caplog.at_level(logging.WARNING, logger="ledger.payments"):
        response = client.post(
            "/payments/webhook/sandbox/",
            body,
            content_type="application/json",
            headers={SIGNATURE_HEADER: sandbox_sign(body)},
        )
    assert response.status_code == 400 and "Money games are off" in response.content.decode()
    assert selectors.wallet_balance(user=player, currency="cash") == 0
    deposit.refresh_from_db()
    assert deposit.status == DepositStatus.CANCELLED and deposit.transaction is None
    assert "FLAGGED" in deposit.events.last().detail
    assert "refund it at the provider" in caplog.text
