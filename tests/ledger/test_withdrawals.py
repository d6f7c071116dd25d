"""Withdrawals: held at once in the pending-withdrawals account, approved (paid out) or
rejected (returned) by staff with a reason; only for a player whose identity staff verified."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from ledger import selectors
from ledger.errors import InsufficientFunds, ReasonRequired, StaffRequired
from ledger.models import Account, AccountKind
from ledger.payments import services
from ledger.payments.models import Withdrawal
from ledger.reconcile import reconcile_run

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _money_on(settings: Any) -> None:
    settings.MONEY_GAMES = True


@pytest.fixture
def verified(user_factory, fund):
    user = user_factory(identity_verified=True)
    fund(user, 100_000)
    return user


def cash(user: Any) -> int:
    return selectors.wallet_balance(user=user, currency="cash")


def house(kind: str) -> int:
    account = Account.objects.filter(kind=kind, currency="cash").first()
    return account.balance if account else 0


def assert_reconciled() -> None:
    report = reconcile_run()
    assert report.ok, report.discrepancies


def test_a_request_holds_the_amount_at_once(verified):
    withdrawal = services.withdrawal_request(user=verified, amount=40_000)
    assert withdrawal.status == "pending"
    assert cash(verified) == 60_000
    assert house(AccountKind.PENDING_PAYOUTS) == 40_000
    assert_reconciled()


def test_an_approved_withdrawal_is_paid_out_and_recorded(verified, staff):
    withdrawal = services.withdrawal_request(user=verified, amount=40_000)
    done = services.withdrawal_approve(
        withdrawal=withdrawal, staff_user=staff, reason="Paid by bank transfer UTR 123"
    )
    assert done.status == "approved" and done.decided_by == staff
    assert cash(verified) == 60_000
    assert house(AccountKind.PENDING_PAYOUTS) == 0
    assert house(AccountKind.WITHDRAWALS) == 40_000
    # A second click changes nothing; rejecting it now is refused in words.
    services.withdrawal_approve(withdrawal=withdrawal, staff_user=staff, reason="again")
    assert house(AccountKind.WITHDRAWALS) == 40_000
    with pytest.raises(services.WithdrawalRefused, match="already decided: paid out"):
        services.withdrawal_reject(withdrawal=withdrawal, staff_user=staff, reason="oops")
    assert [e.status for e in done.events.all()] == ["pending", "approved"]
    assert_reconciled()


def test_a_rejected_withdrawal_returns_to_the_wallet(verified, staff):
    withdrawal = services.withdrawal_request(user=verified, amount=40_000)
    done = services.withdrawal_reject(
        withdrawal=withdrawal, staff_user=staff, reason="Bank details do not match"
    )
    assert done.status == "rejected"
    assert cash(verified) == 100_000
    assert house(AccountKind.PENDING_PAYOUTS) == 0
    assert house(AccountKind.WITHDRAWALS) == 0
    statement = [
        e.transaction.kind for e in selectors.wallet_statement(user=verified, currency="cash")
    ]
    assert statement[:2] == ["withdraw_return", "withdraw_hold"]
    assert_reconciled()


def test_a_decision_needs_staff_and_a_reason(verified, user_factory):
    withdrawal = services.withdrawal_request(user=verified, amount=1_000)
    with pytest.raises(StaffRequired):
        services.withdrawal_approve(withdrawal=withdrawal, staff_user=user_factory(), reason="x")
    with pytest.raises(ReasonRequired):
        services.withdrawal_reject(
            withdrawal=withdrawal, staff_user=user_factory(is_staff=True), reason="  "
        )
    withdrawal.refresh_from_db()
    assert withdrawal.status == "pending"


def test_only_a_verified_player_may_withdraw(player, fund):
    fund(player, 10_000)
    with pytest.raises(services.WithdrawalRefused, match="verified identity"):
        services.withdrawal_request(user=player, amount=5_000)
    assert cash(player) == 10_000
    assert not Withdrawal.objects.exists()


def test_more_than_the_balance_is_refused_in_rupees(verified):
    with pytest.raises(InsufficientFunds, match=r"holds ₹1,000.00 and this needs ₹1,000.01"):
        services.withdrawal_request(user=verified, amount=100_001)
    assert not Withdrawal.objects.exists()
    assert cash(verified) == 100_000


def test_the_player_requests_and_sees_the_status(client, verified, staff):
    client.force_login(verified)
    response = client.post(reverse("wallet_withdraw"), {"amount": "250.50"}, follow=True)
    html = response.content.decode()
    assert "Withdrawal of ₹250.50 requested" in html
    assert "Pending approval" in html
    withdrawal = Withdrawal.objects.get()
    services.withdrawal_reject(withdrawal=withdrawal, staff_user=staff, reason="Wrong account")
    html = client.get(reverse("wallet") + "?currency=cash").content.decode()
    assert "Rejected (returned to the wallet)" in html
    # The staff's reason is their internal note: not shown to the player (no "Note" column,
    # and the statement says "Withdrawal rejected (returned)" alone).
    assert "Wrong account" not in html and ">Note<" not in html
    assert "Withdrawal rejected (returned)<" in html


def test_staff_decide_in_the_admin(client, verified, user_factory):
    admin_user = user_factory(is_staff=True, is_superuser=True)
    withdrawal = services.withdrawal_request(user=verified, amount=30_000)
    client.force_login(admin_user)
    url = reverse("admin:ledger_withdrawal_decide", args=[withdrawal.pk])
    page = client.get(url)
    assert page.status_code == 200 and "₹300.00" in page.content.decode()
    refused = client.post(url, {"decision": "approve", "reason": ""})
    assert refused.status_code == 400
    done = client.post(url, {"decision": "approve", "reason": "Paid, UTR 42"})
    assert done.status_code == 302
    withdrawal.refresh_from_db()
    assert withdrawal.status == "approved" and withdrawal.reason == "Paid, UTR 42"
    listing = client.get(reverse("admin:ledger_withdrawal_changelist")).content.decode()
    assert "Paid out" in listing


def test_reconcile_finds_a_pending_request_without_its_hold(verified):
    services.withdrawal_request(user=verified, amount=10_000)
    Withdrawal.objects.create(user=verified, amount=5_000)  # not through the service
    checks = {d.check for d in reconcile_run().discrepancies}
    assert checks == {"pending_withdrawals"}
