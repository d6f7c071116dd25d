"""The database itself enforces the ledger's invariants, whatever the code above it does.

Tests without a marker run on both SQLite and PostgreSQL (raw SQL through Django's cursor);
``postgres`` tests need the deferred constraint triggers of PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from ledger import selectors, services
from ledger.models import Account, Entry, Transaction


def raw_transaction(key: str, currency: str = "cash", kind: str = "deposit") -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_transaction (kind, currency, idempotency_key, fingerprint, ref,"
            " memo, created_at) VALUES (%s, %s, %s, 'x', '', '', %s) RETURNING id",
            [kind, currency, key, timezone.now()],
        )
        return int(cursor.fetchone()[0])


def raw_entry(
    tx_id: int,
    account: Account,
    amount: int,
    *,
    balance_after: int | None = None,
    currency: str | None = None,
) -> None:
    account.refresh_from_db()
    after = account.balance + amount if balance_after is None else balance_after
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ledger_entry (transaction_id, account_id, amount, currency, balance_after)"
            " VALUES (%s, %s, %s, %s, %s)",
            [tx_id, account.pk, amount, currency or account.currency, after],
        )


def execute(sql: str, params: list[Any] | None = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params or [])


@pytest.fixture
def posted(player, fund):
    tx = fund(player, 1000)
    return tx


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE ledger_entry SET amount = amount + 1",
        "UPDATE ledger_entry SET balance_after = 0",
        "DELETE FROM ledger_entry",
        "UPDATE ledger_transaction SET memo = 'edited'",
        "UPDATE ledger_transaction SET kind = 'refund'",
        "DELETE FROM ledger_transaction",
    ],
)
def test_entries_and_transactions_are_append_only(posted, sql):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        execute(sql)
    assert Entry.objects.filter(transaction=posted).count() == 2
    assert Transaction.objects.get(pk=posted.pk).memo == "Deposit"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE ledger_account SET ref = 'game:999' WHERE kind = 'wallet'",
        "UPDATE ledger_account SET currency = 'practice' WHERE kind = 'wallet'",
        "UPDATE ledger_account SET kind = 'fees' WHERE kind = 'wallet'",
    ],
)
def test_an_account_never_changes_identity(posted, sql):
    with pytest.raises(IntegrityError), transaction.atomic():
        execute(sql)


@pytest.mark.django_db
def test_no_wallet_below_zero_even_from_raw_sql(player, fund):
    fund(player, 100)
    wallet = Account.objects.get(kind="wallet", user=player)
    fees = Account.objects.create(kind="fees", currency="cash")
    with pytest.raises(IntegrityError), transaction.atomic():
        tx_id = raw_transaction("raw:overdraw")
        raw_entry(tx_id, wallet, -101)
        raw_entry(tx_id, fees, 101)
    wallet.refresh_from_db()
    assert wallet.balance == 100


@pytest.mark.django_db
def test_entries_must_match_currency_and_running_balance(player, fund):
    fund(player, 100)
    wallet = Account.objects.get(kind="wallet", user=player)
    with pytest.raises(IntegrityError, match="currency"), transaction.atomic():
        tx_id = raw_transaction("raw:currency", currency="practice")
        raw_entry(tx_id, wallet, 5, currency="practice")
    if connection.vendor == "sqlite":  # PostgreSQL checks this one at commit (test below)
        with pytest.raises(IntegrityError, match="currency"), transaction.atomic():
            tx_id = raw_transaction("raw:currency2", currency="practice")
            raw_entry(tx_id, wallet, 5)
    with pytest.raises(IntegrityError, match="balance_after"), transaction.atomic():
        tx_id = raw_transaction("raw:after")
        raw_entry(tx_id, wallet, 5, balance_after=999)
    wallet.refresh_from_db()
    assert wallet.balance == 100


@pytest.mark.django_db
def test_the_balance_cache_follows_raw_entries(player, fund):
    """The database, not the service, maintains the cached balance."""
    fund(player, 100)
    wallet = Account.objects.get(kind="wallet", user=player)
    adjustments = Account.objects.create(kind="adjustments", currency="cash")
    tx_id = raw_transaction("raw:ok", kind="deposit")
    raw_entry(tx_id, wallet, 40)
    raw_entry(tx_id, adjustments, -40)
    assert selectors.wallet_balance(user=player, currency="cash") == 140


@pytest.mark.django_db(transaction=True)
def test_flush_still_empties_the_ledger(player, fund):
    """``flush`` (and the test runner's teardown) may empty the tables on both databases."""
    fund(player, 100)
    call_command("flush", interactive=False, verbosity=0)
    assert Entry.objects.count() == 0
    assert Transaction.objects.count() == 0


# --- PostgreSQL only: deferred balance check, balance guard -----------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_unbalanced_transaction_cannot_commit(player, fund):
    fund(player, 100)
    wallet = Account.objects.get(kind="wallet", user=player)
    before = (Transaction.objects.count(), Entry.objects.count())
    with pytest.raises(IntegrityError, match="unbalanced"), transaction.atomic():
        tx_id = raw_transaction("raw:unbalanced")
        raw_entry(tx_id, wallet, 50)
        raw_entry(tx_id, Account.objects.get(kind="deposits"), -49)
    with pytest.raises(IntegrityError, match="two or more"), transaction.atomic():
        raw_transaction("raw:empty")
    with pytest.raises(IntegrityError, match="two or more"), transaction.atomic():
        tx_id = raw_transaction("raw:one-leg")
        raw_entry(tx_id, Account.objects.get(kind="deposits"), -49)
    with pytest.raises(IntegrityError, match="another currency"), transaction.atomic():
        tx_id = raw_transaction("raw:currency", currency="practice")
        raw_entry(tx_id, wallet, 50)
        raw_entry(tx_id, Account.objects.get(kind="deposits"), -50)
    assert (Transaction.objects.count(), Entry.objects.count()) == before
    assert selectors.wallet_balance(user=player, currency="cash") == 100
    # A balanced raw transaction commits: the triggers refuse only what is wrong.
    with transaction.atomic():
        tx_id = raw_transaction("raw:balanced")
        raw_entry(tx_id, wallet, 50)
        raw_entry(tx_id, Account.objects.get(kind="deposits"), -50)
    assert selectors.wallet_balance(user=player, currency="cash") == 150


@pytest.mark.postgres
@pytest.mark.django_db
def test_unbalanced_check_fires_when_constraints_are_made_immediate(player, fund):
    fund(player, 100)
    wallet = Account.objects.get(kind="wallet", user=player)
    with pytest.raises(IntegrityError, match="unbalanced"), transaction.atomic():
        tx_id = raw_transaction("raw:imm")
        raw_entry(tx_id, wallet, 7)
        raw_entry(tx_id, Account.objects.get(kind="deposits"), -6)
        execute("SET CONSTRAINTS ALL IMMEDIATE")


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_cached_balance_changes_only_through_entries(posted, player):
    with pytest.raises(IntegrityError, match="only through entries"), transaction.atomic():
        execute("UPDATE ledger_account SET balance = balance + 1 WHERE kind = 'wallet'")
    assert selectors.wallet_balance(user=player, currency="cash") == 1000
    # Other columns (closing a pot) may change.
    execute("UPDATE ledger_account SET closed_at = now() WHERE kind = 'wallet'")


@pytest.mark.django_db
def test_reversing_twice_is_refused_by_a_unique_constraint(player, staff, fund):
    tx = fund(player, 100)
    services.transaction_reverse(
        transaction=tx, reason="test", staff_user=staff, idempotency_key="rv:1"
    )
    wallet = Account.objects.get(kind="wallet", user=player)
    with pytest.raises(IntegrityError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO ledger_transaction (kind, currency, idempotency_key, fingerprint,"
                " ref, memo, staff_user_id, reverses_id, created_at)"
                " VALUES ('reversal', 'cash', 'rv:raw', 'x', '', 'again', %s, %s, %s)"
                " RETURNING id",
                [staff.pk, tx.pk, timezone.now()],
            )
            tx_id = cursor.fetchone()[0]
        raw_entry(tx_id, wallet, 100)
