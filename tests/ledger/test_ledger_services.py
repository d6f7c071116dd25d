"""Unit tests of every ledger service and every typed error."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger import selectors, services
from ledger.errors import (
    AlreadyReversed,
    CurrencyMismatch,
    EmptyTransaction,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidCurrency,
    InvalidReference,
    LedgerError,
    NotReversible,
    PotClosed,
    PotNotEmpty,
    ReasonRequired,
    RefundExceedsStake,
    StaffRequired,
    UnbalancedTransaction,
    UnknownUser,
)
from ledger.models import Account, AccountKind, Entry, Transaction, TransactionKind

pytestmark = pytest.mark.django_db


def legs(tx: Transaction) -> dict[tuple[str, object], int]:
    """{(kind, user_id or ref): amount} of a transaction's entries."""
    out: dict[tuple[str, object], int] = {}
    for e in tx.entries.select_related("account"):
        acc = e.account
        who = acc.user_id if acc.kind == AccountKind.WALLET else (acc.ref or acc.currency)
        out[(acc.kind, who)] = e.amount
    return out


def house(kind: str, currency: str = "cash") -> int:
    return Account.objects.get(kind=kind, currency=currency).balance


# --- deposits and withdrawals -------------------------------------------------------------------


def test_deposit_credits_the_wallet_against_the_house_deposits_account(player):
    tx = services.wallet_deposit(
        user=player, currency="cash", amount=1250, idempotency_key="dep:1", memo="Demo funding"
    )
    assert tx.kind == TransactionKind.DEPOSIT
    assert tx.currency == "cash"
    assert tx.memo == "Demo funding"
    assert legs(tx) == {("wallet", player.pk): 1250, ("deposits", "cash"): -1250}
    assert selectors.wallet_balance(user=player, currency="cash") == 1250
    assert house("deposits") == -1250
    entry = tx.entries.get(account__kind=AccountKind.WALLET)
    assert entry.balance_after == 1250


def test_currencies_are_separate_wallets(player, fund):
    fund(player, 500, "cash")
    fund(player, 7000, "practice")
    assert selectors.wallet_balance(user=player, currency="cash") == 500
    assert selectors.wallet_balance(user=player, currency="practice") == 7000
    assert Account.objects.filter(kind="wallet", user=player).count() == 2


def test_deposit_replay_returns_the_original_and_moves_nothing(player, snapshot):
    first = services.wallet_deposit(
        user=player, currency="cash", amount=900, idempotency_key="dep:replay"
    )
    before = snapshot()
    again = services.wallet_deposit(
        user=player,
        currency="cash",
        amount=900,
        idempotency_key="dep:replay",
        memo="free text is not part of the request's identity",
    )
    assert again.pk == first.pk
    assert snapshot() == before
    assert selectors.wallet_balance(user=player, currency="cash") == 900


def test_same_key_with_different_content_is_a_conflict(player, user_factory, snapshot):
    services.wallet_deposit(user=player, currency="cash", amount=900, idempotency_key="dep:x")
    before = snapshot()
    with pytest.raises(IdempotencyConflict) as info:
        services.wallet_deposit(user=player, currency="cash", amount=901, idempotency_key="dep:x")
    assert "different details" in info.value.message
    with pytest.raises(IdempotencyConflict):
        services.wallet_deposit(
            user=user_factory(), currency="cash", amount=900, idempotency_key="dep:x"
        )
    with pytest.raises(IdempotencyConflict):
        services.wallet_withdraw(user=player, currency="cash", amount=900, idempotency_key="dep:x")
    assert snapshot() == before


@pytest.mark.parametrize(
    "amount", [0, -5, 1.5, "10", True, Decimal("1"), None, services.MAX_AMOUNT + 1]
)
def test_invalid_amounts_are_refused_and_change_nothing(player, snapshot, amount):
    before = snapshot()
    with pytest.raises(InvalidAmount) as info:
        services.wallet_deposit(user=player, currency="cash", amount=amount, idempotency_key="d")
    assert isinstance(info.value, LedgerError)
    assert isinstance(info.value, ValueError)
    assert info.value.message
    assert snapshot() == before


