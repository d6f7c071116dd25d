"""``manage.py reconcile_ledger`` passes on a sound ledger and names every planted discrepancy."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction

from ledger import services
from ledger.reconcile import (
    Discrepancy,
    PotFacts,
    pot_facts_provider_register,
    pot_facts_provider_unregister,
    reconcile_check_register,
    reconcile_check_unregister,
    reconcile_run,
)

pytestmark = pytest.mark.django_db


def run_command() -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("reconcile_ledger", stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_failing_command() -> str:
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match="discrepanc"):
        call_command("reconcile_ledger", stdout=out, stderr=err)
    return err.getvalue()


@pytest.fixture
def busy_ledger(user_factory, fund, staff):
    """A ledger after a bit of everything: deposits, a finished game, a cancelled game,
    a refund, an adjustment and a reversal."""
    a, b, c = (user_factory() for _ in range(3))
    for user in (a, b, c):
        fund(user, 2000)
    for n, user in enumerate((a, b, c)):
        services.pot_hold_entry(
            user=user, currency="cash", pot_ref="game:1", amount=500, idempotency_key=f"e1:{n}"
        )
    services.pot_payout(
        pot_ref="game:1", currency="cash", payouts={a.pk: 1350}, fee=150, idempotency_key="s1"
    )
    for n, user in enumerate((a, b)):
        services.pot_hold_entry(
            user=user, currency="cash", pot_ref="game:2", amount=300, idempotency_key=f"e2:{n}"
        )
    services.pot_cancel_refund(pot_ref="game:2", currency="cash", idempotency_key="c2")
    services.pot_hold_entry(
        user=c, currency="cash", pot_ref="game:3", amount=100, idempotency_key="e3"
    )
    services.pot_refund_entry(
        user=c, currency="cash", pot_ref="game:3", amount=100, idempotency_key="r3"
    )
    adj = services.wallet_adjust(
        user=b,
        currency="cash",
        amount=77,
        reason="goodwill",
        staff_user=staff,
        idempotency_key="adj",
    )
    services.transaction_reverse(
        transaction=adj, reason="mistake", staff_user=staff, idempotency_key="rv"
    )
    return a, b, c


def test_a_sound_ledger_reconciles(busy_ledger):
    out, err = run_command()
    assert "ledger reconciled" in out
    assert err == ""
    report = reconcile_run()
    assert report.ok
    assert {"currency_sums", "cached_balances", "non_negative"} <= set(report.checks)


def test_a_planted_cache_drift_is_named(busy_ledger):
    a, _, _ = busy_ledger
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Triggers refuse this; a superuser can switch them off for the session.
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE ledger_account SET balance = balance + 5"
            " WHERE kind = 'wallet' AND user_id = %s",
            [a.pk],
        )
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = origin")
    err = run_failing_command()
    assert "[cached_balances]" in err
    assert f"user {a.pk}" in err


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_planted_unbalanced_entry_is_named(busy_ledger):
    """Only possible with the triggers switched off: the reconciler still sees it. (Committed
    data: the deferred checks of rows still pending would refuse the tampering themselves.)"""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE ledger_entry SET amount = amount + 1 WHERE id = "
            "(SELECT max(id) FROM ledger_entry)"
        )
    err = run_failing_command()
    assert "[currency_sums] cash entries sum to ₹0.01, not zero" in err
    assert "[transactions_balanced]" in err
    assert "[cached_balances]" in err
    assert "[running_balances]" in err


def test_game_facts_from_the_game_owner_are_checked(busy_ledger):
    a, b, c = busy_ledger
    facts = [
        PotFacts(ref="game:1", seat_user_ids=(a.pk, b.pk, c.pk), finished=True),
        PotFacts(ref="game:2", seat_user_ids=(a.pk, b.pk), cancelled=True),
        PotFacts(ref="game:3", seat_user_ids=(c.pk,)),
    ]
    pot_facts_provider_register(name="test", provider=lambda: facts)
    try:
        assert reconcile_run().ok
        # Now the game owner says game:4 finished with b seated: no fee, no payout.
        facts.append(PotFacts(ref="game:4", seat_user_ids=(b.pk,), finished=True))
        # And that c also sat at game:1 twice (a double seat).
        facts.append(PotFacts(ref="game:1", seat_user_ids=(c.pk, c.pk)))
        err = run_failing_command()
        assert f"[entry_fees] game:4: seat of user {b.pk} has 0 entry fees, expected 1" in err
        assert "[game_closings] game:4: finished game has 0 payouts/settlements" in err
    finally:
        pot_facts_provider_unregister(name="test")


def test_a_finished_game_with_money_left_in_the_pot_is_named(user_factory, fund):
    user = user_factory()
    fund(user, 1000)
    services.pot_hold_entry(
        user=user, currency="cash", pot_ref="game:77", amount=400, idempotency_key="e77"
    )
    pot_facts_provider_register(
        name="test",
        provider=lambda: [PotFacts(ref="game:77", seat_user_ids=(user.pk,), finished=True)],
    )
    try:
        err = run_failing_command()
        assert "[game_pots_empty] pot game:77 of a finished game holds 400" in err
    finally:
        pot_facts_provider_unregister(name="test")


def test_other_apps_can_register_checks():
    reconcile_check_register(
        name="always_wrong", check=lambda: [Discrepancy("always_wrong", "planted")]
    )
    try:
        assert "[always_wrong] planted" in run_failing_command()
    finally:
        reconcile_check_unregister(name="always_wrong")
    assert reconcile_run().ok
