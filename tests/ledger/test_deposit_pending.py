"""A pending deposit in the wallet (issue 22, point 4): the list follows it live (a small
fragment the page polls while one is pending, with the header balance), the player resumes or
cancels it, and abandoned checkouts expire (idempotent, safe from several timers at once). A
paid callback always wins: a late one still credits an expired or cancelled deposit."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger import selectors
from ledger.payments import services
from ledger.payments.models import Deposit
from ledger.payments.sandbox import SIGNATURE_HEADER, sandbox_body, sandbox_sign
from ledger.payments.selectors import deposit_total_since
from ledger.payments.tasks import deposits_expire_task

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("payments_sandbox")]


@pytest.fixture(autouse=True)
def _checkout_expiry(settings: Any) -> None:
    settings.PAYMENTS_CHECKOUT_EXPIRY_S = 1800


def _callback(client: Any, deposit: Deposit, status: str) -> Any:
    body = sandbox_body(reference=deposit.reference, status=status, amount=deposit.amount)
    return client.post(
        "/payments/webhook/sandbox/",
        data=body,
        content_type="application/json",
        headers={SIGNATURE_HEADER: sandbox_sign(body)},
    )


def cash(user: Any) -> int:
    return selectors.wallet_balance(user=user, currency="cash")


def test_the_deposits_list_polls_while_pending_and_stops_when_paid(client, player):
    client.force_login(player)
    deposit = services.deposit_start(user=player, amount=50_000)
    wallet = client.get(reverse("wallet") + "?currency=cash").content.decode()
    assert f'hx-get="{reverse("wallet_deposits")}" hx-trigger="every 3s"' in wallet
    assert f'href="{deposit.checkout_url}">Resume payment</a>' in wallet
    fragment = client.get(reverse("wallet_deposits")).content.decode()
    assert "Pending" in fragment and 'hx-trigger="every 3s"' in fragment
    assert _callback(client, deposit, "paid").status_code == 200
    fragment = client.get(reverse("wallet_deposits")).content.decode()
    assert "Paid" in fragment and "hx-trigger" not in fragment  # nothing pending: no more polls
    assert "Resume payment" not in fragment
    # the header balance comes along out of band
    assert 'id="header-balance" hx-swap-oob="true"' in fragment and "₹500.00" in fragment


def test_the_player_cancels_a_pending_checkout(client, player, user_factory):
    client.force_login(player)
    deposit = services.deposit_start(user=player, amount=50_000)
    since = timezone.now() - timedelta(days=1)
    assert deposit_total_since(user=player, since=since) == 50_000
    url = reverse("wallet_deposit_cancel", args=[deposit.reference])
    page = client.post(url, follow=True).content.decode()
    assert "Deposit of ₹500.00 cancelled" in page
    deposit.refresh_from_db()
    assert deposit.status == "cancelled"
    assert deposit_total_since(user=player, since=since) == 0  # no longer held against a limit
    assert client.post(url).status_code == 302  # a double click changes nothing
    assert deposit.events.filter(status="cancelled").count() == 1
    # someone else's deposit, or a made-up one: refused in words, nothing changes
    other = user_factory()
    theirs = services.deposit_start(user=other, amount=10_000)
    refused = client.post(
        reverse("wallet_deposit_cancel", args=[theirs.reference]), follow=True
    ).content.decode()
    assert "There is no such deposit in your wallet." in refused
    theirs.refresh_from_db()
    assert theirs.status == "pending"
    # a paid one cannot be cancelled
    _callback(client, theirs, "paid")
    with pytest.raises(services.DepositRefused, match="no longer pending"):
        services.deposit_cancel(user=other, reference=theirs.reference)


def test_pending_checkouts_expire_once_and_a_late_paid_still_credits(client, player):
    deposit = services.deposit_start(user=player, amount=50_000)
    fresh = services.deposit_start(user=player, amount=20_000)
    later = deposit.created_at + timedelta(seconds=1801)
    Deposit.objects.filter(pk=fresh.pk).update(created_at=later - timedelta(seconds=60))
    assert services.deposits_expire(now=later) == 1
    assert services.deposits_expire(now=later) == 0  # idempotent: a second sweeper finds none
    deposit.refresh_from_db()
    fresh.refresh_from_db()
    assert (deposit.status, fresh.status) == ("expired", "pending")
    assert deposit.events.filter(status="expired").count() == 1
    client.force_login(player)
    fragment = client.get(reverse("wallet_deposits")).content.decode()
    assert "Not completed in time" in fragment
    # the paid callback always wins (README, "Payments"): the money was taken, so it credits
    assert _callback(client, deposit, "paid").status_code == 200
    deposit.refresh_from_db()
    assert deposit.status == "paid" and cash(player) == 50_000
    assert "after the checkout was expired" in deposit.events.last().detail


def test_an_expired_checkout_offers_no_resume_even_before_the_sweep(client, player):
    client.force_login(player)
    deposit = services.deposit_start(user=player, amount=50_000)
    Deposit.objects.filter(pk=deposit.pk).update(
        created_at=timezone.now() - timedelta(seconds=1900)
    )
    fragment = client.get(reverse("wallet_deposits")).content.decode()
    assert "Resume payment" not in fragment


def test_the_celery_task_runs_the_same_expiry(player):
    deposit = services.deposit_start(user=player, amount=50_000)
    Deposit.objects.filter(pk=deposit.pk).update(
        created_at=timezone.now() - timedelta(seconds=3600)
    )
    assert deposits_expire_task() == 1
    assert deposits_expire_task() == 0


@pytest.mark.django_db(transaction=True)
def test_expiry_sweeps_racing_each_other_and_a_paid_callback_settle_once(user_factory):
    from ledger.models import Transaction
    from tests.threads import race

    player = user_factory()
    old = timezone.now() - timedelta(seconds=3600)
    deposits = [services.deposit_start(user=player, amount=10_000 + i) for i in range(5)]
    Deposit.objects.filter(pk__in=[d.pk for d in deposits]).update(created_at=old)
    paid = deposits[0]
    body = sandbox_body(reference=paid.reference, status="paid", amount=paid.amount)
    headers = {SIGNATURE_HEADER: sandbox_sign(body)}

    def work(i: int) -> object:
        if i == 0:
            return services.deposit_callback_apply(provider="sandbox", body=body, headers=headers)
        return services.deposits_expire()

    results = race(6, work)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert sum(r for r in results[1:]) in (4, 5)  # each deposit expired by one sweep only
    statuses = dict(Deposit.objects.values_list("pk", "status"))
    assert statuses[paid.pk] == "paid"  # the paid callback wins, before or after the expiry
    assert sorted(statuses[d.pk] for d in deposits[1:]) == ["expired"] * 4
    for deposit in deposits[1:]:
        assert deposit.events.filter(status="expired").count() == 1
    assert Transaction.objects.filter(idempotency_key__startswith="deposit:").count() == 1
    assert cash(player) == paid.amount


@pytest.mark.django_db(transaction=True)
def test_ten_parallel_welcome_grants_credit_once(user_factory):
    from ledger.services import practice_chips_welcome_grant
    from tests.threads import race

    player = user_factory()
    results = race(10, lambda i: practice_chips_welcome_grant(user=player))
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert len({tx.pk for tx in results}) == 1
    assert selectors.wallet_balance(user=player, currency="practice") == 10_000