@pytest.mark.parametrize("currency", ["INR", "", "CASH", None])
def test_unknown_currency_is_refused(player, snapshot, currency):
    before = snapshot()
    with pytest.raises(InvalidCurrency):
        services.wallet_deposit(user=player, currency=currency, amount=5, idempotency_key="d")
    assert snapshot() == before


@pytest.mark.parametrize("bad_key", ["", "   ", None, "k" * 201])
def test_a_posting_needs_an_idempotency_key(player, bad_key):
    with pytest.raises(InvalidReference):
        services.wallet_deposit(user=player, currency="cash", amount=5, idempotency_key=bad_key)


def test_withdraw_moves_money_out_and_refuses_an_overdraft(player, fund, snapshot):
    fund(player, 1000)
    tx = services.wallet_withdraw(user=player, currency="cash", amount=400, idempotency_key="w:1")
    assert tx.kind == TransactionKind.WITHDRAWAL
    assert legs(tx) == {("wallet", player.pk): -400, ("withdrawals", "cash"): 400}
    before = snapshot()
    with pytest.raises(InsufficientFunds) as info:
        services.wallet_withdraw(user=player, currency="cash", amount=601, idempotency_key="w:2")
    assert info.value.message == (
        "Not enough money in the wallet: it holds ₹6.00 and this needs ₹6.01."
    )
    assert info.value.details["balance"] == 600
    assert snapshot() == before
    services.wallet_withdraw(user=player, currency="cash", amount=600, idempotency_key="w:3")
    assert selectors.wallet_balance(user=player, currency="cash") == 0


def test_practice_chips_cannot_be_withdrawn(player, fund):
    fund(player, 1000, "practice")
    with pytest.raises(InvalidCurrency, match="cannot be withdrawn"):
        services.wallet_withdraw(user=player, currency="practice", amount=10, idempotency_key="w:p")


def test_wallet_get_or_create_is_one_wallet_per_currency(player):
    a = services.wallet_get_or_create(user=player, currency="cash")
    b = services.wallet_get_or_create(user=player, currency="cash")
    c = services.wallet_get_or_create(user=player, currency="practice")
    assert a.pk == b.pk != c.pk
    assert (a.kind, a.balance, a.user_id) == (AccountKind.WALLET, 0, player.pk)
    with pytest.raises(InvalidCurrency):
        services.wallet_get_or_create(user=player, currency="gold")


# --- staff adjustments ------------------------------------------------------------------------


def test_staff_adjustment_credits_and_debits_with_reason_and_staff(player, staff, fund):
    fund(player, 100)
    credit = services.wallet_adjust(
        user=player,
        currency="cash",
        amount=250,
        reason="  Goodwill after a server fault  ",
        staff_user=staff,
        idempotency_key="adj:1",
    )
    assert credit.kind == TransactionKind.ADJUSTMENT
    assert credit.memo == "Goodwill after a server fault"
    assert credit.staff_user_id == staff.pk
    assert legs(credit) == {("wallet", player.pk): 250, ("adjustments", "cash"): -250}
    debit = services.wallet_adjust(
        user=player,
        currency="cash",
        amount=-300,
        reason="Duplicate credit",
        staff_user=staff,
        idempotency_key="adj:2",
    )
    assert legs(debit) == {("wallet", player.pk): -300, ("adjustments", "cash"): 300}
    assert selectors.wallet_balance(user=player, currency="cash") == 50


@pytest.mark.parametrize(
    ("amount", "reason", "by_staff", "refusal"),
    [
        (-101, "too much", True, InsufficientFunds),
        (5, "   ", True, ReasonRequired),
        (5, "because", False, StaffRequired),
        (0, "zero", True, InvalidAmount),
    ],
    ids=["more-than-held", "blank-reason", "not-staff", "zero"],
)
def test_staff_adjustment_refusals_change_nothing(
    player, staff, user_factory, fund, snapshot, amount, reason, by_staff, refusal
):
    fund(player, 100)
    before = snapshot()
    with pytest.raises(refusal):
        services.wallet_adjust(
            user=player,
            currency="cash",
            amount=amount,
            reason=reason,
            staff_user=staff if by_staff else user_factory(),
            idempotency_key="adj:a",
        )
    assert snapshot() == before


# --- pots: entries, rejoins, refunds ------------------------------------------------------------


