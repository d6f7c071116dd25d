"""Races on real PostgreSQL: many threads, each with its own connection, posting at once.

Every thread starts behind a barrier so the postings really overlap. A caller may see only
``LedgerError`` subclasses (never a deadlock or serialization error), no wallet ever goes below
zero, and the ledger reconciles afterwards."""

from __future__ import annotations

import logging
import random
from collections import Counter
from typing import Any

import pytest
from django.db import connection

from ledger import selectors, services
from ledger.errors import IdempotencyConflict, LedgerError
from ledger.models import Account, Transaction
from ledger.reconcile import reconcile_run
from tests.threads import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def outcome(result: Any) -> str:
    if isinstance(result, LedgerError):
        return type(result).__name__
    if isinstance(result, BaseException):
        return f"UNEXPECTED {type(result).__name__}: {result}"
    return "ok"


def assert_reconciled() -> None:
    report = reconcile_run()
    assert report.discrepancies == ()


def test_fifty_players_race_into_one_pot_and_only_the_funded_get_in(user_factory, fund):
    fee = 500
    players = [user_factory() for _ in range(50)]
    funded = set(random.sample(range(50), 30))
    for i, user in enumerate(players):
        fund(user, fee if i in funded else fee - 1)

    def hold(i: int) -> Any:
        return services.pot_hold_entry(
            user=players[i],
            currency="cash",
            pot_ref="game:race",
            amount=fee,
            idempotency_key=f"entry:game:race:player:{players[i].pk}",
        )

    results = race(50, hold)
    outcomes = [outcome(r) for r in results]
    assert {i for i, o in enumerate(outcomes) if o == "ok"} == funded
    assert Counter(outcomes) == {"ok": 30, "InsufficientFunds": 20}
    assert selectors.pot_balance(pot_ref="game:race", currency="cash") == 30 * fee
    assert not Account.objects.filter(kind="wallet", balance__lt=0).exists()
    assert_reconciled()


def test_fifty_holds_from_one_wallet_with_money_for_seven(player, fund):
    fee = 100
    fund(player, 7 * fee)

    def hold(i: int) -> Any:
        return services.pot_hold_entry(
            user=player,
            currency="cash",
            pot_ref=f"game:w{i % 5}",
            amount=fee,
            idempotency_key=f"entry:game:w{i % 5}:try:{i}",
        )

    outcomes = Counter(outcome(r) for r in race(50, hold))
    assert outcomes == {"ok": 7, "InsufficientFunds": 43}
    assert selectors.wallet_balance(user=player, currency="cash") == 0
    assert (
        sum(selectors.pot_balance(pot_ref=f"game:w{i}", currency="cash") for i in range(5))
        == 7 * fee
    )
    assert_reconciled()


def test_six_seats_fifty_players_seat_limit_held_by_the_callers_lock(user_factory, fund):
    """How a table uses the ledger: inside its own transaction, under its own lock (here a
    transaction-level advisory lock standing for the table row), it counts the seats and holds
    the fee. Exactly six sit down, all funded; the rest get a clear refusal."""
    fee = 250
    players = [user_factory() for _ in range(50)]
    for i, user in enumerate(players):
        fund(user, fee if i % 3 else fee - 1)  # every third player cannot pay

    class TableFull(LedgerError):
        default_message = "The table is full."

    @services.retry_on_conflict
    def sit(i: int) -> Any:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(424242)")
        if len(selectors.entry_fee_counts(ref="game:seats")) >= 6:
            raise TableFull()
        return services.pot_hold_entry(
            user=players[i],
            currency="cash",
            pot_ref="game:seats",
            amount=fee,
            idempotency_key=f"entry:game:seats:player:{players[i].pk}",
        )

    results = race(50, sit)
    outcomes = [outcome(r) for r in results]
    seated = [i for i, o in enumerate(outcomes) if o == "ok"]
    assert len(seated) == 6
    assert all(i % 3 for i in seated)
    assert set(outcomes) <= {"ok", "TableFull", "InsufficientFunds"}
    assert selectors.pot_balance(pot_ref="game:seats", currency="cash") == 6 * fee
    assert_reconciled()


def test_replays_race_to_one_transaction(player, fund):
    fund(player, 10_000)

    def hold(i: int) -> Any:
        return services.pot_hold_entry(
            user=player,
            currency="cash",
            pot_ref="game:replay",
            amount=100 if i % 2 else 200,
            idempotency_key="entry:game:replay:seat:1",
        )

    results = race(20, hold)
    posted = Transaction.objects.get(idempotency_key="entry:game:replay:seat:1")
    won = 100 if posted.entries.get(account__kind="pot").amount == 100 else 200
    for i, result in enumerate(results):
        if (100 if i % 2 else 200) == won:
            assert isinstance(result, Transaction) and result.pk == posted.pk
        else:
            assert isinstance(result, IdempotencyConflict), outcome(result)
    assert selectors.wallet_balance(user=player, currency="cash") == 10_000 - won
    assert_reconciled()


def test_crossing_postings_never_deadlock(user_factory, fund, caplog):
    """Holds, refunds and payouts over overlapping accounts in every order. Locked in another
    order these deadlock (and are retried); in primary-key order no deadlock even happens, and
    nothing but LedgerErrors reaches a caller."""
    caplog.set_level(logging.INFO, logger="ledger.db")
    players = [user_factory() for _ in range(6)]
    for user in players:
        fund(user, 5_000)
    refs = [f"game:x{n}" for n in range(3)]
    rng = random.Random(7)
    plans = [[rng.randrange(6) for _ in range(12)] for _ in range(24)]

    def work(i: int) -> Any:
        done = 0
        for step, p in enumerate(plans[i]):
            ref = refs[(i + step) % 3]
            user = players[p]
            try:
                if step % 4 == 3:
                    # A payout touching every player's wallet at once: pays back each one's
                    # stake so the pot stays open for the others.
                    stakes = selectors.pot_contributions(pot_ref=ref)
                    services.pot_payout(
                        pot_ref=ref,
                        currency="cash",
                        payouts={uid: max(v, 0) for uid, v in stakes.items()},
                        fee=0,
                        idempotency_key=f"pay:{i}:{step}",
                    )
                    # A closed pot is reopened for the test by a fresh reference next time.
                elif step % 4 == 2:
                    services.pot_refund_entry(
                        user=user,
                        currency="cash",
                        pot_ref=ref,
                        amount=10,
                        idempotency_key=f"refund:{i}:{step}",
                    )
                else:
                    services.pot_hold_entry(
                        user=user,
                        currency="cash",
                        pot_ref=ref,
                        amount=10 + p,
                        idempotency_key=f"hold:{i}:{step}",
                    )
                done += 1
            except LedgerError:
                pass
        return done

    results = race(24, work)
    assert [outcome(r) for r in results] == ["ok"] * 24
    assert [r.getMessage() for r in caplog.records if "conflict" in r.getMessage()] == []
    assert sum(results) > 0
    assert not Account.objects.filter(kind__in=["wallet", "pot"], balance__lt=0).exists()
    assert_reconciled()
