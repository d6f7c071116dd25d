"""Responsible play: deposit limits (lower at once, higher after 24 hours, refusals in rupees),
self-exclusion (no cash tables, no deposits, withdrawals still possible, not undone early),
age confirmation at sign-up, and what staff see and do in the admin."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import User
from accounts.selectors import deposit_limit_current, self_exclusion_active
from ledger import selectors as ledger_selectors
from ledger.payments import services as payments
from ledger.payments.models import Deposit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _money_on(settings: Any) -> None:
    settings.MONEY_GAMES = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _cash_table() -> Any:
    from tables.models import TableTemplate
    from tables.services import table_create

    template = TableTemplate(
        name="Cash pool",
        variant="pool101",
        seats_min=2,
        seats_max=3,
        currency="cash",
        entry_fee=1000,
    )
    template.full_clean()
    template.save()
    return table_create(template=template)


# --- deposit limits ------------------------------------------------------------------------


def test_a_deposit_over_the_daily_limit_is_refused_with_what_is_left(player):
    services.limits_set(user=player, period="daily", amount=100_000)  # ₹1,000
    payments.deposit_start(user=player, amount=60_000)  # pending counts
    with pytest.raises(payments.DepositRefused) as refused:
        payments.deposit_start(user=player, amount=50_000)
    assert (
        refused.value.message
        == (
            "That is over your daily deposit limit of ₹1,000.00 (counted over the last 24 hours): "
            "you can deposit ₹400.00 more now."
        )
        + " From "
        + refused.value.message.split(" From ")[1]
    )
    assert refused.value.message.endswith(", ₹500.00 fits again.")
    assert refused.value.details["allowed_from"] > timezone.now() + timedelta(hours=23)
    payments.deposit_start(user=player, amount=40_000)
    with pytest.raises(payments.DepositRefused, match=r"₹0.00 more now"):
        payments.deposit_start(user=player, amount=100)
    assert Deposit.objects.filter(user=player).count() == 2


def test_a_deposit_over_the_monthly_limit_is_refused(player):
    services.limits_set(user=player, period="monthly", amount=200_000)
    payments.deposit_start(user=player, amount=150_000)
    with pytest.raises(
        payments.DepositRefused,
        match=r"\(counted over the last 30 days\): you can deposit ₹500.00 more now",
    ):
        payments.deposit_start(user=player, amount=60_000)


def test_a_failed_deposit_frees_the_limit_again(player):
    from ledger.payments.sandbox import SIGNATURE_HEADER, sandbox_body, sandbox_sign

    services.limits_set(user=player, period="daily", amount=100_000)
    deposit = payments.deposit_start(user=player, amount=100_000)
    body = sandbox_body(reference=deposit.reference, status="failed", amount=100_000)
    payments.deposit_callback_apply(
        provider="sandbox", body=body, headers={SIGNATURE_HEADER: sandbox_sign(body)}
    )
    payments.deposit_start(user=player, amount=100_000)


def test_lowering_takes_effect_at_once_raising_after_24_hours(player):
    now = timezone.now()
    services.limits_set(user=player, period="daily", amount=100_000, now=now)
    assert deposit_limit_current(user=player, period="daily", now=now) == 100_000
    raised = services.limits_set(user=player, period="daily", amount=500_000, now=now)
    assert raised.effective_at == now + timedelta(hours=24)
    assert deposit_limit_current(user=player, period="daily", now=now + timedelta(hours=23)) == (
        100_000
    )
    later = now + timedelta(hours=24, seconds=1)
    assert deposit_limit_current(user=player, period="daily", now=later) == 500_000
    # Removing a limit is a raise too; lowering again replaces a raise still cooling off.
    services.limits_set(user=player, period="daily", amount=None, now=later)
    assert deposit_limit_current(user=player, period="daily", now=later) == 500_000
    services.limits_set(user=player, period="daily", amount=20_000, now=later)
    assert deposit_limit_current(user=player, period="daily", now=later) == 20_000
    assert deposit_limit_current(user=player, period="daily", now=later + timedelta(days=2)) == (
        20_000
    )


def test_the_limits_page(client, player):
    client.force_login(player)
    page = client.get(reverse("responsible_play"))
    assert page.status_code == 200 and "no limit" in page.content.decode()
    response = client.post(
        reverse("responsible_play"),
        {"limits-daily": "1000", "limits-monthly": "", "limits-submit": "1"},
        follow=True,
    )
    html = response.content.decode()
    assert "Your daily limit is in force now." in html and "₹1,000.00" in html
    raised = client.post(
        reverse("responsible_play"),
        {"limits-daily": "2000.50", "limits-monthly": "", "limits-submit": "1"},
        follow=True,
    ).content.decode()
    assert "takes effect after 24 hours" in raised and "₹2,000.50" in raised
    bad = client.post(
        reverse("responsible_play"),
        {"limits-daily": "1e5", "limits-monthly": "", "limits-submit": "1"},
    )
    assert bad.status_code == 400 and "digits 0-9" in bad.content.decode()


# --- self-exclusion --------------------------------------------------------------------------


def test_self_exclusion_refuses_a_cash_join_and_a_deposit_but_not_a_withdrawal(
    user_factory,
):
    from ledger.services import wallet_deposit
    from tables.services import table_join
    from tables.services.errors import SeatUnavailable

    table = _cash_table()
    player = user_factory(identity_verified=True)
    wallet_deposit(user=player, currency="cash", amount=10_000, idempotency_key="t:fund:se")
    services.self_exclusion_start(user=player, period="7d")
    with pytest.raises(SeatUnavailable, match="excluded yourself from money games until"):
        table_join(table=table, user=player)
    with pytest.raises(payments.DepositRefused, match="excluded yourself from money games until"):
        payments.deposit_start(user=player, amount=10_000)
    withdrawal = payments.withdrawal_request(user=player, amount=10_000)
    assert withdrawal.status == "pending"
    assert ledger_selectors.wallet_balance(user=player, currency="cash") == 0


def test_self_exclusion_cannot_be_undone_or_shortened(player):
    now = timezone.now()
    first = services.self_exclusion_start(user=player, period="30d", now=now)
    with pytest.raises(services.AccountRefused, match="already excluded until"):
        services.self_exclusion_start(user=player, period="1d", now=now)
    longer = services.self_exclusion_start(user=player, period="6m", now=now)
    assert longer.ends_at > first.ends_at
    assert self_exclusion_active(user=player, now=now + timedelta(days=100)) == longer
    assert self_exclusion_active(user=player, now=now + timedelta(days=200)) is None


def test_the_self_exclusion_page_needs_confirmation(client, player):
    client.force_login(player)
    refused = client.post(
        reverse("responsible_play"), {"exclusion-period": "1d", "exclusion-submit": "1"}
    )
    assert refused.status_code == 400 and "cannot be undone" in refused.content.decode()
    done = client.post(
        reverse("responsible_play"),
        {"exclusion-period": "1d", "exclusion-confirm": "on", "exclusion-submit": "1"},
        follow=True,
    )
    assert "You are excluded from money games until" in done.content.decode()
    assert self_exclusion_active(user=player) is not None


# --- sign-up, admin --------------------------------------------------------------------------


def test_signup_asks_for_age_confirmation_when_money_games_are_on(client):
    data = {
        "username": "newbie",
        "display_name": "",
        "email": "",
        "password1": "tiles-and-tigers-42",
        "password2": "tiles-and-tigers-42",
    }
    refused = client.post(reverse("signup"), data)
    assert refused.status_code == 400
    assert "You must be 18 or older" in refused.content.decode()
    done = client.post(reverse("signup"), {**data, "age_confirmed": "on"})
    assert done.status_code == 302
    assert User.objects.get(username="newbie").age_confirmed_at is not None


def test_staff_see_exclusion_and_limits_and_verify_identity(client, player, user_factory):
    admin_user = user_factory(is_staff=True, is_superuser=True)
    services.self_exclusion_start(user=player, period="1d")
    services.limits_set(user=player, period="monthly", amount=500_000)
    client.force_login(admin_user)
    page = client.get(reverse("admin:accounts_user_change", args=[player.pk])).content.decode()
    assert "Self-exclusions" in page or "self exclusion" in page.lower()
    assert "₹5,000.00" in page
    listing = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "self-excluded until" in listing.lower()
    client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "mark_identity_verified", "_selected_action": [player.pk]},
    )
    player.refresh_from_db()
    assert player.identity_verified and player.identity_verified_at is not None


def test_staff_credit_a_player_who_has_no_wallet_yet(client, player, user_factory):
    admin_user = user_factory(is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    url = reverse("admin:ledger_account_adjust_player") + f"?user={player.pk}&currency=cash"
    page = client.get(url)
    assert page.status_code == 200 and "₹0.00" in page.content.decode()
    key = "form-key-1"
    assert client.post(url, {"amount": "500", "reason": "", "key": key}).status_code == 400
    done = client.post(url, {"amount": "500", "reason": "Welcome credit", "key": key})
    assert done.status_code == 302
    client.post(url, {"amount": "500", "reason": "Welcome credit", "key": key})  # double submit
    assert ledger_selectors.wallet_balance(user=player, currency="cash") == 50_000
    debit = client.post(url, {"amount": "-100", "reason": "Correction", "key": "form-key-2"})
    assert debit.status_code == 302
    assert ledger_selectors.wallet_balance(user=player, currency="cash") == 40_000
    client.force_login(player)
    statement = client.get(reverse("wallet") + "?currency=cash").content.decode()
    # the statement says what moved; the staff's reasons are their internal notes
    assert statement.count("<td>Adjustment</td>") == 2
    assert "Welcome credit" not in statement and "Correction" not in statement