def test_hold_entry_moves_the_fee_from_wallet_to_pot(player, fund, new_ref):
    ref = new_ref()
    fund(player, 1000)
    tx = services.pot_hold_entry(
        user=player, currency="cash", pot_ref=ref, amount=300, idempotency_key=f"entry:{ref}:seat:1"
    )
    assert tx.kind == TransactionKind.ENTRY_FEE
    assert tx.ref == ref
    assert legs(tx) == {("wallet", player.pk): -300, ("pot", ref): 300}
    assert selectors.pot_balance(pot_ref=ref, currency="cash") == 300
    assert selectors.wallet_balance(user=player, currency="cash") == 700
    assert selectors.pot_contributions(pot_ref=ref) == {player.pk: 300}


def test_hold_entry_without_funds_is_refused_and_creates_nothing(user_factory, new_ref, snapshot):
    broke = user_factory()
    before = snapshot()
    with pytest.raises(InsufficientFunds) as info:
        services.pot_hold_entry(
            user=broke, currency="cash", pot_ref=new_ref(), amount=1, idempotency_key="e:broke"
        )
    assert "₹0.00" in info.value.message
    assert snapshot() == before


def test_a_pot_has_one_currency(player, fund, new_ref, snapshot):
    ref = new_ref()
    fund(player, 1000, "cash")
    fund(player, 1000, "practice")
    services.pot_hold_entry(
        user=player, currency="practice", pot_ref=ref, amount=100, idempotency_key="e:p"
    )
    before = snapshot()
    with pytest.raises(CurrencyMismatch):
        services.pot_hold_entry(
            user=player, currency="cash", pot_ref=ref, amount=100, idempotency_key="e:c"
        )
    assert snapshot() == before


@pytest.mark.parametrize("ref", ["", "game", "game:", "GAME:1", "game:1 ", "x" * 70 + ":1", 12])
def test_pot_reference_must_be_well_formed(player, fund, ref):
    fund(player, 100)
    with pytest.raises(InvalidReference):
        services.pot_hold_entry(
            user=player, currency="cash", pot_ref=ref, amount=10, idempotency_key="e:bad"
        )


def test_rejoin_fee_is_recorded_as_such(player, fund, new_ref):
    ref = new_ref()
    fund(player, 1000)
    services.pot_hold_entry(
        user=player, currency="cash", pot_ref=ref, amount=100, idempotency_key=f"entry:{ref}:s:1"
    )
    tx = services.pot_hold_rejoin(
        user=player, currency="cash", pot_ref=ref, amount=100, idempotency_key=f"rejoin:{ref}:s:1:1"
    )
    assert tx.kind == TransactionKind.REJOIN_FEE
    assert selectors.pot_balance(pot_ref=ref, currency="cash") == 200
    assert selectors.entry_fee_counts(ref=ref) == {player.pk: 1}


def test_refund_gives_back_at_most_what_was_paid(player, user_factory, fund, new_ref, snapshot):
    ref = new_ref()
    other = user_factory()
    fund(player, 1000)
    fund(other, 1000)
    for n, user in enumerate((player, other)):
        services.pot_hold_entry(
            user=user, currency="cash", pot_ref=ref, amount=300, idempotency_key=f"e:{ref}:{n}"
        )
    tx = services.pot_refund_entry(
        user=player, currency="cash", pot_ref=ref, amount=300, idempotency_key=f"refund:{ref}:1"
    )
    assert tx.kind == TransactionKind.REFUND
    assert legs(tx) == {("wallet", player.pk): 300, ("pot", ref): -300}
    before = snapshot()
    # The pot still holds the other player's 300, but none of it is this player's.
    with pytest.raises(RefundExceedsStake) as info:
        services.pot_refund_entry(
            user=player, currency="cash", pot_ref=ref, amount=1, idempotency_key=f"refund:{ref}:x"
        )
    assert "₹0.00" in info.value.message
    with pytest.raises(RefundExceedsStake):
        services.pot_refund_entry(
            user=other, currency="cash", pot_ref=ref, amount=301, idempotency_key=f"refund:{ref}:y"
        )
    assert snapshot() == before
    # Replaying the first refund returns it (the state check is not run again).
    again = services.pot_refund_entry(
        user=player, currency="cash", pot_ref=ref, amount=300, idempotency_key=f"refund:{ref}:1"
    )
    assert again.pk == tx.pk


# --- pots: payouts, settlements, cancellations -------------------------------------------------


@pytest.fixture
def table(user_factory, fund, new_ref):
    """Three players paid 500 each into a new pot."""
    ref = new_ref()
    players = [user_factory() for _ in range(3)]
    for seat, user in enumerate(players, start=1):
        fund(user, 1000)
        services.pot_hold_entry(
            user=user,
            currency="cash",
            pot_ref=ref,
            amount=500,
            idempotency_key=f"entry:{ref}:seat:{seat}",
        )
    return ref, players


def test_payout_empties_the_pot_into_prizes_and_the_fee(table):
    ref, (a, b, c) = table
    tx = services.pot_payout(
        pot_ref=ref,
        currency="cash",
        payouts={a.pk: 1013, b.pk: 337},
        fee=150,
        idempotency_key=f"settle:{ref}",
    )
    assert tx.kind == TransactionKind.PAYOUT
    assert legs(tx) == {
        ("pot", ref): -1500,
        ("wallet", a.pk): 1013,
        ("wallet", b.pk): 337,
        ("fees", "cash"): 150,
    }
    assert selectors.pot_balance(pot_ref=ref, currency="cash") == 0
    assert Account.objects.get(kind="pot", ref=ref).closed_at is not None
    assert [selectors.wallet_balance(user=u, currency="cash") for u in (a, b, c)] == [
        1513,
        837,
        500,
    ]
    assert house("fees") == 150
    assert selectors.closing_counts(refs=[ref]) == {ref: 1}


def test_payout_must_empty_the_pot_exactly(table, snapshot):
    ref, (a, b, _) = table
    before = snapshot()
    with pytest.raises(PotNotEmpty) as short:
        services.pot_payout(
            pot_ref=ref, currency="cash", payouts={a.pk: 1349}, fee=150, idempotency_key="s:1"
        )
    assert "would leave ₹0.01 behind" in short.value.message
    with pytest.raises(UnbalancedTransaction):
        services.pot_payout(
            pot_ref=ref, currency="cash", payouts={a.pk: 1351}, fee=150, idempotency_key="s:2"
        )
    with pytest.raises(InvalidAmount):
        services.pot_payout(
            pot_ref=ref,
            currency="cash",
            payouts={a.pk: 1600, b.pk: -100},
            fee=0,
            idempotency_key="s:3",
        )
    with pytest.raises(InvalidAmount):
        services.pot_payout(
            pot_ref=ref, currency="cash", payouts={a.pk: 1500}, fee=-1, idempotency_key="s:4"
        )
    with pytest.raises(UnknownUser):
        services.pot_payout(
            pot_ref=ref, currency="cash", payouts={987654: 1500}, fee=0, idempotency_key="s:5"
        )
    with pytest.raises(UnknownUser):
        services.pot_payout(
            pot_ref=ref, currency="cash", payouts={str(a.pk): 1500}, fee=0, idempotency_key="s:6"
        )
    with pytest.raises(CurrencyMismatch):
        services.pot_payout(
            pot_ref=ref, currency="practice", payouts={a.pk: 1500}, fee=0, idempotency_key="s:7"
        )
    assert snapshot() == before


def test_payout_replay_and_conflict(table, snapshot):
    ref, (a, b, _) = table
    tx = services.pot_payout(
        pot_ref=ref,
        currency="cash",
        payouts={a.pk: 1350, b.pk: 0},
        fee=150,
        idempotency_key=f"settle:{ref}",
    )
    before = snapshot()
    again = services.pot_payout(
        pot_ref=ref,
        currency="cash",
        payouts={b.pk: 0, a.pk: 1350},
        fee=150,
        idempotency_key=f"settle:{ref}",
    )
    assert again.pk == tx.pk
    with pytest.raises(IdempotencyConflict):
        services.pot_payout(
            pot_ref=ref,
            currency="cash",
            payouts={b.pk: 1350},
            fee=150,
            idempotency_key=f"settle:{ref}",
        )
    assert snapshot() == before


def test_a_closed_pot_takes_no_more_entries_or_refunds(table, user_factory, fund, snapshot):
    ref, (a, _, _) = table
    services.pot_payout(
        pot_ref=ref, currency="cash", payouts={a.pk: 1500}, fee=0, idempotency_key=f"settle:{ref}"
    )
    late = user_factory()
    fund(late, 1000)
    before = snapshot()
    with pytest.raises(PotClosed):
        services.pot_hold_entry(
            user=late, currency="cash", pot_ref=ref, amount=500, idempotency_key="late"
        )
    with pytest.raises(PotClosed):
        services.pot_hold_rejoin(
            user=a, currency="cash", pot_ref=ref, amount=500, idempotency_key="late:rejoin"
        )
    with pytest.raises(PotClosed):
        services.pot_refund_entry(
            user=a, currency="cash", pot_ref=ref, amount=500, idempotency_key="late:refund"
        )
    with pytest.raises(PotClosed):
        services.pot_cancel_refund(pot_ref=ref, currency="cash", idempotency_key="late:cancel")
    with pytest.raises(EmptyTransaction):
        services.pot_payout(
            pot_ref=ref, currency="cash", payouts={}, fee=0, idempotency_key="late:payout"
        )
    assert snapshot() == before


def test_points_settlement_returns_each_players_share(table):
    ref, (a, b, c) = table
    # Points game, 500 buy-in each: b lost 120, c lost 80 to a; fee 10% of a's 200 gain.
    tx = services.pot_settle(
        pot_ref=ref,
        currency="cash",
        returns={a.pk: 500 + 200 - 20, b.pk: 380, c.pk: 420},
        fee=20,
        idempotency_key=f"settle:{ref}",
    )
    assert tx.kind == TransactionKind.SETTLEMENT
    assert [selectors.wallet_balance(user=u, currency="cash") for u in (a, b, c)] == [
        1180,
        880,
        920,
    ]
    assert selectors.pot_balance(pot_ref=ref, currency="cash") == 0


def test_cancel_refunds_every_paid_entry_and_keeps_no_fee(table, user_factory, fund, snapshot):
    ref, (a, b, c) = table
    services.pot_hold_rejoin(
        user=b, currency="cash", pot_ref=ref, amount=500, idempotency_key=f"rejoin:{ref}:2:1"
    )
    services.pot_refund_entry(
        user=c, currency="cash", pot_ref=ref, amount=200, idempotency_key=f"refund:{ref}:3"
    )
    tx = services.pot_cancel_refund(pot_ref=ref, currency="cash", idempotency_key=f"cancel:{ref}")
    assert tx is not None
    assert tx.kind == TransactionKind.REFUND
    assert legs(tx) == {
        ("pot", ref): -1800,
        ("wallet", a.pk): 500,
        ("wallet", b.pk): 1000,
        ("wallet", c.pk): 300,
    }
    assert [selectors.wallet_balance(user=u, currency="cash") for u in (a, b, c)] == [1000] * 3
    assert not Account.objects.filter(kind="fees").exists()
    assert Account.objects.get(kind="pot", ref=ref).closed_at is not None
    before = snapshot()
    again = services.pot_cancel_refund(
        pot_ref=ref, currency="cash", idempotency_key=f"cancel:{ref}"
    )
    assert again is not None and again.pk == tx.pk
    assert snapshot() == before


def test_cancel_of_a_pot_nobody_paid_into_is_a_no_op(new_ref, snapshot):
    before = snapshot()
    assert (
        services.pot_cancel_refund(pot_ref=new_ref(), currency="cash", idempotency_key="c") is None
    )
    assert snapshot() == before


# --- reversals ----------------------------------------------------------------------------------


def test_reversal_posts_the_exact_opposite_once(player, staff, fund, new_ref, snapshot):
    ref = new_ref()
    fund(player, 1000)
    fee = services.pot_hold_entry(
        user=player, currency="cash", pot_ref=ref, amount=300, idempotency_key="e:rev"
    )
    reversal = services.transaction_reverse(
        transaction=fee, reason="Charged twice", staff_user=staff, idempotency_key="reverse:tx:1"
    )
    assert reversal.kind == TransactionKind.REVERSAL
    assert reversal.reverses_id == fee.pk
    assert reversal.ref == ref
    assert reversal.staff_user_id == staff.pk
    assert legs(reversal) == {k: -v for k, v in legs(fee).items()}
    assert selectors.wallet_balance(user=player, currency="cash") == 1000
    assert selectors.entry_fee_counts(ref=ref) == {}
    before = snapshot()
    assert (
        services.transaction_reverse(
            transaction=fee, reason="again", staff_user=staff, idempotency_key="reverse:tx:1"
        ).pk
        == reversal.pk
    )
    with pytest.raises(AlreadyReversed):
        services.transaction_reverse(
            transaction=fee, reason="again", staff_user=staff, idempotency_key="reverse:tx:1b"
        )
    with pytest.raises(NotReversible):
        services.transaction_reverse(
            transaction=reversal, reason="undo", staff_user=staff, idempotency_key="reverse:tx:2"
        )
    with pytest.raises(ReasonRequired):
        services.transaction_reverse(
            transaction=fee, reason="", staff_user=staff, idempotency_key="reverse:tx:3"
        )
    with pytest.raises(StaffRequired):
        services.transaction_reverse(
            transaction=fee, reason="x", staff_user=player, idempotency_key="reverse:tx:4"
        )
    assert snapshot() == before
    assert [t.pk for t in selectors.transactions_for_ref(ref=ref)] == [fee.pk, reversal.pk]


def test_reversing_a_payout_reopens_the_pot_unless_the_prize_was_spent(table, staff, snapshot):
    ref, (a, b, _) = table
    payout = services.pot_payout(
        pot_ref=ref, currency="cash", payouts={a.pk: 1350}, fee=150, idempotency_key="pay"
    )
    services.wallet_withdraw(user=a, currency="cash", amount=1500, idempotency_key="spent")
    before = snapshot()
    with pytest.raises(InsufficientFunds):
        services.transaction_reverse(
            transaction=payout, reason="wrong winner", staff_user=staff, idempotency_key="rv"
        )
    assert snapshot() == before
    services.wallet_adjust(
        user=a,
        currency="cash",
        amount=1000,
        reason="float",
        staff_user=staff,
        idempotency_key="float",
    )
    services.transaction_reverse(
        transaction=payout, reason="wrong winner", staff_user=staff, idempotency_key="rv"
    )
    pot = Account.objects.get(kind="pot", ref=ref)
    assert pot.balance == 1500
    assert pot.closed_at is None
    assert selectors.closing_counts(refs=[ref]) == {}
    fixed = services.pot_payout(
        pot_ref=ref, currency="cash", payouts={b.pk: 1350}, fee=150, idempotency_key="pay:2"
    )
    assert selectors.closing_counts(refs=[ref]) == {ref: 1}
    kinds = [t.kind for t in selectors.transactions_for_ref(ref=ref)]
    assert kinds == ["entry_fee"] * 3 + ["payout", "reversal", "payout"]
    assert fixed.pk == max(t.pk for t in selectors.transactions_for_ref(ref=ref))


# --- locking and the retry helper -------------------------------------------------------------


def test_accounts_lock_returns_fresh_rows_in_primary_key_order(player, user_factory, fund):
    other = user_factory()
    fund(other, 5)
    fund(player, 7)
    wallets = list(Account.objects.filter(kind="wallet").order_by("-pk"))
    stale = wallets[0]
    fund(stale.user, 100)
    locked = services.accounts_lock(accounts=wallets)
    assert [a.pk for a in locked] == sorted(a.pk for a in wallets)
    assert {a.pk: a.balance for a in locked}[stale.pk] == stale.balance + 100


def test_entries_and_transactions_refuse_orm_changes(player, fund):
    from ledger.errors import AppendOnlyViolation

    tx = fund(player, 100)
    entry = tx.entries.get(account__kind=AccountKind.WALLET)
    entry.amount = 5
    with pytest.raises(AppendOnlyViolation):
        entry.save()
    with pytest.raises(AppendOnlyViolation):
        tx.delete()
    with pytest.raises(AppendOnlyViolation):
        Entry.objects.filter(pk=entry.pk).update(amount=1)
    with pytest.raises(AppendOnlyViolation):
        Transaction.objects.all().delete()
    assert Entry.objects.get(pk=entry.pk).amount == 100
